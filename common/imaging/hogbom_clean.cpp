#include "imaging/hogbom_clean.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

constexpr int kRowsPerItem = 64;

// [first, last) of the region along one axis.
std::pair<int, int> region(int n) {
  const int half = int(std::floor(n * kCleanRegion / 2));
  return {std::max(0, n / 2 - half), std::min(n, n / 2 + half)};
}

struct Peak {
  double value = 0;  // signed
  int x = -1, y = -1;
};

// The largest |residual| in the region (the first such pixel in row order on ties, whatever
// the threads).
Peak find_peak(const std::vector<float>& residual, int n, int threads) {
  const auto [lo, hi] = region(n);
  const size_t items = size_t((hi - lo + kRowsPerItem - 1) / kRowsPerItem);
  std::vector<Peak> best(items);
  // The region's bounds by copy: C++17 lambdas may not capture structured bindings.
  parallel_for(threads, items, [&, lo = lo, hi = hi](size_t item, int) {
    Peak p;
    const int y1 = lo + int(item) * kRowsPerItem, y2 = std::min(hi, y1 + kRowsPerItem);
    for (int y = y1; y < y2; ++y) {
      // The row's largest |value| first (independent running maxima, no branch to predict),
      // then, only where it beats the peak so far, its first pixel.
      const float* row = residual.data() + size_t(y) * n;
      float m[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      int x = lo;
      for (; x + 8 <= hi; x += 8)
        for (int k = 0; k < 8; ++k) m[k] = std::max(m[k], std::abs(row[x + k]));
      for (; x < hi; ++x) m[0] = std::max(m[0], std::abs(row[x]));
      const float top = *std::max_element(m, m + 8);
      if (!(top > std::abs(p.value))) continue;
      x = lo;
      while (std::abs(row[x]) != top) ++x;
      p = {row[x], x, y};
    }
    best[item] = p;
  });
  Peak p;
  for (const Peak& b : best)
    if (std::abs(b.value) > std::abs(p.value)) p = b;
  return p;
}

// out[x] -= c in[x] for x < width, in runs of 8 that the compiler turns into vector
// instructions (the same rounded product and difference per pixel).
void subtract_row(float* __restrict out, const float* __restrict in, float c, int width) {
  int x = 0;
  for (; x + 8 <= width; x += 8)
    for (int k = 0; k < 8; ++k) out[x + k] -= c * in[x + k];
  for (; x < width; ++x) out[x] -= c * in[x];
}

// residual -= c x psf shifted so that its centre lies on (px, py), in the region only: the
// minor cycle reads nothing else, and the major cycle images the whole residual afresh.
void subtract_psf(std::vector<float>& residual, const std::vector<float>& psf, int n, int px, int py,
                  float c, int threads) {
  const auto [lo, hi] = region(n);
  const int y1 = std::max(lo, py - n / 2), y2 = std::min(hi, py + n / 2);
  const int x1 = std::max(lo, px - n / 2), x2 = std::min(hi, px + n / 2);
  const size_t items = size_t((y2 - y1 + kRowsPerItem - 1) / kRowsPerItem);
  parallel_for(threads, items, [&](size_t item, int) {
    const int ya = y1 + int(item) * kRowsPerItem, yb = std::min(y2, ya + kRowsPerItem);
    for (int y = ya; y < yb; ++y)
      subtract_row(residual.data() + size_t(y) * n + x1,
                   psf.data() + size_t(y - py + n / 2) * n + (x1 + n / 2 - px), c, x2 - x1);
  });
}

}  // namespace

MinorCycle hogbom_minor_cycle(std::vector<float>& residual, const std::vector<float>& psf, int n,
                              const CleanSettings& s, int max_components, std::vector<float>& model,
                              int threads) {
  MinorCycle cycle;
  Peak peak = find_peak(residual, n, threads);
  cycle.first_peak = cycle.last_peak = std::abs(peak.value);
  const double stop = std::max(s.threshold, (1 - s.mgain) * cycle.first_peak);
  const double diverging = kDivergingPeakRatio * cycle.first_peak;
  while (cycle.components < max_components && peak.x >= 0 && std::abs(peak.value) > 0 &&
         std::abs(peak.value) >= stop && std::abs(peak.value) <= diverging) {
    const float c = float(s.gain * peak.value);
    const size_t q = size_t(peak.y) * n + peak.x;
    model[q] += c;
    cycle.pixels.push_back(q);
    subtract_psf(residual, psf, n, peak.x, peak.y, c, threads);
    ++cycle.components;
    peak = find_peak(residual, n, threads);
    cycle.last_peak = std::abs(peak.value);
  }
  return cycle;
}

