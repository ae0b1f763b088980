// One pass of the dedispersion runner: DM trials sharing a downsampling factor, computed from a
// block of spectra either directly (one engine) or in two subband stages.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dedisp/dedisp_engine.hpp"

namespace rapt {

class DedispPass {
 public:
  virtual ~DedispPass() = default;
  // Spectra a block needs beyond the span it produces output for.
  virtual size_t overlap() const = 0;
  virtual int downsamp() const = 0;
  virtual size_t ntrials() const = 0;
  virtual bool accepts_packed() const = 0;
  // `block` is time-major with at least span + overlap() spectra; writes span / downsamp()
  // samples per trial to out[trial * out_stride + k]. `span` is a multiple of downsamp().
  virtual void process(const SpectraBlock& block, size_t span, float* out, size_t out_stride) = 0;
  // Largest delay, in input samples, that trial `i` applies to any channel it uses.
  virtual int32_t trial_delay(size_t i) const = 0;
  virtual std::string engine_name() const = 0;
  virtual std::vector<std::string> notes() const { return {}; }
};

// An engine for `plan` on `device`; for "cpu", `cpu_threads` > 0 sets the thread count.
std::unique_ptr<DedispEngine> make_engine_for(const DedispPlan& plan, const std::string& device,
                                              int cpu_threads);

std::unique_ptr<DedispPass> make_direct_pass(const DedispPlan& plan, const std::string& device,
                                             int cpu_threads);

// Two-stage subband dedispersion (as prepsubband): the DMs are cut into groups narrow enough
// that one "sub-DM" per group leaves at most `tolerance` output samples of smearing within the
// lowest subband; stage 1 dedisperses the channels of each subband at each sub-DM (delays
// relative to the subband's top channel), stage 2 dedisperses the subbands at each DM of the
// group. Throws UsageError when nsub does not divide the channel count.
std::unique_ptr<DedispPass> make_subband_pass(const DedispPlan& plan, int nsub, double tolerance,
                                              const std::string& device, int cpu_threads);

// The DM groups make_subband_pass forms for `plan` (indices into plan.dms, each group in
// increasing DM). A pass over a subset made of whole groups computes its trials exactly as the
// pass over every DM does. Empty for a bad nsub or tolerance.
std::vector<std::vector<size_t>> subband_dm_groups(const DedispPlan& plan, int nsub,
                                                  double tolerance);

}  // namespace rapt
