// --part K/N: parsing, and the cut of a list into parts that cover it exactly once, in order.
#include "cli/work_part.hpp"

#include <gtest/gtest.h>

#include "cli/errors.hpp"

namespace rapt {
namespace {

std::string usage_error(const std::string& text) {
  try {
    parse_work_part(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkPart, ParsesKOfN) {
  const WorkPart part = parse_work_part("3/8");
  EXPECT_EQ(part.index, 3);
  EXPECT_EQ(part.count, 8);
  EXPECT_FALSE(part.whole());
  EXPECT_TRUE(parse_work_part("1/1").whole());
  EXPECT_EQ(describe(part), "part 3/8");
}

TEST(WorkPart, RejectsWhatIsNotKOfN) {
  for (const char* text : {"", "3", "/4", "3/", "0/4", "-1/4", "1/0", "a/4", "1/4x", "1.5/4"})
    EXPECT_EQ(usage_error(text),
              "--part " + std::string(text) + ": expected K/N, part K of N (for example 2/8)")
        << text;
  EXPECT_EQ(usage_error("5/4"), "--part 5/4: K must be 1 to 4");
}

TEST(WorkPart, PartsCoverEveryItemOnceInOrderWithSizesWithinOne) {
  for (size_t total : {0, 1, 5, 7, 64, 1000})
    for (int count : {1, 2, 3, 4, 7, 9}) {
      size_t next = 0, smallest = total, largest = 0;
      for (int k = 1; k <= count; ++k) {
        const ItemRange range = part_items(total, {k, count});
        EXPECT_EQ(range.begin, next) << total << " " << k << "/" << count;
        next = range.end;
        smallest = std::min(smallest, range.size());
        largest = std::max(largest, range.size());
      }
      EXPECT_EQ(next, total);
      EXPECT_LE(largest - smallest, 1u);
    }
}

TEST(WorkPart, LargerPartsComeFirst) {
  EXPECT_EQ(part_items(10, {1, 4}).size(), 3u);
  EXPECT_EQ(part_items(10, {2, 4}).size(), 3u);
  EXPECT_EQ(part_items(10, {3, 4}).size(), 2u);
  EXPECT_EQ(part_items(10, {4, 4}).begin, 8u);
}

}  // namespace
}  // namespace rapt
