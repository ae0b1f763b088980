#include "corr/block_preparation.hpp"

#include <algorithm>

#include "cli/stopwatch.hpp"
#include "io/voltage_samples.hpp"

namespace rapt {

BlockPreparation::BlockPreparation(const CorrPlan& plan, const StationFlags& flags,
                                   ChanneliserEngine* channeliser, int threads)
    : plan_(plan),
      flags_(flags),
      channeliser_(channeliser),
      threads_(threads),
      warmup_samples_(plan.warmup_samples()) {}

PreparedBlock BlockPreparation::prepare(VoltageBlock& block) {
  PreparedBlock out;
  int64_t n = block.nsamples;
  out.first_sample = block.first_sample / plan_.frame;
  out.data = channeliser_ ? channelise(block, n) : block.data.data();
  if (n == 0) return out;
  out.nsamples = n;
  const Stopwatch t;
  const VoltageHeader& v = plan_.voltages;
  mask_.reset(v.nant, n);
  const auto ranges = station_flagged_ranges(flags_, v.nant, out.first_sample, n, v.tsamp_s);
  for (int a = 0; a < v.nant; ++a)
    for (const SampleRange& r : ranges[size_t(a)]) mask_.invalidate(a, r.first, r.second);
  const int64_t flagged = mask_.invalid_count();
  // The filterbank's first ntaps - 1 outputs still reach back before the data (zeros there),
  // so they would enter the sums short of power at full weight.
  if (out.first_sample < warmup_samples_) {
    for (int a = 0; a < v.nant; ++a) mask_.invalidate(a, 0, warmup_samples_ - out.first_sample);
    warmup_left_out_ += std::min(n, warmup_samples_ - out.first_sample);
  }
  const int64_t lost = mark_lost_samples(out.data, v.nchan, v.nant, n, v.npol, mask_, threads_);
  // Only float input can hold NaN or infinity (channelised, it spreads over the filter's taps).
  if (plan_.input.float_samples)
    non_finite_ += mark_non_finite_samples(out.data, v.nchan, v.nant, n, v.npol, mask_, threads_);
  if (mask_.invalid_count()) zero_invalid_samples(out.data, v.nchan, v.nant, n, v.npol, mask_, threads_);
  flagged_ += flagged;
  lost_ += lost;
  if (plan_.rotate_voltages) rotate(out.data, out.first_sample, n);
  preparing_s_ += t.seconds();
  return out;
}

// The input samples of a block (whole frames; a last block's tail short of a frame is left
// out) through the channeliser. Sets `nsamples` to the channelised samples.
float* BlockPreparation::channelise(VoltageBlock& block, int64_t& nsamples) {
  const VoltageHeader& in = plan_.input;
  const int64_t n = block.nsamples;
  const int64_t usable = n - n % plan_.frame;
  dropped_input_ += n - usable;
  nsamples = usable / plan_.frame;
  if (usable == 0) return nullptr;
  if (usable < n)
    shrink_time_rows(block.data.data(), n, usable, int64_t(in.nchan) * in.nant,
                     int64_t(in.npol) * in.values_per_sample());
  const Stopwatch t;
  channeliser_->process(block.data.data(), usable, channelised_);
  channelising_s_ += t.seconds();
  return channelised_.data();
}

// Each update interval's phases on the samples of the block it covers.
void BlockPreparation::rotate(float* data, int64_t first, int64_t nsamples) {
  const VoltageHeader& v = plan_.voltages;
  const UtcInstant start{v.start_mjd_day, v.start_mjd_seconds};
  const int64_t u = plan_.phase_update_samples;
  for (int64_t k = first; k < first + nsamples; k = (k / u + 1) * u) {
    if (k / u != phases_update_) {
      phases_update_ = k / u;
      phases_ = plan_.fringe->phases(
          sample_instant(start, v.tsamp_s, double(phases_update_ * u) + 0.5 * double(u - 1)));
    }
    rotate_voltages(data, v.nchan, v.nant, nsamples, v.npol, phases_, k - first,
                    std::min((k / u + 1) * u, first + nsamples) - first, threads_);
  }
}

}  // namespace rapt
