// Staged harmonic summing of a whole f-fdot plane, as PRESTO's in-memory accelsearch does it:
// for each searched column and row of the highest harmonic, stage s adds the odd harmonics
// j/2^s (j < 2^s) read through the sub-harmonic index maps, and the running sum is compared
// with the stage's threshold.
#pragma once
#include <vector>

#include "accel/accel_plan.hpp"
#include "accel/ffdot_plane.hpp"

namespace rapt {

// Hits of one search segment (index into plan.search_segment_starts()), in search order.
std::vector<PlaneHit> search_segment_harmonic_sums(const FfdotPlane& plane,
                                                   const AccelPlan& plan, int segment);

// The whole running sum for one row and stage over the searched columns (for inspection:
// harmsum --dump). Element i belongs to column 2*rlo + i.
std::vector<float> harmonic_sum_row(const FfdotPlane& plane, const AccelPlan& plan, int row,
                                    int stage);

}  // namespace rapt
