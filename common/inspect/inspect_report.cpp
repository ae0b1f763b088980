// inspect_file: picks the describer for a file's format.
#include "inspect/inspect_report.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <string_view>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "inspect/inspect_format.hpp"
#include "io/presto_inf.hpp"
#include "geometry/array_layout.hpp"
#include "inspect/inspect_sections.hpp"
#include "io/byte_stream.hpp"
#include "io/voltage_sniff.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

namespace {

bool has_suffix(const std::string& path, const std::string& suffix) {
  return path.size() > suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// TEXT with every OPENED (the path a file was opened by) read as GIVEN (the user's name for it).
std::string renamed(std::string text, const std::string& opened, const std::string& given) {
  for (size_t at = 0; (at = text.find(opened, at)) != std::string::npos; at += given.size())
    text.replace(at, opened.size(), given);
  return text;
}

}  // namespace

std::string describe_stream(const std::string& name, std::FILE* file,
                            const InspectSettings& settings, std::vector<std::string>* warnings) {
  const auto close = [&] {
    if (file != stdin) std::fclose(file);
  };
  // A pipe is read once: the bytes read to tell its format go on to its reader.
  std::vector<uint8_t> head;
  try {
    head = read_up_to(file, kVoltageProbeBytes, name);
  } catch (...) {
    close();
    throw;
  }
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  if (text.empty()) {
    close();
    throw file_error(name, "is empty");
  }
  if (settings.layout) {
    std::string all(text);
    for (char chunk[65536]; size_t n = std::fread(chunk, 1, sizeof chunk, file);) all.append(chunk, n);
    close();
    return describe_layout(name, parse_layout_text(all, name));
  }
  if (text.size() >= 16 && text.substr(4, 12) == "HEADER_START")
    return describe_spectra(open_spectra_source(name, file, std::move(head)), settings, warnings);
  // FITS cards (UVFITS, images, PSRFITS) would pass for GUPPI RAW's.
  if (text.substr(0, 9) != "SIMPLE  =") {
    auto in = std::make_unique<ByteStream>(name, file, std::move(head));  // closes `file`
    if (!voltage_format_of(*in).empty())
      return describe_voltages(name, open_voltage_stream(std::move(in), settings.vdif), settings,
                               warnings);
  } else {
    close();
  }
  // Any other format redirected from a file is that file, read again from its start (CFITSIO
  // and casacore open files by name), reported under the name given.
  if (file == stdin && standard_input_is_file()) {
    try {
      const std::string report = inspect_file("/dev/stdin", settings, warnings);
      if (warnings)
        for (std::string& w : *warnings) w = renamed(w, "/dev/stdin", "-");
      return renamed(report, "/dev/stdin", "-");
    } catch (const DataError& e) {
      throw DataError(renamed(e.what(), "/dev/stdin", "-"));
    }
  }
  throw file_error(name, "not a SIGPROC, GUPPI RAW, PSRDADA or VDIF stream; other formats are read "
                         "from a file (give its name, or redirect it with <)");
}

std::string inspect_file(const std::string& path, const InspectSettings& settings,
                         std::vector<std::string>* warnings) {
  if (path == "-") return describe_stream("-", stdin, settings, warnings);
  // A named pipe (mkfifo, <(...)) is read once, as standard input is.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw file_error(path, "cannot open: " + errno_text());
    return describe_stream(path, file, settings, warnings);
  }
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
