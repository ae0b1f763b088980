// The channeliser on the command line, for every program that channelises (channelize, corr):
// the options declared once here, read into PfbOptions, and turned, with the input's header,
// into everything an engine needs (ChanneliserSetup).
//
//   auto options = program_options("corr", "...");
//   add_pfb_options(options);                       // --nchan --ntaps --window --coeffs
//                                                   // --delays --bandpass
//   ...
//   const PfbOptions pfb = pfb_options_from(args.result);
//   const ChanneliserSetup setup = setup_channeliser(reader->header(), pfb, input_path);
//   auto engine = make_channeliser(setup, device, threads);
//   // setup.output: the header of what engine->process() returns.
#pragma once
#include <cxxopts.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gpu_device.hpp"
#include "io/voltage_stream.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {

struct PfbOptions {
  PfbDesign design;
  std::string delays_path;    // --delays: "station delay_s" lines
  std::string bandpass_path;  // --bandpass: one gain per output channel, or "channel gain" lines
};

// Declares --nchan, --ntaps, --window, --coeffs, --delays and --bandpass in `group`.
// NCHAN_OPTIONAL: the program channelises only when --nchan is given (corr, which correlates
// complex channels as they come), so --help shows no default for it.
void add_pfb_options(cxxopts::Options& options, const std::string& group = "Channeliser",
                     bool nchan_optional = false);

// Throws UsageError naming the option for a bad value or a bad combination (--coeffs with
// --ntaps or --window).
PfbOptions pfb_options_from(const cxxopts::ParseResult& result);

// Everything an engine needs for one input: its shape, prototype and corrections, and the
// header of the channelised output.
struct ChanneliserSetup {
  ChanneliserShape shape;
  std::vector<float> prototype;
  ChanneliserCorrections corrections;
  VoltageHeader output;
};

// Reads the coefficients, delays and bandpass files. Throws UsageError for bad options and
// DataError "path: problem" for a bad file (the input's `input_name` when its header does not
// suit: no samples per second, an empty band).
ChanneliserSetup setup_channeliser(const VoltageHeader& input, const PfbOptions& options,
                                   const std::string& input_name);

// The CPU engine (`threads` >= 1) or the GPU engine on device.gpu_index.
std::unique_ptr<ChanneliserEngine> make_channeliser(const ChanneliserSetup& setup,
                                                    const DeviceChoice& device, int threads);

// --delays FILE: "station delay_s" lines, the station by name (`station_names`, the header's
// antenna names, may be empty) or by index (0 .. nant - 1); stations not listed get 0. Returns
// nant delays. Throws DataError "path: line N: problem".
std::vector<double> read_delays_file(const std::string& path, int nant,
                                     const std::vector<std::string>& station_names);

// --bandpass FILE: either one gain per line for every output channel in order, or
// "channel gain" lines (channels not listed get 1). Throws DataError "path: ...".
std::vector<float> read_bandpass_file(const std::string& path, int nchan_out);

// The same from a file's text; `path` names it in messages.
std::vector<double> parse_delays_text(const std::string& text, const std::string& path, int nant,
                                      const std::vector<std::string>& station_names);
std::vector<float> parse_bandpass_text(const std::string& text, const std::string& path,
                                       int nchan_out);

}  // namespace rapt
