#include "dedisp/spectra_preparer.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kMadToSigma = 1.4826;

// Median and MAD of `values` (which it reorders).
void median_and_mad(std::vector<float>& values, double* median, double* mad) {
  if (values.empty()) {
    *median = 0.0, *mad = 0.0;
    return;
  }
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  *median = values[mid];
  for (float& v : values) v = float(std::fabs(v - *median));
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  *mad = values[mid];
}

}  // namespace

PreparedSpectra::PreparedSpectra(SpectraSource& source, SpectraPreparation preparation)
    : source_(source), prep_(std::move(preparation)), nchans_(source.info().nchans) {
  if (prep_.interval_spectra == 0) throw UsageError("statistics interval of 0 spectra");
  if (!prep_.zapped.empty() && prep_.zapped.size() != size_t(nchans_))
    throw UsageError("channel mask has " + std::to_string(prep_.zapped.size()) +
                     " entries but the data have " + std::to_string(nchans_) + " channels");
  interval_.resize(prep_.interval_spectra * nchans_);
  last_good_mean_.assign(nchans_, 0.0);
  has_good_mean_.assign(nchans_, false);
}

size_t PreparedSpectra::read(float* out, size_t max_spectra) {
  if (served_ == interval_filled_ && !load_interval()) return 0;
  const size_t n = std::min(max_spectra, interval_filled_ - served_);
  std::copy_n(interval_.data() + served_ * nchans_, n * nchans_, out);
  served_ += n;
  return n;
}

bool PreparedSpectra::load_interval() {
  interval_filled_ = 0;
  served_ = 0;
  while (interval_filled_ < prep_.interval_spectra) {
    const size_t got = source_.read(interval_.data() + interval_filled_ * nchans_,
                                    prep_.interval_spectra - interval_filled_);
    if (got == 0) break;
    interval_filled_ += got;
  }
  if (interval_filled_ == 0) return false;
  const size_t n = interval_filled_;
  if (!prep_.masked_channels.empty()) apply_mask(n);
  if (prep_.normalise) normalise(n);
  if (prep_.clip_sigma > 0.0) clip(n);
  if (prep_.zerodm) zerodm(n);
  ++interval_index_;
  return true;
}

void PreparedSpectra::apply_mask(size_t n) {
  const auto& lists = prep_.masked_channels;
  const std::vector<int>& masked = lists[std::min(interval_index_, lists.size() - 1)];
  std::vector<bool> flagged(nchans_, false);
  for (int c : masked) flagged[c] = true;
  for (int c = 0; c < nchans_; ++c) {
    if (flagged[c]) continue;
    double sum = 0.0;
    for (size_t t = 0; t < n; ++t) sum += interval_[t * nchans_ + c];
    last_good_mean_[c] = sum / double(n);
    has_good_mean_[c] = true;
  }
  // A channel never seen unflagged takes the mean of the channels that were.
  double fallback = 0.0;
  int nfallback = 0;
  for (int c = 0; c < nchans_; ++c)
    if (has_good_mean_[c] && used(c)) fallback += last_good_mean_[c], ++nfallback;
  fallback = nfallback > 0 ? fallback / nfallback : 0.0;
  for (int c : masked) {
    const float value = float(has_good_mean_[c] ? last_good_mean_[c] : fallback);
    for (size_t t = 0; t < n; ++t) interval_[t * nchans_ + c] = value;
  }
}

void PreparedSpectra::normalise(size_t n) {
  std::vector<float> column(n);
  for (int c = 0; c < nchans_; ++c) {
    if (!used(c)) continue;
    for (size_t t = 0; t < n; ++t) column[t] = interval_[t * nchans_ + c];
    double median, mad;
    median_and_mad(column, &median, &mad);
    const double scale = mad > 0.0 ? 1.0 / (kMadToSigma * mad) : 1.0;
    for (size_t t = 0; t < n; ++t) {
      float& v = interval_[t * nchans_ + c];
      v = float((v - median) * scale);
    }
  }
}

void PreparedSpectra::clip(size_t n) {
  int nused = 0;
  for (int c = 0; c < nchans_; ++c) nused += used(c);
  if (nused == 0) return;
  std::vector<float> zero_dm(n);
  for (size_t t = 0; t < n; ++t) {
    double sum = 0.0;
    for (int c = 0; c < nchans_; ++c)
      if (used(c)) sum += interval_[t * nchans_ + c];
    zero_dm[t] = float(sum / nused);
  }
  std::vector<float> scratch(zero_dm);
  double median, mad;
  median_and_mad(scratch, &median, &mad);
  const double limit = prep_.clip_sigma * kMadToSigma * mad;
  std::vector<float> channel_median(nchans_, 0.0f);
  std::vector<float> column(n);
  for (int c = 0; c < nchans_; ++c) {
    for (size_t t = 0; t < n; ++t) column[t] = interval_[t * nchans_ + c];
    double m, unused;
    median_and_mad(column, &m, &unused);
    channel_median[c] = float(m);
  }
  for (size_t t = 0; t < n; ++t)
    if (std::fabs(zero_dm[t] - median) > limit && mad > 0.0)
      std::copy(channel_median.begin(), channel_median.end(), interval_.begin() + t * nchans_);
}

void PreparedSpectra::zerodm(size_t n) {
  int nused = 0;
  for (int c = 0; c < nchans_; ++c) nused += used(c);
  if (nused == 0) return;
  // The bandpass: each channel's mean over the interval.
  std::vector<double> bandpass(nchans_, 0.0);
  for (size_t t = 0; t < n; ++t)
    for (int c = 0; c < nchans_; ++c) bandpass[c] += interval_[t * nchans_ + c];
  double band_sum = 0.0;
  bool power = true;  // every used channel's mean >= 0: a bandpass to weight by
  for (int c = 0; c < nchans_; ++c) {
    bandpass[c] /= double(n);
    if (!used(c)) continue;
    band_sum += bandpass[c];
    power = power && bandpass[c] >= 0.0;
  }
  // Each channel's share of a broadband change: its share of the bandpass (Eatough, Keane &
  // Lyne 2009, as PRESTO's -zerodm), so that RFI that passes through the receiver's gain
  // leaves every channel; equal shares where the channels were normalised (their bandpass
  // is flat) or hold no power data (means below 0).
  std::vector<double> share(nchans_, 1.0 / nused);
  if (!prep_.normalise && power && band_sum > 0.0)
    for (int c = 0; c < nchans_; ++c) share[c] = bandpass[c] / band_sum;
  // Every spectrum keeps one total power, the first interval's mean, for the whole input: a
  // level restored interval by interval would step at every interval's end (a spurious
  // periodicity in every series, and in the DM 0 series steps against no noise at all).
  if (!zerodm_level_known_) zerodm_level_ = band_sum, zerodm_level_known_ = true;
  for (size_t t = 0; t < n; ++t) {
    double sum = 0.0;
    for (int c = 0; c < nchans_; ++c)
      if (used(c)) sum += interval_[t * nchans_ + c];
    const double excess = sum - zerodm_level_;
    for (int c = 0; c < nchans_; ++c) interval_[t * nchans_ + c] -= float(share[c] * excess);
  }
}

}  // namespace rapt
