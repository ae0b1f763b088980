#include "inspect/inspect_format.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "cli/errors.hpp"
#include "io/byte_stream.hpp"
#include "io/voltage_sniff.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

namespace {

constexpr size_t kCardBytes = 80;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The value text of FITS card `keyword` in the header cards of `head` (up to END), quotes and
// spaces trimmed; empty when absent.
std::string fits_card_value(std::string_view head, const std::string& keyword) {
  for (size_t at = 0; at + kCardBytes <= head.size(); at += kCardBytes) {
    const std::string_view card = head.substr(at, kCardBytes);
    if (starts_with(card, "END ")) break;
    std::string key(card.substr(0, 8));
    key.erase(key.find_last_not_of(' ') + 1);
    if (key != keyword || card[8] != '=') continue;
    std::string value(card.substr(10));
    const size_t slash = value.find('/');
    if (value.find('\'') == std::string::npos && slash != std::string::npos) value.erase(slash);
    std::string trimmed;
    for (char c : value)
      if (c != '\'') trimmed += c;
    const size_t first = trimmed.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return trimmed.substr(first, trimmed.find_last_not_of(' ') - first + 1);
  }
  return "";
}

long long fits_integer(std::string_view head, const std::string& keyword) {
  const std::string value = fits_card_value(head, keyword);
  return value.empty() ? 0 : std::atoll(value.c_str());
}

InspectFormat detect_fits(std::string_view head) {
  if (fits_card_value(head, "GROUPS") == "T") return InspectFormat::kUvfits;
  if (fits_card_value(head, "FITSTYPE").find("PSRFITS") != std::string::npos)
    return InspectFormat::kSpectra;
  if (fits_card_value(head, "CTYPE3") == "MATRIX") return InspectFormat::kATermCube;
  if (fits_integer(head, "NAXIS") >= 2 && fits_integer(head, "NAXIS1") > 0 &&
      fits_integer(head, "NAXIS2") > 0)
    return InspectFormat::kFitsImage;
  // Neither: the PSRFITS reader is the most lenient judge of what else it might be.
  return InspectFormat::kSpectra;
}

bool printable_text(std::string_view text) {
  for (const char c : text)
    if ((c < 32 || c > 126) && c != '\n' && c != '\r' && c != '\t') return false;
  return true;
}

// A layout file says which frame its coordinates are in on a "# frame:" line.
bool looks_like_layout(std::string_view head) {
  if (!printable_text(head)) return false;
  for (size_t at = 0; at < head.size();) {
    size_t end = head.find('\n', at);
    if (end == std::string_view::npos) end = head.size();
    std::string_view text = head.substr(at, end - at);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    if (starts_with(text, "# frame:")) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

InspectFormat detect_format_from_bytes(std::string_view head, uint64_t file_size) {
  if (head.empty()) return InspectFormat::kSpectra;  // whose reader says the file is empty
  if (starts_with(head, "SIMPLE  =")) return detect_fits(head);
  if (starts_with(head, " Data file name without suffix")) return InspectFormat::kPrestoInf;
  if (head.size() >= 16 && head.substr(4, 12) == "HEADER_START") return InspectFormat::kSpectra;
  // An ACCEL table's first line titles its columns: "             Summed  Coherent  Num ...".
  if (head.substr(0, head.find('\n')).find("Summed  Coherent  Num") != std::string_view::npos)
    return InspectFormat::kAccelCandidates;
  if (looks_like_guppi(head)) return InspectFormat::kVoltages;
  if (looks_like_dada(head)) return InspectFormat::kVoltages;
  if (looks_like_layout(head)) return InspectFormat::kLayout;
  if (looks_like_vdif(head, file_size)) return InspectFormat::kVoltages;
  return InspectFormat::kUnknown;
}

InspectFormat detect_format(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw file_error(path, "no such file");
  if (S_ISDIR(info.st_mode)) {
    struct stat table {};
    if (::stat((path + "/table.dat").c_str(), &table) == 0) return InspectFormat::kMeasurementSet;
    throw file_error(path, "a directory, and not a Measurement Set (no table.dat)");
  }
  // (inspect_file reads a named pipe as a stream before asking: reading its first bytes here
  // would take them from the reader.)
  if (!S_ISREG(info.st_mode)) return InspectFormat::kSpectra;
  ByteStream in(path);
  const InspectFormat format =
      detect_format_from_bytes(in.peek(kFormatProbeBytes), uint64_t(info.st_size));
  // A VDIF frame longer than the probe in a file cut short: the voltage readers' own test,
  // which reads on to the next frame's header.
  if (format == InspectFormat::kUnknown && !voltage_format_of(in).empty())
    return InspectFormat::kVoltages;
  return format;
}

}  // namespace rapt
