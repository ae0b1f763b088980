// --pol: lists, which products make which image, the combined weights, and the message for a
// file that cannot give what was asked.
#include <gtest/gtest.h>

#include "cli/errors.hpp"
#include "imaging/polarisation_selection.hpp"

namespace rapt {
namespace {

using C = std::complex<float>;
using Names = std::vector<std::string>;

TEST(PolarisationList, ReadsWscleanSpellings) {
  EXPECT_EQ(parse_polarisation_list("I"), Names({"I"}));
  EXPECT_EQ(parse_polarisation_list("iquv"), Names({"I", "Q", "U", "V"}));
  EXPECT_EQ(parse_polarisation_list("xx,xy,yx,yy"), Names({"XX", "XY", "YX", "YY"}));
  EXPECT_EQ(parse_polarisation_list("RR LL"), Names({"RR", "LL"}));
  EXPECT_EQ(parse_polarisation_list("IXX"), Names({"I", "XX"}));
  for (const char* bad : {"", "Z", "II", "xx,xx", "XZ"})
    EXPECT_THROW(parse_polarisation_list(bad), UsageError) << bad;
}

TEST(PolarisationSelection, MakesStokesFromLinearAndCircularProducts) {
  const std::vector<int> linear{-5, -6, -7, -8};  // XX YY XY YX
  const auto pols = select_polarisations({"I", "Q", "U", "V", "YX"}, linear, "a.ms");
  ASSERT_EQ(pols.size(), 5u);
  EXPECT_EQ(pols[0].fits_stokes, 1);
  EXPECT_EQ(pols[4].fits_stokes, -8);
  // I = 1, Q = 0.25, U = 0.5, V = -0.125: XX = I + Q, YY = I - Q, XY = U + iV, YX = U - iV.
  const C products[4] = {C(1.25f, 0), C(0.75f, 0), C(0.5f, -0.125f), C(0.5f, 0.125f)};
  const float weights[4] = {1, 1, 1, 1};
  const uint8_t flags[4] = {0, 0, 0, 0};
  const float expected[4] = {1, 0.25f, 0.5f, -0.125f};
  for (int p = 0; p < 4; ++p) {
    const CombinedSample s = combine_products(pols[size_t(p)], products, weights, flags);
    EXPECT_NEAR(s.value.real(), expected[p], 1e-6) << pols[size_t(p)].name;
    EXPECT_NEAR(s.value.imag(), 0, 1e-6) << pols[size_t(p)].name;
  }
  EXPECT_EQ(combine_products(pols[4], products, weights, flags).value, products[3]);

  const std::vector<int> circular{-1, -4, -3, -2};  // RR LR RL LL, in an unusual order
  const auto stokes = select_polarisations({"I", "Q", "U", "V"}, circular, "c.uvfits");
  // RR = I + V, LL = I - V, RL = Q + iU, LR = Q - iU with I = 1, Q = 0.25, U = 0.5, V = -0.125.
  const C circ[4] = {C(0.875f, 0), C(0.25f, -0.5f), C(0.25f, 0.5f), C(1.125f, 0)};
  for (int p = 0; p < 4; ++p) {
    const CombinedSample s = combine_products(stokes[size_t(p)], circ, weights, flags);
    EXPECT_NEAR(s.value.real(), expected[p], 1e-6) << stokes[size_t(p)].name;
    EXPECT_NEAR(s.value.imag(), 0, 1e-6) << stokes[size_t(p)].name;
  }
}

TEST(PolarisationSelection, CombinedWeightFollowsTheSmallerWeightAsInWsclean) {
  const auto pols = select_polarisations({"I", "XX"}, {-5, -6}, "a.ms");
  const C products[2] = {C(1, 0), C(3, 0)};
  const float weights[2] = {1, 3};
  const uint8_t none[2] = {0, 0}, yy_flagged[2] = {0, 1};
  // min(1, 3) / (0.5^2 + 0.5^2) = 2.
  EXPECT_FLOAT_EQ(combine_products(pols[0], products, weights, none).weight, 2);
  EXPECT_FLOAT_EQ(combine_products(pols[1], products, weights, none).weight, 1);
  EXPECT_FLOAT_EQ(combine_products(pols[0], products, weights, yy_flagged).weight, 0);
  EXPECT_FLOAT_EQ(combine_products(pols[1], products, weights, yy_flagged).weight, 1);
  const float no_weight[2] = {0, 3};
  EXPECT_FLOAT_EQ(combine_products(pols[0], products, no_weight, none).weight, 0);
}

TEST(PolarisationSelection, NamesTheProductsWhenStokesICannotBeMade) {
  try {
    select_polarisations({"I"}, {-7}, "zen.xy.ms");
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "zen.xy.ms: cannot make I: the file holds XY (try --pol XY)");
  }
  EXPECT_THROW(select_polarisations({"U"}, {-5, -6}, "a.ms"), DataError);
  EXPECT_THROW(select_polarisations({"XX"}, {-1, -2}, "a.ms"), DataError);
  EXPECT_EQ(select_polarisations({"I"}, {1}, "i.uvfits")[0].terms.size(), 1u);
}

}  // namespace
}  // namespace rapt
