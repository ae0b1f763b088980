// LargeBuffer: the working memory of a gulp of spectra and of the GPUs' pinned staging.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "io/large_buffer.hpp"

namespace rapt {
namespace {

TEST(LargeBuffer, HoldsWhatIsWrittenOnHugePageBoundaries) {
  const size_t bytes = (size_t(5) << 20) + 123;  // not a whole number of huge pages
  LargeBuffer buffer(bytes);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(buffer.size(), bytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer.data()) % (size_t(2) << 20), 0u);
  for (size_t i = 0; i < bytes; ++i) buffer.data()[i] = uint8_t(i * 7);
  uint64_t sum = 0, want = 0;
  for (size_t i = 0; i < bytes; ++i) {
    sum += buffer.data()[i];
    want += uint8_t(i * 7);
  }
  EXPECT_EQ(sum, want);
}

TEST(LargeBuffer, MovesOwnership) {
  LargeBuffer a(1000);
  a.data()[999] = 42;
  uint8_t* const where = a.data();
  LargeBuffer b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), where);
  EXPECT_EQ(b.data()[999], 42);
  LargeBuffer c(10);
  c = std::move(b);
  EXPECT_EQ(c.data(), where);
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_EQ(b.data(), nullptr);
  LargeBuffer empty;
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
}

}  // namespace
}  // namespace rapt