double clean_region_peak(const std::vector<float>& image, int n, int threads) {
  return std::abs(find_peak(image, n, threads).value);
}

CleanBeam fit_clean_beam(const std::vector<float>& psf, int n) {
  const int cx = n / 2, cy = n / 2;
  const float top = psf[size_t(cy) * n + cx];
  if (!(top > 0)) throw DataError("the PSF's centre holds no positive peak: no restoring beam");
  // The main lobe's core: flood fill from the centre over pixels above kFitLevel of the peak,
  // and there log(psf / top) = -(a x^2 + 2 b x y + d y^2) / 2 by least squares (exact for a
  // Gaussian, whatever the pixel size).
  constexpr float kFitLevel = 0.35f;
  std::vector<char> seen(size_t(n) * n, 0);
  std::vector<std::pair<int, int>> stack{{cx, cy}};
  seen[size_t(cy) * n + cx] = 1;
  double m[3][3] = {}, r[3] = {};  // normal equations in (a, b, d)
  while (!stack.empty()) {
    const auto [x, y] = stack.back();
    stack.pop_back();
    const double dx = x - cx, dy = y - cy;
    const double f[3] = {-0.5 * dx * dx, -dx * dy, -0.5 * dy * dy};
    const double t = std::log(double(psf[size_t(y) * n + x]) / top);
    for (int i = 0; i < 3; ++i) {
      r[i] += f[i] * t;
      for (int k = 0; k < 3; ++k) m[i][k] += f[i] * f[k];
    }
    const int next[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
    for (const auto& q : next) {
      if (q[0] < 0 || q[1] < 0 || q[0] >= n || q[1] >= n) continue;
      const size_t i = size_t(q[1]) * n + q[0];
      if (seen[i] || !(psf[i] > kFitLevel * top)) continue;
      seen[i] = 1;
      stack.push_back({q[0], q[1]});
    }
  }
  // Solve by Cramer's rule; a lobe of one pixel (or a line) leaves it singular.
  auto det3 = [](const double (&a)[3][3]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  const double det = det3(m);
  double q[3] = {0, 0, 0};
  for (int c = 0; c < 3 && det != 0; ++c) {
    double a[3][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) a[i][k] = k == c ? r[i] : m[i][k];
    q[c] = det3(a) / det;
  }
  // Curvatures along the axes: the major axis has the smaller one.
  const double mean = (q[0] + q[2]) / 2;
  const double spread = std::sqrt(((q[0] - q[2]) / 2) * ((q[0] - q[2]) / 2) + q[1] * q[1]);
  const double flat = mean - spread, steep = mean + spread;
  CleanBeam beam;
  const double fwhm_per_sigma = 2 * std::sqrt(2 * std::log(2.0));
  if (!(flat > 0)) {  // no lobe to fit: a beam of one pixel
    beam.major_px = beam.minor_px = 1;
    return beam;
  }
  beam.major_px = fwhm_per_sigma / std::sqrt(flat);
  beam.minor_px = fwhm_per_sigma / std::sqrt(steep);
  // The major axis (ux, uy) in pixels, the eigenvector of the smaller curvature; north is +y
  // and east is -x.
  const double angle = 0.5 * std::atan2(2 * q[1], q[0] - q[2]) + M_PI / 2;
  const double ux = std::cos(angle), uy = std::sin(angle);
  double pa = std::atan2(-ux, uy);
  if (pa <= -M_PI / 2) pa += M_PI;
  if (pa > M_PI / 2) pa -= M_PI;
  beam.pa_rad = pa;
  return beam;
}

std::vector<float> restore_image(const std::vector<float>& model, const std::vector<float>& residual,
                                 int n, const CleanBeam& beam) {
  std::vector<float> image = residual;
  const double fwhm_to_sigma = 1.0 / (2 * std::sqrt(2 * std::log(2.0)));
  const double sa = beam.major_px * fwhm_to_sigma, sb = beam.minor_px * fwhm_to_sigma;
  // The major axis's direction in pixels (inverse of fit_clean_beam's position angle).
  const double ux = -std::sin(beam.pa_rad), uy = std::cos(beam.pa_rad);
  const int reach = int(std::ceil(5 * sa));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const float c = model[size_t(y) * n + x];
      if (c == 0) continue;
      for (int v = std::max(0, y - reach); v < std::min(n, y + reach + 1); ++v)
        for (int u = std::max(0, x - reach); u < std::min(n, x + reach + 1); ++u) {
          const double dx = u - x, dy = v - y;
          const double along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
          const double g = std::exp(-0.5 * (along * along / (sa * sa) + across * across / (sb * sb)));
          image[size_t(v) * n + u] += float(c * g);
        }
    }
  return image;
}

}  // namespace rapt
