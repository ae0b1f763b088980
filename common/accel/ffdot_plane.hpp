// The f-fdot power plane of one spectrum, held whole ("in-memory" accelsearch): row = z index
// (z = -zmax + 2*row), column = absolute half-bin index (r = column / 2). Powers are
// normalised: noise has mean 1.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rapt {

struct FfdotPlane {
  int numz = 0;
  int64_t columns = 0;
  std::vector<float> powers;  // [row][column]

  FfdotPlane() = default;
  FfdotPlane(int rows, int64_t cols) : numz(rows), columns(cols), powers(size_t(rows) * cols) {}
  float* row(int r) { return powers.data() + size_t(r) * columns; }
  const float* row(int r) const { return powers.data() + size_t(r) * columns; }
};

// One plane point whose harmonic sum passed its stage's threshold.
struct PlaneHit {
  int32_t segment = 0;  // index into AccelPlan::search_segment_starts()
  int16_t stage = 0;    // harmonics summed = 1 << stage
  int16_t row = 0;      // z row of the highest harmonic
  int64_t column = 0;   // absolute half-bin column of the highest harmonic
  float power = 0.0f;   // summed normalised power
};

// PRESTO's search order (segment, stage, row, column): the order candidates are offered to
// the de-duplicating list, which decides ties.
bool precedes_in_search_order(const PlaneHit& a, const PlaneHit& b);

}  // namespace rapt
