// sift: merges the candidates of a survey searched in parts into one list, as one process over
// the whole job would have made it.
//
//   sift part*/obs_DM*.singlepulse      snr's clustered candidate list over every DM trial
//   sift part*/obs_DM*_ACCEL_200        ACCEL_sift.py's sifted periodicity candidates
//   sift -o cands.txt --sigma 6 *_ACCEL_0
//   sift --plot obs.png obs_DM*.singlepulse    also the plot snr --plot draws (PRESTO's replot)
//
// The kind of input follows from the file names. Single-pulse events are clustered as snr
// clusters them (snr/candidate_clustering.hpp); ACCEL candidates are sifted as PRESTO's
// ACCEL_sift.py sifts them (sift/accel_sifting.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "sift/accel_sift_file.hpp"
#include "sift/accel_sifting.hpp"
#include "sift/sift_options.hpp"
#include "sift/singlepulse_inputs.hpp"
#include "snr/candidate_clustering.hpp"
#include "snr/singlepulse_plot.hpp"

namespace {

void write_text(const std::string& path, const std::string& text, bool overwrite) {
  if (path == "-") {
    std::fputs(text.c_str(), stdout);
    return;
  }
  rapt::write_file_atomically(path, text, overwrite);
}

std::string single_pulse_list(const rapt::SiftRunOptions& run, bool overwrite,
                              const rapt::Messages& messages) {
  std::vector<rapt::SinglePulseFile> files;
  for (const std::string& path : run.files) files.push_back(rapt::read_singlepulse_file(path));
  const rapt::SinglePulseSet set =
      rapt::events_at_least(rapt::merge_singlepulse_files(files), run.threshold);
  if (set.untold_files > 0)
    messages.warning(std::to_string(set.untold_files) +
                     " files below the DMs of the finest sampling time tell no sampling time (no "
                     ".inf or .tim beside them, no events): were theirs finer, --cluster-gap "
                     "counted coarser samples than snr's (keep the .inf files beside the "
                     ".singlepulse files)");
  const auto candidates = rapt::cluster_events(set.events, set.dms, run.cluster, set.scales);
  if (!run.plot.empty()) {
    rapt::SinglePulsePlotRange range;
    range.lo_dm = *std::min_element(set.dms.begin(), set.dms.end());
    range.hi_dm = *std::max_element(set.dms.begin(), set.dms.end());
    range.duration_s = set.duration_s;
    // The S/N axis from the threshold, or without one from the weakest event (snr's default
    // threshold where there are none).
    double weakest = set.events.empty() ? 5.0 : set.events.front().sigma;
    for (const rapt::SinglePulseEvent& e : set.events) weakest = std::min(weakest, e.sigma);
    range.threshold = run.threshold > 0.0 ? run.threshold : std::floor(weakest * 10.0) / 10.0;
    rapt::plot_singlepulse_png(run.plot, set.events, range,
                               "Single pulse search: " + rapt::observation_name(files.front().path),
                               overwrite);
  }
  messages.info(std::to_string(files.size()) + " files, " + std::to_string(set.events.size()) +
                " events, " + std::to_string(candidates.size()) + " candidates");
  return rapt::format_candidates(candidates);
}

std::string accel_list(const rapt::SiftRunOptions& run, const rapt::Messages& messages) {
  std::vector<rapt::AccelSiftFile> files;
  for (const std::string& path : run.files) files.push_back(rapt::read_accel_sift_file(path));
  rapt::AccelSiftCounts n;
  const auto candidates =
      rapt::sift_accel_candidates(files, rapt::dm_trials_beside(files), run.accel, &n);
  messages.info(std::to_string(files.size()) + " files, " + std::to_string(n.read) +
                " candidates: " + std::to_string(n.passed_thresholds) + " pass the thresholds, " +
                std::to_string(n.distinct) + " distinct, " + std::to_string(n.good_dms) +
                " without DM problems, " + std::to_string(n.fundamentals) +
                " not harmonics of others");
  return rapt::format_sift_candlist(candidates);
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("sift", [&] {
    auto options = rapt::program_options(
        "sift", "merge the candidates of a survey searched in parts (.singlepulse or ACCEL files)");
    rapt::add_sift_options(options);
    options.parse_positional({"files"});
    options.positional_help("FILE.singlepulse... | FILE_ACCEL_<zmax>...");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    const rapt::SiftRunOptions run = rapt::read_sift_options(args.result, args.positional);
    if (run.output != "-") rapt::check_replaceable_output(run.output, args.force);
    if (!run.plot.empty()) {
      if (run.plot == run.output)
        throw rapt::UsageError("--plot and --output name one file (" + run.plot + ")");
      if (!rapt::singlepulse_plot_available())
        rapt::plot_singlepulse_png(run.plot, {}, {}, "", args.force);  // says why it cannot
      rapt::check_replaceable_output(run.plot, args.force);
    }
    const std::string text = run.kind == rapt::SiftInputKind::kSinglePulse
                                 ? single_pulse_list(run, args.force, args.messages)
                                 : accel_list(run, args.messages);
    write_text(run.output, text, args.force);
    return 0;
  });
}
