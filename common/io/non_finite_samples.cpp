#include "io/non_finite_samples.hpp"

#include <cstring>
#include <utility>

namespace rapt {
namespace {

constexpr float kLevelWeight = 1.0f / float(NonFiniteSamples::kLevelSpectra);

// An exponent of all ones marks NaN and infinity; one pass the compiler vectorises.
bool all_finite(const float* values, size_t n) {
  uint32_t any_not_finite = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, values + i, sizeof bits);
    any_not_finite |= uint32_t((bits & 0x7f800000u) == 0x7f800000u);
  }
  return any_not_finite == 0;
}

bool finite(float x) { return all_finite(&x, 1); }

}  // namespace

NonFiniteSamples::NonFiniteSamples(std::string path, int nchans, std::string what)
    : path_(std::move(path)),
      nchans_(size_t(nchans)),
      what_(std::move(what)),
      level_(nchans_, 0.0f),
      has_level_(nchans_, 0),
      channels_without_level_(nchans_) {}

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
  for (size_t c = 0; c < nchans_; ++c) {
    if (n[c] == 0 || has_level_[c]) continue;
    level_[c] = float(sum[c] / double(n[c]));
    has_level_[c] = 1;
    --channels_without_level_;
  }
}

void NonFiniteSamples::replace(float* spectra, size_t nspectra, int64_t first_spectrum) {
  if (!all_finite(spectra, nspectra * nchans_)) {
    replace_slowly(spectra, nspectra, first_spectrum);
    return;
  }
  for (size_t s = 0; s < nspectra; ++s) {
    const float* x = spectra + s * nchans_;
    if (channels_without_level_ > 0)
      for (size_t c = 0; c < nchans_; ++c)
        if (!has_level_[c]) {
          level_[c] = x[c];
          has_level_[c] = 1;
          --channels_without_level_;
        }
    float* level = level_.data();
    for (size_t c = 0; c < nchans_; ++c) level[c] += (x[c] - level[c]) * kLevelWeight;
  }
}

void NonFiniteSamples::replace_slowly(float* spectra, size_t nspectra, int64_t first_spectrum) {
  for (size_t s = 0; s < nspectra; ++s) {
    float* x = spectra + s * nchans_;
    for (size_t c = 0; c < nchans_; ++c) {
      if (finite(x[c])) {
        if (!has_level_[c]) {
          level_[c] = x[c];
          has_level_[c] = 1;
          --channels_without_level_;
        }
        level_[c] += (x[c] - level_[c]) * kLevelWeight;
        continue;
      }
      if (count_ == 0) {
        first_spectrum_ = first_spectrum + int64_t(s);
        first_channel_ = c;
      }
      ++count_;
      x[c] = level_[c];
    }
  }
}

std::string NonFiniteSamples::warning() const {
  if (count_ == 0) return "";
  std::string where = what_ + " " + std::to_string(first_spectrum_);
  if (nchans_ > 1) where += ", channel " + std::to_string(first_channel_) + " (in file order)";
  return path_ + ": " + std::to_string(count_) + (count_ == 1 ? " sample is" : " samples are") +
         " NaN or infinite (the first at " + where + "); each was replaced by " +
         (nchans_ > 1 ? "its channel's" : "the series'") + " recent mean";
}

}  // namespace rapt
