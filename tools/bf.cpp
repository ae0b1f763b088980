// bf: tied-array beam forming of channelised station voltages into filterbank beams.
//
//   bf --tiling hex --spacing 0.05 --nbeams 37 -o obs array.dada    37 beams, Stokes I, float
//   bf --beams beams.txt --stokes IQUV --tint 16 --nbits 8 -o obs array.dada
//   bf --coherent --no-filterbank -o obs array.dada                  complex beams (PSRDADA)
//   simulate --voltages ... -o - | bf --incoherent -o obs -          from a pipe
//
// Weights come from the array geometry (updated as the sky turns, every --delay-interval seconds) or from
// --weights; stations are flagged with --flags. See man/bf.1 and rapt(7), BEAM FORMING.
#include <cstdio>

#include "bf/bf_options.hpp"
#include "bf/bf_run.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("bf", [&] {
    auto options = rapt::program_options("bf", "Form tied-array beams from channelised station voltages");
    rapt::add_bf_options(options);
    options.parse_positional({"files"});
    options.positional_help("VOLTAGES (a file, or - for standard input)");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    rapt::BfOptions bf = rapt::bf_options_from(args.result);
    bf.overwrite = args.force;
    const rapt::BfRunSummary s = rapt::run_bf(bf, args.messages);
    const double rate = s.wall_seconds > 0 ? s.input_bytes / s.wall_seconds : 0;
    args.messages.info(rapt::format_string(
        "%.3f s of data (%lld samples) in %.3f s on %s: %.2fx real time, %.3g GB/s of voltages",
        s.seconds_of_data, (long long)s.samples_in, s.wall_seconds, s.engine.c_str(),
        s.wall_seconds > 0 ? s.seconds_of_data / s.wall_seconds : 0.0, rate / 1e9));
    args.messages.detail(rapt::format_string(
        "time: %.3f s waiting for voltages (read and decoded beside the beam forming), %.3f s "
        "forming beams, %.3f s writing",
        s.waiting_s, s.forming_s, s.writing_s));
    return 0;
  });
}
