// The two simplex passes of rz_optimise.hpp as a template on the objective, written once for
// host and device so that both take the same steps from the same start.
#pragma once
#include <math.h>

#include "accel/fourier_response_core.hpp"
#include "accel/host_device.hpp"
#include "accel/simplex_2d_core.hpp"

namespace rapt::fdotmath {

constexpr double kRzZScale = 4.0;  // the simplex works in (r, z / 4)
constexpr double kRzFirstStep = 0.4;
constexpr double kRzSecondStep = 0.01;
constexpr double kRzLowAccuracyTolerance = 1e-7;
constexpr double kRzHighAccuracyTolerance = 1e-10;
constexpr double kRzExtraZ = 4.0;  // kernel sized for |z| + 4, in case z grows
constexpr int kRzMaxEvaluations = 5000;

// Runs both passes from (r, z) for an objective f(const double p[2]) -> double to be minimised
// at (p[0], p[1]) = (r, z / 4), which must read `halfwidth` as its kernel half-width. The first
// pass uses the low-accuracy kernel for |z numharm| + 4; the second sizes its high-accuracy
// kernel from the best vertex's z / 4 (times numharm), not z: PRESTO does so, and it only changes
// the kernel width. On return s.points[0] is the maximum (when the last pass converged).
template <typename Objective>
RAPT_HOST_DEVICE void run_rz_passes(Objective& f, int& halfwidth, double r, double z, int numharm,
                                    SimplexState& s) {
  halfwidth = response_halfwidth(fabs(z * numharm) + kRzExtraZ, false);
  const double zs = z / kRzZScale;
  s.points[0][0] = r - kRzFirstStep;
  s.points[0][1] = zs - kRzFirstStep;
  s.points[1][0] = r - kRzFirstStep;
  s.points[1][1] = zs + kRzFirstStep;
  s.points[2][0] = r + kRzFirstStep;
  s.points[2][1] = zs;
  for (int i = 0; i < 3; ++i) s.values[i] = f(s.points[i]);
  run_simplex_2d(f, s, kRzLowAccuracyTolerance, kRzMaxEvaluations);
  halfwidth = response_halfwidth(fabs(s.points[0][1] * numharm) + kRzExtraZ, true);
  s.points[1][0] = s.points[0][0] + kRzSecondStep;
  s.points[1][1] = s.points[0][1];
  s.points[2][0] = s.points[0][0];
  s.points[2][1] = s.points[0][1] + kRzSecondStep;
  for (int i = 0; i < 3; ++i) s.values[i] = f(s.points[i]);
  run_simplex_2d(f, s, kRzHighAccuracyTolerance, kRzMaxEvaluations);
}

}  // namespace rapt::fdotmath
