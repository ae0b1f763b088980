// A PowerSensor3 on its USB serial port (/dev/ttyACM0): reads the sensor configuration, starts
// streaming, and decodes the stream on a thread of its own at the device's full rate (kHz),
// integrating each pair's power into joules there. read() returns the latest volts, amps and
// watts per pair in use, and the joules so far.
#pragma once
#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "power/power_source.hpp"
#include "power/powersensor3_protocol.hpp"

namespace rapt {

class PowerSensor3Source : public PowerSource {
 public:
  // Opens and configures the serial device; throws DataError naming `device_path` if it cannot
  // be opened, does not answer the configuration request within `timeout_s`, or has no pair.
  // Later, a stream silent for `timeout_s` counts as a failed device, as a closed one does.
  explicit PowerSensor3Source(const std::string& device_path, double timeout_s = 2.0);
  ~PowerSensor3Source() override;  // stops the stream ('X') and closes the device

  std::string name() const override { return "powersensor3"; }
  std::string device() const override { return device_path_; }
  const std::vector<PowerSensorInfo>& sensors() const override { return sensors_; }
  std::vector<SensorValue> read() override;
  void mark() override;

  const std::array<ps3::SensorConfig, ps3::kSensorCount>& configuration() const { return config_; }
  long long frames_decoded() const;
  long long device_markers_seen() const;
  long long discarded_bytes() const;

 private:
  void read_configuration(double timeout_s);
  void stream_loop();
  void handle_events(const std::vector<ps3::StreamEvent>& events, double now_s);
  void complete_frame(double now_s);
  void send(char command);

  std::string device_path_;
  double timeout_s_;
  double started_s_ = 0;
  int fd_ = -1;
  std::array<ps3::SensorConfig, ps3::kSensorCount> config_;
  std::vector<int> pairs_in_use_;
  std::vector<PowerSensorInfo> sensors_;

  mutable std::mutex mutex_;  // guards everything below, written by the stream thread
  std::array<double, ps3::kSensorCount> latest_value_{};
  std::vector<SensorValue> pair_values_;
  double last_frame_s_ = -1;
  int values_in_frame_ = 0;
  long long frames_ = 0;
  long long device_markers_ = 0;
  long long discarded_bytes_ = 0;
  std::string failure_;  // set when the device went away

  std::atomic<bool> stop_requested_{false};
  std::thread thread_;
};

}  // namespace rapt
