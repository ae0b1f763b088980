#include "ppf/channelize_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <future>
#include <thread>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stream_options.hpp"
#include "corr/valid_samples.hpp"
#include "ppf/channelize_outputs.hpp"
#include "ppf/unit_aligner.hpp"

namespace rapt {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// --antenna: a name the voltages carry, or an index.
int antenna_index(const std::string& antenna, const VoltageHeader& v, const std::string& input) {
  std::string names;
  for (int a = 0; a < int(v.array.antennas.size()); ++a) {
    if (v.array.antennas[size_t(a)].name == antenna) return a;
    names += (names.empty() ? "" : ", ") + v.array.antennas[size_t(a)].name;
  }
  if (!antenna.empty() && antenna.find_first_not_of("0123456789") == std::string::npos &&
      antenna.size() < 10 && std::stoi(antenna) < v.nant)
    return std::stoi(antenna);
  throw UsageError("--antenna " + antenna + ": " + input + " has no such antenna (" +
                   (names.empty() ? "no names; indices 0 to " + std::to_string(v.nant - 1)
                                  : "antennas " + names) + ")");
}

// Input samples per block: whole output units (frames, times --tavg when detecting).
int64_t block_samples(const ChannelizeOptions& o, const VoltageHeader& v, int64_t unit) {
  const double bytes_per_sample = double(v.block_values(1)) * sizeof(float);
  int64_t n = o.gulp > 0 ? o.gulp
                         : stream_block_samples(int64_t(o.max_block_mib * 1048576.0 /
                                                        bytes_per_sample),
                                                v.nsamples, bytes_per_sample, unit);
  // No block larger than a file whose length is known needs (blocks are allocated whole), and
  // none larger than --max-block-mib allows, whatever --gulp asks; from a pipe, no larger than
  // kStreamBlockMib unless --gulp asks.
  if (o.gulp > 0)
    n = std::min(n, std::max(unit, int64_t(o.max_block_mib * 1048576.0 / bytes_per_sample)));
  if (v.nsamples > 0) n = std::min(n, std::max(unit, (v.nsamples + unit - 1) / unit * unit));
  n -= n % unit;
  if (n < unit) {
    if (o.gulp > 0)
      throw UsageError(format_string("--gulp must be at least one output sample's input, %lld "
                                     "samples", (long long)unit));
    throw UsageError(format_string("one output sample of these voltages needs %.3g MiB of input; "
                                   "raise --max-block-mib", unit * bytes_per_sample / 1048576.0));
  }
  return n;
}

}  // namespace

