// The integration being summed: blocks of prepared voltages go into the X engine and their
// valid-sample counts into each baseline's; when the integration ends, its sums become rows
// (visibility_rows.hpp) with the uvw and time of its middle, turned by the fringe-stopping
// phases there when the plan stops fringes on the visibilities (int8), and go to the writer.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "corr/corr_plan.hpp"
#include "corr/correlator_engine.hpp"
#include "corr/valid_samples.hpp"
#include "io/visibility_writer.hpp"

namespace rapt {

class Integrator {
 public:
  Integrator(const CorrPlan& plan, CorrelatorEngine& engine, VisibilityWriter& writer);
  // The plan is kept by reference: a temporary would not outlive this object.
  Integrator(CorrPlan&&, CorrelatorEngine&, VisibilityWriter&) = delete;

  // Adds `nsamples` samples from sample `first_sample` on (within one integration), zeroed
  // where `mask` says they are invalid.
  void add(const float* data, int64_t first_sample, int64_t nsamples, const StationSampleMask& mask);
  // The integration holds plan.integration.nint samples.
  bool complete() const { return nsamples_ == plan_.integration.nint; }
  // Samples summed and not yet written.
  int64_t pending() const { return nsamples_; }
  // Writes the integration's rows (a short one at the end of the data with its own length) and
  // starts the next.
  void write();
  // Forgets the samples summed so far (a last partial integration left out).
  void drop();
  int64_t written() const { return written_; }
  // Valid samples of the cross-correlations in the integrations written (0: every baseline
  // between two stations flagged throughout).
  int64_t cross_samples_written() const { return cross_samples_; }
  // Seconds spent taking the engine's sums, and making and writing rows.
  double taking_s() const { return taking_s_; }
  double writing_s() const { return writing_s_; }

 private:
  const CorrPlan& plan_;
  CorrelatorEngine& engine_;
  VisibilityWriter& writer_;
  VisibilitySet rows_;
  std::vector<std::complex<double>> sums_;
  std::vector<int64_t> counts_;
  int64_t first_sample_ = 0, nsamples_ = 0, written_ = 0, cross_samples_ = 0;
  double taking_s_ = 0, writing_s_ = 0;
};

}  // namespace rapt
