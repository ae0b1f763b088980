#include "sim/array_sim_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <vector>

#include "cli/errors.hpp"
#include "io/measurement_set.hpp"
#include "io/uvfits.hpp"
#include "io/voltage_stream.hpp"
#include "sim/array_sim_options.hpp"
#include "sim/array_voltage_simulator.hpp"
#include "sim/visibility_simulator.hpp"

namespace rapt {

namespace {

constexpr size_t kBlockValues = size_t(1) << 24;  // floats per block by default (64 MB)
constexpr int64_t kBlockAlign = 256;              // default blocks: whole PSRDADA time blocks

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int64_t block_samples(const cxxopts::ParseResult& r, const VoltageHeader& header) {
  if (r.count("gulp")) {
    const int64_t gulp = r["gulp"].as<int64_t>();
    if (gulp < 1) throw UsageError("--gulp must be at least 1");
    return gulp;
  }
  const int64_t fit = static_cast<int64_t>(kBlockValues / header.block_values(1));
  return std::max<int64_t>(kBlockAlign, fit / kBlockAlign * kBlockAlign);
}

// Generates block after block while the previous one is being quantised and written.
void write_voltages(ArrayVoltageSimulator& sim, VoltageWriter& writer, const VoltageHeader& header,
                    int64_t gulp, const Messages& messages) {
  const int64_t total = header.nsamples;
  VoltageBlock blocks[2];
  std::future<void> pending;
  int turn = 0;
  for (int64_t first = 0; first < total; first += gulp, turn ^= 1) {
    const int64_t n = std::min(gulp, total - first);
    VoltageBlock& block = blocks[turn];
    block.first_sample = first;
    block.nsamples = n;
    block.data.resize(header.block_values(n));
    sim.generate_block(first, n, block.data.data());
    // Floats are written as they are, not clipped: an overflow would be infinities in the file.
    const auto finite = [](float v) { return std::isfinite(v); };
    if (header.nbits == 32 && !std::all_of(block.data.begin(), block.data.end(), finite))
      throw UsageError("the voltages overflow 32-bit floats; lower --gain or --noise-rms, the "
                       "sources' flux or the signals' amplitudes");
    if (pending.valid()) pending.get();
    pending = std::async(std::launch::async, [&writer, &block] { writer.write(block); });
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %3.0f%%", messages.program.c_str(), 100.0 * (first + n) / total);
  }
  if (pending.valid()) pending.get();
  if (messages.progress) std::fprintf(stderr, "\n");
}

void describe_voltages(const ArrayVoltageSimulator& sim, const VoltageHeader& h,
                       const Messages& messages) {
  const ArrayVoltagePlan& plan = sim.plan();
  char line[320];
  std::snprintf(line, sizeof line,
                "%d antennas, %d %s x %d pol, %.6g MHz centre, bw %.6g MHz, tsamp %.6g s, "
                "%lld samples (%.6g s), %d-bit, seed %llu",
                h.nant, h.nchan, plan.real_samples ? "real band" : "channels", h.npol,
                h.centre_freq_mhz, h.bandwidth_mhz, h.tsamp_s, static_cast<long long>(h.nsamples),
                plan.duration_s(), h.nbits, static_cast<unsigned long long>(plan.seed));
  messages.detail(line);
  std::snprintf(line, sizeof line,
                "receiver noise: SEFD %.6g Jy, %.4g output units rms per %s%s; gain %.6g per sqrt(Jy)",
                plan.sefd_jy, noise_rms_for_gain(plan, plan.gain),
                plan.real_samples ? "sample" : "component", plan.noise ? "" : " (switched off)",
                plan.gain);
  messages.detail(line);
  for (const std::string& signal : sim.describe_signals()) messages.detail(signal);
}

}  // namespace

void run_voltage_simulation(const cxxopts::ParseResult& r, const Messages& messages,
                            const std::string& output, bool overwrite, int threads) {
  const auto start = std::chrono::steady_clock::now();
  const std::string format = voltage_format_from(r);
  // A visibility file's name would get voltages it cannot be read as.
  for (const char* suffix : {".uvfits", ".uvf", ".fits", ".ms", ".MS", ".ms/"})
    if (output.size() > std::strlen(suffix) &&
        output.compare(output.size() - std::strlen(suffix), std::strlen(suffix), suffix) == 0)
      throw UsageError("-o " + output + " names a visibility file; --voltages writes PSRDADA "
                       "(.dada) or GUPPI RAW (--format guppi), --visibilities UVFITS or a "
                       "Measurement Set");
  const ArrayVoltagePlan plan = voltage_plan_from(r);
  ArrayVoltageSimulator sim(plan, threads);  // validates the plan
  if (format == "guppi") {
    if (plan.layout.size() != 1)
      throw UsageError("--format guppi holds one antenna; the layout has " +
                       std::to_string(plan.layout.size()) + " (choose one with --antenna NAME)");
    if (plan.nbits != 8 || plan.real_samples)
      throw UsageError("--format guppi holds 8-bit complex channels (leave out --nbits and --real-voltages)");
    if (output == "-")
      throw UsageError("--format guppi goes to a file: give -o NAME.raw (PSRDADA can go to "
                       "standard output)");
  }
  const VoltageHeader header = plan.header(format == "guppi" ? "GUPPI RAW" : "PSRDADA");
  const int64_t gulp = block_samples(r, header);
  describe_voltages(sim, header, messages);
  std::unique_ptr<VoltageWriter> writer = format == "guppi"
                                              ? make_guppi_writer(output, header, overwrite)
                                              : make_psrdada_writer(output, header, overwrite);
  write_voltages(sim, *writer, header, gulp, messages);
  writer->commit();

  const double values = static_cast<double>(header.block_values(header.nsamples));
  const double bytes = values * header.nbits / 8;
  const double seconds = seconds_since(start);
  char line[320];
  if (header.nbits < 32) {
    std::snprintf(line, sizeof line, "clipped %lld of %.0f values (%.3g%%) to the %d-bit range",
                  static_cast<long long>(writer->clipped_values()), values,
                  100.0 * writer->clipped_values() / values, header.nbits);
    messages.info(line);
  }
  std::snprintf(line, sizeof line, "wrote %s: %d antennas x %d channels x %lld samples, %.1f MB in %.2f s (%.0f MB/s)",
                output == "-" ? "standard output" : output.c_str(), header.nant, header.nchan,
                static_cast<long long>(header.nsamples), bytes / 1e6, seconds,
                bytes / 1e6 / std::max(seconds, 1e-9));
  messages.detail(line);
}

void run_visibility_simulation(const cxxopts::ParseResult& r, const Messages& messages,
                               const std::string& output, bool overwrite) {
  const auto start = std::chrono::steady_clock::now();
  if (output == "-") throw UsageError("visibilities go to a file: give -o NAME.uvfits or -o NAME.ms");
  const std::string format = visibility_format_from(r, output);
  const VisibilityPlan plan = visibility_plan_from(r);
  const VisibilitySet set = simulate_visibilities(plan);
  for (const std::complex<float>& v : set.vis)
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
      throw UsageError("the visibilities overflow 32-bit floats; lower the sources' flux or "
                       "--vis-noise");
  if (format == "ms")
    write_measurement_set(output, set, overwrite);
  else
    write_uvfits(output, set, overwrite);
  char line[320];
  std::snprintf(line, sizeof line,
                "wrote %s (%s): %zu rows (%d integrations of %.6g s), %zu channels, %zu products, "
                "%zu sources, in %.2f s",
                output.c_str(), format == "ms" ? "Measurement Set" : "UVFITS", set.nrows(),
                plan.nintegrations, plan.integration_s, set.nchan(), set.nstokes(),
                plan.sources.size(), seconds_since(start));
  messages.detail(line);
}

}  // namespace rapt
