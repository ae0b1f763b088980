// UnitAligner: blocks of any length, cut into whole units, give the samples back in order,
// row by row, with only the tail that does not fill a unit left over.
#include <gtest/gtest.h>

#include <vector>

#include "ppf/unit_aligner.hpp"

namespace rapt {
namespace {

// Rows of `n` samples of 2 values: value = row * 1000 + time * 2 + v (time counted from 0
// over the whole stream, `first` being this block's first).
std::vector<float> block_of(int rows, int64_t first, int64_t n) {
  std::vector<float> b;
  for (int r = 0; r < rows; ++r)
    for (int64_t t = first; t < first + n; ++t)
      for (int v = 0; v < 2; ++v) b.push_back(float(r * 1000 + t * 2 + v));
  return b;
}

TEST(ChannelizeUnitAligner, CutsBlocksIntoWholeUnitsInOrder) {
  const int rows = 3, unit = 4;
  UnitAligner aligner(unit, rows, 2);
  int64_t read = 0, given = 0;
  for (int64_t n : {int64_t(8), int64_t(5), int64_t(2), int64_t(1), int64_t(9), int64_t(3),
                    int64_t(12), int64_t(6)}) {
    const std::vector<float> block = block_of(rows, read, n);
    read += n;
    const std::vector<float>* out = nullptr;
    const int64_t usable = aligner.align(block, n, &out);
    ASSERT_EQ(usable % unit, 0);
    ASSERT_EQ(given + usable + aligner.left(), read);
    if (usable == 0) continue;
    EXPECT_EQ(*out, block_of(rows, given, usable)) << "block of " << n;
    if (n == 8 && given == 0) {
      EXPECT_EQ(out, &block);  // whole units pass straight through
    }
    given += usable;
  }
  EXPECT_EQ(aligner.left(), read - given);
  EXPECT_LT(aligner.left(), unit);
}

}  // namespace
}  // namespace rapt
