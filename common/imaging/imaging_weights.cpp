#include "imaging/imaging_weights.hpp"

#include <cmath>
#include <cstdio>

#include "cli/errors.hpp"
#include "cli/text_words.hpp"

namespace rapt {

Weighting parse_weighting(const std::string& text) {
  const std::string t = lowercase(trimmed(text));
  if (t == "natural") return {WeightingMode::natural, 0};
  if (t == "uniform") return {WeightingMode::uniform, 0};
  if (t.compare(0, 6, "briggs") == 0 && t.size() > 7 &&
      (t[6] == ':' || t[6] == '=' || t[6] == ' ')) {
    const std::optional<double> r = finite_number(trimmed(t.substr(7)));
    if (r && *r >= -5 && *r <= 5) return {WeightingMode::briggs, *r};
  }
  throw UsageError("--weight must be natural, uniform or briggs:R with -5 <= R <= 5 (as in "
                   "briggs:0.5), not '" + text + "'");
}

std::string describe_weighting(const Weighting& w) {
  char text[96];
  if (w.mode == WeightingMode::briggs)
    std::snprintf(text, sizeof text, "briggs %g weighting", w.robustness);
  else
    std::snprintf(text, sizeof text, "%s weighting",
                  w.mode == WeightingMode::natural ? "natural" : "uniform");
  std::string out = text;
  if (w.taper_fwhm_rad > 0) {
    std::snprintf(text, sizeof text, ", Gaussian taper %gasec", w.taper_fwhm_rad * 180 / M_PI * 3600);
    out += text;
  }
  if (w.min_uv_lambda > 0 || w.max_uv_lambda > 0) {
    if (w.max_uv_lambda > 0 && w.min_uv_lambda > 0)
      std::snprintf(text, sizeof text, ", uv %g-%g wavelengths", w.min_uv_lambda, w.max_uv_lambda);
    else if (w.max_uv_lambda > 0)
      std::snprintf(text, sizeof text, ", uv up to %g wavelengths", w.max_uv_lambda);
    else
      std::snprintf(text, sizeof text, ", uv from %g wavelengths", w.min_uv_lambda);
    out += text;
  }
  return out;
}

bool in_uv_range(const Weighting& w, double u, double v) {
  const double distance = std::hypot(u, v);
  return distance >= w.min_uv_lambda && (w.max_uv_lambda <= 0 || distance <= w.max_uv_lambda);
}

double gaussian_taper(const Weighting& w, double u, double v) {
  if (!(w.taper_fwhm_rad > 0)) return 1.0;
  const double sigma = w.taper_fwhm_rad / (2 * std::sqrt(2 * std::log(2.0)));
  return std::exp(-2 * M_PI * M_PI * sigma * sigma * (u * u + v * v));
}

ImagingWeights::ImagingWeights(const Weighting& weighting, int nx, int ny, double cell_rad)
    : weighting_(weighting), nx_(nx), ny_(ny), u_scale_(nx * cell_rad), v_scale_(ny * cell_rad) {
  if (weighting_.mode != WeightingMode::natural) sums_.assign(size_t(nx_) * size_t(ny_ / 2), 0.0);
}

long ImagingWeights::cell(double u, double v) const {
  if (v < 0) {  // the mirror sample, in the kept half-plane
    u = -u;
    v = -v;
  }
  // Cells span [k, k + 1) in units of 1 / (N cell), the grid's centre at column N/2 (WSClean's
  // partition, so the same samples share a cell in both programs).
  const double x = std::floor(u * u_scale_ + nx_ / 2);
  const double y = std::floor(v * v_scale_);
  if (!(x >= 0 && x < nx_ && y < ny_ / 2)) return -1;
  return long(y) * nx_ + long(x);
}

void ImagingWeights::add(double u, double v, float weight) {
  if (sums_.empty() || !(weight > 0)) return;
  const long c = cell(u, v);
  if (c >= 0) sums_[size_t(c)] += weight;
}

void ImagingWeights::finish() {
  if (weighting_.mode != WeightingMode::briggs) return;
  double sum = 0, sum_squares = 0;
  for (double w : sums_) {
    sum += w;
    sum_squares += w * w;
  }
  const double numerator = 5 * std::pow(10.0, -weighting_.robustness);
  f2_ = sum_squares > 0 ? numerator * numerator / (sum_squares / sum) : 0;
}

double ImagingWeights::cell_sum(double u, double v) const {
  if (sums_.empty()) return 0;
  const long c = cell(u, v);
  return c < 0 ? 0 : sums_[size_t(c)];
}

float ImagingWeights::weight(double u, double v, float weight) const {
  if (weighting_.mode == WeightingMode::natural || !(weight > 0)) return weight > 0 ? weight : 0;
  const double density = cell_sum(u, v);
  if (!(density > 0)) return weight;  // off the grid: left for the gridder to refuse
  if (weighting_.mode == WeightingMode::uniform) return float(weight / density);
  return float(weight / (1 + density * f2_));
}

}  // namespace rapt
