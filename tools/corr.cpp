// corr: correlate station voltages into visibilities (UVFITS or a Measurement Set).
//
//   corr -o obs.uvfits array.dada                            1 s integrations, fringe-stopped
//   corr --tint 2 --chan-avg 4 --no-autos -o obs.ms array.dada
//   corr --nchan 256 -o obs.uvfits real.dada                  channelise first (the F engine)
//   corr --fringe-stopped --precision int8 -o obs.uvfits f-engine.raw
//   simulate --voltages ... -o - | corr -o obs.uvfits -       from a pipe
//
// Voltages are fringe-stopped towards the phase centre, lost and flagged samples are left out,
// and each integration's visibilities are the mean products over the valid samples. See
// man/corr.1 and rapt(7), CORRELATION.
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "corr/corr_options.hpp"
#include "corr/corr_run.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("corr", [&] {
    auto options = rapt::program_options("corr", "Correlate station voltages into visibilities");
    rapt::add_corr_options(options);
    options.parse_positional({"files"});
    options.positional_help("VOLTAGES (a file, or - for standard input)");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    rapt::CorrOptions corr = rapt::corr_options_from(args.result);
    corr.overwrite = args.force;
    const rapt::CorrRunSummary s = rapt::run_corr(corr, args.messages);
    const double rate = s.wall_seconds > 0 ? s.input_bytes / s.wall_seconds : 0;
    args.messages.info(rapt::format_string(
        "%.4g s of data (%lld samples) in %.3f s on %s: %.3gx real time, %.3g GB/s of voltages; "
        "%lld integrations, %lld rows", s.seconds_of_data, (long long)s.samples_in, s.wall_seconds,
        s.engine.c_str(), s.wall_seconds > 0 ? s.seconds_of_data / s.wall_seconds : 0.0, rate / 1e9,
        (long long)s.integrations, (long long)s.rows));
    args.messages.detail(rapt::format_string(
        "time: %.3f s waiting for voltages (read and decoded beside the correlation), %.3f s "
        "channelising, %.3f s correlating (%.3f s of it masking and fringe stopping), %.3f s "
        "writing", s.waiting_s, s.channelising_s, s.correlating_s, s.preparing_s, s.writing_s));
    return 0;
  });
}
