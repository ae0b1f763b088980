#include "corr/fringe_stopping.hpp"

#include <algorithm>
#include <cmath>

#include "corr/correlator_engine.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool same_direction(const SkyDirection& a, const SkyDirection& b) {
  return a.ra_rad == b.ra_rad && a.dec_rad == b.dec_rad;
}

double spread(const std::vector<double>& values) {
  if (values.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *hi - *lo;
}

}  // namespace

FringeStopping::FringeStopping(const ArrayLayout& layout, const SkyDirection& phase_centre,
                               std::vector<double> channel_freq_hz, const SkyDirection* phased_to)
    : weights_(layout, {phase_centre}, channel_freq_hz, phased_to),
      needed_(!phased_to || !same_direction(*phased_to, phase_centre)) {
  for (double f : channel_freq_hz) top_freq_hz_ = std::max(top_freq_hz_, std::fabs(f));
}

std::vector<std::complex<double>> FringeStopping::phases(const UtcInstant& time) const {
  return weights_.at(time).values;  // [chan][beam][ant] with one beam
}

double FringeStopping::max_station_rate_turns_per_s(const UtcInstant& time) const {
  return needed_ ? weights_.max_phase_rate_turns_per_s(time) : 0.0;
}

double FringeStopping::max_fringe_rate_turns_per_s(const UtcInstant& time) const {
  if (!needed_) return 0.0;
  const std::vector<double> now = weights_.residual_delays_s(time);
  const std::vector<double> later = weights_.residual_delays_s({time.mjd_day, time.seconds + 1.0});
  std::vector<double> rate(now.size());
  for (size_t a = 0; a < now.size(); ++a) rate[a] = later[a] - now[a];
  return spread(rate) * top_freq_hz_;
}

double FringeStopping::max_baseline_delay_s(const UtcInstant& time) const {
  return needed_ ? spread(weights_.residual_delays_s(time)) : 0.0;
}

void rotate_voltages(float* block, int nchan, int nant, int64_t nsamples, int npol,
                     const std::vector<std::complex<double>>& phases, int64_t first, int64_t end,
                     int threads) {
  const int64_t row = nsamples * npol * 2;  // floats per channel and antenna
  parallel_for(threads, size_t(nchan), [&](size_t c, int) {
    for (int a = 0; a < nant; ++a) {
      const std::complex<float> f(phases[size_t(c) * nant + a]);
      float* x = block + (int64_t(c) * nant + a) * row;
      for (int64_t k = first * npol; k < end * npol; ++k) {
        const float re = x[2 * k], im = x[2 * k + 1];
        x[2 * k] = re * f.real() - im * f.imag();
        x[2 * k + 1] = re * f.imag() + im * f.real();
      }
    }
  });
}

void rotate_visibilities(std::complex<double>* visibilities, int nchan, int nant, int nproducts,
                         const std::vector<std::complex<double>>& phases) {
  const int64_t nbl = int64_t(nant) * (nant + 1) / 2;
  for (int c = 0; c < nchan; ++c) {
    const std::complex<double>* f = phases.data() + size_t(c) * nant;
    for (int a2 = 0; a2 < nant; ++a2)
      for (int a1 = 0; a1 <= a2; ++a1) {
        const std::complex<double> turn = f[a1] * std::conj(f[a2]);
        std::complex<double>* v = visibilities + (c * nbl + baseline_index(a1, a2)) * nproducts;
        for (int p = 0; p < nproducts; ++p) v[p] *= turn;
      }
  }
}

double fringe_smearing_amplitude(double rate_turns_per_s, double seconds) {
  const double x = kPi * rate_turns_per_s * seconds;
  return x == 0 ? 1.0 : std::fabs(std::sin(x) / x);
}

}  // namespace rapt
