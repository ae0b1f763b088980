// inspect_file: picks the describer for a file's format.
#include "inspect/inspect_report.hpp"

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "inspect/inspect_format.hpp"
#include "io/presto_inf.hpp"
#include "inspect/inspect_sections.hpp"

namespace rapt {

namespace {

bool has_suffix(const std::string& path, const std::string& suffix) {
  return path.size() > suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string inspect_file(const std::string& path, const InspectSettings& settings,
                         std::vector<std::string>* warnings) {
  if (path == "-") return describe_spectra_file(path, settings, warnings);
  if (settings.layout) return describe_layout_file(path);
  // PRESTO series carry no header at all; like PRESTO, they are known by suffix together with
  // their .inf beside them.
  for (const char* suffix : {".dat", ".sdat", ".fft"})
    if (has_suffix(path, suffix) && path_exists(strip_suffix(path, suffix) + ".inf"))
      return describe_presto_series(path, suffix, settings);
  // A .pfd is binary without a signature; its reader checks every count against the size.
  if (has_suffix(path, ".pfd")) return describe_pfd_file(path);
  const InspectFormat format = detect_format(path);
  switch (format) {
    case InspectFormat::kPrestoInf: return describe_inf_file(path);
    case InspectFormat::kVoltages: return describe_voltage_file(path, settings, warnings);
    case InspectFormat::kUvfits: return describe_uvfits_file(path, settings, warnings);
    case InspectFormat::kFitsImage: return describe_fits_image_file(path, settings, warnings);
    case InspectFormat::kATermCube: return describe_aterm_cube_file(path, settings);
    case InspectFormat::kMeasurementSet: return describe_measurement_set(path, settings, warnings);
    case InspectFormat::kLayout: return describe_layout_file(path);
    case InspectFormat::kAccelCandidates: return describe_accel_file(path);
    case InspectFormat::kSpectra: return describe_spectra_file(path, settings, warnings);
    case InspectFormat::kUnknown: break;
  }
  // A series whose .inf is missing gets that said, with what else the file is not.
  for (const char* suffix : {".dat", ".sdat", ".fft"})
    if (has_suffix(path, suffix))
      throw file_error(path, "not a format inspect reads, and no " + strip_suffix(path, suffix) +
                                 ".inf beside it for a PRESTO series");
  throw file_error(path, "not a format inspect reads (SIGPROC, PSRFITS, PRESTO .inf and series, "
                         "ACCEL, .pfd, GUPPI RAW, PSRDADA, VDIF, UVFITS, Measurement Sets, FITS "
                         "images, a-term cubes, layout files)");
}

}  // namespace rapt
