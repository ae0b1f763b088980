#include "accel/birdie_zap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "accel/power_median.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {
namespace {

constexpr long kMedianBins = 200;

// Reads "number number" at the start of `text`; false if there are not two numbers.
bool two_numbers(const std::string& text, double& first, double& second) {
  const char* begin = text.c_str();
  char* end = nullptr;
  first = std::strtod(begin, &end);
  if (end == begin) return false;
  const char* rest = end;
  second = std::strtod(rest, &end);
  return end != rest;
}

// Median power of up to kMedianBins bins from `start`, cut to the spectrum.
float window_median(const std::vector<std::complex<float>>& packed, long start) {
  const long from = std::max(start, 0L);
  const long to = std::min(start + kMedianBins, static_cast<long>(packed.size()));
  if (to <= from) return 0.0f;
  return median_power(packed.data() + from, static_cast<size_t>(to - from));
}

}  // namespace

std::vector<ZapEntry> parse_zaplist(const std::string& text, const std::string& name) {
  std::vector<ZapEntry> entries;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    ZapEntry entry;
    std::string body = line.substr(first, line.find('#') - first);
    if (body[0] == 'B' || body[0] == 'b') {
      entry.barycentric = true;
      body = body.substr(1);
    }
    if (!two_numbers(body, entry.freq_hz, entry.width_hz))
      throw DataError(name + ":" + std::to_string(number) +
                      ": expected 'frequency_Hz width_Hz', got '" + line + "'");
    entries.push_back(entry);
  }
  return entries;
}

std::vector<ZapEntry> read_zaplist(const std::string& path) {
  return parse_zaplist(read_file_contents(path), path);
}

std::vector<BirdieBins> birdie_bins(const std::vector<ZapEntry>& entries, double T_s,
                                    double baryv) {
  std::vector<BirdieBins> birdies;
  for (const ZapEntry& e : entries) {
    const double factor = e.barycentric ? T_s : T_s * (1.0 + baryv);
    BirdieBins b{(e.freq_hz - 0.5 * e.width_hz) * factor, (e.freq_hz + 0.5 * e.width_hz) * factor};
    if (b.hibin - b.lobin < 1.0) {
      const double centre = 0.5 * (b.hibin + b.lobin);
      b = {centre - 0.5, centre + 0.5};
    }
    birdies.push_back(b);
  }
  std::stable_sort(birdies.begin(), birdies.end(),
                   [](const BirdieBins& a, const BirdieBins& b) { return a.lobin < b.lobin; });
  return birdies;
}

bool zap_birdie(std::vector<std::complex<float>>& packed, double lobin, double hibin) {
  if (!(lobin - 1.5 * kMedianBins > 1)) return false;
  const float median_lo = window_median(packed, static_cast<long>(lobin - 3 * kMedianBins / 2));
  const float median_hi = window_median(packed, static_cast<long>(hibin - kMedianBins / 2));
  const float amplitude =
      static_cast<float>(std::sqrt(0.5 * (median_lo + median_hi) / -std::log(0.5)));
  const long first = static_cast<long>(std::floor(lobin));
  const long end = std::min(static_cast<long>(std::ceil(hibin)), static_cast<long>(packed.size()));
  for (long k = first; k < end; ++k) packed[static_cast<size_t>(k)] = {amplitude, 0.0f};
  return true;
}

int zap_birdies(std::vector<std::complex<float>>& packed, const std::vector<BirdieBins>& birdies) {
  const double numbins = static_cast<double>(packed.size());
  int zapped = 0;
  for (const BirdieBins& b : birdies) {
    if (b.lobin >= numbins) break;
    const double hibin = b.hibin >= numbins ? numbins - 1 : b.hibin;
    if (zap_birdie(packed, b.lobin, hibin)) ++zapped;
  }
  return zapped;
}

}  // namespace rapt
