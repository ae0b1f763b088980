#include "accel/harmonic_sum.hpp"

#include <cmath>

#include "accel/plane_segments.hpp"

namespace rapt {
namespace {

// Adds the harmonics of one stage into `sums` (the running sum of one row over `count`
// columns starting at `first_column`).
void add_stage(const FfdotPlane& plane, const AccelPlan& plan, int row, int stage,
               int64_t first_column, int64_t count, float* sums) {
  const int harmtosum = 1 << stage;
  for (int harm = 1; harm < harmtosum; harm += 2) {
    const float* sub = plane.row(subharmonic_row(plan, row, harm, harmtosum));
    // subharmonic_column() as a shift (harmtosum = 2^stage); it never passes the column.
    int64_t scaled = 2 * first_column * harm + harmtosum;
    for (int64_t i = 0; i < count; ++i, scaled += 2 * harm) sums[i] += sub[scaled >> (stage + 1)];
  }
}

}  // namespace

std::vector<PlaneHit> search_segment_harmonic_sums(const FfdotPlane& plane,
                                                   const AccelPlan& plan, int segment) {
  std::vector<PlaneHit> hits;
  const PlaneSegment seg = plane_segment(plan, plan.search_segment_starts()[size_t(segment)]);
  const int64_t count = plan.uselen;
  std::vector<float> sums(size_t(plan.numz) * count);
  for (int row = 0; row < plan.numz; ++row) {
    const float* fundamental = plane.row(row) + seg.first_column;
    std::copy(fundamental, fundamental + count, sums.begin() + size_t(row) * count);
  }
  for (int stage = 0; stage < plan.numharm_stages; ++stage) {
    const float cut = plan.powcut[size_t(stage)];
    for (int row = 0; row < plan.numz; ++row) {
      float* row_sums = sums.data() + size_t(row) * count;
      if (stage > 0) add_stage(plane, plan, row, stage, seg.first_column, count, row_sums);
      for (int64_t i = 0; i < count; ++i) {
        if (row_sums[i] > cut) {
          hits.push_back(PlaneHit{segment, int16_t(stage), int16_t(row),
                                  seg.first_column + i, row_sums[i]});
        }
      }
    }
  }
  return hits;
}

std::vector<float> harmonic_sum_row(const FfdotPlane& plane, const AccelPlan& plan, int row,
                                    int stage) {
  const int64_t first_column = static_cast<int64_t>(plan.rlo) * kAccelNumBetween;
  const int64_t count = std::min<int64_t>(
      static_cast<int64_t>(plan.rhi - plan.rlo) * kAccelNumBetween + 1,
      plane.columns - first_column);
  std::vector<float> sums(plane.row(row) + first_column, plane.row(row) + first_column + count);
  for (int s = 1; s <= stage; ++s) add_stage(plane, plan, row, s, first_column, count, sums.data());
  return sums;
}

bool precedes_in_search_order(const PlaneHit& a, const PlaneHit& b) {
  if (a.segment != b.segment) return a.segment < b.segment;
  if (a.stage != b.stage) return a.stage < b.stage;
  if (a.row != b.row) return a.row < b.row;
  return a.column < b.column;
}

}  // namespace rapt
