// harmsum: incoherent harmonic-summing search (zmax = 0) on the fast path: powers at whole
// bins and interbins, no correlation. Same files as accelgpu -zmax 0 (<root>_ACCEL_0 ...).
//
//   harmsum -numharm 16 obs_DM*.fft
//   harmsum --dump obs_DM56.00.fft     also <root>_HARMSUM.txt: the summed spectra per stage
//   harmsum --device gpu:0,1 --part 2/4 obs_DM*.fft   part 2 of 4 of the inputs, over two GPUs
//
// The dump hook runs on the thread of the GPU that searched the input (one per listed GPU): it
// touches nothing but its own input's plane and file.
#include <cstdio>
#include <string>
#include <vector>

#include "accel/accel_options.hpp"
#include "accel/accel_run.hpp"
#include "accel/harmonic_sum.hpp"
#include "accel/plane_builder.hpp"
#include "accel/spectrum_input.hpp"
#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/program.hpp"

namespace {

// One line per half-bin column of the searched range: r, f, then the running sum after each
// stage (1, 2, 4, ... harmonics, of the column as the highest harmonic).
std::string format_dump(const rapt::AccelPlan& plan, const rapt::FfdotPlane& plane) {
  std::vector<std::vector<float>> stages;
  for (int stage = 0; stage < plan.numharm_stages; ++stage) {
    stages.push_back(rapt::harmonic_sum_row(plane, plan, 0, stage));
  }
  std::string text = "# r(bins)  f(Hz)";
  for (int stage = 0; stage < plan.numharm_stages; ++stage) {
    text += "  P" + std::to_string(1 << stage);
  }
  text += "\n";
  char line[64];
  for (size_t i = 0; i < stages[0].size(); ++i) {
    const double r = plan.rlo + i * rapt::kAccelDr;
    std::snprintf(line, sizeof line, "%.1f %.9g", r, r / plan.obs_length_s);
    text += line;
    for (const auto& sums : stages) {
      std::snprintf(line, sizeof line, " %.6g", sums[i]);
      text += line;
    }
    text += "\n";
  }
  return text;
}

// The dump of each input this run searches; an existing one is refused before any search,
// so that a clash never leaves the other outputs of an input written without their dump.
std::vector<std::string> dump_paths(const rapt::AccelRunOptions& run) {
  std::vector<std::string> paths;
  for (const std::string& file : rapt::accel_part_files(run))
    paths.push_back(rapt::accel_input_root(file) + "_HARMSUM.txt");
  return paths;
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("harmsum", [&] {
    auto options = rapt::program_options(
        "harmsum", "incoherent harmonic-summing search, zmax = 0 (PRESTO accelsearch files)");
    rapt::add_accel_options(options, false);
    options.add_options()("dump", "also write <root>_HARMSUM.txt, the harmonic-summed spectra");
    options.parse_positional({"files"});
    options.positional_help("FILE.fft|FILE.dat...");
    const rapt::ParsedOptions args =
        rapt::parse_options(options, argc, argv, rapt::accel_presto_option_names(false));
    const rapt::AccelRunOptions run =
        rapt::read_accel_options(args.result, args.positional, false);
    rapt::AccelInputHook dump;
    if (args.result.count("dump")) {
      if (!args.force) {
        for (const std::string& path : dump_paths(run))
          if (rapt::path_exists(path))
            throw rapt::file_error(path, "already exists (use --force to overwrite)");
      }
      dump = [&](const std::string& root, const std::vector<std::complex<float>>& spectrum,
                 const rapt::AccelPlan& plan) {
        const rapt::FfdotPlane plane = rapt::build_ffdot_plane_cpu(spectrum, plan, 1);
        rapt::write_file_atomically(root + "_HARMSUM.txt", format_dump(plan, plane),
                                    args.force);
      };
    }
    rapt::run_accel_inputs(run, args, dump);
    return 0;
  });
}
