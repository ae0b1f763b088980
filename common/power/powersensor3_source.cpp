#include "power/powersensor3_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "cli/errors.hpp"

namespace rapt {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Reads exactly `count` bytes, waiting at most until `deadline_s`. False on timeout or EOF.
bool read_exactly(int fd, uint8_t* out, size_t count, double deadline_s) {
  size_t have = 0;
  while (have < count) {
    const int wait_ms = static_cast<int>((deadline_s - steady_seconds()) * 1000);
    if (wait_ms <= 0) return false;
    pollfd pfd{fd, POLLIN, 0};
    const int ready = poll(&pfd, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t got = ::read(fd, out + have, count - have);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return false;
    have += static_cast<size_t>(got);
  }
  return true;
}

void make_raw(int fd) {
  termios options{};
  if (tcgetattr(fd, &options) != 0) return;  // not a terminal (a test pipe): nothing to set
  cfmakeraw(&options);
  options.c_cflag |= CLOCAL | CREAD;
  options.c_cc[VMIN] = 1;
  options.c_cc[VTIME] = 0;
  tcsetattr(fd, TCSANOW, &options);
}

}  // namespace

PowerSensor3Source::PowerSensor3Source(const std::string& device_path, double timeout_s)
    : device_path_(device_path), timeout_s_(timeout_s) {
  fd_ = ::open(device_path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw file_error(device_path, "cannot open PowerSensor3 device: " + errno_text());
  try {
    make_raw(fd_);
    // A host that died may have left the device streaming: stop it and drop what is queued.
    send('X');
    usleep(50 * 1000);
    tcflush(fd_, TCIFLUSH);
    read_configuration(timeout_s);
  } catch (...) {
    ::close(fd_);
    throw;
  }
  for (int pair = 0; pair < ps3::kPairCount; ++pair) {
    const ps3::SensorConfig& current = config_[2 * pair];
    const ps3::SensorConfig& voltage = config_[2 * pair + 1];
    if (!current.in_use || !voltage.in_use) continue;
    pairs_in_use_.push_back(pair);
    const std::string label =
        current.pair_name.empty() ? "pair" + std::to_string(pair) : current.pair_name;
    sensors_.push_back({"ps3." + label, true});
  }
  if (pairs_in_use_.empty()) {
    ::close(fd_);
    throw file_error(device_path, "PowerSensor3 has no sensor pair in use (configure it first)");
  }
  pair_values_.assign(pairs_in_use_.size(), SensorValue{});
  for (SensorValue& value : pair_values_) value.joules = 0;
  send('S');
  started_s_ = steady_seconds();
  thread_ = std::thread(&PowerSensor3Source::stream_loop, this);
  // A run's first sample follows at once: wait for the first frame, so that it has a reading
  // and the energy counts from it. A device that stays silent is reported by read().
  while (frames_decoded() == 0 && steady_seconds() - started_s_ < timeout_s_)
    usleep(1000);
}

PowerSensor3Source::~PowerSensor3Source() {
  stop_requested_ = true;
  if (fd_ >= 0) {
    const char stop = 'X';
    (void)!::write(fd_, &stop, 1);
  }
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

void PowerSensor3Source::send(char command) {
  if (::write(fd_, &command, 1) != 1) {
    throw file_error(device_path_, std::string("cannot write to PowerSensor3: ") + errno_text());
  }
}

void PowerSensor3Source::read_configuration(double timeout_s) {
  const double deadline_s = steady_seconds() + timeout_s;
  send('R');
  for (int sensor = 0; sensor < ps3::kSensorCount; ++sensor) {
    uint8_t record[ps3::kConfigRecordBytes];
    if (!read_exactly(fd_, record, sizeof record, deadline_s)) {
      throw file_error(device_path_, "no answer to the configuration request (sensor " +
                                         std::to_string(sensor) + "); is it a PowerSensor3?");
    }
    config_[sensor] = ps3::decode_config(record);
    send('s');  // any byte asks for the next record
  }
  uint8_t done = 0;
  if (!read_exactly(fd_, &done, 1, deadline_s) || done != 'D') {
    throw file_error(device_path_, "configuration did not end with 'D'");
  }
}

void PowerSensor3Source::mark() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.empty()) send('M');
}

std::vector<SensorValue> PowerSensor3Source::read() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.empty()) {
    const double last_s = last_frame_s_ >= 0 ? last_frame_s_ : started_s_;
    if (steady_seconds() - last_s > timeout_s_) {
      char text[80];
      std::snprintf(text, sizeof text, "PowerSensor3 sent no data for %.1f s", timeout_s_);
      failure_ = text;
    }
  }
  if (!failure_.empty()) throw file_error(device_path_, failure_);
  // Frames arrive in USB-sized batches, milliseconds apart: the energy since the last one is
  // added at the last power read, or every sample would miss up to a batch of it.
  std::vector<SensorValue> values = pair_values_;
  if (last_frame_s_ >= 0) {
    const double since_s = steady_seconds() - last_frame_s_;
    for (SensorValue& value : values) value.joules += value.watts * since_s;
  }
  return values;
}

