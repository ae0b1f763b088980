// The per-value pass is bitwise, without branches, so that GCC vectorises it (at -O2 only
// where asked to: the pragma).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize")
#endif

#include "io/non_finite_samples.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

namespace rapt {
namespace {

constexpr uint32_t kExponent = 0x7f800000u;  // all ones: NaN or infinity

bool finite(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & kExponent) != kExponent;
}

// The first of `n` values that is not finite, or n: a vectorised test, then a search.
size_t first_not_finite(const float* x, size_t n) {
  uint32_t any = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, x + i, sizeof bits);
    any |= uint32_t((bits & kExponent) == kExponent);
  }
  if (!any) return n;
  size_t i = 0;
  while (finite(x[i])) ++i;
  return i;
}

// One spectrum: finite values are added to `sum` and counted in `finite`; the others take
// `level`. Returns how many did.
uint32_t replace_in_spectrum(float* __restrict x, float* __restrict sum,
                             uint32_t* __restrict finite_count, const float* __restrict level,
                             size_t nchans) {
  uint32_t replaced = 0;
  for (size_t c = 0; c < nchans; ++c) {
    uint32_t bits, level_bits;
    std::memcpy(&bits, x + c, sizeof bits);
    std::memcpy(&level_bits, level + c, sizeof level_bits);
    const uint32_t keep = 0u - uint32_t((bits & kExponent) != kExponent);  // all ones if finite
    const uint32_t kept_bits = bits & keep;  // 0.0f where not finite
    float kept;
    std::memcpy(&kept, &kept_bits, sizeof kept);
    sum[c] += kept;
    finite_count[c] += keep & 1u;
    const uint32_t out = kept_bits | (level_bits & ~keep);
    std::memcpy(x + c, &out, sizeof out);
    replaced += ~keep & 1u;
  }
  return replaced;
}

}  // namespace

NonFiniteSamples::NonFiniteSamples(std::string path, int nchans, std::string what, int nifs)
    : path_(std::move(path)),
      nchans_(size_t(nchans) * size_t(nifs)),
      nifs_(size_t(nifs)),
      what_(std::move(what)),
      level_(nchans_, 0.0f),
      sum_(nchans_, 0.0f),
      finite_(nchans_, 0) {}

void NonFiniteSamples::start_levels(const float* spectra, size_t nspectra) {
  std::vector<double> sum(nchans_, 0.0);
  std::vector<size_t> n(nchans_, 0);
  for (size_t s = 0; s < nspectra; ++s)
    for (size_t c = 0; c < nchans_; ++c) {
      const float x = spectra[s * nchans_ + c];
      if (!finite(x)) continue;
      sum[c] += x;
      ++n[c];
    }
  for (size_t c = 0; c < nchans_; ++c)
    if (n[c] > 0) level_[c] = float(sum[c] / double(n[c]));
}

void NonFiniteSamples::close_interval() {
  for (size_t c = 0; c < nchans_; ++c) {
    if (finite_[c] > 0) level_[c] = sum_[c] / float(finite_[c]);
    sum_[c] = 0.0f;
    finite_[c] = 0;
  }
}

void NonFiniteSamples::replace(float* spectra, size_t nspectra, int64_t first_spectrum) {
  for (size_t s = 0; s < nspectra; ++s) {
    const int64_t interval = (first_spectrum + int64_t(s)) / int64_t(kLevelSpectra);
    if (interval != interval_) {
      if (interval_ >= 0) close_interval();
      interval_ = interval;
    }
    float* x = spectra + s * nchans_;
    // Where the first one is, while none has been (the pass below overwrites them).
    const size_t first_bad = count_ == 0 ? first_not_finite(x, nchans_) : 0;
    const uint32_t replaced =
        replace_in_spectrum(x, sum_.data(), finite_.data(), level_.data(), nchans_);
    if (replaced == 0) continue;
    if (count_ == 0) {
      first_spectrum_ = first_spectrum + int64_t(s);
      first_channel_ = first_bad;
    }
    count_ += replaced;
  }
}

std::string NonFiniteSamples::warning() const {
  if (count_ == 0) return "";
  std::string where = what_ + " " + std::to_string(first_spectrum_);
  if (nifs_ > 1)
    where += ", channel " + std::to_string(first_channel_ % (nchans_ / nifs_)) + " of IF " +
             std::to_string(first_channel_ / (nchans_ / nifs_)) + " (in file order)";
  else if (nchans_ > 1)
    where += ", channel " + std::to_string(first_channel_) + " (in file order)";
  const char* by = nifs_ > 1     ? "its channel's mean in its IF"
                   : nchans_ > 1 ? "its channel's mean"
                                 : "the series' mean";
  return path_ + ": " + std::to_string(count_) + (count_ == 1 ? " sample is" : " samples are") +
         " NaN or infinite (the first at " + where + "); each was replaced by " + by;
}

void NonFiniteSamples::note_in(std::vector<std::string>& warnings) {
  if (count_ == 0) return;
  if (noted_at_ == SIZE_MAX) {
    noted_at_ = warnings.size();
    warnings.emplace_back();
  }
  warnings[noted_at_] = warning();
}

std::string replace_non_finite_in_series(std::vector<float>& samples, const std::string& path) {
  NonFiniteSamples non_finite(path, 1, "sample");
  non_finite.start_levels(samples.data(),
                          std::min(samples.size(), NonFiniteSamples::kLevelSpectra));
  non_finite.replace(samples.data(), samples.size(), 0);
  return non_finite.warning();
}

}  // namespace rapt
