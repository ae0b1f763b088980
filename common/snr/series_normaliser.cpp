#include "snr/series_normaliser.hpp"

#include <algorithm>
#include <cmath>

namespace rapt {
namespace {

// Least-squares line through (i, x[i]), removed in place.
void remove_linear_trend(float* x, int64_t len) {
  const double mean_i = 0.5 * double(len - 1);
  double mean_x = 0.0;
  for (int64_t i = 0; i < len; ++i) mean_x += x[i];
  mean_x /= double(len);
  double sxy = 0.0, sxx = 0.0;
  for (int64_t i = 0; i < len; ++i) {
    const double di = double(i) - mean_i;
    sxy += di * (x[i] - mean_x);
    sxx += di * di;
  }
  const double slope = sxx > 0.0 ? sxy / sxx : 0.0;
  for (int64_t i = 0; i < len; ++i) x[i] = float(x[i] - (mean_x + slope * (double(i) - mean_i)));
}

float median_of(std::vector<float>& scratch) {
  const size_t mid = scratch.size() / 2;
  std::nth_element(scratch.begin(), scratch.begin() + mid, scratch.end());
  return scratch[mid];
}

// PRESTO: rms of sorted[L//40 : L - ceil(L/40)] over 0.95 L, times 1.148.
double clipped_rms(std::vector<float>& sorted) {
  std::sort(sorted.begin(), sorted.end());
  const int64_t len = int64_t(sorted.size());
  const int64_t lo = len / 40, hi = len - (len + 39) / 40;
  double sum_sq = 0.0;
  for (int64_t i = lo; i < hi; ++i) sum_sq += double(sorted[i]) * sorted[i];
  return std::sqrt(sum_sq / (0.95 * double(len))) * 1.148;
}

}  // namespace

double detrend_block(float* block, int64_t len, Baseline baseline, NoiseEstimate noise) {
  std::vector<float> scratch(block, block + len);
  if (baseline == Baseline::kLinear) {
    remove_linear_trend(block, len);
  } else {
    // PRESTO's -f: the element at L/2 of the sorted block.
    const float median = median_of(scratch);
    for (int64_t i = 0; i < len; ++i) block[i] -= median;
  }
  scratch.assign(block, block + len);
  if (noise == NoiseEstimate::kClippedRms) return clipped_rms(scratch);
  const float centre = median_of(scratch);
  for (float& v : scratch) v = std::fabs(v - centre);
  return 1.4826 * double(median_of(scratch));
}

std::vector<bool> find_bad_blocks(const std::vector<double>& block_sigma, bool reject_outliers,
                                  int64_t block_len, double* median_sigma) {
  const size_t nblocks = block_sigma.size();
  // PRESTO's cuts need many blocks: with a few, the sigmas between the cuts are too few for
  // a fair standard deviation and good blocks get rejected.
  constexpr size_t kMinBlocksForPrestoCuts = 64;
  std::vector<bool> bad(nblocks, false);
  std::vector<double> usable;
  for (size_t i = 0; i < nblocks; ++i) {
    if (!(block_sigma[i] > 0.0) || !std::isfinite(block_sigma[i])) bad[i] = true;
    else usable.push_back(block_sigma[i]);
  }
  std::sort(usable.begin(), usable.end());
  const size_t n = usable.size();
  *median_sigma = n ? usable[n / 2] : 1.0;
  if (!reject_outliers || n < 4) return bad;
  // PRESTO splits off the lowest and highest sigmas at the largest gaps in each sorted half.
  size_t locut = 1, hicut = n / 2;
  double best = -1.0;
  for (size_t i = 0; i < n / 2; ++i)
    if (usable[i + 1] - usable[i] > best) best = usable[i + 1] - usable[i], locut = i + 1;
  best = -1.0;
  for (size_t i = n / 2; i + 1 < n; ++i)
    if (usable[i + 1] - usable[i] > best) best = usable[i + 1] - usable[i], hicut = i - 2;
  double std_sigma = 0.0;
  if (n >= kMinBlocksForPrestoCuts && hicut >= locut + n / 2) {
    double mean = 0.0, var = 0.0;
    for (size_t i = locut; i < hicut; ++i) mean += usable[i];
    mean /= double(hicut - locut);
    for (size_t i = locut; i < hicut; ++i) var += (usable[i] - mean) * (usable[i] - mean);
    std_sigma = std::sqrt(var / double(hicut - locut));
    *median_sigma = usable[(locut + hicut) / 2];
  } else {
    // Few blocks (or cuts that leave too few): the median and 1.4826 x the median absolute
    // deviation of all block sigmas instead.
    std::vector<double> deviation;
    for (double v : usable) deviation.push_back(std::fabs(v - *median_sigma));
    std::nth_element(deviation.begin(), deviation.begin() + n / 2, deviation.end());
    std_sigma = 1.4826 * deviation[n / 2];
  }
  // A MAD sigma from L Gaussian samples scatters by about 1.65 / sqrt(2 L) of itself.
  std_sigma = std::max(std_sigma, *median_sigma * 1.65 / std::sqrt(2.0 * double(block_len)));
  const double lo = *median_sigma - 4.0 * std_sigma, hi = *median_sigma + 4.0 * std_sigma;
  for (size_t i = 0; i < nblocks; ++i)
    if (block_sigma[i] < lo || block_sigma[i] > hi) bad[i] = true;
  return bad;
}

NormalisedSeries normalise_series(const std::vector<float>& samples, const SnrSettings& settings) {
  NormalisedSeries out;
  const int64_t len = settings.detrend_len;
  const int64_t nblocks = int64_t(samples.size()) / len;
  out.samples.assign(samples.begin(), samples.begin() + nblocks * len);
  out.block_sigma.resize(nblocks);
  for (int64_t b = 0; b < nblocks; ++b)
    out.block_sigma[b] =
        detrend_block(out.samples.data() + b * len, len, settings.baseline, settings.noise);
  std::vector<float> scale(size_t(nblocks), 0.0f);
  out.bad_blocks = block_scales(out.block_sigma.data(), nblocks, settings, scale.data());
  for (int64_t b = 0; b < nblocks; ++b) {
    float* block = out.samples.data() + b * len;
    if (out.bad_blocks[b]) {
      std::fill(block, block + len, 0.0f);
      continue;
    }
    for (int64_t i = 0; i < len; ++i) block[i] *= scale[size_t(b)];
  }
  return out;
}

std::vector<bool> block_scales(const double* block_sigma, int64_t nblocks,
                               const SnrSettings& settings, float* scale) {
  double median_sigma = 1.0;
  std::vector<bool> bad =
      find_bad_blocks(std::vector<double>(block_sigma, block_sigma + nblocks),
                      settings.reject_bad_blocks, settings.detrend_len, &median_sigma);
  for (int64_t b = 0; b < nblocks; ++b)
    scale[b] = bad[size_t(b)] ? 0.0f : float(1.0 / block_sigma[b]);
  return bad;
}

}  // namespace rapt
