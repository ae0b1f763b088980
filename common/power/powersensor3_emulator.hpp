// A software PowerSensor3 on a pseudo-terminal, so the serial protocol is exercised without the
// hardware: tests, and `powersensor-read --emulate` for demonstrations.
//
// It answers 'R' with its sensor configuration, streams frames after 'S' (every sensor once,
// then a timestamp value), stops with 0xFF 0x3F after 'X', and marks the next value after 'M'.
// Tests can inject garbage bytes into the stream or pull the plug (disconnect()).
#pragma once
#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "power/powersensor3_protocol.hpp"

namespace rapt {

class PowerSensor3Emulator {
 public:
  // Two pairs in use: "12V" at 12 V and 5 A (60 W), "3V3" at 3.3 V and 2 A (6.6 W).
  PowerSensor3Emulator();
  // Throws DataError if no pseudo-terminal can be had.
  PowerSensor3Emulator(const std::array<ps3::SensorConfig, ps3::kSensorCount>& config,
                       const std::array<double, ps3::kSensorCount>& values,
                       int frames_per_second = 2000);
  ~PowerSensor3Emulator();
  PowerSensor3Emulator(const PowerSensor3Emulator&) = delete;
  PowerSensor3Emulator& operator=(const PowerSensor3Emulator&) = delete;

  const std::string& device_path() const { return slave_path_; }
  void set_value(int sensor, double value);     // amps or volts, from the next frame on
  void inject_garbage(const std::vector<uint8_t>& bytes);  // sent before the next frame
  void disconnect();                            // closes the terminal as an unplugged device does
  void stall(bool stalled);                     // stops sending frames, terminal kept open

  long long frames_sent() const { return frames_sent_; }
  long long markers_received() const { return markers_received_; }
  bool streaming() const { return streaming_; }

  static std::array<ps3::SensorConfig, ps3::kSensorCount> default_config();
  static std::array<double, ps3::kSensorCount> default_values();

 private:
  void serve();
  void handle_command(uint8_t command);
  void send_configuration();
  void send_frames(int count);
  void write_all(const std::vector<uint8_t>& bytes);

  std::array<ps3::SensorConfig, ps3::kSensorCount> config_;
  int frames_per_second_;
  int master_fd_ = -1;
  int slave_keepalive_fd_ = -1;  // keeps the terminal up between host opens
  std::string slave_path_;

  std::mutex mutex_;  // guards values_, garbage_
  std::array<double, ps3::kSensorCount> values_;
  std::vector<uint8_t> garbage_;

  std::atomic<bool> streaming_{false};
  std::atomic<bool> stalled_{false};
  std::atomic<int> pending_marks_{0};  // each marks one frame
  std::atomic<bool> stop_{false};
  std::atomic<long long> frames_sent_{0};
  std::atomic<long long> markers_received_{0};
  std::thread thread_;
};

}  // namespace rapt