ChannelizeRunSummary run_channelize(const ChannelizeOptions& o, const Messages& messages) {
  const auto started = Clock::now();
  refuse_input_as_output(o.output, o.input, "write the output to another file");
  std::unique_ptr<VoltageReader> reader = open_voltage_file(o.input, o.vdif);
  if (o.detect) require_sky_frequency(reader->header(), o.input, "a filterbank needs");
  const size_t header_warnings = show_voltage_warnings(*reader, o.input, messages);
  const VoltageHeader& v = reader->header();
  // SIGPROC has no way to say "not known": the position written must be named as made up.
  if (o.detect && !v.pointing_known)
    messages.warning(o.input + ": names no pointing; the filterbank's src_raj and src_dej are "
                               "written as 0h, 0 deg");
  const ChanneliserSetup setup = setup_channeliser(v, o.pfb, o.input);
  const int antenna = o.detect && !o.antenna.empty() ? antenna_index(o.antenna, v, o.input) : -1;
  const int64_t frame = setup.shape.frame();
  const int64_t unit = frame * (o.detect ? o.tavg : 1);
  auto too_short = [&](int64_t samples) {
    return file_error(o.input, format_string("has %lld samples, fewer than one output sample "
                                             "needs (%lld)", (long long)samples, (long long)unit));
  };
  // A file known to be too short is refused before the engine takes any memory (a pipe's length
  // is known only at its end, below).
  if (v.nsamples >= 0 && v.nsamples < unit) throw too_short(v.nsamples);
  const int64_t gulp = block_samples(o, v, unit);
  const int threads =
      o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<ChanneliserEngine> engine = make_channeliser(setup, o.device, threads);
  ChannelizedOutputSettings settings;
  settings.path = o.output;
  settings.nbits = o.out_bits;
  settings.scale = o.scale;
  settings.warmup_samples = setup.shape.ntaps - 1;
  settings.overwrite = o.overwrite;
  settings.input_name = o.input;
  std::unique_ptr<ChannelizedOutput> output =
      o.detect ? make_detected_output(setup.output, antenna, o.tavg, settings)
               : make_voltage_output(setup.output, settings);
  messages.detail(format_string(
      "%d %s channel%s x %d antennas x %d pols -> %d channels of %.6g kHz, %d taps (%s), "
      "blocks of %lld samples, engine %s", v.nchan, v.complex_samples ? "complex" : "real",
      v.nchan == 1 ? "" : "s", v.nant, v.npol, setup.output.nchan,
      std::abs(setup.output.bandwidth_mhz) * 1e3 / setup.output.nchan, setup.shape.ntaps,
      o.pfb.design.coeffs_path.empty() ? o.pfb.design.window.c_str() : o.pfb.design.coeffs_path.c_str(),
      (long long)gulp, engine->name().c_str()));

  ChannelizeRunSummary summary;
  UnitAligner aligner(unit, int64_t(v.nchan) * v.nant, int64_t(v.npol) * v.values_per_sample());
  std::vector<float> channelised;
  // The next block is read and decoded on a thread of its own while this one is channelised.
  VoltageBlock blocks[2];
  auto read_block = [&](VoltageBlock& into) { return reader->read(gulp, into); };
  std::future<int64_t> next = std::async(std::launch::async, read_block, std::ref(blocks[0]));
  for (int current = 0;; current ^= 1) {
    auto t = Clock::now();
    const int64_t n = next.get();
    summary.waiting_s += seconds_since(t);
    if (n == 0) break;
    next = std::async(std::launch::async, read_block, std::ref(blocks[current ^ 1]));
    summary.samples_in += n;
    const std::vector<float>* samples = nullptr;
    const int64_t usable = aligner.align(blocks[current].data, n, &samples);
    if (usable == 0) continue;
    t = Clock::now();
    engine->process(samples->data(), usable, channelised);
    summary.channelising_s += seconds_since(t);
    // NaN or infinity in float input reaches every output channel of the samples whose taps
    // hold it: those station samples are written as zeros, the mark of lost data.
    if (v.float_samples) {
      const VoltageHeader& out = setup.output;
      summary.non_finite += zero_non_finite_samples(channelised.data(), out.nchan, out.nant,
                                                    usable / frame, out.npol, threads);
    }
    t = Clock::now();
    output->write(channelised, usable / frame);
    summary.writing_s += seconds_since(t);
    summary.samples_out += usable / frame;
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %.3f s of data channelised", messages.program.c_str(),
                   summary.samples_in * v.tsamp_s);
  }
  if (messages.progress && summary.samples_in > 0) std::fputc('\n', stderr);
  show_voltage_warnings(*reader, o.input, messages, header_warnings);
  if (summary.samples_out == 0) throw too_short(summary.samples_in);
  if (summary.non_finite)
    messages.warning(format_string("%s: %lld channelised station samples held NaN or infinite "
                                   "values and were zeroed, the mark of lost data",
                                   o.input.c_str(), (long long)summary.non_finite));
  if (aligner.left() > 0)
    messages.warning(format_string("%s: the last %lld samples do not fill an output sample "
                                   "(%lld input samples) and were left out",
                                   o.input.c_str(), (long long)aligner.left(), (long long)unit));
  output->commit();
  const std::string note = output->scaling_note();
  if (!note.empty()) messages.info(note);
  if (output->clipped_values() > 0)
    messages.warning(format_string(
        "%s: %lld values (%.3g%%) were clipped to %d bits; a smaller --scale keeps them",
        o.output.c_str(), (long long)output->clipped_values(),
        100.0 * double(output->clipped_values()) /
            (double(summary.samples_out) * setup.output.nchan * v.nant * v.npol * 2),
        o.out_bits));
  summary.seconds_of_data = summary.samples_in * v.tsamp_s;
  summary.input_bytes = double(summary.samples_in) * v.nchan * v.nant * v.npol *
                        v.values_per_sample() * v.nbits / 8;
  summary.engine = engine->name();
  summary.wall_seconds = seconds_since(started);
  return summary;
}

}  // namespace rapt
