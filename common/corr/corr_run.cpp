#include "corr/corr_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "bf/station_flags.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "corr/corr_plan.hpp"
#include "corr/valid_samples.hpp"
#include "io/visibility_writer.hpp"
#include "io/voltage_layout.hpp"
#include "io/voltage_prefetch.hpp"
#include "io/voltage_samples.hpp"

namespace rapt {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::unique_ptr<VisibilityWriter> open_writer(const CorrOptions& o, const VisibilitySet& metadata) {
  return o.format == VisibilityFormat::ms
             ? open_measurement_set_writer(o.output, metadata, o.overwrite)
             : open_uvfits_writer(o.output, metadata, o.overwrite);
}

// The samples of the integration being summed, and what ends it.
class Integrator {
 public:
  Integrator(const CorrPlan& plan, CorrelatorEngine& engine, VisibilityWriter& writer)
      : plan_(plan), engine_(engine), writer_(writer), rows_(plan.metadata),
        counts_(size_t(plan.engine.nbaselines()), 0) {}

  // Adds a block of correlated samples (zeroed where invalid, fringe-stopped where the plan
  // turns the voltages) that lies within one integration.
  void add(const float* data, int64_t first_sample, int64_t nsamples, const StationSampleMask& mask) {
    if (nsamples_ == 0) first_sample_ = first_sample;
    engine_.accumulate(data, nsamples);
    add_baseline_valid_counts(mask, counts_);
    nsamples_ += nsamples;
  }
  bool complete() const { return nsamples_ == plan_.integration.nint; }
  int64_t pending() const { return nsamples_; }

  // Turns the sums into rows and appends them; times of the engine's take() go to `correlating`.
  void write(double& correlating_s) {
    const auto t = Clock::now();
    engine_.take(sums_);
    correlating_s += seconds_since(t);
    const VoltageHeader& v = plan_.voltages;
    const UtcInstant mid = integration_midpoint({v.start_mjd_day, v.start_mjd_seconds}, v.tsamp_s,
                                                first_sample_, nsamples_);
    if (plan_.rotate_visibilities)
      rotate_visibilities(sums_.data(), v.nchan, v.nant, plan_.engine.nproducts(),
                          plan_.fringe->phases(mid));
    clear_rows(rows_);
    append_integration_rows(plan_.rows, sums_, counts_, mid.mjd(), nsamples_ * v.tsamp_s,
                            antenna_uvw_m(plan_.layout, plan_.phase_centre, mid), rows_);
    writer_.append(rows_);
    std::fill(counts_.begin(), counts_.end(), 0);
    nsamples_ = 0;
    ++written_;
  }
  // Forgets the samples summed so far (a last partial integration left out).
  void drop() {
    engine_.take(sums_);
    std::fill(counts_.begin(), counts_.end(), 0);
    nsamples_ = 0;
  }
  int64_t written() const { return written_; }

 private:
  const CorrPlan& plan_;
  CorrelatorEngine& engine_;
  VisibilityWriter& writer_;
  VisibilitySet rows_;
  std::vector<std::complex<double>> sums_;
  std::vector<int64_t> counts_;
  int64_t first_sample_ = 0, nsamples_ = 0, written_ = 0;
};

// Marks the flagged and lost samples of a block of correlated voltages and zeroes them.
// Returns the station samples found lost.
int64_t apply_validity(float* data, int64_t first_sample, int64_t nsamples, const CorrPlan& plan,
                       const StationFlags& flags, StationSampleMask& mask) {
  const VoltageHeader& v = plan.voltages;
  mask.reset(v.nant, nsamples);
  const auto ranges = station_flagged_ranges(flags, v.nant, first_sample, nsamples, v.tsamp_s);
  for (int a = 0; a < v.nant; ++a)
    for (const SampleRange& r : ranges[size_t(a)]) mask.invalidate(a, r.first, r.second);
  const int64_t lost = mark_lost_samples(data, v.nchan, v.nant, nsamples, v.npol, mask);
  if (mask.invalid_count()) zero_invalid_samples(data, v.nchan, v.nant, nsamples, v.npol, mask);
  return lost;
}

std::string integration_option(const CorrOptions& o) {
  return o.nint > 0 ? format_string("--nint %lld", (long long)o.nint)
                    : format_string("--tint %g", o.tint_s);
}

}  // namespace

