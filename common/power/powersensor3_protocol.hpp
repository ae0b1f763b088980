// The PowerSensor3 USB serial protocol, as bytes: no file descriptors here, so the decoder, the
// device driver and the emulator share one definition and tests reach it with plain buffers.
//
// Host -> device, one byte each:
//   'R' send the sensor configuration: the device sends one 41-byte record per sensor, the host
//       answers each with any byte, and the device ends with 'D'
//   'S' start streaming      'X' stop streaming (the device ends the stream with 0xFF 0x3F)
//   'M' mark the next sample 'T' stop and forget the host (sent when the host dies)
// Device -> host, while streaming, two bytes per sensor value:
//   b0 = 1 s s s l l l l    (top bit 1, sensor id 0..7, level bits 9..6)
//   b1 = 0 m l l l l l l    (top bit 0, marker bit, level bits 5..0)
// A value of sensor 7 with the marker bit set is a device timestamp (microseconds, 10 bits),
// not a measurement. Sensors come in pairs: 2p measures the current of pair p, 2p+1 its voltage.
// A sensor's value is (3.3 V * level / 1023 - vref) / sensitivity (V/A or V/V).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rapt::ps3 {

constexpr int kSensorCount = 8;
constexpr int kPairCount = kSensorCount / 2;
constexpr int kMaxLevel = 1023;
constexpr double kAdcVolts = 3.3;
constexpr size_t kConfigRecordBytes = 41;  // type[16], pair name[16], vref f32, sens f32, in use
constexpr uint8_t kStopByte0 = 0xFF;
constexpr uint8_t kStopByte1 = 0x3F;

struct SensorConfig {
  std::string type;       // at most 15 characters
  std::string pair_name;  // at most 15 characters
  float vref = 0;         // volts at zero current / zero input
  float sensitivity = 1;  // V/A for current sensors, V/V for voltage sensors
  bool in_use = false;
};

// Little-endian packed record, as the device sends it.
std::vector<uint8_t> encode_config(const SensorConfig& config);
SensorConfig decode_config(const uint8_t* record);  // kConfigRecordBytes bytes

double level_to_value(const SensorConfig& config, int level);
int value_to_level(const SensorConfig& config, double value);  // nearest level, clamped

// Two bytes of one sensor value.
void encode_value(int sensor, int level, bool marker, std::vector<uint8_t>& out);

struct StreamEvent {
  enum Kind { kValue, kTimestamp, kStop } kind = kValue;
  int sensor = 0;
  int level = 0;         // ADC level, or microseconds for kTimestamp
  bool marker = false;   // the device marked this value ('M')
};

// Turns a byte stream into events. Bytes arrive in any chunking; a pair whose marker bits are
// wrong is taken as a dropped byte: the first byte is discarded and decoding resumes at the
// second, so the decoder finds the frame again after garbage.
class StreamDecoder {
 public:
  void feed(const uint8_t* bytes, size_t count, std::vector<StreamEvent>& events);
  long long discarded_bytes() const { return discarded_bytes_; }

 private:
  bool have_first_ = false;
  uint8_t first_ = 0;
  long long discarded_bytes_ = 0;
};

}  // namespace rapt::ps3
