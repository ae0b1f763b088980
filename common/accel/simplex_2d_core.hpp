// The downhill simplex of simplex_2d.hpp as a template on the objective, written once for host
// and device. Deterministic: a device block whose threads all run it on the same (broadcast)
// objective values takes the same steps in every thread, and the same steps as the host.
#pragma once
#include <math.h>

#include "accel/host_device.hpp"

namespace rapt::fdotmath {

struct SimplexState {
  double points[3][2];  // vertices
  double values[3];     // objective at each vertex
};

struct SimplexResult {
  int evaluations;  // as Numerical Recipes counts them (it decides where the cap bites)
  bool converged;   // false: stopped at the cap, vertex order left as it was
};

struct SimplexRanking {
  int lowest;
  int highest;
  int second_highest;
};

RAPT_HOST_DEVICE inline SimplexRanking rank_simplex(const double y[3]) {
  SimplexRanking k{0, 0, 0};
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

// Moves the worst vertex through the centroid of the others by `factor` (-1 reflects) and keeps
// the new point if it improves on the worst. Returns the new point's value.
template <typename Objective>
RAPT_HOST_DEVICE double simplex_try_vertex(Objective& f, SimplexState& s, double sum[2], int worst,
                                           double factor) {
  const double fac1 = 0.5 * (1.0 - factor);
  const double fac2 = fac1 - factor;
  double trial[2];
  for (int d = 0; d < 2; ++d) trial[d] = sum[d] * fac1 - s.points[worst][d] * fac2;
  const double value = f(trial);
  if (value < s.values[worst]) {
    s.values[worst] = value;
    for (int d = 0; d < 2; ++d) {
      sum[d] += trial[d] - s.points[worst][d];
      s.points[worst][d] = trial[d];
    }
  }
  return value;
}

RAPT_HOST_DEVICE inline void simplex_vertex_sum(const SimplexState& s, double sum[2]) {
  for (int d = 0; d < 2; ++d) sum[d] = s.points[0][d] + s.points[1][d] + s.points[2][d];
}

// Minimises f (called as f(const double p[2]) -> double) from `s`, whose values must hold f at
// the points. Stops when 2 |f_hi - f_lo| / (|f_hi| + |f_lo| + 1e-15) < ftol, then moves the best
// vertex to index 0; or once max_evaluations evaluations have been counted (no reordering).
template <typename Objective>
RAPT_HOST_DEVICE SimplexResult run_simplex_2d(Objective& f, SimplexState& s, double ftol,
                                              int max_evaluations) {
  SimplexResult outcome{0, false};
  double sum[2];
  simplex_vertex_sum(s, sum);
  double* y = s.values;
  for (;;) {
    const SimplexRanking k = rank_simplex(y);
    const double spread = 2.0 * fabs(y[k.highest] - y[k.lowest]) /
                          (fabs(y[k.highest]) + fabs(y[k.lowest]) + 1e-15);
    if (spread < ftol) {
      const double best_value = y[k.lowest];
      y[k.lowest] = y[0];
      y[0] = best_value;
      for (int d = 0; d < 2; ++d) {
        const double best = s.points[k.lowest][d];
        s.points[k.lowest][d] = s.points[0][d];
        s.points[0][d] = best;
      }
      outcome.converged = true;
      return outcome;
    }
    if (outcome.evaluations >= max_evaluations) return outcome;
    outcome.evaluations += 2;
    const double reflected = simplex_try_vertex(f, s, sum, k.highest, -1.0);
    if (reflected <= y[k.lowest]) {
      simplex_try_vertex(f, s, sum, k.highest, 2.0);
    } else if (reflected >= y[k.second_highest]) {
      const double worst_before = y[k.highest];
      const double contracted = simplex_try_vertex(f, s, sum, k.highest, 0.5);
      if (contracted >= worst_before) {
        // Shrink towards the best vertex.
        for (int i = 0; i < 3; ++i) {
          if (i == k.lowest) continue;
          for (int d = 0; d < 2; ++d) {
            s.points[i][d] = 0.5 * (s.points[i][d] + s.points[k.lowest][d]);
          }
          s.values[i] = f(s.points[i]);
        }
        simplex_vertex_sum(s, sum);
        outcome.evaluations += 2;
      }
    } else {
      --outcome.evaluations;
    }
  }
}

}  // namespace rapt::fdotmath
