// channelize: the F engine: a polyphase filterbank that splits station voltages into fine
// channels, for bf and corr, or detects them into a filterbank for dedisp and PRESTO.
//
//   channelize --nchan 256 -o fine.dada coarse.dada            complex channels, finer
//   channelize --nchan 1024 -o chan.dada real.dada              a real-sampled band, channelised
//   channelize --detect --tavg 16 --out-bits 8 -o obs.fil v.dada   Stokes I filterbank
//   simulate --real-voltages ... -o - | channelize -o - - | bf -o obs -
//
// See man/channelize.1 and rapt(7), CHANNELISATION.
#include <cstdio>

#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "ppf/channelize_options.hpp"
#include "ppf/channelize_run.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("channelize", [&] {
    auto options = rapt::program_options(
        "channelize", "Split station voltages into fine channels with a polyphase filterbank");
    rapt::add_channelize_options(options);
    options.parse_positional({"files"});
    options.positional_help("VOLTAGES (a file, or - for standard input)");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    rapt::ChannelizeOptions o = rapt::channelize_options_from(args.result);
    o.overwrite = args.force;
    const rapt::ChannelizeRunSummary s = rapt::run_channelize(o, args.messages);
    const double rate = s.wall_seconds > 0 ? s.input_bytes / s.wall_seconds : 0;
    args.messages.info(rapt::format_string(
        "%.4g s of data (%lld samples in, %lld out) in %.3f s on %s: %.2fx real time, "
        "%.3g GB/s of voltages",
        s.seconds_of_data, (long long)s.samples_in, (long long)s.samples_out, s.wall_seconds,
        s.engine.c_str(), s.wall_seconds > 0 ? s.seconds_of_data / s.wall_seconds : 0.0,
        rate / 1e9));
    args.messages.detail(rapt::format_string(
        "time: %.3f s waiting for voltages (read and decoded beside the channelising), %.3f s "
        "channelising, %.3f s writing",
        s.waiting_s, s.channelising_s, s.writing_s));
    return 0;
  });
}
