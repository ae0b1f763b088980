// How corr cuts the stream of (channelised) samples: integrations of `nint` samples counted from
// the first sample, and blocks of at most `gulp`. A block never crosses an integration end, so
// which integration a sample lands in does not depend on --gulp. (Fringe-stopping phases change
// within blocks, at fixed sample numbers: corr_run.cpp.)
#pragma once
#include <cstdint>

#include "geometry/interferometer_geometry.hpp"

namespace rapt {

struct IntegrationPlan {
  int64_t nint = 1;
  int64_t gulp = 1;

  // Samples the block that starts at sample `position` may hold.
  int64_t block_size(int64_t position) const;
  // Throws std::invalid_argument unless every count is positive.
  void validate() const;
};

// Samples per integration: `nint` when positive, else tint_s / tsamp_s rounded to the nearest
// whole number of samples (at least 1).
int64_t samples_per_integration(double tint_s, int64_t nint, double tsamp_s);

// The instant of sample `k`, which may be fractional (sample k is at start + k tsamp).
UtcInstant sample_instant(const UtcInstant& start, double tsamp_s, double k);

// The mean time of samples first .. first + n - 1: the time of an integration's visibilities.
inline UtcInstant integration_midpoint(const UtcInstant& start, double tsamp_s, int64_t first,
                                       int64_t n) {
  return sample_instant(start, tsamp_s, double(first) + 0.5 * double(n - 1));
}

}  // namespace rapt
