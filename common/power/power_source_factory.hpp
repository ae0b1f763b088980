// Choosing and opening the power sources of a run: --source auto|powersensor3|nvml|rapl.
#pragma once
#include <string>
#include <vector>

#include "power/power_source.hpp"

namespace rapt {

struct SourceSelection {
  std::vector<std::string> kinds{"auto"};  // auto, powersensor3, nvml, rapl (several allowed)
  std::string device;                      // PowerSensor3 serial device; "" = /dev/ttyACM*
  std::string sysfs_root = "/sys";
  std::string nvml_library = "libnvidia-ml.so.1";
};

// Throws UsageError for an unknown kind.
void check_source_kinds(const std::vector<std::string>& kinds);

// Opens the selected sources. A source named explicitly must open (its DataError is passed
// on); with "auto" every kind is tried and those that fail are skipped, their reasons added to
// `skipped`. Throws DataError "no power source available (...)" if nothing opened.
std::vector<PowerSourcePtr> open_power_sources(const SourceSelection& selection,
                                               std::vector<std::string>& skipped);

}  // namespace rapt
