// dedisp: dedisperse filterbank data into one time series per DM trial, as PRESTO's
// prepsubband does (same file names, same .inf layout), on the GPU or the CPU.
//
//   dedisp --lodm 0 --dmstep 1 --numdms 600 -o obs obs.fil      obs_DM0.00.dat/.inf ...
//   dedisp --plan --dm-max 1000 --nsub 64 -o obs obs.fil         DDplan-style plan
//   dedisp --dm-list dms.txt --tim -o obs obs.fil                SIGPROC .tim files
//   simulate -o - | dedisp --lodm 56 -o - - > dm56.f32           one series to stdout
//   dedisp --numdms 2048 --part 3/8 -o obs obs.fil              the third of eight DM shares
//   dedisp --numdms 2048 --device gpu:all -o obs obs.fil        the DM trials over every GPU
#include <sys/resource.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "cli/work_part.hpp"
#include "dedisp/dedisp_options.hpp"
#include "dedisp/dedisp_outputs.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "dedisp/dm_plan_options.hpp"
#include "dedisp/spectra_preparer.hpp"
#include "io/presto_inf.hpp"
#include "io/rfifind_mask.hpp"
#include "io/sigproc.hpp"

namespace {

cxxopts::Options dedisp_options() {
  auto options = rapt::program_options("dedisp", "dedisperse filterbank data into one time "
                                                 "series per DM (PRESTO .dat/.inf or SIGPROC .tim)");
  options.add_options("DM trials")
      ("lodm", "lowest DM", cxxopts::value<double>()->default_value("0"))
      ("dmstep", "DM step", cxxopts::value<double>()->default_value("1"))
      ("numdms", "number of DMs", cxxopts::value<int>()->default_value("1"))
      ("dm-list", "read the DMs from FILE (numbers, '#' comments)", cxxopts::value<std::string>());
  rapt::add_dm_plan_options(options, "DM trials", "");
  options.add_options("DM trials")
      ("dry-run", "print the DM trials (the plan table with --plan) and exit")
      ("dm-const", "dispersion constant k (s MHz^2 cm^3/pc), 'presto' (1/2.41e-4, the default) "
                   "or 'sigproc' (4148.808)", cxxopts::value<std::string>()->default_value("presto"));
  options.add_options("Processing")
      ("downsamp", "average this many consecutive samples into one", cxxopts::value<int>()->default_value("1"))
      ("nsub", "two-stage dedispersion through N subbands (0 = direct)",
       cxxopts::value<int>()->default_value("0"))
      ("zerodm", "zero-DM filter: subtract each spectrum's broadband power from the channels by the bandpass")
      ("nobary", "accepted as prepsubband takes it: dedisp never barycentres")
      ("mask", "rfifind mask FILE: replace flagged samples, leave out zapped channels",
       cxxopts::value<std::string>())
      ("ignorechan", "leave out channels, e.g. 0:10,34,100:120 (0 = lowest frequency)",
       cxxopts::value<std::string>())
      ("normalise", "normalise each channel by its running median and MAD")
      ("clip", "replace spectra whose channel mean strays more than SIGMA robust sigmas",
       cxxopts::value<double>()->default_value("0"))
      ("stats-interval", "spectra per statistics interval for --normalise, --clip, --zerodm",
       cxxopts::value<size_t>()->default_value("4096"));
  options.add_options("Output")
      ("o,output", "output root: ROOT_DM<dm>.dat/.inf, or '-' for one series on stdout",
       cxxopts::value<std::string>())
      ("tim", "write SIGPROC .tim files instead of .dat/.inf")
      ("numout", "make every series exactly N samples long (pad or cut)",
       cxxopts::value<long long>())
      ("device", "auto, cpu, gpu, gpu:N, gpu:N,M,... or gpu:all (the DM trials split over them)",
       cxxopts::value<std::string>()->default_value("auto"))
      ("part", "write only part K of N of the DM trials (whole subband groups with --nsub)",
       cxxopts::value<std::string>())
      ("gulp", "spectra per processing step (0 = automatic)",
       cxxopts::value<size_t>()->default_value("0"))
      ("threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))
      ("files", "input file ('-' = stdin)", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"files"});
  options.positional_help("FILE (- reads standard input)");
  return options;
}

std::string default_root(const std::string& input) {
  if (input == "-") throw rapt::UsageError("reading standard input: give an output root with -o");
  const size_t slash = input.find_last_of('/');
  const std::string base = slash == std::string::npos ? input : input.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// DM trial groups from --plan, --dm-list or --lodm/--dmstep/--numdms.
std::vector<rapt::DmTrialGroup> dm_groups(const cxxopts::ParseResult& r,
                                          const rapt::ObservationInfo& info, double dm_const,
                                          std::string* plan_table) {
  const int downsamp = r["downsamp"].as<int>();
  if (downsamp < 1) throw rapt::UsageError("--downsamp must be >= 1");
  const rapt::DmPlanSettings plan = rapt::read_dm_plan_options(r);
  if (plan.enabled) {
    if (r.count("dm-list")) throw rapt::UsageError("--plan and --dm-list exclude each other");
    return rapt::plan_trial_groups(plan, info, r["lodm"].as<double>(), dm_const, downsamp,
                                   plan_table);
  }
  if (r.count("dm-list")) {
    if (r.count("lodm") || r.count("dmstep") || r.count("numdms"))
      throw rapt::UsageError("--dm-list gives the DMs: --lodm, --dmstep and --numdms do not apply");
    const std::string path = r["dm-list"].as<std::string>();
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (!file) throw rapt::UsageError(path + ": " + rapt::errno_text());
    std::string text;
    char chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, file)) > 0;) text.append(chunk, n);
    std::fclose(file);
    return {{rapt::parse_dm_list(text, path), downsamp}};
  }
  const int numdms = r["numdms"].as<int>();
  if (numdms < 1) throw rapt::UsageError("--numdms must be >= 1 (got " + std::to_string(numdms) + ")");
  rapt::DmTrialGroup group{{}, downsamp};
  for (int i = 0; i < numdms; ++i)
    group.dms.push_back(r["lodm"].as<double>() + i * r["dmstep"].as<double>());
  return {group};
}