long long PowerSensor3Source::frames_decoded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return frames_;
}

long long PowerSensor3Source::device_markers_seen() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_markers_;
}

long long PowerSensor3Source::discarded_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return discarded_bytes_;
}

void PowerSensor3Source::stream_loop() {
  ps3::StreamDecoder decoder;
  std::vector<ps3::StreamEvent> events;
  uint8_t buffer[4096];
  double give_up_s = -1;  // after 'X', how long to wait for the device's stop sequence
  while (true) {
    if (stop_requested_) {
      if (give_up_s < 0) give_up_s = steady_seconds() + 1.0;
      if (steady_seconds() > give_up_s) return;  // a device that ignores 'X'
    }
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = poll(&pfd, 1, 100);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (stop_requested_) return;  // the device went quiet after 'X'
      continue;
    }
    const ssize_t got = ready < 0 ? -1 : ::read(fd_, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!stop_requested_) {
        failure_ = got == 0 ? "PowerSensor3 disconnected (end of stream)"
                            : "PowerSensor3 disconnected (" + errno_text() + ")";
      }
      return;
    }
    events.clear();
    decoder.feed(buffer, static_cast<size_t>(got), events);
    handle_events(events, steady_seconds());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      discarded_bytes_ = decoder.discarded_bytes();
    }
    for (const ps3::StreamEvent& event : events) {
      if (event.kind == ps3::StreamEvent::kStop && stop_requested_) return;
    }
  }
}

void PowerSensor3Source::handle_events(const std::vector<ps3::StreamEvent>& events,
                                       double now_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const ps3::StreamEvent& event : events) {
    if (event.kind != ps3::StreamEvent::kValue) continue;
    latest_value_[event.sensor] = ps3::level_to_value(config_[event.sensor], event.level);
    if (event.marker) ++device_markers_;
    // The device sends every sensor once per frame, in order; a frame ends at the last one.
    if (event.sensor == ps3::kSensorCount - 1) complete_frame(now_s);
  }
}

void PowerSensor3Source::complete_frame(double now_s) {
  for (size_t i = 0; i < pairs_in_use_.size(); ++i) {
    const int pair = pairs_in_use_[i];
    SensorValue& value = pair_values_[i];
    const double watts = latest_value_[2 * pair] * latest_value_[2 * pair + 1];
    if (last_frame_s_ >= 0) value.joules += 0.5 * (value.watts + watts) * (now_s - last_frame_s_);
    value.amps = latest_value_[2 * pair];
    value.volts = latest_value_[2 * pair + 1];
    value.watts = watts;
  }
  last_frame_s_ = now_s;
  ++frames_;
}

}  // namespace rapt
