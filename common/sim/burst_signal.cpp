#include "sim/burst_signal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/pulse_shapes.hpp"

namespace rapt {

namespace {

// The pulse is taken as zero this many Gaussian sigmas before its centre and after it, plus
// this many scattering times (exp(-35) = 6e-16).
constexpr double kGaussianReach = 8.0;
constexpr double kScatteringReach = 35.0;
// Limits on the work of the S/N calculation: samples of the dedispersed profile, and channels
// times samples (beyond it, neighbouring channels are grouped; tau varies slowly with channel).
constexpr int64_t kMaxProfileSamples = int64_t{1} << 22;
constexpr double kMaxProfileWork = 4e6;
// Scattering tails are cut here (s after the start) so that sample numbers stay in range.
constexpr double kLatest_s = 1e8;

}  // namespace

BurstSignal::BurstSignal(const BurstSpec& spec, const ObservationSpec& obs,
                         const RadiometerSpec& radiometer)
    : spec_(spec),
      nchans_(obs.nchans),
      tsamp_s_(obs.tsamp_s),
      sigma_s_(spec.width_s / kFwhmPerSigma),
      sigma_jy_(radiometer.sigma_jy(obs)),
      arrival_s_(channel_delays_s(obs, spec.dm)) {
  const double ref_mhz = spec.ref_freq_mhz > 0 ? spec.ref_freq_mhz : obs.fch1_mhz;
  const std::vector<double> weights = spectral_weights(obs, spec.spectral_index, ref_mhz);
  tau_s_.resize(weights.size());
  first_sample_.resize(weights.size());
  end_sample_.resize(weights.size());
  for (int c = 0; c < nchans_; ++c) {
    arrival_s_[c] += spec.t_s;
    tau_s_[c] = spec.scatter_s * std::pow(obs.channel_freq_mhz(c) / ref_mhz, -4.0);
    const double from = arrival_s_[c] - kGaussianReach * sigma_s_;
    const double to = std::min(kLatest_s, arrival_s_[c] + kGaussianReach * sigma_s_ +
                                              kScatteringReach * tau_s_[c]);
    first_sample_[c] = static_cast<int64_t>(std::floor(from / tsamp_s_));
    end_sample_[c] = static_cast<int64_t>(std::ceil(to / tsamp_s_)) + 1;
  }

  // Fluence at the reference frequency, noise sigma x seconds.
  const double gaussian_area = std::sqrt(2 * M_PI) * sigma_s_;
  double reference_area = 1.0;
  if (spec.amp) reference_area = *spec.amp * gaussian_area;
  if (spec.fluence_jyms) reference_area = *spec.fluence_jyms * 1e-3 / sigma_jy_;
  measure_snr(dedispersed_profile(weights));
  if (spec.snr) reference_area = *spec.snr / boxcar_snr_;
  boxcar_snr_ *= reference_area;
  matched_snr_ *= reference_area;
  area_.resize(weights.size());
  for (int c = 0; c < nchans_; ++c) area_[c] = reference_area * weights[c];
}

std::vector<double> BurstSignal::dedispersed_profile(const std::vector<double>& weights) const {
  const double tau_max = *std::max_element(tau_s_.begin(), tau_s_.end());
  const double from = spec_.t_s - kGaussianReach * sigma_s_;
  const double to =
      std::min(kLatest_s, spec_.t_s + kGaussianReach * sigma_s_ + kScatteringReach * tau_max);
  const int64_t first = static_cast<int64_t>(std::floor(from / tsamp_s_));
  const int64_t count = std::min(kMaxProfileSamples,
                                 static_cast<int64_t>(std::ceil(to / tsamp_s_)) + 1 - first);
  const int group = static_cast<int>(
      std::max(1.0, std::ceil(static_cast<double>(nchans_) * count / kMaxProfileWork)));
  std::vector<double> profile(static_cast<size_t>(count), 0.0);
  for (int c0 = 0; c0 < nchans_; c0 += group) {
    const int c1 = std::min(nchans_, c0 + group);
    double weight = 0.0;
    for (int c = c0; c < c1; ++c) weight += weights[c];
    const double tau = tau_s_[(c0 + c1) / 2];
    double below = scattered_gaussian_cdf(first * tsamp_s_ - spec_.t_s, sigma_s_, tau);
    for (int64_t k = 0; k < count; ++k) {
      const double above =
          scattered_gaussian_cdf((first + k + 1) * tsamp_s_ - spec_.t_s, sigma_s_, tau);
      profile[k] += weight * (above - below) / tsamp_s_;
      below = above;
    }
  }
  return profile;
}

// Optimal boxcar: for a single-peaked profile the best window of each width holds that many of
// the largest samples, so growing a window from the peak towards the larger neighbour finds the
// best window of every width in one pass.
void BurstSignal::measure_snr(const std::vector<double>& profile) {
  const double noise_per_sample = std::sqrt(static_cast<double>(nchans_));
  double sum_squares = 0.0;
  for (double s : profile) sum_squares += s * s;
  matched_snr_ = std::sqrt(sum_squares) / noise_per_sample;

  const int64_t n = static_cast<int64_t>(profile.size());
  int64_t lo = std::max_element(profile.begin(), profile.end()) - profile.begin();
  int64_t hi = lo + 1;  // window [lo, hi)
  double sum = profile[lo];
  boxcar_snr_ = sum / noise_per_sample;
  boxcar_samples_ = 1;
  while (lo > 0 || hi < n) {
    if (hi >= n || (lo > 0 && profile[lo - 1] >= profile[hi]))
      sum += profile[--lo];
    else
      sum += profile[hi++];
    const double snr = sum / std::sqrt(static_cast<double>(hi - lo)) / noise_per_sample;
    if (snr > boxcar_snr_) {
      boxcar_snr_ = snr;
      boxcar_samples_ = hi - lo;
    }
  }
}

void BurstSignal::add(int64_t first_sample, int nrows, float* x, SignalCache&) const {
  const int64_t end = first_sample + nrows;
  for (int c = 0; c < nchans_; ++c) {
    const int64_t from = std::max(first_sample, first_sample_[c]);
    const int64_t to = std::min(end, end_sample_[c]);
    if (from >= to) continue;
    const double scale = area_[c] / tsamp_s_;
    double below = scattered_gaussian_cdf(from * tsamp_s_ - arrival_s_[c], sigma_s_, tau_s_[c]);
    for (int64_t k = from; k < to; ++k) {
      const double above =
          scattered_gaussian_cdf((k + 1) * tsamp_s_ - arrival_s_[c], sigma_s_, tau_s_[c]);
      x[(k - first_sample) * nchans_ + c] += static_cast<float>(scale * (above - below));
      below = above;
    }
  }
}

std::vector<double> BurstSignal::peak_amplitudes() const {
  std::vector<double> peaks(area_.size());
  for (size_t c = 0; c < area_.size(); ++c) peaks[c] = area_[c] / (std::sqrt(2 * M_PI) * sigma_s_);
  return peaks;
}

std::string BurstSignal::describe() const {
  char text[320];
  std::snprintf(text, sizeof text,
                "burst t=%g s DM=%g: peak %.4g sigma per channel in the top channel (unscattered), "
                "fluence %.4g Jy ms there; boxcar S/N %.4g over %lld samples "
                "(matched filter %.4g)",
                spec_.t_s, spec_.dm, area_[0] / (std::sqrt(2 * M_PI) * sigma_s_),
                area_[0] * sigma_jy_ * 1e3, boxcar_snr_, static_cast<long long>(boxcar_samples_),
                matched_snr_);
  return text;
}

}  // namespace rapt
