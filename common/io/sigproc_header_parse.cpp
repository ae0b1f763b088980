// SIGPROC header parsing from memory (formats.md 1.1-1.2): keyword tokens and their values,
// tolerant skipping of unknown keywords, and the checks a readable header must pass.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli/errors.hpp"
#include "io/header_validation.hpp"
#include "io/sigproc.hpp"

namespace rapt {

namespace {

constexpr size_t kMaxKeywordBytes = 80;        // SIGPROC's and PRESTO's reader limit
constexpr size_t kMaxStringValueBytes = 4096;  // longer is corruption, not a file name
constexpr char kHeaderStart[] = "HEADER_START";
constexpr char kHeaderEnd[] = "HEADER_END";

enum class ValueType { kInt, kDouble, kString, kChar, kLong, kFlag, kEnd };

struct KeywordSpec {
  const char* name;
  ValueType type;
};

constexpr KeywordSpec kKeywords[] = {
    {"telescope_id", ValueType::kInt},     {"machine_id", ValueType::kInt},
    {"data_type", ValueType::kInt},        {"rawdatafile", ValueType::kString},
    {"source_name", ValueType::kString},   {"barycentric", ValueType::kInt},
    {"pulsarcentric", ValueType::kInt},    {"az_start", ValueType::kDouble},
    {"za_start", ValueType::kDouble},      {"src_raj", ValueType::kDouble},
    {"src_dej", ValueType::kDouble},       {"tstart", ValueType::kDouble},
    {"tsamp", ValueType::kDouble},         {"nbits", ValueType::kInt},
    {"nsamples", ValueType::kInt},         {"fch1", ValueType::kDouble},
    {"foff", ValueType::kDouble},          {"nchans", ValueType::kInt},
    {"nifs", ValueType::kInt},             {"refdm", ValueType::kDouble},
    {"nbeams", ValueType::kInt},           {"ibeam", ValueType::kInt},
    {"signed", ValueType::kChar},          {"period", ValueType::kDouble},
    {"nbins", ValueType::kInt},            {"npuls", ValueType::kLong},
    {"FREQUENCY_START", ValueType::kFlag}, {"fchannel", ValueType::kDouble},
    {"FREQUENCY_END", ValueType::kFlag},   {kHeaderEnd, ValueType::kEnd},
};

const KeywordSpec* find_keyword(std::string_view name) {
  for (const KeywordSpec& spec : kKeywords)
    if (name == spec.name) return &spec;
  return nullptr;
}

uint64_t load_le(const uint8_t* p, int nbytes) {
  uint64_t v = 0;
  for (int i = nbytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
int32_t load_int32(const uint8_t* p) { return static_cast<int32_t>(load_le(p, 4)); }
int64_t load_int64(const uint8_t* p) { return static_cast<int64_t>(load_le(p, 8)); }
double load_double(const uint8_t* p) {
  const uint64_t bits = load_le(p, 8);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

enum class Probe { kYes, kNo, kNeedMore };

// Bytes are kept as received; every read is bounds-checked so any input is safe to parse.
class HeaderParser {
 public:
  HeaderParser(const uint8_t* data, size_t size, const std::string& name,
               std::vector<std::string>* warnings)
      : data_(data), size_(size), name_(name), warnings_(warnings) {}

  std::optional<SigprocHeader> run();

 private:
  bool has(size_t pos, size_t n) const { return pos <= size_ && n <= size_ - pos; }
  [[noreturn]] void fail(const std::string& problem) const { throw file_error(name_, problem); }
  void warn(const std::string& text) const {
    if (warnings_) warnings_->push_back(name_ + ": " + text);
  }
  Probe token_at(size_t pos, std::string* text) const;
  Probe known_token_at(size_t pos) const;
  bool check_start();
  bool read_value(const KeywordSpec& spec, size_t keyword_pos);
  bool read_string(const KeywordSpec& spec, size_t keyword_pos, std::string* out);
  bool skip_unknown(const std::string& keyword, size_t keyword_pos);
  void store_number(const std::string& keyword, const uint8_t* value);
  void finish();

  const uint8_t* data_;
  size_t size_;
  const std::string& name_;
  std::vector<std::string>* warnings_;
  size_t pos_ = 0;
  SigprocHeader header_;
  bool have_tsamp_ = false;
};

// A plausible keyword token at `pos`: length 1..80, then that many printable ASCII bytes.
Probe HeaderParser::token_at(size_t pos, std::string* text) const {
  if (!has(pos, 4)) return Probe::kNeedMore;
  const int32_t n = load_int32(data_ + pos);
  if (n < 1 || size_t(n) > kMaxKeywordBytes) return Probe::kNo;
  if (!has(pos + 4, size_t(n))) return Probe::kNeedMore;
  const uint8_t* chars = data_ + pos + 4;
  for (int32_t i = 0; i < n; ++i)
    if (chars[i] < 0x20 || chars[i] > 0x7e) return Probe::kNo;
  if (text) text->assign(reinterpret_cast<const char*>(chars), size_t(n));
  return Probe::kYes;
}

Probe HeaderParser::known_token_at(size_t pos) const {
  std::string text;
  const Probe probe = token_at(pos, &text);
  if (probe != Probe::kYes) return probe;
  return find_keyword(text) ? Probe::kYes : Probe::kNo;
}

bool HeaderParser::check_start() {
  const size_t marker_bytes = 4 + sizeof kHeaderStart - 1;
  const size_t have = std::min(size_, marker_bytes);
  uint8_t expected[marker_bytes] = {uint8_t(sizeof kHeaderStart - 1), 0, 0, 0};
  std::memcpy(expected + 4, kHeaderStart, sizeof kHeaderStart - 1);
  if (size_ == 0 || std::memcmp(data_, expected, have) != 0)
    fail("not a SIGPROC file (no HEADER_START)");
  if (have < marker_bytes) return false;
  pos_ = marker_bytes;
  return true;
}

std::optional<SigprocHeader> HeaderParser::run() {
  if (!check_start()) return std::nullopt;
  for (;;) {
    const size_t keyword_pos = pos_;
    std::string keyword;
    const Probe probe = token_at(pos_, &keyword);
    if (probe == Probe::kNeedMore) return std::nullopt;
    if (probe == Probe::kNo) {
      const int32_t n = load_int32(data_ + pos_);
      if (n < 1 || size_t(n) > kMaxKeywordBytes)
        fail("corrupt header at byte " + std::to_string(pos_) + ": keyword length " +
             std::to_string(n) + " (expected 1 to 80)");
      fail("corrupt header at byte " + std::to_string(pos_) + ": keyword is not text");
    }
    pos_ += 4 + keyword.size();
    const KeywordSpec* spec = find_keyword(keyword);
    if (!spec) {
      if (!skip_unknown(keyword, keyword_pos)) return std::nullopt;
      continue;
    }
    if (spec->type == ValueType::kEnd) break;
    if (!read_value(*spec, keyword_pos)) return std::nullopt;
  }
  header_.header_bytes = pos_;
  finish();
  return header_;
}

bool HeaderParser::read_string(const KeywordSpec& spec, size_t keyword_pos, std::string* out) {
  if (!has(pos_, 4)) return false;
  const int32_t n = load_int32(data_ + pos_);
  if (n < 0 || size_t(n) > kMaxStringValueBytes)
    fail("corrupt header at byte " + std::to_string(keyword_pos) + ": '" + spec.name +
         "' has length " + std::to_string(n));
  if (!has(pos_ + 4, size_t(n))) return false;
  out->assign(reinterpret_cast<const char*>(data_ + pos_ + 4), size_t(n));
  pos_ += 4 + size_t(n);
  return true;
}

bool HeaderParser::read_value(const KeywordSpec& spec, size_t keyword_pos) {
  const std::string keyword = spec.name;
  switch (spec.type) {
    case ValueType::kString:
      return read_string(spec, keyword_pos,
                         keyword == "rawdatafile" ? &header_.rawdatafile : &header_.source_name);
    case ValueType::kFlag:  // the frequency table's brackets carry no value
      return true;
    case ValueType::kChar:
      if (!has(pos_, 1)) return false;
      header_.signed_byte = static_cast<int8_t>(data_[pos_]);
      pos_ += 1;
      return true;
    case ValueType::kInt:
      if (!has(pos_, 4)) return false;
      break;
    case ValueType::kDouble:
    case ValueType::kLong:
      if (!has(pos_, 8)) return false;
      break;
    case ValueType::kEnd:
      return true;
  }
  store_number(keyword, data_ + pos_);
  pos_ += spec.type == ValueType::kInt ? 4 : 8;
  return true;
}

void HeaderParser::store_number(const std::string& keyword, const uint8_t* value) {
  SigprocHeader& h = header_;
  const int32_t i = load_int32(value);
  if (keyword == "telescope_id") h.telescope_id = i;
  else if (keyword == "machine_id") h.machine_id = i;
  else if (keyword == "data_type") h.data_type = i;
  else if (keyword == "barycentric") h.barycentric = i != 0;
  else if (keyword == "pulsarcentric") h.pulsarcentric = i != 0;
  else if (keyword == "nbits") h.nbits = i;
  else if (keyword == "nchans") h.nchans = i;
  else if (keyword == "nifs") h.nifs = i;
  else if (keyword == "nbeams") h.nbeams = i;
  else if (keyword == "ibeam") h.ibeam = i;
  else if (keyword == "nbins") h.nbins = i;
  else if (keyword == "npuls") h.npuls = load_int64(value);
  else if (keyword == "nsamples") return;  // legacy count; the file size decides
  else {
    const double d = load_double(value);
    if (keyword == "az_start") h.az_start = d;
    else if (keyword == "za_start") h.za_start = d;
    else if (keyword == "src_raj") h.src_raj = d;
    else if (keyword == "src_dej") h.src_dej = d;
    else if (keyword == "tstart") h.tstart = d;
    else if (keyword == "tsamp") { h.tsamp = d; have_tsamp_ = true; }
    else if (keyword == "fch1") h.fch1 = d;
    else if (keyword == "foff") h.foff = d;
    else if (keyword == "refdm") h.refdm = d;
    else if (keyword == "period") h.period = d;
    else if (keyword == "fchannel") h.channel_freqs.push_back(d);
  }
}

// The value size of an unknown keyword is not written anywhere. Accept the reading under which
// the bytes that follow form a keyword: no value, else a 4-byte, 8-byte or 1-byte value.
bool HeaderParser::skip_unknown(const std::string& keyword, size_t keyword_pos) {
  const Probe flag = token_at(pos_, nullptr);
  if (flag == Probe::kNeedMore) return false;
  if (flag == Probe::kYes) {
    warn("ignored unknown keyword '" + keyword + "' (no value)");
    return true;
  }
  for (const size_t value_bytes : {size_t(4), size_t(8), size_t(1)}) {
    const Probe next = known_token_at(pos_ + value_bytes);
    if (next == Probe::kNeedMore) return false;
    if (next == Probe::kYes) {
      warn("skipped unknown keyword '" + keyword + "' (" + std::to_string(value_bytes) +
           "-byte value)");
      pos_ += value_bytes;
      return true;
    }
  }
  fail("unknown header keyword '" + keyword + "' at byte " + std::to_string(keyword_pos) +
       "; cannot tell the size of its value");
}

void HeaderParser::finish() {
  SigprocHeader& h = header_;
  const auto& table = h.channel_freqs;
  // SIGPROC zeroes fch1 and foff when it writes a frequency table; take them from the table.
  if (!table.empty() && h.foff == 0.0) {
    h.fch1 = table.front();
    if (table.size() > 1) h.foff = (table.back() - table.front()) / double(table.size() - 1);
    warn("channel frequencies taken from the frequency table: fch1=" + number_text(h.fch1) +
         " MHz, foff=" + number_text(h.foff) + " MHz");
    for (size_t c = 1; c < table.size(); ++c) {
      if (std::fabs(table[c] - (h.fch1 + double(c) * h.foff)) > 1e-3 * std::fabs(h.foff)) {
        warn("frequency table is not evenly spaced; channels are treated as evenly spaced");
        break;
      }
    }
  }
  if (!table.empty() && h.nchans > 0 && table.size() != size_t(h.nchans))
    warn("frequency table has " + std::to_string(table.size()) + " entries but nchans=" +
         std::to_string(h.nchans));
  if (!have_tsamp_) fail("header has no tsamp");
  validate_sigproc_header(h, name_);
}

}  // namespace

size_t SigprocHeader::bytes_per_spectrum() const {
  return size_t(nifs) * size_t(nchans) * size_t(nbits) / 8;
}

void validate_sigproc_header(const SigprocHeader& h, const std::string& name) {
  const auto fail = [&](const std::string& problem) { throw file_error(name, problem); };
  if (h.nbits != 1 && h.nbits != 2 && h.nbits != 4 && h.nbits != 8 && h.nbits != 16 &&
      h.nbits != 32)
    fail("header says nbits=" + std::to_string(h.nbits) + "; supported: 1, 2, 4, 8, 16, 32");
  if (h.nchans < 1) fail("header says nchans=" + std::to_string(h.nchans) + "; must be at least 1");
  if (h.nifs < 1) fail("header says nifs=" + std::to_string(h.nifs) + "; must be at least 1");
  validate_sample_time(name, "tsamp", h.tsamp);
  if ((int64_t(h.nchans) * h.nbits) % 8 != 0)
    fail("header says nchans=" + std::to_string(h.nchans) + " with nbits=" +
         std::to_string(h.nbits) + "; nchans*nbits must be a multiple of 8");
  constexpr int64_t kMaxSpectrumBytes = int64_t(1) << 30;
  // In double: nifs * nchans * nbits of two large int32 values overflows 64 bits.
  if (double(h.nifs) * double(h.nchans) * double(h.nbits) / 8.0 > double(kMaxSpectrumBytes))
    fail("header says nchans=" + std::to_string(h.nchans) + ", nifs=" + std::to_string(h.nifs) +
         ", nbits=" + std::to_string(h.nbits) + "; spectra over 1 GiB are not supported");
  validate_channel_band(name, "fch1", h.fch1, "foff", h.foff, h.nchans);
  for (const double freq_mhz : h.channel_freqs)
    require_in_range(name, "fchannel", freq_mhz, "MHz", 0.0, kMaxSkyFreq_mhz);
  // Values used as an epoch or a position: any finite number is accepted.
  require_finite(name, "tstart", h.tstart, "MJD");
  require_finite(name, "src_raj", h.src_raj, "");
  require_finite(name, "src_dej", h.src_dej, "");
  if (h.refdm) require_in_range(name, "refdm", *h.refdm, "pc cm^-3", -kMaxDm, kMaxDm);
  if (h.period) require_finite(name, "period", *h.period, "s");
}

std::optional<SigprocHeader> parse_sigproc_header_prefix(const uint8_t* data, size_t size,
                                                         const std::string& name,
                                                         std::vector<std::string>* warnings) {
  std::vector<std::string> local_warnings;
  HeaderParser parser(data, size, name, &local_warnings);
  std::optional<SigprocHeader> header = parser.run();
  // Warnings are only final once the whole header was parsed (a retry repeats them).
  if (header && warnings)
    warnings->insert(warnings->end(), local_warnings.begin(), local_warnings.end());
  return header;
}

SigprocHeader parse_sigproc_header(const uint8_t* data, size_t size, const std::string& name,
                                   std::vector<std::string>* warnings) {
  std::optional<SigprocHeader> header = parse_sigproc_header_prefix(data, size, name, warnings);
  if (!header) throw file_error(name, "header is truncated (no HEADER_END)");
  return *header;
}

}  // namespace rapt
