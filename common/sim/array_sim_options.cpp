#include "sim/array_sim_options.hpp"

#include <cmath>
#include <iterator>
#include <vector>

#include "cli/errors.hpp"
#include "geometry/array_layout.hpp"
#include "sim/signal_spec.hpp"

namespace rapt {

namespace {

// Array-mode defaults where the filterbank's would not suit.
constexpr int kDefaultChannels = 64;
constexpr double kDefaultBandwidth_mhz = 64.0;
constexpr double kDefaultSefd_jy = 400.0;
constexpr int64_t kDefaultVoltageSamples = 16384;
constexpr double kDefaultNoiseRms8 = 16.0;  // 8 bits: 7.9 sigma to the edge of the range
constexpr double kDefaultNoiseRms32 = 1.0;

const char* const kFilterbankOnly[] = {"fch1",        "foff",         "tsamp",     "telescope-id",
                                       "machine-id",  "noise-mean",   "flat-bandpass",
                                       "rfi-line",    "rfi-impulse"};
const char* const kArrayOnly[] = {"layout", "source", "freq", "format", "antenna", "gain",
                                  "delay-interval", "delay-taps", "int-time", "nints",
                                  "products", "vis-noise", "autocorrelations"};
const char* const kVoltageOnly[] = {"antenna", "gain", "delay-interval", "delay-taps", "npol",
                                    "pulsar", "burst", "gulp", "nbits", "noise-rms", "no-noise",
                                    "tobs", "nsamples", "sefd"};
const char* const kVisibilityOnly[] = {"int-time", "nints", "products", "vis-noise",
                                       "autocorrelations"};

SkyDirection phase_centre_from(const cxxopts::ParseResult& r) {
  return {parse_ra_rad(r["ra"].as<std::string>(), "--ra"),
          parse_dec_rad(r["dec"].as<std::string>(), "--dec")};
}

UtcInstant start_from(const cxxopts::ParseResult& r) {
  const double mjd = r["tstart"].as<double>();
  // The range the voltage writers can store (mjd_in_range): refused here as a usage error,
  // before a writer would refuse it as one of its own.
  if (!(mjd >= 0 && mjd < 10000000))
    throw UsageError("--tstart must be an MJD from 0 to 9999999");
  const double day = std::floor(mjd);
  return {static_cast<int>(day), (mjd - day) * 86400.0};
}

ArrayLayout layout_from(const cxxopts::ParseResult& r) {
  if (!r.count("layout")) throw UsageError("no array: give --layout FILE (name x y z per line)");
  ArrayLayout layout = read_layout_file(r["layout"].as<std::string>());
  if (r.count("antenna")) {
    const std::string name = r["antenna"].as<std::string>();
    std::vector<Antenna> kept;
    for (const Antenna& a : layout.antennas)
      if (a.name == name) kept.push_back(a);
    if (kept.empty())
      throw UsageError("--antenna " + name + ": no such antenna in " + r["layout"].as<std::string>());
    layout.antennas = kept;
  }
  return layout;
}

std::vector<PointSourceSpec> sources_from(const cxxopts::ParseResult& r) {
  std::vector<PointSourceSpec> sources;
  for (const cxxopts::KeyValue& kv : r.arguments())
    if (kv.key() == "source") sources.push_back(parse_point_source_spec(kv.value()));
  return sources;
}

void transients_from(const cxxopts::ParseResult& r, ArrayVoltagePlan& plan) {
  for (const cxxopts::KeyValue& kv : r.arguments()) {
    if (kv.key() == "pulsar") {
      const DirectedSignalText t = split_direction_keys("--pulsar", kv.value(), plan.phase_centre);
      DirectedPulsar p{parse_pulsar_spec(t.rest), t.direction};
      p.spec.text = kv.value();
      plan.pulsars.push_back(p);
    }
    if (kv.key() == "burst") {
      const DirectedSignalText t = split_direction_keys("--burst", kv.value(), plan.phase_centre);
      DirectedBurst b{parse_burst_spec(t.rest), t.direction};
      b.spec.text = kv.value();
      plan.bursts.push_back(b);
    }
  }
}

void band_from(const cxxopts::ParseResult& r, int* nchan, double* centre_mhz, double* bw_mhz) {
  *nchan = r.count("nchans") ? r["nchans"].as<int>() : kDefaultChannels;
  *centre_mhz = r["freq"].as<double>();
  *bw_mhz = r.count("bw") ? r["bw"].as<double>() : kDefaultBandwidth_mhz;
}

int64_t voltage_samples_from(const cxxopts::ParseResult& r, double tsamp_s) {
  if (r.count("tobs") && r.count("nsamples"))
    throw UsageError("give --tobs or --nsamples, not both");
  if (r.count("nsamples")) return r["nsamples"].as<int64_t>();
  if (!r.count("tobs")) return kDefaultVoltageSamples;
  const double tobs_s = r["tobs"].as<double>();
  if (!(tobs_s > 0) || !(tobs_s / tsamp_s < 1e15))
    throw UsageError("--tobs must be positive and finite");
  return std::llround(tobs_s / tsamp_s);
}

}  // namespace

void add_array_options(cxxopts::Options& options) {
  options.add_options("Interferometer (man page: Interferometer modes)")
      ("voltages", "write an array's channelised complex voltages (PSRDADA, or --format guppi)")
      ("real-voltages", "write real-sampled voltages of one wide band, for a channeliser")
      ("visibilities", "write exact visibilities of the sky (UVFITS or Measurement Set)")
      ("layout", "array layout file: name x y z [diameter] per line", cxxopts::value<std::string>())
      ("antenna", "simulate only this antenna of the layout (GUPPI RAW holds one)",
       cxxopts::value<std::string>())
      ("source", "a point source: ra=,dec=,flux= [index=, fref=] (repeatable)",
       cxxopts::value<std::string>())
      ("freq", "centre frequency of the band, MHz", cxxopts::value<double>()->default_value("1284"))
      ("format", "output format: psrdada or guppi (voltages), uvfits or ms (visibilities)",
       cxxopts::value<std::string>());
  options.add_options("Voltages")
      ("gain", "output units per sqrt(Jy) (instead of --noise-rms)", cxxopts::value<double>())
      ("delay-interval", "seconds between exact geometric delays (linear in between)",
       cxxopts::value<double>()->default_value("1"))
      ("delay-taps", "taps of the fractional-delay filter (even, 2..64)",
       cxxopts::value<int>()->default_value("16"));
  options.add_options("Visibilities")
      ("int-time", "integration time, s", cxxopts::value<double>()->default_value("8"))
      ("nints", "number of integrations", cxxopts::value<int>()->default_value("10"))
      ("products", "correlation products", cxxopts::value<std::string>()->default_value("XX,YY,XY,YX"))
      ("vis-noise", "Gaussian noise per visibility, Jy rms per real and imaginary part",
       cxxopts::value<double>()->default_value("0"))
      ("autocorrelations", "also write each antenna with itself");
}

SimulateMode simulate_mode(const cxxopts::ParseResult& r) {
  const int modes = (r.count("voltages") || r.count("real-voltages") ? 1 : 0) + (r.count("visibilities") ? 1 : 0);
  if (modes > 1) throw UsageError("give --voltages (or --real-voltages) or --visibilities, not both");
  const SimulateMode mode = r.count("visibilities") ? SimulateMode::visibilities
                            : modes ? SimulateMode::voltages : SimulateMode::filterbank;
  const std::string name = mode == SimulateMode::visibilities ? "--visibilities" : "--voltages";
  if (mode == SimulateMode::filterbank) {
    for (const char* key : kArrayOnly)
      if (r.count(key)) throw UsageError(std::string("--") + key + " needs --voltages or --visibilities");
    return mode;
  }
  for (const char* key : kFilterbankOnly)
    if (r.count(key))
      throw UsageError(std::string("--") + key + " does not apply to " + name +
                       (std::string(key) == "fch1" || std::string(key) == "foff" ? " (give --freq and --bw)" : ""));
  const std::vector<const char*> other =
      mode == SimulateMode::voltages
          ? std::vector<const char*>(std::begin(kVisibilityOnly), std::end(kVisibilityOnly))
          : std::vector<const char*>(std::begin(kVoltageOnly), std::end(kVoltageOnly));
  for (const char* key : other)
    if (r.count(key)) throw UsageError(std::string("--") + key + " does not apply to " + name);
  return mode;
}

ArrayVoltagePlan voltage_plan_from(const cxxopts::ParseResult& r) {
  ArrayVoltagePlan plan;
  plan.layout = layout_from(r);
  plan.phase_centre = phase_centre_from(r);
  plan.source_name = r["source-name"].as<std::string>();
  plan.real_samples = r.count("real-voltages") > 0;
  if (plan.real_samples && r.count("nchans") && r["nchans"].as<int>() != 1)
    throw UsageError("--real-voltages makes one band of real samples: leave --nchans out");
  band_from(r, &plan.nchan, &plan.centre_freq_mhz, &plan.bandwidth_mhz);
  if (plan.real_samples) plan.nchan = 1;
  plan.npol = r["npol"].as<int>();
  plan.start = start_from(r);
  plan.nbits = r["nbits"].as<int>();
  plan.sefd_jy = r.count("sefd") ? r["sefd"].as<double>() : kDefaultSefd_jy;
  plan.noise = r.count("no-noise") == 0;
  plan.seed = r["seed"].as<uint64_t>();
  plan.delay_interval_s = r["delay-interval"].as<double>();
  plan.delay_taps = r["delay-taps"].as<int>();
  plan.nsamples = voltage_samples_from(r, plan.tsamp_s());
  if (r.count("gain") && r.count("noise-rms")) throw UsageError("give --gain or --noise-rms, not both");
  if (!(plan.sefd_jy > 0) || !std::isfinite(plan.sefd_jy)) throw UsageError("--sefd must be positive");
  if (r.count("gain")) {
    plan.gain = r["gain"].as<double>();
  } else {
    const double rms = r.count("noise-rms") ? r["noise-rms"].as<double>()
                       : plan.nbits == 32 ? kDefaultNoiseRms32 : kDefaultNoiseRms8;
    if (!(rms > 0) || !std::isfinite(rms)) throw UsageError("--noise-rms must be positive");
    plan.gain = gain_for_noise_rms(plan, rms);
  }
  plan.sources = sources_from(r);
  transients_from(r, plan);
  return plan;  // the simulator validates it
}

VisibilityPlan visibility_plan_from(const cxxopts::ParseResult& r) {
  VisibilityPlan plan;
  plan.layout = layout_from(r);
  plan.phase_centre = phase_centre_from(r);
  plan.object = r["source-name"].as<std::string>();
  plan.start = start_from(r);
  plan.integration_s = r["int-time"].as<double>();
  plan.nintegrations = r["nints"].as<int>();
  band_from(r, &plan.nchan, &plan.centre_freq_mhz, &plan.bandwidth_mhz);
  plan.stokes = parse_products(r["products"].as<std::string>());
  plan.autocorrelations = r.count("autocorrelations") > 0;
  plan.noise_jy = r["vis-noise"].as<double>();
  plan.seed = r["seed"].as<uint64_t>();
  plan.sources = sources_from(r);
  return plan;
}

std::string voltage_format_from(const cxxopts::ParseResult& r) {
  if (!r.count("format")) return "psrdada";
  const std::string f = r["format"].as<std::string>();
  if (f == "psrdada" || f == "dada") return "psrdada";
  if (f == "guppi") return "guppi";
  throw UsageError("--format " + f + " is not a voltage format; give psrdada or guppi");
}

std::string visibility_format_from(const cxxopts::ParseResult& r, const std::string& output) {
  if (r.count("format")) {
    const std::string f = r["format"].as<std::string>();
    if (f == "uvfits" || f == "ms") return f;
    throw UsageError("--format " + f + " is not a visibility format; give uvfits or ms");
  }
  std::string name = output;
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  const auto ends_with = [&](const std::string& suffix) {
    return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".uvfits") || ends_with(".uvf") || ends_with(".fits")) return "uvfits";
  if (ends_with(".ms") || ends_with(".MS")) return "ms";
  throw UsageError("cannot tell the format of '" + output +
                   "' from its name: end it in .uvfits or .ms, or give --format uvfits|ms");
}

}  // namespace rapt
