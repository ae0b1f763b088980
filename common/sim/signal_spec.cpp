#include "sim/signal_spec.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

#include "cli/errors.hpp"

namespace rapt {

namespace {

std::string lowercase(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Parses the whole of `text` as a finite number, or returns false.
bool parse_number(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(*value);
}

// The key=value pairs of one signal option, by canonical key name.
class KeyValues {
 public:
  KeyValues(const char* option, const std::string& text, const std::vector<std::string>& keys)
      : option_(option), text_(text) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      add(trim(text.substr(start, comma - start)), keys);
      start = comma + 1;
    }
  }

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  double get(const std::string& key) const {
    if (!has(key)) fail("missing " + key + "=");
    return values_.at(key);
  }
  void set(const std::string& key, double* out) const {
    if (has(key)) *out = values_.at(key);
  }
  void set(const std::string& key, std::optional<double>* out) const {
    if (has(key)) *out = values_.at(key);
  }
  [[noreturn]] void fail(const std::string& problem) const {
    throw UsageError(option_ + " \"" + text_ + "\": " + problem);
  }

 private:
  void add(const std::string& item, const std::vector<std::string>& keys) {
    const size_t equals = item.find('=');
    if (equals == std::string::npos) fail("\"" + item + "\" is not key=value");
    const std::string given = trim(item.substr(0, equals));
    const std::string value_text = trim(item.substr(equals + 1));
    std::string key;
    for (const std::string& known : keys)
      if (lowercase(known) == lowercase(given)) key = known;
    if (key.empty()) {
      std::string list;
      for (const std::string& known : keys) list += (list.empty() ? "" : ", ") + known;
      fail("unknown key \"" + given + "\"; known keys: " + list);
    }
    if (has(key)) fail(key + " given twice");
    double value = 0;
    if (!parse_number(value_text, &value)) fail(given + "=" + value_text + " is not a number");
    values_[key] = value;
  }

  std::string option_;
  std::string text_;
  std::map<std::string, double> values_;
};

// Splits "dd:mm:ss.s" into its (up to three) non-negative fields and a sign.
bool parse_sexagesimal(const std::string& text, double* sign, double fields[3]) {
  std::string body = trim(text);
  *sign = 1.0;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    if (body[0] == '-') *sign = -1.0;
    body = body.substr(1);
  }
  fields[0] = fields[1] = fields[2] = 0.0;
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    size_t colon = body.find(':', start);
    const bool last = colon == std::string::npos;
    if (last) colon = body.size();
    const std::string part = body.substr(start, colon - start);
    if (part.empty() || part[0] == '-' || part[0] == '+' || !parse_number(part, &fields[i]))
      return false;
    if (i < 2 && fields[i] != std::floor(fields[i]) && !last) return false;
    if (last) return true;
    start = colon + 1;
  }
  return false;  // more than three fields
}

}  // namespace

PulsarSpec parse_pulsar_spec(const std::string& text) {
  const KeyValues kv("--pulsar", text,
                     {"P", "DM", "snr", "amp", "pdot", "accel", "duty", "index", "fref", "phase",
                      "porb", "asini", "t0"});
  PulsarSpec spec;
  spec.text = text;
  spec.period_s = kv.get("P");
  spec.dm = kv.get("DM");
  if (!kv.has("snr") && !kv.has("amp")) kv.fail("missing snr= (or amp=)");
  kv.set("snr", &spec.snr);
  kv.set("amp", &spec.amp);
  kv.set("pdot", &spec.pdot);
  kv.set("accel", &spec.accel_ms2);
  kv.set("duty", &spec.duty);
  kv.set("index", &spec.spectral_index);
  kv.set("fref", &spec.ref_freq_mhz);
  kv.set("phase", &spec.phase);
  kv.set("porb", &spec.porb_s);
  kv.set("asini", &spec.asini_lts);
  kv.set("t0", &spec.t0_s);
  if (kv.has("t0") && !kv.has("porb")) kv.fail("t0= needs a binary orbit (porb= and asini=)");
  return spec;
}

BurstSpec parse_burst_spec(const std::string& text) {
  const KeyValues kv("--burst", text,
                     {"t", "DM", "width", "snr", "amp", "fluence", "scatter", "index", "fref"});
  BurstSpec spec;
  spec.text = text;
  spec.t_s = kv.get("t");
  spec.dm = kv.get("DM");
  spec.width_s = kv.get("width");
  if (!kv.has("snr") && !kv.has("amp") && !kv.has("fluence"))
    kv.fail("missing snr= (or amp= or fluence=)");
  kv.set("snr", &spec.snr);
  kv.set("amp", &spec.amp);
  kv.set("fluence", &spec.fluence_jyms);
  kv.set("scatter", &spec.scatter_s);
  kv.set("index", &spec.spectral_index);
  kv.set("fref", &spec.ref_freq_mhz);
  return spec;
}

RfiLineSpec parse_rfi_line_spec(const std::string& text) {
  const KeyValues kv("--rfi-line", text, {"freq", "amp", "period"});
  RfiLineSpec spec;
  spec.text = text;
  spec.freq_mhz = kv.get("freq");
  spec.amp = kv.get("amp");
  kv.set("period", &spec.period_s);
  return spec;
}

RfiImpulseSpec parse_rfi_impulse_spec(const std::string& text) {
  const KeyValues kv("--rfi-impulse", text, {"t", "amp", "width"});
  RfiImpulseSpec spec;
  spec.text = text;
  spec.t_s = kv.get("t");
  spec.amp = kv.get("amp");
  kv.set("width", &spec.width_s);
  return spec;
}

double parse_right_ascension(const std::string& text, const std::string& option) {
  double sign = 1.0;
  double f[3];
  if (!parse_sexagesimal(text, &sign, f) || sign < 0 || trim(text)[0] == '+')
    throw UsageError(option + " " + text + ": expected hh:mm:ss.s");
  if (f[0] >= 24 || f[1] >= 60 || f[2] >= 60)
    throw UsageError(option + " " + text + ": out of range (hours 0-23, minutes and seconds 0-59)");
  return f[0] * 10000 + f[1] * 100 + f[2];
}

double parse_declination(const std::string& text, const std::string& option) {
  double sign = 1.0;
  double f[3];
  if (!parse_sexagesimal(text, &sign, f))
    throw UsageError(option + " " + text + ": expected [+-]dd:mm:ss.s");
  if (f[1] >= 60 || f[2] >= 60 || f[0] + f[1] / 60 + f[2] / 3600 > 90)
    throw UsageError(option + " " + text + ": out of range (|dec| <= 90 degrees, minutes and seconds 0-59)");
  return sign * (f[0] * 10000 + f[1] * 100 + f[2]);
}

}  // namespace rapt
