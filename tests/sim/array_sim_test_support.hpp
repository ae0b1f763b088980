// Arrays, plans and correlations shared by the array simulator tests.
#pragma once
#include <complex>
#include <vector>

#include "sim/array_voltage_plan.hpp"
#include "sim/array_voltage_simulator.hpp"

namespace rapt::testing {

// Near the MeerKAT reference position (geocentric ITRF, metres).
inline ItrfPosition array_reference_m() { return {5109360.133, 2006852.586, -3238948.127}; }

// Antennas at the reference plus each ITRF offset (metres), named a0, a1, ...
inline ArrayLayout layout_with_offsets(const std::vector<ItrfPosition>& offsets_m) {
  ArrayLayout layout;
  layout.telescope = "TEST";
  layout.reference_itrf_m = array_reference_m();
  for (size_t i = 0; i < offsets_m.size(); ++i) {
    Antenna a;
    a.name = "a" + std::to_string(i);
    for (int k = 0; k < 3; ++k) a.itrf_m[k] = layout.reference_itrf_m[k] + offsets_m[i][k];
    layout.antennas.push_back(a);
  }
  return layout;
}

// A small noise-free float plan: 8 channels of 1 MHz around 1400 MHz (tsamp 1 us), two
// polarisations, phase centre RA 60 deg, Dec -30 deg, unit gain.
inline ArrayVoltagePlan small_plan(const ArrayLayout& layout, int64_t nsamples) {
  ArrayVoltagePlan p;
  p.layout = layout;
  p.phase_centre = {60.0 * M_PI / 180, -30.0 * M_PI / 180};
  p.nchan = 8;
  p.npol = 2;
  p.centre_freq_mhz = 1400.0;
  p.bandwidth_mhz = 8.0;
  p.nsamples = nsamples;
  p.start = {60000, 3600.0};
  p.nbits = 32;
  p.sefd_jy = 100.0;
  p.noise = false;
  p.gain = 1.0;
  p.seed = 7;
  return p;
}

inline PointSourceSpec point_source(double ra_deg, double dec_deg, double flux_jy) {
  PointSourceSpec s;
  s.text = "test source";
  s.direction = {ra_deg * M_PI / 180, dec_deg * M_PI / 180};
  s.flux_jy = flux_jy;
  return s;
}

// The whole observation in canonical order, made in one block by one thread.
inline std::vector<float> simulate_all(const ArrayVoltagePlan& plan, int threads = 1) {
  ArrayVoltageSimulator sim(plan, threads);
  std::vector<float> out(plan.header("PSRDADA").block_values(plan.nsamples));
  sim.generate_block(0, plan.nsamples, out.data());
  return out;
}

// Complex sample (channel c, antenna a, time k, pol p) of a canonical complex block.
inline std::complex<double> sample_at(const std::vector<float>& v, const ArrayVoltagePlan& plan,
                                      int c, int a, int64_t k, int p) {
  const size_t i =
      (((static_cast<size_t>(c) * plan.layout.size() + a) * plan.nsamples + k) * plan.npol + p) * 2;
  return {v[i], v[i + 1]};
}

// <x_a1(k) conj(x_a2(k + lag))> over both polarisations of channel c.
inline std::complex<double> correlate(const std::vector<float>& v, const ArrayVoltagePlan& plan,
                                      int c, int a1, int a2, int64_t lag = 0) {
  std::complex<double> sum = 0.0;
  int64_t count = 0;
  for (int64_t k = std::max<int64_t>(0, -lag); k < plan.nsamples && k + lag < plan.nsamples; ++k)
    for (int p = 0; p < plan.npol; ++p, ++count)
      sum += sample_at(v, plan, c, a1, k, p) * std::conj(sample_at(v, plan, c, a2, k + lag, p));
  return sum / static_cast<double>(count);
}

}  // namespace rapt::testing
