// fold: fold a time series or raw filterbank data at candidate periods and optimise P, P' and
// DM, like PRESTO's prepfold. Writes prepfold's .pfd and .pfd.bestprof for each candidate.
//
//   fold -accelcand 2 -accelfile obs_DM56.00_ACCEL_50.cand obs_DM56.00.dat
//   fold --accelcand 1-5 --accelfile obs_DM56.00_ACCEL_50.cand obs_DM56.00.dat   (one pass)
//   fold -p 0.0873 -pd -6.769e-6 -dm 56 -nsub 32 -nosearch -o raw obs.fil
//   fold --par psr.par obs.fil
//
// Unlike prepfold, every sample is folded: the parts split the whole observation.
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli/program.hpp"
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
    std::vector<char*> arg_pointers;
    for (std::string& a : args) arg_pointers.push_back(a.data());
    const rapt::ParsedOptions parsed = rapt::parse_options(
        options, int(arg_pointers.size()), arg_pointers.data(), rapt::fold_presto_names());
    rapt::FoldOptions fold = rapt::read_fold_options(parsed.result, parsed.positional);
    if (fold.threads == 0) fold.threads = int(std::max(1u, std::thread::hardware_concurrency()));

    const std::vector<rapt::FoldProduct> products = rapt::run_fold(fold, parsed.force, parsed.messages);
    for (const rapt::FoldProduct& product : products) {
      rapt::write_fold_product(product, parsed.force);
      report(parsed.messages, product);
    }
    return 0;
  });
}