CorrRunSummary run_corr(const CorrOptions& o, const Messages& messages) {
  const auto started = Clock::now();
  std::unique_ptr<VoltageReader> reader = open_voltage_file(o.input, o.stream.vdif_rate_hz);
  const CorrPlan plan = make_corr_plan(o, reader->header(), messages);
  const VoltageHeader& in = plan.input;
  const VoltageHeader& v = plan.voltages;
  const StationFlags flags = o.flags_path.empty()
                                 ? StationFlags{}
                                 : read_station_flags(o.flags_path, station_names(plan.layout, v.nant));
  const int threads = o.stream.thread_count();
  std::unique_ptr<ChanneliserEngine> channeliser =
      plan.channeliser ? make_channeliser(*plan.channeliser, o.stream.device, threads) : nullptr;
  std::unique_ptr<CorrelatorEngine> engine = o.stream.device.use_gpu
                                                 ? make_gpu_correlator(plan.engine, o.stream.device.gpu_index)
                                                 : make_cpu_correlator(plan.engine, threads);
  std::unique_ptr<VisibilityWriter> writer = open_writer(o, plan.metadata);
  messages.detail(format_string(
      "%d stations x %d channels x %d polarisations%s; integrations of %lld samples (%.4g s); "
      "blocks of up to %lld samples; engine %s, %s (%s)", v.nant, v.nchan, v.npol,
      channeliser ? format_string(" (channelised by %s from %d)", channeliser->name().c_str(), in.nchan).c_str() : "",
      (long long)plan.integration.nint, plan.integration.nint * v.tsamp_s,
      (long long)plan.integration.gulp, engine->name().c_str(),
      plan.engine.precision == CorrPrecision::int8 ? "int8" :
      plan.engine.precision == CorrPrecision::fp16 ? "fp16" : "fp32", plan.precision_reason.c_str()));

  CorrRunSummary summary;
  Integrator integration(plan, *engine, *writer);
  StationSampleMask mask;
  std::vector<float> channelised;
  std::vector<std::complex<double>> phases;
  int64_t phases_update = -1, lost = 0, flagged = 0, dropped_input = 0;
  const int frame = plan.frame;
  const UtcInstant start{v.start_mjd_day, v.start_mjd_seconds};
  // Blocks end at integration ends (counted in correlated samples, whole frames of input
  // samples), so the output does not depend on --gulp. The next block is read and decoded
  // on a thread of its own while this one is correlated.
  PrefetchingVoltageReader blocks(*reader, [&](int64_t position) {
    return frame * plan.integration.block_size(position / frame);
  });
  while (VoltageBlock* block = blocks.next()) {
    summary.samples_in += block->nsamples;
    float* data = block->data.data();
    int64_t n = block->nsamples;
    const int64_t first = block->first_sample / frame;
    if (channeliser) {
      // A last block whose tail does not fill a frame is cut to whole frames first.
      const int64_t usable = n - n % frame;
      dropped_input += n - usable;
      if (usable == 0) continue;
      if (usable < n)
        shrink_time_rows(data, n, usable, int64_t(in.nchan) * in.nant,
                         int64_t(in.npol) * in.values_per_sample());
      auto t = Clock::now();
      channeliser->process(data, usable, channelised);
      summary.channelising_s += seconds_since(t);
      data = channelised.data();
      n = usable / frame;
    }
    auto t = Clock::now();
    lost += apply_validity(data, first, n, plan, flags, mask);
    flagged += mask.invalid_count();
    if (plan.rotate_voltages) {
      // Each update interval's phases (for its middle) on the samples of the block it covers:
      // intervals are counted from the first sample, so blocks do not change what a sample gets.
      const int64_t u = plan.phase_update_samples;
      for (int64_t k = first; k < first + n; k = (k / u + 1) * u) {
        if (k / u != phases_update) {
          phases_update = k / u;
          phases = plan.fringe->phases(
              sample_instant(start, v.tsamp_s, double(phases_update * u) + 0.5 * double(u - 1)));
        }
        rotate_voltages(data, v.nchan, v.nant, n, v.npol, phases, k - first,
                        std::min((k / u + 1) * u, first + n) - first);
      }
    }
    integration.add(data, first, n, mask);
    summary.correlating_s += seconds_since(t);
    summary.samples_correlated += n;
    if (integration.complete()) {
      t = Clock::now();
      integration.write(summary.correlating_s);
      summary.writing_s += seconds_since(t);
    }
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %.3f s of data correlated", messages.program.c_str(),
                   summary.samples_in * in.tsamp_s);
  }
  summary.waiting_s = blocks.waiting_s();
  if (messages.progress && summary.samples_in > 0) std::fputc('\n', stderr);
  if (dropped_input)
    messages.warning(format_string("%s: the last %lld samples do not fill a channeliser frame "
                                   "(%d samples) and were left out",
                                   o.input.c_str(), (long long)dropped_input, frame));
  if (integration.pending()) {
    const double seconds = integration.pending() * v.tsamp_s;
    if (o.drop_partial) {
      if (integration.written())
        messages.info(format_string("the last %.4g s (%lld samples) do not fill an integration "
                                    "and were left out (--drop-partial)", seconds,
                                    (long long)integration.pending()));
      integration.drop();
    } else {
      if (integration.written())
        messages.info(format_string("the last integration is %.4g s (%lld samples) long, not %.4g s",
                                    seconds, (long long)integration.pending(),
                                    plan.integration.nint * v.tsamp_s));
      const auto t = Clock::now();
      integration.write(summary.correlating_s);
      summary.writing_s += seconds_since(t);
    }
  }
  if (integration.written() == 0)
    throw file_error(o.input, summary.samples_correlated == 0
                                  ? std::string("holds no samples to correlate")
                                  : format_string("has %lld samples, fewer than one integration (%s)",
                                                  (long long)summary.samples_correlated,
                                                  integration_option(o).c_str()));
  auto t = Clock::now();
  writer->commit();
  summary.writing_s += seconds_since(t);
  if (lost)
    messages.info(format_string("%lld station samples were zero in every channel (lost data) and "
                                "were left out", (long long)lost));
  if (flagged > lost)
    messages.detail(format_string("%lld station samples flagged by %s", (long long)(flagged - lost),
                                  o.flags_path.c_str()));
  if (engine->clamped_values())
    messages.warning(format_string("%lld voltage values lay outside -127..127 and were clamped "
                                   "(--precision int8)", (long long)engine->clamped_values()));
  summary.integrations = integration.written();
  summary.rows = int64_t(writer->rows_written());
  summary.seconds_of_data = summary.samples_in * in.tsamp_s;
  summary.input_bytes = double(summary.samples_in) * in.nchan * in.nant * in.npol *
                        in.values_per_sample() * in.nbits / 8;
  summary.engine = (channeliser ? channeliser->name() + " + " : std::string()) + engine->name();
  summary.wall_seconds = seconds_since(started);
  return summary;
}

}  // namespace rapt
