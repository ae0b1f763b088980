// One overlap-save segment of the f-fdot plane: which Fourier bins it reads and where its
// good columns land. Shared by the CPU and GPU engines so both cut the plane identically.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "accel/accel_plan.hpp"

namespace rapt {

struct PlaneSegment {
  int64_t first_bin = 0;     // Fourier bin of the segment's first amplitude (may be < 0)
  int64_t first_column = 0;  // plane column of the first good output (2 * floor(start r))
};

// Segment for a start r from AccelPlan::*_segment_starts().
PlaneSegment plane_segment(const AccelPlan& plan, double start_r);

// All segments in build order: warm-up first, then search (a later one overwrites an earlier
// one where they overlap, as in PRESTO).
std::vector<PlaneSegment> plane_build_segments(const AccelPlan& plan);

// Copies the segment's fftlen/2 amplitudes (zero outside the spectrum) into `out` and
// normalises them as the plan says. `spectrum[i]` is Fourier bin plan.options.lobin + i.
void load_segment_amplitudes(const std::vector<std::complex<float>>& spectrum,
                             const AccelPlan& plan, const PlaneSegment& segment,
                             std::complex<float>* out);

}  // namespace rapt
