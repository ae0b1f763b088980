// Intel RAPL (and AMD Zen's copy of it) through the powercap sysfs tree:
//   <sysfs-root>/class/powercap/intel-rapl:N/energy_uj            package N
//   <sysfs-root>/class/powercap/intel-rapl:N:M/energy_uj          its dram subdomain
// energy_uj counts microjoules and wraps at max_energy_range_uj; read() unwraps it into a
// cumulative count, which stays right as long as it is read more often than a wrap (minutes).
// Since CVE-2020-8694 the counters are readable by root only; that is reported as such.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "power/power_source.hpp"

namespace rapt {

struct RaplDomain {
  std::string directory;  // .../intel-rapl:0 or .../intel-rapl:0:1
  std::string sensor_name;
  uint64_t max_energy_range_uj = 0;
};

// The package and dram domains under `sysfs_root` (normally "/sys"); empty if there is no
// powercap tree. Names come from each domain's `name` file: "package-0", "package-0.dram".
std::vector<RaplDomain> find_rapl_domains(const std::string& sysfs_root);

// Cumulative microjoules from a wrapping counter.
class WrappingCounter {
 public:
  explicit WrappingCounter(uint64_t range) : range_(range) {}
  // Returns the total since the first call.
  uint64_t update(uint64_t raw);

 private:
  uint64_t range_;
  bool started_ = false;
  uint64_t last_raw_ = 0;
  uint64_t total_ = 0;
};

class RaplSource : public PowerSource {
 public:
  // Throws DataError if there is no domain, or a counter cannot be read (naming the file and,
  // for EACCES, the root-only rule).
  explicit RaplSource(const std::string& sysfs_root);

  std::string name() const override { return "rapl"; }
  std::string device() const override { return powercap_dir_; }
  const std::vector<PowerSensorInfo>& sensors() const override { return sensors_; }
  std::vector<SensorValue> read() override;

 private:
  std::string powercap_dir_;
  std::vector<RaplDomain> domains_;
  std::vector<PowerSensorInfo> sensors_;
  std::vector<WrappingCounter> counters_;
  std::vector<double> last_joules_;
  double last_time_s_ = -1;
};

}  // namespace rapt
