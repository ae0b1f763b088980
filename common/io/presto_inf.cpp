#include "io/presto_inf.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/header_validation.hpp"

namespace rapt {

namespace {

constexpr int kEqualsColumn = 40;  // 0-based column of '=' in every key line PRESTO writes

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\n\f\v");
  return text.substr(first, last - first + 1);
}

// PRESTO writes blank (or all-whitespace) strings as "Unknown".
std::string or_unknown(const std::string& text) { return trimmed(text).empty() ? "Unknown" : text; }

// " <label><spaces>=  <value>\n" with '=' at kEqualsColumn.
void add_key_line(std::string& out, const std::string& label, const std::string& value) {
  std::string line = " " + label;
  if (line.size() < kEqualsColumn) line.append(kEqualsColumn - line.size(), ' ');
  out += line + "=  " + value + "\n";
}

// Integer day, '.', then the 15 digits of "%.15f" of the fraction. A fraction that rounds up to
// 1.0 carries into the day (PRESTO itself would drop that day).
std::string format_epoch(int mjd_int, double mjd_frac) {
  const double whole_days = std::floor(mjd_frac);
  long long day = static_cast<long long>(mjd_int) + static_cast<long long>(whole_days);
  std::string fraction = format_string("%.15f", mjd_frac - whole_days);
  if (fraction[0] == '1') {
    ++day;
    fraction = format_string("%.15f", 0.0);
  }
  return format_string("%lld.", day) + fraction.substr(2);
}

// Hours (or degrees), minutes and seconds of `units` (1e-4 seconds), as "%.2d:%.2d:%07.4f".
std::string sexagesimal_from_units(long long units) {
  const long long per_minute = 60LL * 10000;
  const long long per_hour = 60 * per_minute;
  const long long seconds_units = units % per_minute;
  return format_string("%.2lld:%.2lld:%02lld.%04lld", units / per_hour, (units / per_minute) % 60,
                   seconds_units / 10000, seconds_units % 10000);
}

void add_band_block(std::string& out, const InfFile& inf) {
  add_key_line(out, "Type of observation (EM band)", or_unknown(inf.band));
  if (inf.band == "Radio") {
    add_key_line(out, "Beam diameter (arcsec)", format_string("%.0f", inf.beam_diameter_arcsec));
    add_key_line(out, "Dispersion measure (cm-3 pc)", format_string("%.12g", inf.dm));
    add_key_line(out, "Central freq of low channel (MHz)", format_string("%.12g", inf.lofreq_mhz));
    add_key_line(out, "Total bandwidth (MHz)", format_string("%.12g", inf.bandwidth_mhz));
    add_key_line(out, "Number of channels", format_string("%d", inf.num_channels));
    add_key_line(out, "Channel bandwidth (MHz)", format_string("%.12g", inf.chan_bw_mhz));
  } else if (inf.band == "X-ray" || inf.band == "Gamma") {
    add_key_line(out, "Field-of-view diameter (arcsec)", format_string("%.2f", inf.fov_arcsec));
    add_key_line(out, "Central energy (kev)", format_string("%.1f", inf.energy_kev));
    add_key_line(out, "Energy bandpass (kev)", format_string("%.1f", inf.energy_band_kev));
  } else {
    add_key_line(out, "Photometric filter used", or_unknown(inf.filter));
    add_key_line(out, "Field-of-view diameter (arcsec)", format_string("%.2f", inf.fov_arcsec));
    add_key_line(out, "Central wavelength (nm)", format_string("%.1f", inf.wavelength_nm));
    add_key_line(out, "Bandpass (nm)", format_string("%.1f", inf.waveband_nm));
  }
}

}  // namespace

void InfFile::set_epoch_mjd(double mjd) {
  const double day = std::floor(mjd);
  mjd_int = static_cast<int>(day);
  mjd_frac = mjd - day;
}

std::vector<BinRange> InfFile::valid_bin_ranges() const {
  if (!onoff.empty()) return onoff;
  return {BinRange(0, n - 1)};
}

std::string format_ra_hms(double ra_deg) {
  const long long per_day = 24LL * 3600 * 10000;
  long long units = std::llround(std::fmod(ra_deg, 360.0) / 15.0 * 3600.0 * 10000.0) % per_day;
  if (units < 0) units += per_day;
  return sexagesimal_from_units(units);
}