// Channels to leave out and cleaning to apply, from --ignorechan, --mask and the filters.
rapt::SpectraPreparation preparation(const cxxopts::ParseResult& r,
                                     const rapt::ObservationInfo& info,
                                     std::vector<bool>* zapped) {
  rapt::SpectraCleaning cleaning;
  cleaning.interval_spectra = r["stats-interval"].as<size_t>();
  if (r.count("ignorechan")) cleaning.ignorechan = r["ignorechan"].as<std::string>();
  if (r.count("mask")) cleaning.mask_path = r["mask"].as<std::string>();
  cleaning.zerodm = r.count("zerodm") > 0;
  cleaning.normalise = r.count("normalise") > 0;
  cleaning.clip_sigma = r["clip"].as<double>();
  return rapt::spectra_preparation(cleaning, info, zapped);
}

// Many DM trials keep many files open at once: raise the soft limit as far as allowed.
void allow_open_files(size_t needed) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur != RLIM_INFINITY && needed + 32 > limit.rlim_cur)
    throw rapt::UsageError(std::to_string(needed) + " DM trials need more open files than this "
                           "system allows (" + std::to_string(limit.rlim_cur) +
                           "); split the DM range over several runs");
}

void print_trials(const std::vector<rapt::DedispTrial>& trials, const std::string& plan_table) {
  if (!plan_table.empty()) {
    std::fputs(plan_table.c_str(), stdout);
    return;
  }
  for (const rapt::DedispTrial& t : trials) std::printf("%.6g %d\n", t.dm, t.downsamp);
}

std::string describe(const rapt::ObservationInfo& info) {
  char text[300];
  std::snprintf(text, sizeof text, "%s: %s, %d channels %.6g-%.6g MHz, %.6g us, %d-bit, %s",
                info.path.c_str(), info.format.c_str(), info.nchans, info.lowest_freq_mhz(),
                info.highest_freq_mhz(), info.tsamp_s * 1e6, info.nbits,
                info.nspectra < 0 ? "length unknown (a stream)"
                                  : (std::to_string(info.nspectra) + " spectra").c_str());
  return text;
}

// Engine, length and subband settings (everything but the DMs and channels).
rapt::DedispRunConfig run_config(const cxxopts::ParseResult& r, bool to_stdout) {
  rapt::DedispRunConfig config;
  config.dm_const = rapt::parse_dm_const(r["dm-const"].as<std::string>());
  config.nsub = r["nsub"].as<int>();
  if (config.nsub < 0) throw rapt::UsageError("--nsub must be >= 0");
  config.gulp = r["gulp"].as<size_t>();
  config.device = r["device"].as<std::string>();
  config.cpu_threads = r["threads"].as<int>();
  if (config.cpu_threads < 0) throw rapt::UsageError("--threads must be >= 0");
  config.length = to_stdout || r.count("tim") ? rapt::OutputLength::kComputed
                                              : rapt::OutputLength::kGoodN;
  if (r.count("numout")) {
    config.length = rapt::OutputLength::kNumout;
    config.numout = r["numout"].as<long long>();
  }
  return config;
}

