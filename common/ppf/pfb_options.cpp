#include "ppf/pfb_options.hpp"

#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {

// Fine channels where --nchan is not given.
constexpr int kDefaultPfbChannels = 256;

void add_pfb_options(cxxopts::Options& options, const std::string& group, bool nchan_optional) {
  // Where channelising is optional, giving --nchan is what asks for it, so the help names the
  // default as real-sampled input's alone.
  const std::string nchan_help =
      nchan_optional ? "channelise: fine channels made of each input channel (real input, "
                       "always channelised: of the band; 256 when not given)"
                     : "fine channels made of each input channel (real input: of the band)";
  auto nchan_value = cxxopts::value<int>();
  if (!nchan_optional) nchan_value->default_value(std::to_string(kDefaultPfbChannels));
  options.add_options(group)
      ("nchan", nchan_help, nchan_value)
      ("ntaps", "taps of the polyphase filter (filter length / frame)",
       cxxopts::value<int>()->default_value("16"))
      ("window", "window of the prototype filter: hamming, blackman-harris or kaiser:BETA",
       cxxopts::value<std::string>()->default_value("hamming"))
      ("coeffs", "prototype filter coefficients, one a line (a whole number of frames; "
       "instead of --ntaps and --window)", cxxopts::value<std::string>())
      ("delays", "delays to remove, 'station delay_s' lines (station by name or index)",
       cxxopts::value<std::string>())
      ("bandpass", "gains per output channel: one a line, or 'channel gain' lines",
       cxxopts::value<std::string>());
}

PfbOptions pfb_options_from(const cxxopts::ParseResult& r) {
  PfbOptions o;
  o.design.nfine = r.count("nchan") ? r["nchan"].as<int>() : kDefaultPfbChannels;
  if (o.design.nfine < 1 || o.design.nfine > kMaxPfbChannels)
    throw UsageError("--nchan must be from 1 to " + std::to_string(kMaxPfbChannels));
  o.design.ntaps = r["ntaps"].as<int>();
  if (o.design.ntaps < 1 || o.design.ntaps > kMaxPfbTaps)
    throw UsageError("--ntaps must be from 1 to " + std::to_string(kMaxPfbTaps));
  o.design.window = r["window"].as<std::string>();
  if (r.count("coeffs")) {
    if (r.count("ntaps") || r.count("window"))
      throw UsageError("--coeffs gives the whole filter: leave out --ntaps and --window");
    o.design.coeffs_path = r["coeffs"].as<std::string>();
  } else {
    check_pfb_window(o.design.window);  // a typo is a usage error before any file opens
  }
  if (r.count("delays")) o.delays_path = r["delays"].as<std::string>();
  if (r.count("bandpass")) o.bandpass_path = r["bandpass"].as<std::string>();
  return o;
}

ChanneliserSetup setup_channeliser(const VoltageHeader& input, const PfbOptions& options,
                                   const std::string& input_name) {
  if (!(input.tsamp_s > 0) || !std::isfinite(input.tsamp_s))
    throw file_error(input_name, "the header gives no sample time");
  if (!(input.bandwidth_mhz != 0) || !std::isfinite(input.bandwidth_mhz))
    throw file_error(input_name, "the header gives no bandwidth");
  if (input.npol != 1 && input.npol != 2)
    throw file_error(input_name, format_string("has %d polarisations; the channeliser takes 1 or 2",
                                               input.npol));
  ChanneliserSetup s;
  s.shape = channeliser_shape(input, options.design.nfine, options.design.ntaps);
  s.prototype = pfb_prototype(options.design, s.shape);
  s.shape.ntaps = int(s.prototype.size() / size_t(s.shape.frame()));
  s.output = channelised_header(input, s.shape);
  const int nchan_out = s.shape.nchan_out();
  if (!options.delays_path.empty()) {
    std::vector<std::string> names;
    for (const Antenna& a : input.array.antennas) names.push_back(a.name);
    if (names.size() != size_t(input.nant)) names.clear();  // no names: indices only
    s.corrections.delay_s = read_delays_file(options.delays_path, input.nant, names);
    for (int c = 0; c < nchan_out; ++c)
      s.corrections.fine_freq_hz.push_back(s.output.channel_freq_mhz(c) * 1e6);
  }
  if (!options.bandpass_path.empty())
    s.corrections.bandpass_gain = read_bandpass_file(options.bandpass_path, nchan_out);
  return s;
}

std::unique_ptr<ChanneliserEngine> make_channeliser(const ChanneliserSetup& setup,
                                                    const DeviceChoice& device, int threads) {
  if (device.use_gpu)
    return make_gpu_channeliser(setup.shape, setup.prototype, setup.corrections, device.gpu_index);
  return make_cpu_channeliser(setup.shape, setup.prototype, setup.corrections, threads);
}

}  // namespace rapt