std::string format_dec_dms(double dec_deg) {
  const long long units = std::llround(std::fabs(dec_deg) * 3600.0 * 10000.0);
  // A '-' only when something non-zero is printed, so -0.5 deg gives "-00:30:00.0000".
  return (dec_deg < 0 && units != 0 ? "-" : "") + sexagesimal_from_units(units);
}

std::string format_inf(const InfFile& inf) {
  std::string out;
  add_key_line(out, "Data file name without suffix", inf.name);
  const std::string telescope = or_unknown(inf.telescope);
  add_key_line(out, "Telescope used", telescope);
  const bool makedata = telescope == kMakedataTelescope;
  if (!makedata) {
    add_key_line(out, "Instrument used", or_unknown(inf.instrument));
    add_key_line(out, "Object being observed", or_unknown(inf.object));
    add_key_line(out, "J2000 Right Ascension (hh:mm:ss.ssss)", format_ra_hms(inf.ra_deg));
    add_key_line(out, "J2000 Declination     (dd:mm:ss.ssss)", format_dec_dms(inf.dec_deg));
    add_key_line(out, "Data observed by", or_unknown(inf.observer));
    add_key_line(out, "Epoch of observation (MJD)", format_epoch(inf.mjd_int, inf.mjd_frac));
    add_key_line(out, "Barycentered?           (1 yes, 0 no)", inf.barycentered ? "1" : "0");
  }
  add_key_line(out, "Number of bins in the time series",
               format_string("%-11.0f", static_cast<double>(inf.n)));
  add_key_line(out, "Width of each time series bin (sec)", format_string("%.15g", inf.dt_s));
  const bool breaks = inf.onoff.size() > 1;
  add_key_line(out, "Any breaks in the data? (1 yes, 0 no)", breaks ? "1" : "0");
  if (breaks) {
    for (size_t i = 0; i < inf.onoff.size(); ++i) {
      add_key_line(out, format_string("On/Off bin pair #%3d", static_cast<int>(i + 1)),
                   format_string("%-11.0f, %-11.0f", static_cast<double>(inf.onoff[i].first),
                             static_cast<double>(inf.onoff[i].second)));
    }
  }
  if (!makedata) add_band_block(out, inf);
  add_key_line(out, "Data analyzed by", or_unknown(inf.analyzer));
  out += " Any additional notes:\n    " + inf.notes + "\n\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading: each line is recognised by its label, so missing, extra or reordered lines are fine.

namespace {

struct InfField {
  const std::string& file;   // for messages
  const std::string& label;  // the label as it appears in the key table
  const std::string& value;  // trimmed text right of '=' (empty stays empty: the writer puts
                             // "Unknown" for empty strings except the name, as PRESTO does)
};

// Beyond this a double no longer holds every integer, and int64 conversion must stay defined.
constexpr double kMaxWholeNumber = 9.0e15;

double number_value(const InfField& f) {
  const char* begin = f.value.c_str();
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(x))
    throw file_error(f.file, "\"" + f.label + "\" is not a number: \"" + f.value + "\"");
  return x;
}

int64_t whole_number_value(const InfField& f) {
  const double x = number_value(f);
  if (x != std::floor(x) || std::fabs(x) > kMaxWholeNumber)
    throw file_error(f.file, "\"" + f.label + "\" is not a whole number: \"" + f.value + "\"");
  return static_cast<int64_t>(x);
}

int int_value(const InfField& f) {
  const int64_t x = whole_number_value(f);
  if (x < -2147483647LL || x > 2147483647LL)
    throw file_error(f.file, "\"" + f.label + "\" is out of range: \"" + f.value + "\"");
  return static_cast<int>(x);
}

// "first [ ,]+ last" as PRESTO writes on/off pairs.
BinRange pair_value(const InfField& f) {
  const char* text = f.value.c_str();
  char* end = nullptr;
  const double first = std::strtod(text, &end);
  const char* rest = end;
  while (*rest == ' ' || *rest == ',' || *rest == '\t') ++rest;
  const bool separated = rest != end && end != text;
  const double last = std::strtod(rest, &end);
  if (!separated || end == rest || !(std::fabs(first) <= kMaxWholeNumber) ||
      !(std::fabs(last) <= kMaxWholeNumber) || first != std::floor(first) ||
      last != std::floor(last))
    throw file_error(f.file,
                     "\"" + f.label + "\" is not a pair of bin numbers: \"" + f.value + "\"");
  return BinRange(static_cast<int64_t>(first), static_cast<int64_t>(last));
}

// What parse_inf learns beyond the InfFile fields themselves.
struct InfParseState {
  bool have_n = false;
  bool have_dt = false;
  int breaks_flag = -1;  // -1: no "Any breaks" line
  std::vector<BinRange> pairs;
};

struct InfKey {
  const char* label;  // the label PRESTO writes; a line matches if it starts with `prefix`
  const char* prefix;
  void (*apply)(InfFile&, InfParseState&, const InfField&);
};

// "<day>.<fraction digits>"; the digits are read as "0.<digits>" so the day keeps its precision.
// A fraction that would print as 1.000000000000000 is carried into the day here, so what is
// read formats back without a carry.
void apply_epoch(InfFile& inf, InfParseState&, const InfField& f) {
  const size_t dot = f.value.find('.');
  const std::string day = f.value.substr(0, dot);
  inf.mjd_int = int_value(InfField{f.file, f.label, day});
  inf.mjd_frac = 0.0;
  if (dot != std::string::npos) {
    const std::string digits = f.value.substr(dot + 1);
    if (digits.find_first_not_of("0123456789") != std::string::npos)
      throw file_error(f.file, "\"" + f.label + "\" is not a number: \"" + f.value + "\"");
    inf.mjd_frac = number_value(InfField{f.file, f.label, "0." + digits});
  }
  if (format_string("%.15f", inf.mjd_frac)[0] == '1') {
    ++inf.mjd_int;
    inf.mjd_frac = 0.0;
  }
  if (std::abs(inf.mjd_int) >= 1000000000)  // far beyond any epoch
    throw file_error(f.file, "\"" + f.label + "\" is out of range: \"" + f.value + "\"");
}

// Prefixes are matched (case-insensitively) from the start of the line, so "bandpass" does not
// catch "Energy bandpass".
const InfKey kInfKeys[] = {
    {"Data file name without suffix", "data file name",
     [](InfFile& i, InfParseState&, const InfField& f) { i.name = f.value; }},
    {"Telescope used", "telescope used",
     [](InfFile& i, InfParseState&, const InfField& f) { i.telescope = f.value; }},
    {"Instrument used", "instrument used",
     [](InfFile& i, InfParseState&, const InfField& f) { i.instrument = f.value; }},
    {"Object being observed", "object being observed",
     [](InfFile& i, InfParseState&, const InfField& f) { i.object = f.value; }},
    {"J2000 Right Ascension", "j2000 right ascension",
     [](InfFile& i, InfParseState&, const InfField& f) {
       i.ra_deg = parse_ra_hms(f.value, f.file);
     }},
    {"J2000 Declination", "j2000 declination",
     [](InfFile& i, InfParseState&, const InfField& f) {
       i.dec_deg = parse_dec_dms(f.value, f.file);
     }},
    {"Data observed by", "data observed by",
     [](InfFile& i, InfParseState&, const InfField& f) { i.observer = f.value; }},
    {"Epoch of observation (MJD)", "epoch of observation", apply_epoch},
    {"Barycentered?", "barycentered",
     [](InfFile& i, InfParseState&, const InfField& f) { i.barycentered = int_value(f) != 0; }},
    {"Number of bins in the time series", "number of bins",
     [](InfFile& i, InfParseState& s, const InfField& f) {
       i.n = whole_number_value(f);
       if (i.n < 0)
         throw file_error(f.file, "\"" + f.label + "\" is negative: \"" + f.value + "\"");
       s.have_n = true;
     }},
    {"Width of each time series bin (sec)", "width of each time series bin",
     [](InfFile& i, InfParseState& s, const InfField& f) {
       i.dt_s = number_value(f);
       if (!(i.dt_s > 0))
         throw file_error(f.file, "\"" + f.label + "\" must be positive: \"" + f.value + "\"");
       s.have_dt = true;
     }},
    {"Any breaks in the data?", "any breaks in the data",
     [](InfFile&, InfParseState& s, const InfField& f) { s.breaks_flag = int_value(f) != 0; }},
    {"On/Off bin pair", "on/off bin pair",
     [](InfFile&, InfParseState& s, const InfField& f) { s.pairs.push_back(pair_value(f)); }},
    {"Type of observation (EM band)", "type of observation",
     [](InfFile& i, InfParseState&, const InfField& f) { i.band = f.value; }},
    {"Beam diameter (arcsec)", "beam diameter",
     [](InfFile& i, InfParseState&, const InfField& f) {
       i.beam_diameter_arcsec = number_value(f);
     }},
    {"Dispersion measure (cm-3 pc)", "dispersion measure",
     [](InfFile& i, InfParseState&, const InfField& f) { i.dm = number_value(f); }},
    {"Central freq of low channel (MHz)", "central freq of low channel",
     [](InfFile& i, InfParseState&, const InfField& f) { i.lofreq_mhz = number_value(f); }},
    {"Total bandwidth (MHz)", "total bandwidth",
     [](InfFile& i, InfParseState&, const InfField& f) { i.bandwidth_mhz = number_value(f); }},
    {"Number of channels", "number of channels",
     [](InfFile& i, InfParseState&, const InfField& f) { i.num_channels = int_value(f); }},
    {"Channel bandwidth (MHz)", "channel bandwidth",
     [](InfFile& i, InfParseState&, const InfField& f) { i.chan_bw_mhz = number_value(f); }},
    {"Field-of-view diameter (arcsec)", "field-of-view diameter",
     [](InfFile& i, InfParseState&, const InfField& f) { i.fov_arcsec = number_value(f); }},
    {"Central energy (kev)", "central energy",
     [](InfFile& i, InfParseState&, const InfField& f) { i.energy_kev = number_value(f); }},
    {"Energy bandpass (kev)", "energy bandpass",
     [](InfFile& i, InfParseState&, const InfField& f) { i.energy_band_kev = number_value(f); }},
    {"Photometric filter used", "photometric filter",
     [](InfFile& i, InfParseState&, const InfField& f) { i.filter = f.value; }},
    {"Central wavelength (nm)", "central wavelength",
     [](InfFile& i, InfParseState&, const InfField& f) { i.wavelength_nm = number_value(f); }},
    {"Bandpass (nm)", "bandpass",
     [](InfFile& i, InfParseState&, const InfField& f) { i.waveband_nm = number_value(f); }},
    {"Data analyzed by", "data analyzed by",
     [](InfFile& i, InfParseState&, const InfField& f) { i.analyzer = f.value; }},
};

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

const InfKey* key_for_line(const std::string& line) {
  const std::string start = lowercase(line.substr(0, 64));
  const size_t first = start.find_first_not_of(" \t");
  if (first == std::string::npos) return nullptr;
  const std::string label = start.substr(first);
  for (const InfKey& key : kInfKeys)
    if (starts_with(label, key.prefix)) return &key;
  return nullptr;
}

// Text right of '=': at column 41 when '=' sits at column 40 (PRESTO's own layout, which lets
// values contain '='), else right of the last '='.
bool value_of_line(const std::string& line, std::string& value) {
  size_t equals = std::string::npos;
  if (line.size() > kEqualsColumn && line[kEqualsColumn] == '=')
    equals = kEqualsColumn;
  else
    equals = line.rfind('=');
  if (equals == std::string::npos) return false;
  value = trimmed(line.substr(equals + 1));
  return true;
}

// Drops every '\r' that ends a line (CRLF, or stray runs of them).
std::string without_carriage_returns(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n')
      while (!out.empty() && out.back() == '\r') out.pop_back();
    out += c;
  }
  while (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

// The notes as format_inf() would take them back: the 4-space indent of the first line and the
// closing "\n\n" removed.
std::string notes_from(const std::string& rest) {
  size_t begin = 0;
  while (begin < 4 && begin < rest.size() && rest[begin] == ' ') ++begin;
  std::string notes = rest.substr(begin);
  if (notes.size() >= 2 && notes.compare(notes.size() - 2, 2, "\n\n") == 0)
    notes.resize(notes.size() - 2);
  else if (!notes.empty() && notes.back() == '\n')
    notes.pop_back();
  return notes;
}

void finish_onoff(InfFile& inf, const InfParseState& state) {
  if (state.breaks_flag == 0) return;
  // PRESTO stops at the first pair that reaches the last bin.
  for (const BinRange& pair : state.pairs) {
    inf.onoff.push_back(pair);
    if (pair.second >= inf.n - 1) break;
  }
}

// The values later computations divide by or size memory from, checked once here.
void validate_inf_fields(const InfFile& inf, const std::string& name) {
  validate_sample_time(name, "\"Width of each time series bin (sec)\"", inf.dt_s);
  if (inf.num_channels < 1)
    throw_header_field_error(name, "\"Number of channels\"", inf.num_channels, "",
                             "must be at least 1");
  validate_channel_band(name, "\"Central freq of low channel (MHz)\"", inf.lofreq_mhz,
                        "\"Channel bandwidth (MHz)\"", inf.chan_bw_mhz, inf.num_channels);
  require_in_range(name, "\"Dispersion measure (cm-3 pc)\"", inf.dm, "pc cm^-3", -kMaxDm, kMaxDm);
}

}  // namespace

InfFile parse_inf(const std::string& raw_text, const std::string& name) {
  if (raw_text.find('\0') != std::string::npos)
    throw file_error(name, "not a PRESTO .inf text file (it holds binary data)");
  const std::string text = without_carriage_returns(raw_text);
  InfFile inf;
  InfParseState state;
  size_t line_start = 0;
  int line_number = 0;
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    const size_t next = line_end == std::string::npos ? text.size() : line_end + 1;
    if (line_end == std::string::npos) line_end = text.size();
    const std::string line = text.substr(line_start, line_end - line_start);
    ++line_number;
    line_start = next;
    if (starts_with(lowercase(trimmed(line)), "any additional notes")) {
      inf.notes = notes_from(text.substr(next));
      break;
    }
    const InfKey* key = key_for_line(line);
    if (!key) continue;  // unknown lines are other writers' business
    std::string value;
    if (!value_of_line(line, value))
      throw file_error(
          name, "line " + std::to_string(line_number) + ": no '=' after \"" + key->label + "\"");
    const std::string label = key->label;
    key->apply(inf, state, InfField{name, label, value});
  }
  if (!state.have_n)
    throw file_error(name, "no \"Number of bins in the time series\" line (N is required)");
  if (!state.have_dt)
    throw file_error(name, "no \"Width of each time series bin (sec)\" line (dt is required)");
  finish_onoff(inf, state);
  validate_inf_fields(inf, name);
  return inf;
}

