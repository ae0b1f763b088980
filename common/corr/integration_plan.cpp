#include "corr/integration_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rapt {

int64_t IntegrationPlan::block_size(int64_t position) const {
  return std::min(gulp, (position / nint + 1) * nint - position);
}

void IntegrationPlan::validate() const {
  if (nint < 1 || gulp < 1)
    throw std::invalid_argument("IntegrationPlan: sizes must be positive");
}

int64_t samples_per_integration(double tint_s, int64_t nint, double tsamp_s) {
  if (nint > 0) return nint;
  return std::max<int64_t>(1, std::llround(tint_s / tsamp_s));
}

UtcInstant sample_instant(const UtcInstant& start, double tsamp_s, double k) {
  return {start.mjd_day, start.seconds + k * tsamp_s};
}

}  // namespace rapt