std::unique_ptr<rapt::DedispSink> make_sink(const cxxopts::ParseResult& r, const std::string& root,
                                            const rapt::DedispRunConfig& config,
                                            const rapt::SpectraPreparation& prep) {
  if (root == "-") return std::make_unique<rapt::RawStreamSink>(stdout);
  rapt::DedispOutputContext context{RAPT_VERSION, config.dm_const, {}};
  if (prep.zerodm) context.extra_notes.push_back("Zero-DM filtered.");
  if (prep.normalise) context.extra_notes.push_back("Channels normalised (median, MAD).");
  if (prep.clip_sigma > 0) {
    char note[80];
    std::snprintf(note, sizeof note, "Broadband bursts clipped at %g sigma.", prep.clip_sigma);
    context.extra_notes.push_back(note);
  }
  if (r.count("mask")) context.extra_notes.push_back("Mask " + r["mask"].as<std::string>() + ".");
  // The series' provenance: which channels the sums leave out, as the command line gave them.
  if (r.count("ignorechan"))
    context.extra_notes.push_back("Channels left out (0 = lowest frequency): " +
                                  r["ignorechan"].as<std::string>() + ".");
  // prepsubband replaces its outputs, and so does dedisp.
  if (r.count("tim")) return std::make_unique<rapt::SigprocTimSink>(root, true, context);
  return std::make_unique<rapt::PrestoSeriesSink>(root, true, context);
}

std::function<void(int64_t)> progress_printer(const rapt::ObservationInfo& info) {
  const long long total = info.nspectra;
  return [total](int64_t done) {
    std::fprintf(stderr, "\rdedisp: %3d%% of %lld spectra", int(100 * done / total), total);
    if (done >= total) std::fputc('\n', stderr);
  };
}

std::string summary(const rapt::DedispRunReport& report, const std::string& root, bool tim,
                    double first_dm) {
  std::string text = std::to_string(report.ntrials) + " DM trial" +
                     (report.ntrials == 1 ? "" : "s") + " from " +
                     std::to_string(report.spectra_read) + " spectra";
  if (root == "-") return text + " to standard output";
  return text + " written as " + rapt::dm_trial_root(root, first_dm) + (tim ? ".tim" : ".dat") +
         " ...";
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("dedisp", [&] {
    auto options = dedisp_options();
    const rapt::ParsedOptions args = rapt::parse_options(
        options, argc, argv,
        {"lodm", "dmstep", "numdms", "nsub", "downsamp", "numout", "mask", "ignorechan", "zerodm",
         "nobary"});
    const auto& r = args.result;
    if (args.positional.size() != 1) throw rapt::UsageError("give exactly one input file");
    const std::string input = args.positional[0];
    const std::string root = r.count("output") ? r["output"].as<std::string>() : default_root(input);
    rapt::DedispRunConfig config = run_config(r, root == "-");
    if (root == "-" && r.count("tim"))
      args.messages.warning("--tim names .tim files; -o - writes one series of raw floats, with no "
                            "header, on standard output");

    std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source(input);
    const rapt::ObservationInfo info = source->info();
    std::string plan_table;
    config.groups = dm_groups(r, info, config.dm_const, &plan_table);
    if (r.count("part")) {
      const rapt::WorkPart part = rapt::parse_work_part(r["part"].as<std::string>());
      config.groups = rapt::part_of_trials(config, info, part);
      plan_table.clear();  // the trials of this part are listed instead
      if (config.groups.empty()) {
        args.messages.info(rapt::describe(part) + " has no DM trials; nothing to do");
        return 0;
      }
    }
    const std::vector<rapt::DedispTrial> trials = rapt::dedisp_trials(config, info.tsamp_s);
    // The cleaning options are checked before a dry run too: it refuses what the run would.
    const rapt::SpectraPreparation prep = preparation(r, info, &config.zapped);
    if (r.count("dry-run")) {
      print_trials(trials, plan_table);
      return 0;
    }
    args.messages.info(describe(info));
    if (!plan_table.empty()) args.messages.info(plan_table.substr(0, plan_table.size() - 1));
    if (root != "-") allow_open_files(trials.size());
    const std::unique_ptr<rapt::DedispSink> sink = make_sink(r, root, config, prep);
    if (args.messages.progress && info.nspectra > 0) config.on_progress = progress_printer(info);

    std::unique_ptr<rapt::PreparedSpectra> prepared;
    if (prep.any()) prepared = std::make_unique<rapt::PreparedSpectra>(*source, prep);
    rapt::SpectraSource& feed = prepared ? *prepared : *source;
    auto* raw = prepared ? nullptr : dynamic_cast<rapt::SigprocReader*>(source.get());
    const rapt::DedispRunReport report = rapt::run_dedispersion(feed, raw, config, *sink);
    for (const std::string& warning : source->warnings()) args.messages.warning(warning);
    args.messages.detail("engine: " + report.engine +
                         (report.packed_input ? "; packed samples to the engine" : ""));
    for (const std::string& note : report.notes) args.messages.detail(note);
    char timing[200];
    std::snprintf(timing, sizeof timing,
                  "%.3f s setting up, %.3f s reading, %.3f s dedispersing, %.3f s writing",
                  report.setup_s, report.read_s, report.compute_s, report.output_s);
    args.messages.detail(timing);
    args.messages.info(summary(report, root, r.count("tim") > 0, trials.front().dm));
    return 0;
  });
}
