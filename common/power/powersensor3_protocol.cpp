#include "power/powersensor3_protocol.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rapt::ps3 {
namespace {

constexpr size_t kNameBytes = 16;

void put_name(const std::string& name, std::vector<uint8_t>& out) {
  char field[kNameBytes] = {};
  std::memcpy(field, name.data(), std::min(name.size(), kNameBytes - 1));
  out.insert(out.end(), field, field + kNameBytes);
}

std::string get_name(const uint8_t* field) {
  size_t length = 0;
  while (length < kNameBytes && field[length] != 0) ++length;
  return std::string(reinterpret_cast<const char*>(field), length);
}

void put_float(float value, std::vector<uint8_t>& out) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

float get_float(const uint8_t* bytes) {
  uint32_t bits = 0;
  for (int i = 0; i < 4; ++i) bits |= static_cast<uint32_t>(bytes[i]) << (8 * i);
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace

std::vector<uint8_t> encode_config(const SensorConfig& config) {
  std::vector<uint8_t> out;
  out.reserve(kConfigRecordBytes);
  put_name(config.type, out);
  put_name(config.pair_name, out);
  put_float(config.vref, out);
  put_float(config.sensitivity, out);
  out.push_back(config.in_use ? 1 : 0);
  return out;
}

SensorConfig decode_config(const uint8_t* record) {
  SensorConfig config;
  config.type = get_name(record);
  config.pair_name = get_name(record + kNameBytes);
  config.vref = get_float(record + 2 * kNameBytes);
  config.sensitivity = get_float(record + 2 * kNameBytes + 4);
  config.in_use = record[2 * kNameBytes + 8] != 0;
  return config;
}

double level_to_value(const SensorConfig& config, int level) {
  return (kAdcVolts * level / kMaxLevel - config.vref) / config.sensitivity;
}

int value_to_level(const SensorConfig& config, double value) {
  const double level = (value * config.sensitivity + config.vref) * kMaxLevel / kAdcVolts;
  return static_cast<int>(std::clamp(std::lround(level), 0L, static_cast<long>(kMaxLevel)));
}

void encode_value(int sensor, int level, bool marker, std::vector<uint8_t>& out) {
  out.push_back(static_cast<uint8_t>(0x80 | ((sensor & 0x7) << 4) | ((level >> 6) & 0xF)));
  out.push_back(static_cast<uint8_t>((marker ? 0x40 : 0) | (level & 0x3F)));
}

void StreamDecoder::feed(const uint8_t* bytes, size_t count, std::vector<StreamEvent>& events) {
  for (size_t i = 0; i < count; ++i) {
    const uint8_t byte = bytes[i];
    if (!have_first_) {
      first_ = byte;
      have_first_ = true;
      continue;
    }
    if (first_ == kStopByte0 && byte == kStopByte1) {
      events.push_back({StreamEvent::kStop, 0, 0, false});
      have_first_ = false;
      continue;
    }
    if ((first_ & 0x80) == 0 || (byte & 0x80) != 0) {
      // Out of step: drop the first byte, try the second as the start of a value.
      ++discarded_bytes_;
      first_ = byte;
      continue;
    }
    StreamEvent event;
    event.sensor = (first_ >> 4) & 0x7;
    event.level = ((first_ & 0xF) << 6) | (byte & 0x3F);
    event.marker = (byte & 0x40) != 0;
    if (event.marker && event.sensor == kSensorCount - 1) {
      event.kind = StreamEvent::kTimestamp;
      event.marker = false;
    }
    events.push_back(event);
    have_first_ = false;
  }
}

}  // namespace rapt::ps3
