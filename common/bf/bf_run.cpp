#include "bf/bf_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "bf/beam_outputs.hpp"
#include "bf/beam_weights.hpp"
#include "bf/station_flags.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stream_options.hpp"
#include "corr/valid_samples.hpp"
#include "geometry/array_layout.hpp"
#include "io/voltage_layout.hpp"
#include "io/voltage_prefetch.hpp"
#include "io/voltage_samples.hpp"

namespace rapt {
namespace {

constexpr double kDegToRad = 0.017453292519943295769236907684886;
constexpr double kPi = 3.14159265358979323846;

SkyDirection pointing_of(const BfOptions& o, const VoltageHeader& v) {
  SkyDirection d{v.ra_deg * kDegToRad, v.dec_deg * kDegToRad};
  if (o.ra) d.ra_rad = parse_ra_rad(*o.ra, "--ra");
  if (o.dec) d.dec_rad = parse_dec_rad(*o.dec, "--dec");
  return d;
}

std::vector<BeamDirection> beams_of(const BfOptions& o, const SkyDirection& pointing,
                                    int weight_beams) {
  if (!o.beams_path.empty()) return read_beams_file(o.beams_path, pointing);
  if (o.tiling) return tile_beams(*o.tiling, o.spacing_deg, o.nbeams, pointing);
  // One beam at the pointing, or the weights file's beams (their directions are not known:
  // the files carry the pointing).
  std::vector<BeamDirection> beams;
  for (int b = 0; b < std::max(weight_beams, 1); ++b)
    beams.push_back({format_string("B%d", b), pointing, 0.0, 0.0});
  return beams;
}

int64_t block_samples(const BfOptions& o, const VoltageHeader& v) {
  const double bytes_per_sample = double(v.block_values(1)) * sizeof(float);
  int64_t n = o.stream.gulp > 0
                  ? o.stream.gulp
                  : stream_block_samples(
                        int64_t(o.stream.max_block_mib * 1048576.0 / bytes_per_sample),
                        v.nsamples, bytes_per_sample, o.tint);
  n -= n % o.tint;
  if (n < o.tint) {
    if (o.stream.gulp > 0) throw UsageError("--gulp must be at least --tint samples");
    throw UsageError(format_string("one integration (--tint %d) of these voltages needs %.3g "
                                   "MiB; raise --max-block-mib", o.tint,
                                   o.tint * bytes_per_sample / 1048576.0));
  }
  return n;
}

// Warns when the beams' delays are not small against a sample: phase-only weights then
// lose coherence across each channel (power falls as sinc^2 of delay x channel width).
void check_narrow_band(const GeometricWeights& weights, const VoltageHeader& v,
                       const UtcInstant& start, const BfOptions& o, const Messages& messages) {
  const double delay = weights.max_residual_delay_s(start);
  const double width_hz = std::fabs(v.bandwidth_mhz) * 1e6 / v.nchan;
  const double x = delay * width_hz;
  if (x <= 0.1) return;
  const double sinc = std::sin(kPi * std::min(x, 1.0)) / (kPi * std::min(x, 1.0));
  messages.warning(format_string(
      "%s: the beams' delays reach %.3g us, %.2f of a %.3g kHz channel's sample: with phase-only "
      "weights the outermost stations add with up to %.0f%% less power%s",
      o.input.c_str(), delay * 1e6, x, width_hz / 1e3, 100 * (1 - sinc * sinc),
      o.fringe_stopped ? "" : " (F-engine data compensated to the pointing: --fringe-stopped)"));
}

// Samples between weight updates, a whole number of integrations: --delay-interval, or where
// that is 0, as long as keeps the weights' phases within 0.01 turn of the sky (at most 1 s).
// File weights never change.
int64_t weight_epoch_samples(const BfOptions& o, const VoltageHeader& v,
                             const GeometricWeights* geometry, const UtcInstant& start,
                             const Messages& messages) {
  if (!geometry) return std::numeric_limits<int64_t>::max() / 2;
  double interval_s = o.delay_interval_s;
  if (interval_s <= 0) {
    const double rate = geometry->max_phase_rate_turns_per_s(start);
    interval_s = rate > 0 ? std::min(1.0, 0.01 / rate) : 1.0;
  }
  const int64_t samples = std::max<int64_t>(1, int64_t(interval_s / v.tsamp_s / o.tint)) * o.tint;
  messages.detail(format_string("weights updated every %lld samples (%.4g s)", (long long)samples,
                                samples * v.tsamp_s));
  return samples;
}

}  // namespace

BfRunSummary run_bf(const BfOptions& o, const Messages& messages) {
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<VoltageReader> reader = open_voltage_file(o.input, o.stream.vdif);
  // A filterbank's channels are sky frequencies, and so are the phases that steer coherent
  // beams from the array's geometry (the incoherent beam alone needs none).
  if (o.detection != BeamDetection::none)
    require_sky_frequency(reader->header(), o.input, "a filterbank needs");
  else if (o.coherent && o.weights_path.empty())
    require_sky_frequency(reader->header(), o.input, "steering the beams needs");
  // Beams steered without a pointing would point at RA 0, Dec 0 (the incoherent beam alone, or
  // weights from a file, need none).
  const bool steered = o.detection != BeamDetection::none || o.coherent;
  if (o.weights_path.empty() && steered && !(o.ra && o.dec))
    require_pointing(reader->header(), o.input, "--ra and --dec (or --weights)");
  const VoltageHeader& v = reader->header();
  if (!v.complex_samples)
    throw file_error(o.input, "has real samples; bf takes channelised complex voltages");
  if (v.npol != 1 && v.npol != 2)
    throw file_error(o.input, format_string("has %d polarisations; bf takes 1 or 2", v.npol));
  // A file known to be too short is refused before any memory is sized for it (a pipe's length
  // is known only at its end, below).
  if (v.nsamples >= 0 && v.nsamples < o.tint)
    throw file_error(o.input, format_string("has %lld samples, fewer than one integration "
                                            "(--tint %d)", (long long)v.nsamples, o.tint));

  std::optional<RawBeamWeights> file_weights;
  if (!o.weights_path.empty()) {
    file_weights = read_weights_file(o.weights_path);
    if (file_weights->nchan != v.nchan || file_weights->nant != v.nant)
      throw file_error(o.weights_path, format_string(
          "weights for %d channels x %d stations; %s has %d channels x %d stations",
          file_weights->nchan, file_weights->nant, o.input.c_str(), v.nchan, v.nant));
  }
  // The array the weights are computed for: --layout, else the positions in the header.
  const ArrayLayout layout = voltage_array_layout(o.layout_path, v, o.input, !file_weights);
  const SkyDirection pointing = pointing_of(o, v);
  const std::vector<BeamDirection> beams =
      beams_of(o, pointing, file_weights ? file_weights->nbeams : 0);
  const StationFlags flags = o.flags_path.empty()
                                 ? StationFlags{}
                                 : read_station_flags(o.flags_path, station_names(layout, v.nant));

  BeamformerShape shape;
  shape.nchan = v.nchan;
  shape.nant = v.nant;
  shape.npol = v.npol;
  shape.nbeams = int(beams.size());
  shape.tint = o.tint;
  shape.fscrunch = o.fscrunch;
  shape.detection = o.detection;
  shape.circular = v.pol_basis == "CIRC";
  shape.coherent = o.coherent;
  shape.incoherent = o.incoherent;
  shape.precision = o.precision;
  shape.validate();

  const UtcInstant start{v.start_mjd_day, v.start_mjd_seconds};
  std::optional<GeometricWeights> geometry;
  if (!file_weights)
    require_start_time(v, o.input, "steering the beams needs one (or give --weights)");
  // The header's warnings once it is taken: a refusal above says the whole of its problem in
  // one line (a missing start time, antennas without positions and why).
  const size_t header_warnings = show_voltage_warnings(*reader, o.input, messages);
  if (!file_weights) {
    std::vector<SkyDirection> directions;
    for (const BeamDirection& b : beams) directions.push_back(b.direction);
    std::vector<double> freqs_hz;
    for (int c = 0; c < v.nchan; ++c) freqs_hz.push_back(v.channel_freq_mhz(c) * 1e6);
    geometry.emplace(layout, directions, freqs_hz, o.fringe_stopped ? &pointing : nullptr);
    // Coherence is lost between stations only: one station, or the incoherent beam alone,
    // loses none.
    if (steered && v.nant > 1) check_narrow_band(*geometry, v, start, o, messages);
  }

  std::unique_ptr<BeamformerEngine> engine =
      o.stream.device.use_gpu ? make_gpu_beamformer(shape, o.stream.device.gpu_index)
                              : make_cpu_beamformer(shape, o.stream.thread_count());
  BeamOutputSettings settings{o.output_root, o.nbits, o.overwrite, o.input};
  // The beams' directions are known where the file or --ra and --dec give the pointing; else
  // (the incoherent beam alone, or --weights) the filterbanks can only say RA 0h, Dec 0, and the
  // coherent beams' PSRDADA files leave RA and DEC out.
  VoltageHeader described = v;
  described.pointing_known = v.pointing_known || (o.ra && o.dec);
  if (!described.pointing_known)
    messages.warning(o.input + ": names no pointing; the beams' filterbanks give src_raj and "
                               "src_dej as 0h, 0 deg (give --ra and --dec)");
  BeamOutputs outputs(shape, described, beams, pointing, settings);
  const int64_t gulp = block_samples(o, v);
  messages.detail(format_string("%d beams x %d channels x %d stations, blocks of %lld samples, "
                                "engine %s", shape.nbeams, v.nchan, v.nant, (long long)gulp,
                                engine->name().c_str()));

  const int64_t epoch_samples = weight_epoch_samples(o, v, geometry ? &*geometry : nullptr, start, messages);

  BeamBlockOutput result;
  BfRunSummary summary;
  int64_t weights_epoch = -1;
  std::vector<uint8_t> weights_valid;
  RawBeamWeights raw;
  int64_t dropped = 0;
  // Blocks end at weight updates, so the weights a sample gets do not depend on --gulp. The
  // next block is read and decoded on a thread of its own while this one is formed and
  // written.
  PrefetchingVoltageReader blocks(*reader, [&](int64_t position) {
    return std::min(gulp, (position / epoch_samples + 1) * epoch_samples - position);
  });
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  while (VoltageBlock* next = blocks.next()) {
    VoltageBlock& block = *next;
    const int64_t n = block.nsamples;
    summary.samples_in += n;
    const int64_t usable = n - n % o.tint;
    dropped += n - usable;
    if (usable == 0) continue;
    const int64_t epoch = block.first_sample / epoch_samples;
    const BlockFlags bf = block_flags(flags, v.nant, block.first_sample, usable, v.tsamp_s, o.flag_thresh);
    if (epoch != weights_epoch || bf.station_valid != weights_valid) {
      // Geometric weights for the middle of the update interval.
      if (epoch != weights_epoch || raw.values.empty())
        raw = file_weights ? *file_weights
                           : geometry->at({start.mjd_day, start.seconds + (epoch + 0.5) * epoch_samples * v.tsamp_s});
      engine->set_weights(normalise_weights(raw, bf.station_valid));
      weights_epoch = epoch;
      weights_valid = bf.station_valid;
    }
    if (bf.nvalid < v.nant)
      messages.detail(format_string("samples %lld+: %d of %d stations kept",
                                    (long long)block.first_sample, bf.nvalid, v.nant));
    // The engine takes [chan][ant] rows of `usable` samples: a last block whose tail does not
    // fill an integration is cut to them first.
    if (usable < n)
      shrink_time_rows(block.data.data(), n, usable, int64_t(v.nchan) * v.nant, int64_t(v.npol) * 2);
    // NaN or infinity in float input would make every beam NaN: those station samples add
    // nothing, as if lost.
    if (v.float_samples)
      summary.non_finite += zero_non_finite_samples(block.data.data(), v.nchan, v.nant, usable,
                                                    v.npol, o.stream.thread_count());
    auto t = Clock::now();
    engine->form(block.data.data(), usable, bf.sample_flags.data(), result);
    summary.forming_s += seconds_since(t);
    t = Clock::now();
    outputs.write(result);
    summary.writing_s += seconds_since(t);
    summary.samples_out += result.nsamples_out;
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %.3f s of data formed", messages.program.c_str(),
                   summary.samples_in * v.tsamp_s);
  }
  summary.waiting_s = blocks.waiting_s();
  if (messages.progress && summary.samples_in > 0) std::fputc('\n', stderr);
  show_voltage_warnings(*reader, o.input, messages, header_warnings);
  if (summary.samples_out == 0)
    throw file_error(o.input, format_string("has %lld samples, fewer than one integration "
                                            "(--tint %d)", (long long)summary.samples_in, o.tint));
  if (summary.non_finite)
    messages.warning(format_string("%s: %lld station samples held NaN or infinite values and "
                                   "were left out of the beams", o.input.c_str(),
                                   (long long)summary.non_finite));
  if (dropped)
    messages.warning(format_string("%s: the last %lld samples do not fill an integration "
                                   "(--tint %d) and were left out",
                                   o.input.c_str(), (long long)dropped, o.tint));
  outputs.commit();
  const std::string note = outputs.scaling_note();
  if (!note.empty()) messages.info(note);
  // The blocks held for the 8-bit scale fill their memory after few samples where the beams
  // and channels are very many.
  constexpr int64_t kFewScalingSamples = 100;
  if (o.nbits == 8 && outputs.scaling_samples() < kFewScalingSamples &&
      summary.samples_out > outputs.scaling_samples())
    messages.warning(format_string(
        "the 8-bit scale was measured on the first %lld output samples only (all that %zu MiB "
        "hold of these beams); fewer beams per run or --nbits 32 avoid that",
        (long long)outputs.scaling_samples(), kScalingHeldBytes >> 20));
  summary.seconds_of_data = summary.samples_in * v.tsamp_s;
  summary.input_bytes = double(summary.samples_in) * v.nchan * v.nant * v.npol * 2 * v.nbits / 8;
  summary.engine = engine->name();
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace rapt
