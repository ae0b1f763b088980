// accelsearch's binary .cand records and the .txtcand log (declared in accel_files.hpp).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/accel_files.hpp"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .cand record code assumes a little-endian host"
#endif

namespace rapt {
namespace {

// Byte offsets of the fields in one record (C struct layout on x86-64; 12-15 and 28-31 are
// alignment padding).
constexpr size_t kR = 0, kRerr = 8, kZ = 16, kZerr = 24, kW = 32, kWerr = 40, kPow = 44;
constexpr size_t kFloatsAfterPow = 11;  // pow, powerr, sig, rawpow, phs ... locpow

template <typename T>
void put(char* record, size_t offset, T value) {
  std::memcpy(record + offset, &value, sizeof value);
}

template <typename T>
T get(const char* record, size_t offset) {
  T value;
  std::memcpy(&value, record + offset, sizeof value);
  return value;
}

// The eleven float32 fields from `pow` on, by index (works for const and mutable props).
template <typename Props>
auto trailing_floats(Props& p, size_t k) {
  decltype(&p.pow) fields[kFloatsAfterPow] = {&p.pow, &p.powerr, &p.sig,    &p.rawpow,
                                    &p.phs, &p.phserr, &p.cen,    &p.cenerr,
                                    &p.pur, &p.purerr, &p.locpow};
  return fields[k];
}

}  // namespace

FourierProps cand_record(const AccelCandidate& candidate) {
  if (candidate.harmonics.empty())
    throw DataError("ACCEL candidate without harmonics has no .cand record");
  FourierProps record = candidate.harmonics.front().props;
  record.r = candidate.r;
  record.z = candidate.z;
  record.w = candidate.w;
  record.rerr = 0.5 / candidate.numharm;
  record.zerr = 2.0 / candidate.numharm;
  record.werr = 20.0 / candidate.numharm;
  return record;
}

std::string format_cand_records(const std::vector<FourierProps>& records) {
  std::string bytes(records.size() * kCandRecordBytes, '\0');
  for (size_t i = 0; i < records.size(); ++i) {
    char* record = &bytes[i * kCandRecordBytes];
    const FourierProps& p = records[i];
    put(record, kR, p.r);
    put(record, kRerr, static_cast<float>(p.rerr));
    put(record, kZ, p.z);
    put(record, kZerr, static_cast<float>(p.zerr));
    put(record, kW, p.w);
    put(record, kWerr, static_cast<float>(p.werr));
    for (size_t k = 0; k < kFloatsAfterPow; ++k)
      put(record, kPow + 4 * k, static_cast<float>(*trailing_floats(p, k)));
  }
  return bytes;
}

std::vector<FourierProps> parse_cand_records(const std::string& bytes, const std::string& name) {
  if (bytes.size() % kCandRecordBytes != 0)
    throw file_error(name, "size " + std::to_string(bytes.size()) +
                               " bytes is not a whole number of 88-byte candidate records");
  std::vector<FourierProps> records(bytes.size() / kCandRecordBytes);
  for (size_t i = 0; i < records.size(); ++i) {
    const char* record = &bytes[i * kCandRecordBytes];
    FourierProps& p = records[i];
    p.r = get<double>(record, kR);
    p.rerr = get<float>(record, kRerr);
    p.z = get<double>(record, kZ);
    p.zerr = get<float>(record, kZerr);
    p.w = get<double>(record, kW);
    p.werr = get<float>(record, kWerr);
    for (size_t k = 0; k < kFloatsAfterPow; ++k)
      *trailing_floats(p, k) = get<float>(record, kPow + 4 * k);
  }
  return records;
}

std::vector<FourierProps> read_cand_file(const std::string& path) {
  return parse_cand_records(read_file_contents(path), path);
}

void write_cand_file(const std::string& path, const std::vector<FourierProps>& records,
                     bool overwrite) {
  const std::string bytes = format_cand_records(records);
  AtomicOutputFile out(path, overwrite);
  out.write(bytes);
  out.commit();
}

void apply_cand_records(AccelCandidates& accel, const std::vector<FourierProps>& records,
                        const std::string& name) {
  if (records.size() != accel.candidates.size())
    throw file_error(name, "holds " + std::to_string(records.size()) +
                               " candidate records; the text lists " +
                               std::to_string(accel.candidates.size()));
  for (size_t i = 0; i < records.size(); ++i) {
    AccelCandidate& c = accel.candidates[i];
    const FourierProps& record = records[i];
    c.r = record.r;
    c.z = record.z;
    c.w = record.w;
    if (c.harmonics.empty()) {
      c.harmonics.push_back({record, 0.0});
      continue;
    }
    FourierProps& fundamental = c.harmonics.front().props;
    for (size_t k = 0; k < kFloatsAfterPow; ++k)
      *trailing_floats(fundamental, k) = *trailing_floats(record, k);
  }
}

std::string format_txtcand_line(const AccelTextLogEntry& e) {
  char line[256];
  std::snprintf(line, sizeof line, "%-7.2f  %-7.4f  %-2d  %-14.4f  %-14.9f  %-10.4f %-10.4f\n",
                e.power, e.sigma, e.numharm, e.r, e.freq_hz, e.z, e.w);
  return line;
}

std::vector<AccelTextLogEntry> parse_txtcand(const std::string& text, const std::string& name) {
  std::vector<AccelTextLogEntry> entries;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    AccelTextLogEntry e;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%lf %lf %d %lf %lf %lf %lf %c", &e.power, &e.sigma,
                    &e.numharm, &e.r, &e.freq_hz, &e.z, &e.w, &extra) != 7)
      throw file_error(name, "line " + std::to_string(number) +
                                 ": expected 7 numbers (power sigma numharm r f z w)");
    entries.push_back(e);
  }
  return entries;
}

}  // namespace rapt
