#include "power/rapl_source.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>

#include "cli/errors.hpp"

namespace rapt {
namespace {

std::string powercap_directory(const std::string& sysfs_root) {
  return sysfs_root + "/class/powercap";
}

bool read_line(const std::string& path, std::string& line) {
  std::ifstream in(path);
  return static_cast<bool>(std::getline(in, line));
}

uint64_t read_counter(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == EACCES) {
      throw file_error(path, "permission denied; RAPL counters are readable by root only "
                             "since CVE-2020-8694 (run as root, or chmod the energy_uj files)");
    }
    throw file_error(path, "cannot read RAPL counter: " + errno_text());
  }
  char text[32] = {};
  const ssize_t got = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  char* end = nullptr;
  const unsigned long long value = got > 0 ? std::strtoull(text, &end, 10) : 0;
  if (got <= 0 || end == text) throw file_error(path, "not a RAPL energy counter");
  return value;
}

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

uint64_t WrappingCounter::update(uint64_t raw) {
  if (started_) {
    // The counter runs from 0 to range and starts again; one wrap between reads at most.
    total_ += raw >= last_raw_ ? raw - last_raw_ : range_ - last_raw_ + raw;
  }
  started_ = true;
  last_raw_ = raw;
  return total_;
}

std::vector<RaplDomain> find_rapl_domains(const std::string& sysfs_root) {
  const std::string directory = powercap_directory(sysfs_root);
  std::vector<std::string> entries;
  if (DIR* dir = opendir(directory.c_str())) {
    while (dirent* entry = readdir(dir)) entries.push_back(entry->d_name);
    closedir(dir);
  }
  std::sort(entries.begin(), entries.end());
  const std::regex package_name(R"(intel-rapl:(\d+))");
  const std::regex sub_name(R"(intel-rapl:(\d+):(\d+))");
  std::vector<RaplDomain> domains;
  for (const std::string& entry : entries) {
    const bool package = std::regex_match(entry, package_name);
    if (!package && !std::regex_match(entry, sub_name)) continue;
    RaplDomain domain;
    domain.directory = directory + "/" + entry;
    std::string label;
    if (!read_line(domain.directory + "/name", label)) label = entry;
    std::string parent_label;
    if (!package) {
      if (label != "dram") continue;  // core/uncore are parts of the package, counted there
      const std::string parent = entry.substr(0, entry.rfind(':'));
      if (!read_line(directory + "/" + parent + "/name", parent_label)) parent_label = parent;
      label = parent_label + "." + label;
    }
    domain.sensor_name = label;
    std::string range;
    if (read_line(domain.directory + "/max_energy_range_uj", range)) {
      domain.max_energy_range_uj = std::strtoull(range.c_str(), nullptr, 10);
    }
    domains.push_back(domain);
  }
  return domains;
}

RaplSource::RaplSource(const std::string& sysfs_root)
    : powercap_dir_(powercap_directory(sysfs_root)), domains_(find_rapl_domains(sysfs_root)) {
  if (domains_.empty()) throw file_error(powercap_dir_, "no RAPL domain (intel-rapl:N) found");
  for (const RaplDomain& domain : domains_) {
    if (domain.max_energy_range_uj == 0) {
      throw file_error(domain.directory + "/max_energy_range_uj", "missing or zero");
    }
    sensors_.push_back({domain.sensor_name, true});
    counters_.emplace_back(domain.max_energy_range_uj);
  }
  last_joules_.assign(domains_.size(), 0.0);
  read();  // fails now, not mid-run, if the counters are root-only
}

std::vector<SensorValue> RaplSource::read() {
  const double now_s = steady_seconds();
  std::vector<SensorValue> values(domains_.size());
  for (size_t i = 0; i < domains_.size(); ++i) {
    const uint64_t raw_uj = read_counter(domains_[i].directory + "/energy_uj");
    const uint64_t total_uj = counters_[i].update(raw_uj);
    values[i].joules = total_uj * 1e-6;
    // RAPL has no power reading: the power is the counter's rate since the last read.
    if (last_time_s_ >= 0 && now_s > last_time_s_) {
      values[i].watts = (values[i].joules - last_joules_[i]) / (now_s - last_time_s_);
    }
    last_joules_[i] = values[i].joules;
  }
  last_time_s_ = now_s;
  return values;
}

}  // namespace rapt
