#include "power/power_source_factory.hpp"

#include <glob.h>

#include <algorithm>

#include "cli/errors.hpp"
#include "power/nvml_source.hpp"
#include "power/powersensor3_source.hpp"
#include "power/rapl_source.hpp"

namespace rapt {
namespace {

const std::vector<std::string> kKinds = {"powersensor3", "nvml", "rapl"};

std::vector<std::string> serial_devices() {
  std::vector<std::string> paths;
  glob_t matches{};
  if (glob("/dev/ttyACM*", 0, nullptr, &matches) == 0) {
    for (size_t i = 0; i < matches.gl_pathc; ++i) paths.push_back(matches.gl_pathv[i]);
  }
  globfree(&matches);
  return paths;
}

PowerSourcePtr open_kind(const std::string& kind, const SourceSelection& selection,
                         bool automatic) {
  if (kind == "nvml") return std::make_unique<NvmlSource>(selection.nvml_library);
  if (kind == "rapl") return std::make_unique<RaplSource>(selection.sysfs_root);
  if (!selection.device.empty()) return std::make_unique<PowerSensor3Source>(selection.device);
  const std::vector<std::string> devices = serial_devices();
  if (devices.empty()) throw DataError("/dev/ttyACM*: no PowerSensor3 serial device");
  std::string reasons;
  for (const std::string& device : devices) {
    try {
      return std::make_unique<PowerSensor3Source>(device, automatic ? 1.0 : 2.0);
    } catch (const DataError& e) {
      reasons += (reasons.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  throw DataError(reasons);
}

}  // namespace

void check_source_kinds(const std::vector<std::string>& kinds) {
  if (kinds.empty()) throw UsageError("--source needs a value");
  for (const std::string& kind : kinds) {
    if (kind != "auto" && std::find(kKinds.begin(), kKinds.end(), kind) == kKinds.end()) {
      throw UsageError("--source " + kind + ": unknown; known: auto, powersensor3, nvml, rapl");
    }
  }
}

std::vector<PowerSourcePtr> open_power_sources(const SourceSelection& selection,
                                               std::vector<std::string>& skipped) {
  check_source_kinds(selection.kinds);
  const bool automatic =
      std::find(selection.kinds.begin(), selection.kinds.end(), "auto") != selection.kinds.end();
  std::vector<PowerSourcePtr> sources;
  for (const std::string& kind : kKinds) {
    const bool named =
        std::find(selection.kinds.begin(), selection.kinds.end(), kind) != selection.kinds.end();
    if (!named && !automatic) continue;
    // An explicit --device asks for the PowerSensor3 even under "auto": its failure counts.
    const bool must_open = named || (kind == "powersensor3" && !selection.device.empty());
    if (must_open) {
      sources.push_back(open_kind(kind, selection, false));
      continue;
    }
    try {
      sources.push_back(open_kind(kind, selection, true));
    } catch (const DataError& e) {
      skipped.push_back(kind + ": " + e.what());
    }
  }
  if (sources.empty()) {
    std::string reasons;
    for (const std::string& reason : skipped) reasons += (reasons.empty() ? "" : "; ") + reason;
    throw DataError("no power source available (" + reasons + ")");
  }
  return sources;
}

}  // namespace rapt