namespace {

double parse_sexagesimal(const std::string& raw, const std::string& name, const char* what) {
  const std::string text = trimmed(raw);
  const bool negative = !text.empty() && text[0] == '-';
  const size_t start = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  double value = 0.0;
  double scale = 1.0;
  size_t pos = start;
  int fields = 0;
  while (fields < 3) {
    const size_t colon = text.find(':', pos);
    const std::string field =
        text.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    char* end = nullptr;
    const double x = std::strtod(field.c_str(), &end);
    if (field.empty() || *end != '\0' || field[0] == '-' || field[0] == '+' || !std::isfinite(x))
      throw file_error(name, std::string(what) + " is not in the form " +
                                 (what[0] == 'R' ? "hh:mm:ss.ssss" : "dd:mm:ss.ssss") + ": \"" +
                                 raw + "\"");
    value += x / scale;
    scale *= 60.0;
    ++fields;
    if (colon == std::string::npos) break;
    pos = colon + 1;
    if (fields == 3)
      throw file_error(name, std::string(what) + " has more than three fields: \"" + raw + "\"");
  }
  return negative ? -value : value;
}

}  // namespace

double parse_ra_hms(const std::string& text, const std::string& name) {
  const double hours = parse_sexagesimal(text, name, "Right Ascension");
  if (!(std::fabs(hours) <= 1e6))
    throw file_error(name, "Right Ascension is out of range: \"" + text + "\"");
  return 15.0 * hours;
}

double parse_dec_dms(const std::string& text, const std::string& name) {
  const double degrees = parse_sexagesimal(text, name, "Declination");
  if (!(std::fabs(degrees) <= 90.0))
    throw file_error(name, "Declination is out of range: \"" + text + "\"");
  return degrees;
}

InfFile read_inf(const std::string& path) {
  return parse_inf(read_file_contents(path), path);
}

void write_inf(const std::string& path, const InfFile& inf, bool overwrite) {
  if (inf.onoff.size() > static_cast<size_t>(kMaxOnOffPairs))
    throw file_error(path, std::to_string(inf.onoff.size()) +
                               " on/off pairs; PRESTO reads at most " +
                               std::to_string(kMaxOnOffPairs));
  write_file_atomically(path, format_inf(inf), overwrite);
}

std::string dm_trial_root(const std::string& root, double dm) {
  return root + format_string("_DM%.2f", dm);
}

std::string strip_suffix(const std::string& path, const std::string& suffix) {
  if (path.size() >= suffix.size() &&
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return path.substr(0, path.size() - suffix.size());
  return path;
}

}  // namespace rapt
