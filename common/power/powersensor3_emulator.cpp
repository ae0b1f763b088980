#include "power/powersensor3_emulator.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr int kTimestampSensor = ps3::kSensorCount - 1;
constexpr int kBatchMs = 5;  // frames go out in batches, as USB packets do

}  // namespace

std::array<ps3::SensorConfig, ps3::kSensorCount> PowerSensor3Emulator::default_config() {
  std::array<ps3::SensorConfig, ps3::kSensorCount> config;
  const char* names[ps3::kPairCount] = {"12V", "3V3", "", ""};
  for (int pair = 0; pair < ps3::kPairCount; ++pair) {
    const bool in_use = pair < 2;
    config[2 * pair] = {"MLX91221-25", names[pair], 1.65f, 0.12f, in_use};    // 0.12 V/A
    config[2 * pair + 1] = {"voltage", names[pair], 0.0f, pair == 0 ? 0.2f : 0.5f, in_use};
  }
  return config;
}

std::array<double, ps3::kSensorCount> PowerSensor3Emulator::default_values() {
  return {5.0, 12.0, 2.0, 3.3, 0.0, 0.0, 0.0, 0.0};
}

PowerSensor3Emulator::PowerSensor3Emulator()
    : PowerSensor3Emulator(default_config(), default_values()) {}

PowerSensor3Emulator::PowerSensor3Emulator(
    const std::array<ps3::SensorConfig, ps3::kSensorCount>& config,
    const std::array<double, ps3::kSensorCount>& values, int frames_per_second)
    : config_(config), frames_per_second_(frames_per_second), values_(values) {
  master_fd_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master_fd_ < 0 || grantpt(master_fd_) != 0 || unlockpt(master_fd_) != 0) {
    const std::string reason = errno_text();
    if (master_fd_ >= 0) ::close(master_fd_);
    throw DataError("PowerSensor3 emulator: no pseudo-terminal: " + reason);
  }
  slave_path_ = ptsname(master_fd_);
  termios options{};
  tcgetattr(master_fd_, &options);
  cfmakeraw(&options);
  tcsetattr(master_fd_, TCSANOW, &options);
  slave_keepalive_fd_ = ::open(slave_path_.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  fcntl(master_fd_, F_SETFL, fcntl(master_fd_, F_GETFL) | O_NONBLOCK);
  thread_ = std::thread(&PowerSensor3Emulator::serve, this);
}

PowerSensor3Emulator::~PowerSensor3Emulator() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (master_fd_ >= 0) ::close(master_fd_);
  if (slave_keepalive_fd_ >= 0) ::close(slave_keepalive_fd_);
}

void PowerSensor3Emulator::set_value(int sensor, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  values_.at(sensor) = value;
}

void PowerSensor3Emulator::inject_garbage(const std::vector<uint8_t>& bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  garbage_.insert(garbage_.end(), bytes.begin(), bytes.end());
}

void PowerSensor3Emulator::stall(bool stalled) { stalled_ = stalled; }

void PowerSensor3Emulator::disconnect() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  // Both ends must go for the host to see the hangup, as when the cable is pulled.
  if (slave_keepalive_fd_ >= 0) ::close(slave_keepalive_fd_);
  if (master_fd_ >= 0) ::close(master_fd_);
  slave_keepalive_fd_ = master_fd_ = -1;
}

void PowerSensor3Emulator::serve() {
  auto next_batch = std::chrono::steady_clock::now();
  const int frames_per_batch = std::max(1, frames_per_second_ * kBatchMs / 1000);
  while (!stop_) {
    pollfd pfd{master_fd_, POLLIN, 0};
    if (poll(&pfd, 1, 1) > 0 && (pfd.revents & POLLIN)) {
      uint8_t commands[64];
      const ssize_t got = ::read(master_fd_, commands, sizeof commands);
      for (ssize_t i = 0; i < got; ++i) handle_command(commands[i]);
    }
    if (streaming_ && !stalled_ && std::chrono::steady_clock::now() >= next_batch) {
      send_frames(frames_per_batch);
      next_batch += std::chrono::milliseconds(kBatchMs);
    } else if (!streaming_ || stalled_) {
      next_batch = std::chrono::steady_clock::now();
    }
  }
}

void PowerSensor3Emulator::handle_command(uint8_t command) {
  switch (command) {
    case 'R': send_configuration(); break;
    case 'S': streaming_ = true; break;
    case 'X':
      if (streaming_) write_all({ps3::kStopByte0, ps3::kStopByte1});
      streaming_ = false;
      break;
    case 'T': streaming_ = false; break;
    case 'M': ++markers_received_; ++pending_marks_; break;
    default: break;  // the bytes acknowledging configuration records, or noise
  }
}

void PowerSensor3Emulator::send_configuration() {
  for (int sensor = 0; sensor < ps3::kSensorCount; ++sensor) {
    write_all(ps3::encode_config(config_[sensor]));
    // The host acknowledges each record with one byte before the next is sent.
    pollfd pfd{master_fd_, POLLIN, 0};
    if (poll(&pfd, 1, 1000) <= 0) return;
    uint8_t ack = 0;
    if (::read(master_fd_, &ack, 1) != 1) return;
  }
  write_all({'D'});
}

void PowerSensor3Emulator::send_frames(int count) {
  std::vector<uint8_t> bytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bytes.swap(garbage_);
    for (int frame = 0; frame < count; ++frame) {
      for (int sensor = 0; sensor < ps3::kSensorCount; ++sensor) {
        bool marker = false;
        if (sensor == 0 && pending_marks_ > 0) {
          --pending_marks_;
          marker = true;
        }
        ps3::encode_value(sensor, ps3::value_to_level(config_[sensor], values_[sensor]), marker,
                          bytes);
      }
      const long long micros = frames_sent_ * 1000000LL / frames_per_second_;
      ps3::encode_value(kTimestampSensor, static_cast<int>(micros % 1024), true, bytes);
      ++frames_sent_;
    }
  }
  write_all(bytes);
}

void PowerSensor3Emulator::write_all(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  int stalls = 0;
  while (done < bytes.size() && !stop_) {
    const ssize_t put = ::write(master_fd_, bytes.data() + done, bytes.size() - done);
    if (put > 0) { done += static_cast<size_t>(put); continue; }
    if (put < 0 && errno != EAGAIN && errno != EINTR) return;
    // Nobody reads: a real device drops what the host does not take.
    if (++stalls > 100) return;
    usleep(1000);
  }
}

}  // namespace rapt
