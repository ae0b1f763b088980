// Builds the whole f-fdot plane of a spectrum on the CPU (FFTW, threaded over segments), or the
// interbinned zmax = 0 "plane" of harmsum's fast path.
#pragma once
#include <complex>
#include <vector>

#include "accel/accel_plan.hpp"
#include "accel/ffdot_plane.hpp"

namespace rapt {

FfdotPlane build_ffdot_plane_cpu(const std::vector<std::complex<float>>& spectrum,
                                 const AccelPlan& plan, int threads);

}  // namespace rapt
