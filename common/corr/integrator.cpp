#include "corr/integrator.hpp"

#include <algorithm>

#include "cli/stopwatch.hpp"

namespace rapt {

Integrator::Integrator(const CorrPlan& plan, CorrelatorEngine& engine, VisibilityWriter& writer)
    : plan_(plan), engine_(engine), writer_(writer), rows_(plan.metadata),
      counts_(size_t(plan.engine.nbaselines()), 0) {}

void Integrator::add(const float* data, int64_t first_sample, int64_t nsamples,
                     const StationSampleMask& mask) {
  if (nsamples_ == 0) first_sample_ = first_sample;
  engine_.accumulate(data, nsamples);
  add_baseline_valid_counts(mask, counts_);
  nsamples_ += nsamples;
}

void Integrator::write() {
  Stopwatch t;
  engine_.take(sums_);
  taking_s_ += t.seconds();
  t = Stopwatch();
  const VoltageHeader& v = plan_.voltages;
  // The first integration of channelised voltages begins with the filter's warm-up samples,
  // left out of every sum: its time and length are those of the samples that count.
  int64_t first = first_sample_, counted = nsamples_;
  const int64_t warmup_end = plan_.warmup_samples();
  if (first < warmup_end && first + counted > warmup_end) {
    counted -= warmup_end - first;
    first = warmup_end;
  }
  const UtcInstant mid = integration_midpoint({v.start_mjd_day, v.start_mjd_seconds}, v.tsamp_s,
                                              first, counted);
  if (plan_.rotate_visibilities)
    rotate_visibilities(sums_.data(), v.nchan, v.nant, plan_.engine.nproducts(),
                        plan_.fringe->phases(mid));
  clear_rows(rows_);
  append_integration_rows(plan_.rows, sums_, counts_, mid.mjd(), counted * v.tsamp_s,
                          antenna_uvw_m(plan_.layout, plan_.phase_centre, mid), rows_);
  writer_.append(rows_);
  for (int a2 = 0; a2 < v.nant; ++a2)
    for (int a1 = 0; a1 < a2; ++a1) cross_samples_ += counts_[size_t(baseline_index(a1, a2))];
  std::fill(counts_.begin(), counts_.end(), 0);
  nsamples_ = 0;
  ++written_;
  writing_s_ += t.seconds();
}

void Integrator::drop() {
  engine_.take(sums_);
  std::fill(counts_.begin(), counts_.end(), 0);
  nsamples_ = 0;
}

}  // namespace rapt
