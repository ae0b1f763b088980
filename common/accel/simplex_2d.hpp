// Downhill simplex (Nelder-Mead) minimisation in two dimensions, with the reflection (-1),
// expansion (2), contraction (0.5) and shrink-towards-best steps and the relative-spread stopping
// rule of the Numerical Recipes "amoeba" that PRESTO's optimisers use, so that the same start
// reaches the same minimum.
#pragma once
#include <array>
#include <functional>

namespace rapt {

struct Simplex2d {
  std::array<std::array<double, 2>, 3> points{};  // vertices
  std::array<double, 3> values{};                 // function value at each vertex
};

struct SimplexOutcome {
  int evaluations = 0;
  bool converged = false;  // false: stopped at max_evaluations, vertex order left as it was
};

// Minimises f from `simplex` (values must hold f at the points). Stops when
// 2 |f_hi - f_lo| / (|f_hi| + |f_lo| + 1e-15) < ftol; then the best vertex is moved to index 0.
// Also stops (without reordering, as PRESTO) once max_evaluations evaluations have been counted.
SimplexOutcome minimise_simplex_2d(const std::function<double(const std::array<double, 2>&)>& f,
                                   Simplex2d& simplex, double ftol, int max_evaluations = 5000);

}  // namespace rapt
