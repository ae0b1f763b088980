#include "accel/simplex_2d.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace rapt {
namespace {

Simplex2d simplex_around(const std::function<double(const std::array<double, 2>&)>& f,
                         double x, double y, double step) {
  Simplex2d s;
  s.points = {{{x - step, y - step}, {x - step, y + step}, {x + step, y}}};
  for (int i = 0; i < 3; ++i) s.values[i] = f(s.points[i]);
  return s;
}

TEST(DownhillSimplex, FindsTheMinimumOfAnOffsetQuadraticAndPutsItFirst) {
  int calls = 0;
  const auto f = [&calls](const std::array<double, 2>& p) {
    ++calls;
    return 3.0 + (p[0] - 1.25) * (p[0] - 1.25) + 4.0 * (p[1] + 0.5) * (p[1] + 0.5);
  };
  Simplex2d s = simplex_around(f, 0.0, 0.0, 0.4);
  const SimplexOutcome outcome = minimise_simplex_2d(f, s, 1e-14);
  EXPECT_TRUE(outcome.converged);
  EXPECT_NEAR(s.points[0][0], 1.25, 1e-6);
  EXPECT_NEAR(s.points[0][1], -0.5, 1e-6);
  EXPECT_LE(s.values[0], s.values[1]);
  EXPECT_LE(s.values[0], s.values[2]);
  EXPECT_EQ(s.values[0], f(s.points[0]));
  EXPECT_GT(calls, 10);
}

TEST(DownhillSimplex, FollowsTheRosenbrockValley) {
  const auto f = [](const std::array<double, 2>& p) {
    return 100.0 * std::pow(p[1] - p[0] * p[0], 2) + std::pow(1.0 - p[0], 2) + 1.0;
  };
  Simplex2d s = simplex_around(f, -1.2, 1.0, 0.4);
  EXPECT_TRUE(minimise_simplex_2d(f, s, 1e-15).converged);
  EXPECT_NEAR(s.points[0][0], 1.0, 1e-3);
  EXPECT_NEAR(s.points[0][1], 1.0, 2e-3);
}

TEST(DownhillSimplex, StopsAtTheEvaluationCapWithoutConverging) {
  const auto f = [](const std::array<double, 2>& p) { return -(p[0] + p[1]); };  // unbounded
  Simplex2d s = simplex_around(f, 0.0, 0.0, 0.4);
  const SimplexOutcome outcome = minimise_simplex_2d(f, s, 1e-10, 100);
  EXPECT_FALSE(outcome.converged);
  EXPECT_GE(outcome.evaluations, 100);
  EXPECT_LE(outcome.evaluations, 103);
}

}  // namespace
}  // namespace rapt
