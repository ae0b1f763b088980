#include "accel/simplex_2d.hpp"

#include <cmath>
#include <utility>

namespace rapt {
namespace {

struct Ranking {
  int lowest = 0;
  int highest = 0;
  int second_highest = 0;
};

Ranking rank_vertices(const std::array<double, 3>& y) {
  Ranking k;
  if (y[0] > y[1]) {
    k.highest = 0;
    k.second_highest = 1;
  } else {
    k.highest = 1;
    k.second_highest = 0;
  }
  for (int i = 0; i < 3; ++i) {
    if (y[i] <= y[k.lowest]) k.lowest = i;
    if (y[i] > y[k.highest]) {
      k.second_highest = k.highest;
      k.highest = i;
    } else if (y[i] > y[k.second_highest] && i != k.highest) {
      k.second_highest = i;
    }
  }
  return k;
}

class SimplexRun {
 public:
  SimplexRun(const std::function<double(const std::array<double, 2>&)>& f, Simplex2d& s)
      : f_(f), s_(s) {
    update_sum();
  }

  // Moves the worst vertex through the centroid of the others by `factor` (-1 reflects) and
  // keeps the new point if it improves on the worst. Returns the new point's value.
  double try_vertex(int worst, double factor) {
    const double fac1 = 0.5 * (1.0 - factor);
    const double fac2 = fac1 - factor;
    std::array<double, 2> trial;
    for (int d = 0; d < 2; ++d) trial[d] = sum_[d] * fac1 - s_.points[worst][d] * fac2;
    const double value = f_(trial);
    if (value < s_.values[worst]) {
      s_.values[worst] = value;
      for (int d = 0; d < 2; ++d) {
        sum_[d] += trial[d] - s_.points[worst][d];
        s_.points[worst][d] = trial[d];
      }
    }
    return value;
  }

  void shrink_towards(int best) {
    for (int i = 0; i < 3; ++i) {
      if (i == best) continue;
      for (int d = 0; d < 2; ++d) s_.points[i][d] = 0.5 * (s_.points[i][d] + s_.points[best][d]);
      s_.values[i] = f_(s_.points[i]);
    }
    update_sum();
  }

 private:
  void update_sum() {
    for (int d = 0; d < 2; ++d) sum_[d] = s_.points[0][d] + s_.points[1][d] + s_.points[2][d];
  }

  const std::function<double(const std::array<double, 2>&)>& f_;
  Simplex2d& s_;
  std::array<double, 2> sum_{};
};

}  // namespace

SimplexOutcome minimise_simplex_2d(const std::function<double(const std::array<double, 2>&)>& f,
                                   Simplex2d& simplex, double ftol, int max_evaluations) {
  SimplexRun run(f, simplex);
  SimplexOutcome outcome;
  auto& y = simplex.values;
  for (;;) {
    const Ranking k = rank_vertices(y);
    const double spread = 2.0 * std::fabs(y[k.highest] - y[k.lowest]) /
                          (std::fabs(y[k.highest]) + std::fabs(y[k.lowest]) + 1e-15);
    if (spread < ftol) {
      std::swap(y[0], y[k.lowest]);
      std::swap(simplex.points[0], simplex.points[k.lowest]);
      outcome.converged = true;
      return outcome;
    }
    if (outcome.evaluations >= max_evaluations) return outcome;
    // Evaluation count kept as Numerical Recipes does (it decides where the cap bites).
    outcome.evaluations += 2;
    const double reflected = run.try_vertex(k.highest, -1.0);
    if (reflected <= y[k.lowest]) {
      run.try_vertex(k.highest, 2.0);
    } else if (reflected >= y[k.second_highest]) {
      const double worst_before = y[k.highest];
      const double contracted = run.try_vertex(k.highest, 0.5);
      if (contracted >= worst_before) {
        run.shrink_towards(k.lowest);
        outcome.evaluations += 2;
      }
    } else {
      --outcome.evaluations;
    }
  }
}

}  // namespace rapt
