// accelgpu: Fourier-domain acceleration search, PRESTO accelsearch-compatible, on the GPU.
//
//   accelgpu -zmax 200 -numharm 16 obs_DM*.fft   <root>_ACCEL_200 (+ .cand, .txtcand) per input
//   accelgpu -zmax 50 obs_DM56.00.dat            a time series is FFT'd and de-reddened first
//   accelgpu --device cpu -zmax 0 x.fft          the threaded CPU engine (also the reference)
//   accelgpu --device gpu:all -zmax 200 *.fft    the inputs split over every GPU
//   accelgpu --part 3/8 -zmax 200 *.fft          only the third of eight runs of the inputs
//
// Every input is searched in turn with the next one's search running while the previous one's
// candidates are optimised and written; with several GPUs, each does so for its own run of the
// inputs.
#include "accel/accel_options.hpp"
#include "accel/accel_run.hpp"
#include "cli/program.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("accelgpu", [&] {
    auto options = rapt::program_options(
        "accelgpu", "Fourier-domain acceleration search (PRESTO accelsearch files)");
    rapt::add_accel_options(options, true);
    options.parse_positional({"files"});
    options.positional_help("FILE.fft|FILE.dat...");
    const rapt::ParsedOptions args =
        rapt::parse_options(options, argc, argv, rapt::accel_presto_option_names(true));
    const rapt::AccelRunOptions run = rapt::read_accel_options(args.result, args.positional, true);
    rapt::run_accel_inputs(run, args);
    return 0;
  });
}
