#include "sim/sky_model.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "cli/errors.hpp"

namespace rapt {

namespace {

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string lowercase(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

struct KeyValue {
  std::string key;  // lower case
  std::string value;
};

std::vector<KeyValue> split_items(const std::string& option, const std::string& text) {
  std::vector<KeyValue> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = trim(text.substr(start, comma - start));
    const size_t equals = item.find('=');
    if (equals == std::string::npos)
      throw UsageError(option + " \"" + text + "\": \"" + item + "\" is not key=value");
    items.push_back({lowercase(trim(item.substr(0, equals))), trim(item.substr(equals + 1))});
    start = comma + 1;
  }
  return items;
}

double number_value(const std::string& option, const std::string& text, const KeyValue& kv) {
  char* end = nullptr;
  const double value = std::strtod(kv.value.c_str(), &end);
  if (kv.value.empty() || end != kv.value.c_str() + kv.value.size() || !std::isfinite(value))
    throw UsageError(option + " \"" + text + "\": " + kv.key + "=" + kv.value + " is not a number");
  return value;
}

}  // namespace

double PointSourceSpec::flux_at(double freq_mhz, double centre_mhz) const {
  const double ref_mhz = ref_freq_mhz > 0 ? ref_freq_mhz : centre_mhz;
  return flux_jy * std::pow(freq_mhz / ref_mhz, spectral_index);
}

PointSourceSpec parse_point_source_spec(const std::string& text) {
  const std::string option = "--source";
  PointSourceSpec spec;
  spec.text = text;
  bool seen[5] = {false, false, false, false, false};
  const char* keys[5] = {"ra", "dec", "flux", "index", "fref"};
  const auto fail = [&](const std::string& problem) {
    throw UsageError(option + " \"" + text + "\": " + problem);
  };
  for (const KeyValue& kv : split_items(option, text)) {
    int which = -1;
    for (int i = 0; i < 5; ++i)
      if (kv.key == keys[i]) which = i;
    if (which < 0) fail("unknown key \"" + kv.key + "\"; known keys: ra, dec, flux, index, fref");
    if (seen[which]) fail(kv.key + " given twice");
    seen[which] = true;
    const std::string what = option + " \"" + text + "\": " + kv.key;
    if (which == 0) spec.direction.ra_rad = parse_ra_rad(kv.value, what);
    if (which == 1) spec.direction.dec_rad = parse_dec_rad(kv.value, what);
    if (which == 2) spec.flux_jy = number_value(option, text, kv);
    if (which == 3) spec.spectral_index = number_value(option, text, kv);
    if (which == 4) spec.ref_freq_mhz = number_value(option, text, kv);
  }
  for (int i = 0; i < 3; ++i)
    if (!seen[i]) fail(std::string("missing ") + keys[i] + "=");
  if (!(spec.flux_jy >= 0)) fail("flux must be >= 0 Jy");
  if (seen[4] && !(spec.ref_freq_mhz > 0)) fail("fref must be a positive frequency in MHz");
  return spec;
}

DirectedSignalText split_direction_keys(const std::string& option, const std::string& text,
                                        const SkyDirection& phase_centre) {
  DirectedSignalText out;
  out.direction = phase_centre;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = trim(text.substr(start, comma - start));
    const size_t equals = item.find('=');
    const std::string key = equals == std::string::npos ? "" : lowercase(trim(item.substr(0, equals)));
    const std::string value = equals == std::string::npos ? "" : trim(item.substr(equals + 1));
    const std::string what = option + " \"" + text + "\": " + key;
    if (key == "ra") {
      out.direction.ra_rad = parse_ra_rad(value, what);
    } else if (key == "dec") {
      out.direction.dec_rad = parse_dec_rad(value, what);
    } else {
      out.rest += (out.rest.empty() ? "" : ",") + item;
    }
    start = comma + 1;
  }
  return out;
}

}  // namespace rapt
