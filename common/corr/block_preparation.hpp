// What happens to a block of voltages before the X engine: channelisation (when the plan has a
// channeliser), the validity mask (flagged, lost and non-finite samples, zeroed) and fringe stopping of
// the voltages (when the plan turns them). The phases of each update interval are those of its
// middle, the intervals counted in samples from the first, so blocks do not change them.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "bf/station_flags.hpp"
#include "corr/corr_plan.hpp"
#include "corr/valid_samples.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {

// A block ready for the engine: `nsamples` correlated samples from sample `first_sample` on.
struct PreparedBlock {
  float* data = nullptr;
  int64_t first_sample = 0;
  int64_t nsamples = 0;  // 0: nothing to correlate (a last block shorter than a frame)
};

class BlockPreparation {
 public:
  // `channeliser`: the plan's, or nullptr when it has none. Masks and phases are applied on
  // `threads` threads.
  BlockPreparation(const CorrPlan& plan, const StationFlags& flags, ChanneliserEngine* channeliser,
                   int threads);
  // The plan and flags are kept by reference: temporaries would not outlive this object.
  BlockPreparation(CorrPlan&&, const StationFlags&, ChanneliserEngine*, int) = delete;
  BlockPreparation(const CorrPlan&, StationFlags&&, ChanneliserEngine*, int) = delete;
  // Prepares `block` (changed in place; the result may point into it or into this object's
  // channelised buffer, valid until the next call).
  PreparedBlock prepare(VoltageBlock& block);
  // The validity of the last prepared block's samples.
  const StationSampleMask& mask() const { return mask_; }

  int64_t lost() const { return lost_; }                // station samples all zero
  int64_t flagged() const { return flagged_; }          // ... flagged by the flags file
  int64_t non_finite() const { return non_finite_; }    // ... holding a NaN or infinity
  int64_t dropped_input() const { return dropped_input_; }  // input samples short of a frame
  // Channelised samples left out at the start, while the filterbank's taps reach before the data.
  int64_t warmup_left_out() const { return warmup_left_out_; }
  double channelising_s() const { return channelising_s_; }
  double preparing_s() const { return preparing_s_; }   // masks and fringe stopping

 private:
  float* channelise(VoltageBlock& block, int64_t& nsamples);
  void rotate(float* data, int64_t first, int64_t nsamples);

  const CorrPlan& plan_;
  const StationFlags& flags_;
  ChanneliserEngine* channeliser_;
  int threads_;
  int64_t warmup_samples_;  // ntaps - 1 with a channeliser, else 0
  StationSampleMask mask_;
  std::vector<float> channelised_;
  std::vector<std::complex<double>> phases_;
  int64_t phases_update_ = -1;
  int64_t lost_ = 0, flagged_ = 0, non_finite_ = 0, dropped_input_ = 0, warmup_left_out_ = 0;
  double channelising_s_ = 0, preparing_s_ = 0;
};

}  // namespace rapt
