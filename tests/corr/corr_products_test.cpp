// corr's correlation products: the Stokes codes in file order and the engine product each
// comes from (UVFITS needs consecutive codes: XX YY XY YX, not the engine's XX XY YX YY).
#include "corr/correlation_products.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace rapt {
namespace {

TEST(CorrProducts, LinearFeedsAreWrittenXxYyXyYx) {
  const CorrelationProducts p = correlation_products(2, false);
  EXPECT_EQ(p.stokes, (std::vector<int>{-5, -6, -7, -8}));
  // engine products: 0 = XX, 1 = XY, 2 = YX, 3 = YY
  EXPECT_EQ(p.engine_product, (std::vector<int>{0, 3, 1, 2}));
}

TEST(CorrProducts, CircularFeedsAreWrittenRrLlRlLr) {
  const CorrelationProducts p = correlation_products(2, true);
  EXPECT_EQ(p.stokes, (std::vector<int>{-1, -2, -3, -4}));
  EXPECT_EQ(p.engine_product, (std::vector<int>{0, 3, 1, 2}));
}

TEST(CorrProducts, OnePolarisationIsXxOrRr) {
  EXPECT_EQ(correlation_products(1, false).stokes, (std::vector<int>{-5}));
  EXPECT_EQ(correlation_products(1, true).stokes, (std::vector<int>{-1}));
  EXPECT_EQ(correlation_products(1, false).engine_product, (std::vector<int>{0}));
}

TEST(CorrProducts, RefusesOtherPolarisationCounts) {
  EXPECT_THROW(correlation_products(0, false), std::invalid_argument);
  EXPECT_THROW(correlation_products(4, false), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
