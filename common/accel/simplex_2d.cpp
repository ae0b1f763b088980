#include "accel/simplex_2d.hpp"

#include "accel/simplex_2d_core.hpp"

namespace rapt {

SimplexOutcome minimise_simplex_2d(const std::function<double(const std::array<double, 2>&)>& f,
                                   Simplex2d& simplex, double ftol, int max_evaluations) {
  fdotmath::SimplexState s;
  for (int i = 0; i < 3; ++i) {
    s.points[i][0] = simplex.points[i][0];
    s.points[i][1] = simplex.points[i][1];
    s.values[i] = simplex.values[i];
  }
  const auto objective = [&f](const double p[2]) { return f({p[0], p[1]}); };
  const fdotmath::SimplexResult r = fdotmath::run_simplex_2d(objective, s, ftol, max_evaluations);
  for (int i = 0; i < 3; ++i) {
    simplex.points[i] = {s.points[i][0], s.points[i][1]};
    simplex.values[i] = s.values[i];
  }
  SimplexOutcome outcome;
  outcome.evaluations = r.evaluations;
  outcome.converged = r.converged;
  return outcome;
}

}  // namespace rapt
