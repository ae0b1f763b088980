#include "accel/rz_optimise.hpp"

#include <cmath>

#include "accel/fourier_response.hpp"
#include "accel/rz_interp.hpp"
#include "accel/simplex_2d.hpp"

namespace rapt {
namespace {

constexpr double kZScale = 4.0;           // the simplex works in (r, z / 4)
constexpr double kFirstStep = 0.4;
constexpr double kSecondStep = 0.01;
constexpr double kLowAccuracyTolerance = 1e-7;
constexpr double kHighAccuracyTolerance = 1e-10;
constexpr double kExtraZ = 4.0;           // kernel sized for |z| + 4, in case z grows

using Objective = std::function<double(const std::array<double, 2>&)>;

Simplex2d starting_simplex(const Objective& f, double r, double z) {
  Simplex2d s;
  s.points = {{{r - kFirstStep, z / kZScale - kFirstStep},
               {r - kFirstStep, z / kZScale + kFirstStep},
               {r + kFirstStep, z / kZScale}}};
  for (int i = 0; i < 3; ++i) s.values[i] = f(s.points[i]);
  return s;
}

void restart_around_best(const Objective& f, Simplex2d& s) {
  s.points[1] = {s.points[0][0] + kSecondStep, s.points[0][1]};
  s.points[2] = {s.points[0][0], s.points[0][1] + kSecondStep};
  for (int i = 0; i < 3; ++i) s.values[i] = f(s.points[i]);
}

// The two passes; `halfwidth` is the kernel half-width the objective reads. The second pass
// sizes its kernel from the best vertex's z / 4, not z: PRESTO does so, and it only changes
// the kernel width.
Simplex2d run_two_passes(const Objective& f, int& halfwidth, double r, double z, int numharm) {
  halfwidth = z_response_halfwidth(std::fabs(z * numharm) + kExtraZ, ResponseAccuracy::Low);
  Simplex2d s = starting_simplex(f, r, z);
  minimise_simplex_2d(f, s, kLowAccuracyTolerance);
  halfwidth = z_response_halfwidth(std::fabs(s.points[0][1] * numharm) + kExtraZ,
                                   ResponseAccuracy::High);
  restart_around_best(f, s);
  minimise_simplex_2d(f, s, kHighAccuracyTolerance);
  return s;
}

}  // namespace

RzMaximum maximise_rz(const std::complex<float>* spectrum, int64_t numbins, double r_start,
                      double z_start) {
  int halfwidth = 0;
  const Objective minus_power = [&](const std::array<double, 2>& p) {
    return -std::norm(rz_interpolate(spectrum, numbins, p[0], p[1] * kZScale, halfwidth));
  };
  const Simplex2d s = run_two_passes(minus_power, halfwidth, r_start, z_start, 1);
  RzMaximum m;
  m.r = s.points[0][0];
  m.z = s.points[0][1] * kZScale;
  m.power = -s.values[0];
  m.derivs = fourier_derivs(spectrum, numbins, m.r, m.z, local_power(spectrum, numbins, m.r, m.z));
  return m;
}

HarmonicRzMaximum maximise_rz_harmonics(const std::complex<float>* spectrum, int64_t numbins,
                                        int numharm, double r_start, double z_start) {
  std::vector<double> start_locpow(numharm);
  for (int n = 1; n <= numharm; ++n) {
    start_locpow[n - 1] = local_power(spectrum, numbins, r_start * n, z_start * n);
  }
  int halfwidth = 0;
  const Objective minus_summed_power = [&](const std::array<double, 2>& p) {
    double total = 0.0;
    for (int n = 1; n <= numharm; ++n) {
      total += std::norm(rz_interpolate(spectrum, numbins, p[0] * n, p[1] * kZScale * n,
                                        halfwidth)) /
               start_locpow[n - 1];
    }
    return -total;
  };
  const Simplex2d s = run_two_passes(minus_summed_power, halfwidth, r_start, z_start, numharm);
  HarmonicRzMaximum m;
  m.r = s.points[0][0];
  m.z = s.points[0][1] * kZScale;
  for (int n = 1; n <= numharm; ++n) {
    const double rn = m.r * n;
    const double zn = m.z * n;
    m.powers.push_back(std::norm(rz_interpolate(spectrum, numbins, rn, zn, halfwidth)));
    m.derivs.push_back(
        fourier_derivs(spectrum, numbins, rn, zn, local_power(spectrum, numbins, rn, zn)));
  }
  return m;
}

}  // namespace rapt
