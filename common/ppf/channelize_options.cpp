#include "ppf/channelize_options.hpp"

#include <cmath>
#include <vector>

#include "cli/errors.hpp"
#include "cli/vdif_options.hpp"

namespace rapt {

void add_channelize_options(cxxopts::Options& options) {
  options.add_options("Output")
      ("o,output", "output file: channelised voltages (PSRDADA), or with --detect a SIGPROC "
       "filterbank; '-' = standard output (required)", cxxopts::value<std::string>())
      ("out-bits", "bits per output value: 32 (float), 16 or 8 (scaled integers; --detect: 32 "
       "or 8)", cxxopts::value<int>()->default_value("32"))
      ("scale", "multiply the voltages by this before writing them (default: 1 for floats; "
       "for integers, what gives the noise an rms of 16 (8 bits) or 4096 (16 bits))",
       cxxopts::value<double>())
      ("detect", "write Stokes I (XX + YY summed over antennas) as a SIGPROC filterbank")
      ("antenna", "with --detect: one antenna's Stokes I, by name or index",
       cxxopts::value<std::string>())
      ("tavg", "with --detect: channelised samples averaged into one filterbank sample",
       cxxopts::value<int>()->default_value("1"));
  add_pfb_options(options, "Channeliser");
  options.add_options("Engine")
      ("gulp", "input time samples per block, rounded down to whole output samples (0 = as "
       "many as --max-block-mib allows)", cxxopts::value<int64_t>()->default_value("0"))
      ("max-block-mib", "largest block of input voltages as floats, MiB (two are held: one is "
       "read while the other is channelised; from a pipe at most 16 unless --gulp asks for more)",
       cxxopts::value<double>()->default_value("256"))
      ("device", "auto, cpu, gpu or gpu:N", cxxopts::value<std::string>()->default_value("auto"))
      ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))
      ("files", "voltages (PSRDADA, GUPPI RAW, VDIF; '-' = PSRDADA on stdin)",
       cxxopts::value<std::vector<std::string>>());
  add_vdif_options(options, "Engine");
}

ChannelizeOptions channelize_options_from(const cxxopts::ParseResult& r) {
  ChannelizeOptions o;
  if (!r.count("files") || r["files"].as<std::vector<std::string>>().size() != 1)
    throw UsageError("give one voltage file (or '-' for standard input)");
  o.input = r["files"].as<std::vector<std::string>>()[0];
  if (!r.count("output")) throw UsageError("--output FILE is required ('-' for standard output)");
  o.output = r["output"].as<std::string>();
  if (o.output.empty()) throw UsageError("--output needs a file name");
  o.pfb = pfb_options_from(r);
  o.detect = r.count("detect") > 0;
  o.out_bits = r["out-bits"].as<int>();
  if (o.detect && o.out_bits != 8 && o.out_bits != 32)
    throw UsageError("--detect writes filterbanks of --out-bits 8 or 32, not " +
                     std::to_string(o.out_bits));
  if (o.out_bits != 8 && o.out_bits != 16 && o.out_bits != 32)
    throw UsageError("--out-bits must be 8, 16 or 32, not " + std::to_string(o.out_bits));
  if (r.count("scale")) {
    if (o.detect)
      throw UsageError("--scale sets the voltages' scale; an 8-bit filterbank is scaled per "
                       "channel (see the man page)");
    o.scale = r["scale"].as<double>();
    if (!(o.scale > 0) || !std::isfinite(o.scale))
      throw UsageError("--scale must be a positive number");
  }
  if (r.count("antenna")) {
    if (!o.detect) throw UsageError("--antenna picks the antenna --detect detects; add --detect");
    o.antenna = r["antenna"].as<std::string>();
  }
  o.tavg = r["tavg"].as<int>();
  if (o.tavg < 1) throw UsageError("--tavg must be at least 1");
  if (o.tavg != 1 && !o.detect)
    throw UsageError("--tavg averages detected samples; add --detect");
  o.vdif = vdif_options_from(r);
  o.gulp = r["gulp"].as<int64_t>();
  if (o.gulp < 0) throw UsageError("--gulp must not be negative");
  o.max_block_mib = r["max-block-mib"].as<double>();
  if (!(o.max_block_mib > 0) || !std::isfinite(o.max_block_mib))
    throw UsageError("--max-block-mib must be positive");
  o.device = choose_device(r["device"].as<std::string>());
  o.threads = r["threads"].as<int>();
  if (o.threads < 0) throw UsageError("--threads must not be negative");
  return o;
}

}  // namespace rapt
