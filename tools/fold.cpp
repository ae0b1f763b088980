// fold: fold a time series or raw filterbank data at candidate periods and optimise P, P' and
// DM, like PRESTO's prepfold. Writes prepfold's .pfd and .pfd.bestprof for each candidate.
//
//   fold -accelcand 2 -accelfile obs_DM56.00_ACCEL_50.cand obs_DM56.00.dat
//   fold --accelcand 1-5 --accelfile obs_DM56.00_ACCEL_50.cand obs_DM56.00.dat   (one pass)
//   fold -p 0.0873 -pd -6.769e-6 -dm 56 -nsub 32 -nosearch -o raw obs.fil
//   fold --par psr.par obs.fil
//   fold --plot -p 0.0873 obs_DM56.00.dat                        also the .pfd.png plot
//   fold --brute-force --pmin 0.0016 --pmax 0.5 --nperiods 2048 -n 32 obs_DM*.dat   S/N map
//
// Unlike prepfold, every sample is folded: the parts split the whole observation.
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "fold/brute_force_run.hpp"
#include "fold/pfd_plot.hpp"
#include "fold/fold_options.hpp"
#include "fold/fold_runner.hpp"

namespace {

void report(const rapt::Messages& messages, const rapt::FoldProduct& product) {
  const rapt::Pfd& pfd = product.pfd;
  const rapt::FoldSearchResult& result = product.result;
  const rapt::PfdPosition& best = pfd.fold.pow == 1.0f ? pfd.bary : pfd.topo;
  char text[400];
  std::snprintf(text, sizeof text,
                "%s: P %.10g ms +/- %.2g, P' %.6g +/- %.2g, DM %.3f, reduced chi^2 %.3f "
                "(~%.1f sigma), %lld trials",
                product.names.pfd.c_str(), best.p1 * 1000.0, result.errors.p_s * 1000.0,
                best.p2, result.errors.pdot, pfd.bestdm, result.stats.redchi, result.sigma,
                result.trials);
  messages.info(text);
}

// --brute-force: the S/N map of every (DM trial, period); the best pairs on stdout.
int run_brute_force_mode(const rapt::ParsedOptions& parsed) {
  rapt::BruteForceRunOptions options =
      rapt::read_brute_force_options(parsed.result, parsed.positional);
  if (options.threads == 0) {
    options.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  }
  std::vector<std::string> warnings;
  const std::vector<rapt::BruteForcePeak> peaks =
      rapt::run_brute_force(options, parsed.force, 10, warnings);
  for (const std::string& warning : warnings) parsed.messages.warning(warning);
  std::printf("# %10s %14s %8s\n", "DM", "period(s)", "S/N");
  for (const rapt::BruteForcePeak& peak : peaks) {
    std::printf("%12.3f %14.9f %8.2f\n", peak.dm, peak.period_s, peak.snr);
  }
  parsed.messages.info("S/N map: " + rapt::brute_force_map_path(options));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("fold", [&] {
    auto options = rapt::program_options(
        "fold", "fold at candidate periods and optimise P, P', DM (PRESTO .pfd/.bestprof output)");
    rapt::add_fold_options(options);
    options.parse_positional({"files"});
    options.positional_help("FILE");
    // prepfold's "-pd -6.769e-6": a negative number is a value, not an option.
    std::vector<std::string> args =
        rapt::join_negative_values(std::vector<std::string>(argv, argv + argc));
    rapt::refuse_missing_prepfold_options(args);
    std::vector<char*> arg_pointers;
    for (std::string& a : args) arg_pointers.push_back(a.data());
    const rapt::ParsedOptions parsed = rapt::parse_options(
        options, int(arg_pointers.size()), arg_pointers.data(), rapt::fold_presto_names());
    if (parsed.result.count("brute-force")) {
      return run_brute_force_mode(parsed);
    }
    rapt::FoldOptions fold = rapt::read_fold_options(parsed.result, parsed.positional);
    if (fold.plot && !rapt::pfd_plot_available()) {
      throw rapt::UsageError("--plot: this build of rapt has no PLplot (built without PLplot)");
    }
    if (fold.threads == 0) fold.threads = int(std::max(1u, std::thread::hardware_concurrency()));

    const std::vector<rapt::FoldProduct> products = rapt::run_fold(fold, parsed.force, parsed.messages);
    for (const rapt::FoldProduct& product : products) {
      rapt::write_fold_product(product, parsed.force);
      if (fold.plot) rapt::plot_pfd_png(product.names.pfd + ".png", product.pfd, parsed.force);
      report(parsed.messages, product);
    }
    return 0;
  });
}
