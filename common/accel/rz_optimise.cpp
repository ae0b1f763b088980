#include "accel/rz_optimise.hpp"

#include <cmath>

#include "accel/fourier_response.hpp"
#include "accel/rz_interp.hpp"
#include "accel/rz_optimise_core.hpp"

namespace rapt {

RzPoint maximise_rz_point(const std::complex<float>* spectrum, int64_t numbins,
                          const std::vector<double>& power_norms, double r_start, double z_start) {
  using namespace fdotmath;
  const int numharm = static_cast<int>(power_norms.size());
  int halfwidth = 0;
  int evaluations = 0;
  const auto minus_summed_power = [&](const double p[2]) {
    ++evaluations;
    double total = 0.0;
    for (int n = 1; n <= numharm; ++n) {
      total += std::norm(rz_interpolate(spectrum, numbins, p[0] * n, p[1] * kRzZScale * n,
                                        halfwidth)) /
               power_norms[n - 1];
    }
    return -total;
  };
  SimplexState s;
  run_rz_passes(minus_summed_power, halfwidth, r_start, z_start, numharm, s);
  RzPoint point;
  point.r = s.points[0][0];
  point.z = s.points[0][1] * kRzZScale;
  point.value = -s.values[0];
  point.evaluations = evaluations;
  point.halfwidth = halfwidth;
  return point;
}

std::vector<double> start_local_powers(const std::complex<float>* spectrum, int64_t numbins,
                                       int numharm, double r, double z) {
  std::vector<double> locpow(numharm);
  for (int n = 1; n <= numharm; ++n) locpow[n - 1] = local_power(spectrum, numbins, r * n, z * n);
  return locpow;
}

RzMaximum rz_maximum_at(const std::complex<float>* spectrum, int64_t numbins, const RzPoint& p) {
  RzMaximum m;
  m.r = p.r;
  m.z = p.z;
  m.power = p.value;
  m.derivs = fourier_derivs(spectrum, numbins, m.r, m.z, local_power(spectrum, numbins, m.r, m.z));
  return m;
}

HarmonicRzMaximum harmonic_rz_maximum_at(const std::complex<float>* spectrum, int64_t numbins,
                                         int numharm, const RzPoint& p) {
  HarmonicRzMaximum m;
  m.r = p.r;
  m.z = p.z;
  for (int n = 1; n <= numharm; ++n) {
    const double rn = m.r * n;
    const double zn = m.z * n;
    m.powers.push_back(std::norm(rz_interpolate(spectrum, numbins, rn, zn, p.halfwidth)));
    m.derivs.push_back(
        fourier_derivs(spectrum, numbins, rn, zn, local_power(spectrum, numbins, rn, zn)));
  }
  return m;
}

RzMaximum maximise_rz(const std::complex<float>* spectrum, int64_t numbins, double r_start,
                      double z_start) {
  return rz_maximum_at(spectrum, numbins,
                       maximise_rz_point(spectrum, numbins, {1.0}, r_start, z_start));
}

HarmonicRzMaximum maximise_rz_harmonics(const std::complex<float>* spectrum, int64_t numbins,
                                        int numharm, double r_start, double z_start) {
  const std::vector<double> locpow =
      start_local_powers(spectrum, numbins, numharm, r_start, z_start);
  return harmonic_rz_maximum_at(spectrum, numbins, numharm,
                                maximise_rz_point(spectrum, numbins, locpow, r_start, z_start));
}

}  // namespace rapt
