#include "corr/corr_run.hpp"

#include <cstdio>
#include <memory>

#include "bf/station_flags.hpp"
#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stopwatch.hpp"
#include "corr/block_preparation.hpp"
#include "corr/corr_plan.hpp"
#include "corr/integrator.hpp"
#include "io/visibility_writer.hpp"
#include "io/voltage_layout.hpp"
#include "io/voltage_prefetch.hpp"

namespace rapt {
namespace {

std::unique_ptr<VisibilityWriter> open_writer(const CorrOptions& o, const VisibilitySet& metadata) {
  return o.format == VisibilityFormat::ms
             ? open_measurement_set_writer(o.output, metadata, o.overwrite)
             : open_uvfits_writer(o.output, metadata, o.overwrite);
}

const char* precision_name(CorrPrecision p) {
  return p == CorrPrecision::int8 ? "int8" : p == CorrPrecision::fp16 ? "fp16" : "fp32";
}

void describe(const CorrPlan& plan, const ChanneliserEngine* channeliser,
              const CorrelatorEngine& engine, const Messages& messages) {
  const VoltageHeader& v = plan.voltages;
  const std::string channelised =
      channeliser ? format_string(" (channelised by %s from %d)", channeliser->name().c_str(),
                                  plan.input.nchan)
                  : std::string();
  messages.detail(format_string(
      "%d stations x %d channels x %d polarisations%s; integrations of %lld samples (%.4g s); "
      "blocks of up to %lld samples; engine %s, %s (%s)", v.nant, v.nchan, v.npol,
      channelised.c_str(), (long long)plan.integration.nint, plan.integration.nint * v.tsamp_s,
      (long long)plan.integration.gulp, engine.name().c_str(),
      precision_name(plan.engine.precision), plan.precision_reason.c_str()));
}

std::string integration_option(const CorrOptions& o) {
  return o.nint > 0 ? format_string("--nint %lld", (long long)o.nint)
                    : format_string("--tint %g", o.tint_s);
}

// The last integration, when the data end inside it: written with its own length (and a note)
// or, with --drop-partial, left out.
void finish_last_integration(const CorrOptions& o, const CorrPlan& plan, Integrator& integration,
                             const Messages& messages) {
  if (!integration.pending()) return;
  const double seconds = integration.pending() * plan.voltages.tsamp_s;
  if (o.drop_partial) {
    if (integration.written())
      messages.info(format_string("the last %.4g s (%lld samples) do not fill an integration "
                                  "and were left out (--drop-partial)", seconds,
                                  (long long)integration.pending()));
    integration.drop();
    return;
  }
  if (integration.written())
    messages.info(format_string("the last integration is %.4g s (%lld samples) long, not %.4g s",
                                seconds, (long long)integration.pending(),
                                plan.integration.nint * plan.voltages.tsamp_s));
  integration.write();
}

// What the run found worth saying once it is over.
void report(const CorrOptions& o, const BlockPreparation& prepared, const CorrelatorEngine& engine,
            int frame, const Messages& messages) {
  if (prepared.dropped_input())
    messages.warning(format_string("%s: the last %lld samples do not fill a channeliser frame "
                                   "(%d samples) and were left out",
                                   o.input.c_str(), (long long)prepared.dropped_input(), frame));
  if (prepared.warmup_left_out())
    messages.detail(format_string("the first %lld channelised samples, whose filter taps reach "
                                  "before the data, were left out",
                                  (long long)prepared.warmup_left_out()));
  if (prepared.non_finite())
    messages.warning(format_string("%s: %lld station samples held NaN or infinite values and "
                                   "were left out (flagged)", o.input.c_str(),
                                   (long long)prepared.non_finite()));
  if (prepared.lost())
    messages.info(format_string("%lld station samples were zero in every channel (lost data) and "
                                "were left out", (long long)prepared.lost()));
  if (prepared.flagged())
    messages.detail(format_string("%lld station samples flagged by %s",
                                  (long long)prepared.flagged(), o.flags_path.c_str()));
  if (engine.clamped_values())
    messages.warning(format_string("%lld voltage values lay outside -127..127 and were clamped "
                                   "(--precision int8)", (long long)engine.clamped_values()));
}

}  // namespace

CorrRunSummary run_corr(const CorrOptions& o, const Messages& messages) {
  const Stopwatch started;
  refuse_input_as_output(o.output, o.input, "write the visibilities to another file");
  std::unique_ptr<VoltageReader> reader = open_voltage_file(o.input, o.stream.vdif);
  // Visibilities need a sky frequency and a direction: without them they would be labelled at
  // baseband frequencies (VDIF, a header without FREQ) or phased towards RA 0, Dec 0.
  require_sky_frequency(reader->header(), o.input, "visibilities need");
  if (!o.phase_centre) require_pointing(reader->header(), o.input, "--phase-centre");
  if (o.fringe_stopped && !reader->header().pointing_known)
    throw UsageError(o.input + ": names no pointing, which --fringe-stopped needs (the direction "
                               "the voltages were compensated to)");
  const CorrPlan plan = make_corr_plan(o, reader->header(), messages);
  // The header's warnings once it is taken: a refusal above says the whole of its problem in
  // one line (a missing start time, antennas without positions and why).
  const size_t header_warnings = show_voltage_warnings(*reader, o.input, messages);
  const StationFlags flags =
      o.flags_path.empty() ? StationFlags{}
                           : read_station_flags(o.flags_path, station_names(plan.layout, plan.voltages.nant));
  const int threads = o.stream.thread_count();
  std::unique_ptr<ChanneliserEngine> channeliser =
      plan.channeliser ? make_channeliser(*plan.channeliser, o.stream.device, threads) : nullptr;
  std::unique_ptr<CorrelatorEngine> engine =
      o.stream.device.use_gpu ? make_gpu_correlator(plan.engine, o.stream.device.gpu_index)
                              : make_cpu_correlator(plan.engine, threads);
  std::unique_ptr<VisibilityWriter> writer = open_writer(o, plan.metadata);
  describe(plan, channeliser.get(), *engine, messages);

  CorrRunSummary summary;
  BlockPreparation preparation(plan, flags, channeliser.get(), threads);
  Integrator integration(plan, *engine, *writer);
  double accumulating_s = 0;
  // Blocks end at integration ends (counted in correlated samples, whole frames of input
  // samples), so the output does not depend on --gulp. The next block is read and decoded on a
  // thread of its own while this one is correlated.
  PrefetchingVoltageReader blocks(*reader, [&](int64_t position) {
    return plan.frame * plan.integration.block_size(position / plan.frame);
  });
  while (VoltageBlock* block = blocks.next()) {
    summary.samples_in += block->nsamples;
    const PreparedBlock p = preparation.prepare(*block);
    if (p.nsamples == 0) continue;
    const Stopwatch t;
    integration.add(p.data, p.first_sample, p.nsamples, preparation.mask());
    accumulating_s += t.seconds();
    summary.samples_correlated += p.nsamples;
    if (integration.complete()) integration.write();
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %.3f s of data correlated", messages.program.c_str(),
                   summary.samples_in * plan.input.tsamp_s);
  }
  if (messages.progress && summary.samples_in > 0) std::fputc('\n', stderr);
  show_voltage_warnings(*reader, o.input, messages, header_warnings);
  finish_last_integration(o, plan, integration, messages);
  if (integration.written() == 0)
    throw file_error(o.input, summary.samples_correlated == 0
                                  ? std::string("holds no samples to correlate")
                                  : format_string("has %lld samples, fewer than one integration (%s)",
                                                  (long long)summary.samples_correlated,
                                                  integration_option(o).c_str()));
  const Stopwatch t;
  writer->commit();
  report(o, preparation, *engine, plan.frame, messages);
  // Written all the same (its autocorrelations may be of use), but no imager will take it.
  if (integration.cross_samples_written() == 0 && plan.voltages.nant > 1) {
    const std::string output = o.output == "-" ? std::string("standard output") : o.output;
    messages.warning(output + ": every cross-correlation is flagged (weight 0): the stations "
                              "flagged or lost leave no baseline with a valid sample");
  }

  const VoltageHeader& in = plan.input;
  summary.waiting_s = blocks.waiting_s();
  summary.channelising_s = preparation.channelising_s();
  summary.preparing_s = preparation.preparing_s();
  summary.correlating_s = summary.preparing_s + accumulating_s + integration.taking_s();
  summary.writing_s = integration.writing_s() + t.seconds();
  summary.integrations = integration.written();
  summary.rows = int64_t(writer->rows_written());
  summary.seconds_of_data = summary.samples_in * in.tsamp_s;
  summary.input_bytes = double(summary.samples_in) * in.nchan * in.nant * in.npol *
                        in.values_per_sample() * in.nbits / 8;
  summary.engine = (channeliser ? channeliser->name() + " + " : std::string()) + engine->name();
  summary.wall_seconds = started.seconds();
  return summary;
}

}  // namespace rapt
