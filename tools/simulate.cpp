// simulate: writes a SIGPROC filterbank with Gaussian noise, a receiver bandpass, pulsars,
// single pulses and RFI; with --voltages an array's station voltages (PSRDADA, GUPPI RAW), with
// --visibilities its visibilities (UVFITS, Measurement Set). Reproducible: the same options and
// --seed give identical bytes, whatever --threads and --gulp.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "io/sigproc.hpp"
#include "sim/array_sim_options.hpp"
#include "sim/array_sim_run.hpp"
#include "sim/observation_header.hpp"
#include "sim/signal_spec.hpp"
#include "sim/simulator.hpp"

namespace {

constexpr size_t kGulpValues = size_t(1) << 23;  // floats per block by default (32 MB)

void add_options(cxxopts::Options& options) {
  options.add_options("Observation")
      ("nchans", "number of channels (array modes: default 64)", cxxopts::value<int>()->default_value("1024"))
      ("fch1", "centre frequency of the top channel, MHz (channel 0; files have foff < 0)",
       cxxopts::value<double>()->default_value("1500"))
      ("foff", "channel width, MHz (the sign is ignored); or --bw", cxxopts::value<double>())
      ("bw", "total bandwidth, MHz: foff = -bw / nchans (default 400; array modes: 64, signed)",
       cxxopts::value<double>())
      ("tsamp", "sampling time, s", cxxopts::value<double>()->default_value("64e-6"))
      ("tobs", "observation length, s: nsamples = round(tobs / tsamp) (default 10)",
       cxxopts::value<double>())
      ("nsamples", "number of spectra (instead of --tobs)", cxxopts::value<int64_t>())
      ("nbits", "bits per sample: 1, 2, 4, 8, 16 or 32 (float)",
       cxxopts::value<int>()->default_value("8"))
      ("tstart", "MJD of the first sample", cxxopts::value<double>()->default_value("60000"))
      ("source-name", "source name in the header", cxxopts::value<std::string>()->default_value("SIMULATED"))
      ("telescope-id", "SIGPROC telescope id (0 = Fake, 4 = Parkes, 6 = GBT, 64 = MeerKAT)",
       cxxopts::value<int>()->default_value("0"))
      ("machine-id", "SIGPROC backend id (0 = FAKE)", cxxopts::value<int>()->default_value("0"))
      ("ra", "right ascension, hh:mm:ss.s", cxxopts::value<std::string>()->default_value("00:00:00"))
      ("dec", "declination, [+-]dd:mm:ss.s", cxxopts::value<std::string>()->default_value("+00:00:00"));
  options.add_options("Noise")
      ("seed", "random seed; the same seed gives the same data", cxxopts::value<uint64_t>()->default_value("1"))
      ("noise-rms", "noise sigma at the bandpass peak, output units (default: 16 for 8 and 32 "
       "bits, 4096 for 16, 2 for 4, 1 for 2, 0.5 for 1; --voltages: of a real or imaginary "
       "part, 16 for 8 bits, 1 for 32)", cxxopts::value<double>())
      ("noise-mean", "output level at the bandpass peak (default: 120 for 8 and 32 bits, 28672 "
       "for 16, 7.5 for 4, 1.5 for 2, 0.5 for 1)", cxxopts::value<double>())
      ("flat-bandpass", "every channel at the same level (always so for 1, 2 and 4 bits)")
      ("no-noise", "signals and bandpass only; amplitudes keep their units of --noise-rms")
      ("sefd", "system equivalent flux density, Jy, for burst fluences (--voltages: of each "
       "receiver, default 400)", cxxopts::value<double>()->default_value("10"))
      ("npol", "polarisations summed, for burst fluences (--voltages: polarisations written)",
       cxxopts::value<int>()->default_value("2"));
  options.add_options("Signals (repeatable; keys and S/N definitions in the man page)")
      ("pulsar", "a pulsar: P=,DM=,snr=|amp= [pdot=|accel=, duty=, index=, fref=, phase=, "
       "porb=, asini=, t0=]", cxxopts::value<std::string>())
      ("burst", "a single pulse: t=,DM=,width=,snr=|amp=|fluence= [scatter=, index=, fref=]",
       cxxopts::value<std::string>())
      ("rfi-line", "narrow-band RFI: freq=,amp= [period=]", cxxopts::value<std::string>())
      ("rfi-impulse", "broadband RFI without dispersion: t=,amp= [width=]",
       cxxopts::value<std::string>());
  options.add_options("Output")
      ("o,output", "output file; - for standard output (filterbank, PSRDADA)",
       cxxopts::value<std::string>())
      ("threads", "worker threads (default: all cores)", cxxopts::value<int>())
      ("gulp", "spectra per block in memory (default: 32 MB of floats)", cxxopts::value<int64_t>());
}

rapt::ObservationSpec observation_from(const cxxopts::ParseResult& r) {
  rapt::ObservationSpec obs;
  obs.nchans = r["nchans"].as<int>();
  obs.fch1_mhz = r["fch1"].as<double>();
  if (r.count("foff") && r.count("bw")) throw rapt::UsageError("give --foff or --bw, not both");
  if (r.count("foff")) obs.foff_mhz = -std::fabs(r["foff"].as<double>());
  const double bw_mhz = r.count("bw") ? r["bw"].as<double>() : 400.0;
  if (!r.count("foff")) obs.foff_mhz = -std::fabs(bw_mhz) / std::max(obs.nchans, 1);
  obs.tsamp_s = r["tsamp"].as<double>();
  if (r.count("tobs") && r.count("nsamples"))
    throw rapt::UsageError("give --tobs or --nsamples, not both");
  if (r.count("nsamples")) {
    obs.nsamples = r["nsamples"].as<int64_t>();
  } else {
    const double tobs_s = r.count("tobs") ? r["tobs"].as<double>() : 10.0;
    if (!(tobs_s > 0) || !std::isfinite(tobs_s))
      throw rapt::UsageError("--tobs must be positive and finite");
    // A --tsamp of 0 or less is left to the plan's check, which names --tsamp, not --tobs.
    const double nsamples = obs.tsamp_s > 0 ? tobs_s / obs.tsamp_s : 0.0;
    if (!(nsamples < 1e15))
      throw rapt::UsageError("--tobs / --tsamp gives too many samples (at most 1e15)");
    obs.nsamples = std::llround(nsamples);
  }
  obs.nbits = r["nbits"].as<int>();
  obs.tstart_mjd = r["tstart"].as<double>();
  obs.source_name = r["source-name"].as<std::string>();
  obs.telescope_id = r["telescope-id"].as<int>();
  obs.machine_id = r["machine-id"].as<int>();
  obs.src_raj = rapt::parse_right_ascension(r["ra"].as<std::string>(), "--ra");
  obs.src_dej = rapt::parse_declination(r["dec"].as<std::string>(), "--dec");
  return obs;
}

rapt::SimulationPlan plan_from(const cxxopts::ParseResult& r) {
  rapt::SimulationPlan plan;
  plan.obs = observation_from(r);
  const rapt::NoiseLevels levels = rapt::default_noise_levels(plan.obs.nbits);
  plan.noise.mean = r.count("noise-mean") ? r["noise-mean"].as<double>() : levels.mean;
  plan.noise.rms = r.count("noise-rms") ? r["noise-rms"].as<double>() : levels.rms;
  plan.noise.flat_bandpass = r.count("flat-bandpass") > 0;
  plan.noise.enabled = r.count("no-noise") == 0;
  plan.noise.seed = r["seed"].as<uint64_t>();
  plan.radiometer.sefd_jy = r["sefd"].as<double>();
  plan.radiometer.npol = r["npol"].as<int>();
  // Repeated options, in the order given.
  for (const cxxopts::KeyValue& kv : r.arguments()) {
    if (kv.key() == "pulsar") plan.pulsars.push_back(rapt::parse_pulsar_spec(kv.value()));
    if (kv.key() == "burst") plan.bursts.push_back(rapt::parse_burst_spec(kv.value()));
    if (kv.key() == "rfi-line") plan.rfi_lines.push_back(rapt::parse_rfi_line_spec(kv.value()));
    if (kv.key() == "rfi-impulse")
      plan.rfi_impulses.push_back(rapt::parse_rfi_impulse_spec(kv.value()));
  }
  return plan;  // the Simulator validates it
}

// Generates block after block while the previous one is being quantised and written.
void write_observation(rapt::Simulator& sim, rapt::SigprocWriter& writer, int64_t gulp,
                       const rapt::Messages& messages) {
  const rapt::ObservationSpec& obs = sim.plan().obs;
  std::vector<float> buffers[2];
  for (auto& b : buffers) b.resize(static_cast<size_t>(std::min(gulp, obs.nsamples)) * obs.nchans);
  std::future<void> pending;
  int turn = 0;
  for (int64_t first = 0; first < obs.nsamples; first += gulp, turn ^= 1) {
    const size_t n = static_cast<size_t>(std::min(gulp, obs.nsamples - first));
    sim.generate_block(first, n, buffers[turn].data());
    // Float output is not clipped: an overflow would be written as infinities, so no block
    // holding one is written (a file is then discarded; standard output keeps the blocks before).
    if (obs.nbits == 32 && sim.values_out_of_range() > 0) {
      if (pending.valid()) pending.get();
      throw rapt::UsageError(std::to_string(sim.values_out_of_range()) +
                             " values overflow 32-bit floats; lower --noise-mean, --noise-rms or "
                             "the signals' amplitudes");
    }
    if (pending.valid()) pending.get();
    const float* block = buffers[turn].data();
    pending = std::async(std::launch::async, [&writer, block, n] { writer.write(block, n); });
    if (messages.progress)
      std::fprintf(stderr, "\r%s: %3.0f%%", messages.program.c_str(), 100.0 * (first + n) / obs.nsamples);
  }
  if (pending.valid()) pending.get();
  if (messages.progress) std::fprintf(stderr, "\n");
}

void describe_plan(const rapt::Simulator& sim, const rapt::Messages& messages) {
  const rapt::SimulationPlan& plan = sim.plan();
  char line[256];
  std::snprintf(line, sizeof line,
                "%d channels %.6g..%.6g MHz, tsamp %g s, %lld spectra (%.6g s), %d-bit, seed %llu",
                plan.obs.nchans, plan.obs.fch1_mhz, plan.obs.lowest_freq_mhz(), plan.obs.tsamp_s,
                static_cast<long long>(plan.obs.nsamples), plan.obs.duration_s(), plan.obs.nbits,
                static_cast<unsigned long long>(plan.noise.seed));
  messages.detail(line);
  std::snprintf(line, sizeof line,
                "noise level %g, sigma %g at the bandpass peak; a plain channel sum keeps %.4f of "
                "each S/N below",
                plan.noise.mean, plan.noise.rms, sim.plain_sum_efficiency());
  messages.detail(line);
  for (const std::string& signal : sim.describe_signals()) messages.detail(signal);
}

int run(int argc, char** argv) {
  auto options = rapt::program_options(
      "simulate", "simulate a filterbank observation, or an array's voltages or visibilities");
  add_options(options);
  rapt::add_array_options(options);
  const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
  const cxxopts::ParseResult& r = args.result;
  if (!r.unmatched().empty())
    throw rapt::UsageError("unexpected argument '" + r.unmatched().front() +
                           "' (the output file goes after -o)");
  if (!r.count("output")) throw rapt::UsageError("no output file: give -o FILE (or -o - for stdout)");
  const std::string output = r["output"].as<std::string>();
  if (output == "-" && ::isatty(STDOUT_FILENO))
    throw rapt::UsageError("standard output is a terminal; give -o FILE or redirect it");
  const int threads = r.count("threads") ? r["threads"].as<int>()
                                         : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads < 1 || threads > 1024) throw rapt::UsageError("--threads must be between 1 and 1024");
  const rapt::SimulateMode mode = rapt::simulate_mode(r);
  if (mode == rapt::SimulateMode::voltages) {
    rapt::run_voltage_simulation(r, args.messages, output, args.force, threads);
    return 0;
  }
  if (mode == rapt::SimulateMode::visibilities) {
    rapt::run_visibility_simulation(r, args.messages, output, args.force);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  const rapt::SimulationPlan plan = plan_from(r);
  rapt::Simulator sim(plan, threads);  // validates the plan
  for (const std::string& warning : plan.warnings()) args.messages.warning(warning);
  const int64_t gulp = r.count("gulp") ? r["gulp"].as<int64_t>()
                                       : std::max<int64_t>(1, kGulpValues / plan.obs.nchans);
  if (gulp < 1) throw rapt::UsageError("--gulp must be at least 1");
  describe_plan(sim, args.messages);
  rapt::SigprocWriter writer(output, rapt::sigproc_header_for(plan.obs, output), args.force);
  write_observation(sim, writer, gulp, args.messages);
  writer.commit();

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double bytes = static_cast<double>(plan.obs.nsamples) * plan.obs.nchans * plan.obs.nbits / 8;
  char line[256];
  const int64_t clipped = sim.values_out_of_range();
  if (clipped > 0 && plan.obs.nbits >= 8 && plan.obs.nbits < 32) {
    std::snprintf(line, sizeof line, "%lld samples (%.3g%%) clipped to the %d-bit range",
                  static_cast<long long>(clipped),
                  100.0 * clipped / (static_cast<double>(plan.obs.nsamples) * plan.obs.nchans),
                  plan.obs.nbits);
    args.messages.warning(line);
  }
  std::snprintf(line, sizeof line, "wrote %s: %d channels x %lld spectra, %d-bit, %.1f MB in %.2f s",
                output == "-" ? "standard output" : output.c_str(), plan.obs.nchans,
                static_cast<long long>(plan.obs.nsamples), plan.obs.nbits, bytes / 1e6, seconds);
  args.messages.detail(line);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("simulate", [&] { return run(argc, argv); });
}
