// snr: single-pulse search of dedispersed time series, like PRESTO's single_pulse_search.py.
//
//   snr obs_DM*.dat                 <root>.singlepulse per series, clustered candidates on stdout
//   snr -t 6 -m 0.05 --presto x.dat PRESTO's numbers, boxcars up to 50 ms
//   snr --mode peak obs_DM*.dat     (max - mean) / std per chunk
//   snr fold.pfd.bestprof           S/N of a folded profile
//   snr --numdms 200 --dmstep 2 obs.fil   dedisperse in memory, then search (fused mode)
//   snr --plan --dm-max 1000 obs.fil      the same over a DDplan-style plan's ranges
//   recorder | snr --realtime --numdms 2048 --dmstep 0.25 -   chunk by chunk as data arrive
//   snr --numdms 2048 --device gpu:all obs.fil   the DM trials split over every GPU
//   snr --part 2/8 obs_DM*.dat      the second of eight shares of the files (sift merges them)
//
// The clustered candidate list joins events over DM, time and width (friends of friends);
// series of several sampling times (a DM plan's downsampled ranges) are searched a sampling
// time at a time and clustered on the finest one's samples.
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "cli/stop_request.hpp"
#include "cli/work_part.hpp"
#include "dedisp/dm_plan_options.hpp"
#include "gpu_device.hpp"
#include "io/bestprof.hpp"
#include "io/presto_inf.hpp"
#include "io/singlepulse.hpp"
#include "io/spectra_source.hpp"
#include "snr/candidate_clustering.hpp"
#include "snr/fused_search.hpp"
#include "snr/realtime_search.hpp"
#include "snr/profile_snr.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr/singlepulse_plot.hpp"
#include "snr/snr_options.hpp"

namespace {

bool is_bestprof(const std::string& path) {
  const std::string suffix = ".bestprof";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void print_profile_snrs(const std::vector<std::string>& paths) {
  std::printf("# %-40s %8s %6s %6s\n", "file", "S/N", "width", "start");
  for (const std::string& path : paths) {
    const rapt::Bestprof fold = rapt::read_bestprof(path);
    const rapt::ProfileSnr snr = rapt::profile_snr(fold.profile, path);
    std::printf("%-42s %8.2f %6d %6d\n", path.c_str(), snr.snr, snr.width_bins, snr.start_bin);
  }
}

std::string singlepulse_path(const rapt::SeriesInput& series, const std::string& outdir) {
  std::string root = series.root;
  if (!outdir.empty()) {
    const size_t slash = root.find_last_of('/');
    root = outdir + "/" + (slash == std::string::npos ? root : root.substr(slash + 1));
  }
  return root + ".singlepulse";
}

// Outputs that a finished search could not write (an existing file without --force, a missing
// directory) are refused before the search (for a filterbank, before it is dedispersed), so a
// refused run leaves no .singlepulse files of some series and none of the others. Two series that would write one file (inputs of one name
// with --outdir, DMs equal to two decimals) are refused too: the second would replace the first.
void check_outputs(const std::vector<rapt::SeriesInput>& series, const rapt::SnrRunOptions& run,
                   bool force) {
  std::map<std::string, const rapt::SeriesInput*> writers;
  for (const rapt::SeriesInput& s : series) {
    const std::string path = singlepulse_path(s, run.outdir);
    const auto entry = writers.emplace(path, &s);
    if (!entry.second) {
      const rapt::SeriesInput& first = *entry.first->second;
      if (first.path == s.path && first.dm == s.dm)
        throw rapt::UsageError(s.path + " is given twice");
      char dms[80];
      std::snprintf(dms, sizeof dms, "DMs %g and %g", first.dm, s.dm);
      throw rapt::UsageError((first.path != s.path ? first.path + " and " + s.path : dms) +
                             std::string(" would both be written as ") + path);
    }
    rapt::check_replaceable_output(path, force);
  }
  if (run.cands != "-") rapt::check_replaceable_output(run.cands, force);
  if (!run.json.empty() && run.json != "-") rapt::check_replaceable_output(run.json, force);
  if (!run.plot.empty()) rapt::check_replaceable_output(run.plot, force);
}

// Every series holds one detrend block (one chunk in peak mode), checked before the first
// batch writes its files (and in fused mode before the input is dedispersed): the searches
// refuse a shorter one, and a refusal after some batches would leave their files and none of
// the others. Fused series are named by their input and DM (`fused_input`; "" for files).
void require_one_block(const std::vector<rapt::SeriesInput>& series,
                       const rapt::SnrRunOptions& run, const std::string& fused_input) {
  const bool peak = run.mode == rapt::SnrMode::kPeak;
  const int64_t block = peak ? run.chunk_len : run.search.detrend_len;
  for (const rapt::SeriesInput& s : series) {
    if (s.usable_samples >= block) continue;
    const std::string what = std::to_string(s.usable_samples) + " usable samples, " +
                             (peak ? "fewer than one chunk (" : "fewer than one detrend block (") +
                             std::to_string(block) + ")";
    if (fused_input.empty()) throw rapt::file_error(s.path, what);
    throw rapt::file_error(fused_input,
                           rapt::format_string("DM %g (sampling time %g s) leaves ", s.dm, s.dt_s) +
                               what + (run.plan.enabled ? "; a smaller --max-downsamp keeps more" : ""));
  }
}

void write_text(const std::string& path, const std::string& text, bool overwrite) {
  if (path == "-") {
    std::fputs(text.c_str(), stdout);
    return;
  }
  rapt::AtomicOutputFile out(path, overwrite);
  out.write(text.data(), text.size());
  out.commit();
}

}  // namespace

bool is_fused(const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(),
                     [](const std::string& p) { return rapt::is_filterbank_path(p); });
}

// What the filterbank's reader let pass (bytes after the last whole spectrum, header values
// replaced), each line once however many times the input is read (per GPU, per batch of DMs),
// reported once the search is done.
class ReaderWarnings {
 public:
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& warning) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (std::find(lines_.begin(), lines_.end(), warning) == lines_.end())
        lines_.push_back(warning);
    };
  }
  void report(const rapt::Messages& messages) const {
    for (const std::string& line : lines_) messages.warning(line);
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

ReaderWarnings& reader_warnings() {
  static ReaderWarnings warnings;
  return warnings;
}

// The fused plan of this call: the DM trials of --numdms, or of a --plan made for the input's
// header (its table told), and its --part's share of them.
rapt::FusedDedispPlan fused_plan(const rapt::SnrRunOptions& run, const std::string& path,
                                 const rapt::Messages& messages) {
  rapt::FusedDedispPlan plan{path, run.lodm, run.dmstep, run.numdms, run.device, run.threads};
  plan.cleaning = run.cleaning;
  plan.reader_warning = reader_warnings().sink();
  if (run.plan.enabled) {
    std::string table;
    plan.groups = rapt::plan_trial_groups(run.plan, rapt::open_spectra_source(path)->info(),
                                          run.lodm, rapt::kDispersionConstantPresto, 1, &table);
    messages.info(table.substr(0, table.size() - 1));
  }
  const rapt::ItemRange share = rapt::part_items(rapt::fused_trial_count(plan), run.part);
  plan.first_trial = share.begin;
  plan.trial_count = share.size();
  return plan;
}

// The fused plan's trials of one sampling time: `group`'s series, dedispersed at `downsamp`.
rapt::FusedDedispPlan one_sampling_time(const rapt::FusedDedispPlan& plan,
                                        const std::vector<rapt::SeriesInput>& group,
                                        int downsamp) {
  rapt::FusedDedispPlan mine = plan;
  rapt::DmTrialGroup trials{{}, downsamp};
  for (const rapt::SeriesInput& s : group) trials.dms.push_back(s.dm);
  mine.groups = {trials};
  mine.first_trial = 0;
  mine.trial_count = 0;
  return mine;
}

// The series of this call, described: .dat/.tim files (loaded later batch by batch), or those
// the plan of one filterbank (`fused`) will make, from its header alone.
std::vector<rapt::SeriesInput> describe_inputs(const std::vector<std::string>& paths,
                                               const rapt::FusedDedispPlan* fused) {
  if (fused) return rapt::describe_fused_series(*fused);
  std::vector<rapt::SeriesInput> series;
  for (const std::string& path : paths) series.push_back(rapt::describe_series(path));
  return series;
}

// The series of one sampling time each (one scale: samples of the finest), in the order of
// their first series; `scales` one per series.
std::vector<std::vector<rapt::SeriesInput>> by_sampling_time(std::vector<rapt::SeriesInput> series,
                                                             const std::vector<int>& scales,
                                                             std::vector<int>* group_scales) {
  std::vector<std::vector<rapt::SeriesInput>> groups;
  for (size_t i = 0; i < series.size(); ++i) {
    const auto same = std::find(group_scales->begin(), group_scales->end(), scales[i]);
    const size_t g = size_t(same - group_scales->begin());
    if (same == group_scales->end()) {
      groups.emplace_back();
      group_scales->push_back(scales[i]);
    }
    groups[g].push_back(std::move(series[i]));
  }
  return groups;
}

struct SearchResult {
  std::vector<rapt::SinglePulseEvent> events;  // of every series
  std::vector<double> dms;                     // every DM searched
};

// Searches the series batch by batch (each batch's samples are freed after it), writing one
// .singlepulse per series.
// `searched_before` of `total` series were searched by earlier calls (for the progress line).
SearchResult search_all(std::vector<rapt::SeriesInput>& series, const rapt::SnrRunOptions& run,
                        rapt::BoxcarEngine& engine, int threads, const rapt::ParsedOptions& args,
                        size_t searched_before, size_t total) {
  SearchResult result;
  int64_t longest = 0;
  for (const rapt::SeriesInput& s : series) longest = std::max(longest, s.usable_samples);
  const size_t per_batch = rapt::series_per_batch(longest, size_t(1) << 30);
  for (size_t first = 0; first < series.size(); first += per_batch) {
    std::vector<rapt::SeriesInput> batch;
    for (size_t i = first; i < std::min(series.size(), first + per_batch); ++i)
      batch.push_back(std::move(series[i]));  // fused series come with their samples
    for (rapt::SeriesInput& s : batch)
      if (s.samples.empty())
        for (const std::string& warning : rapt::load_series_samples(s)) args.messages.warning(warning);
    std::vector<std::vector<rapt::SinglePulseEvent>> events;
    if (run.mode == rapt::SnrMode::kPeak) {
      for (const rapt::SeriesInput& s : batch)
        events.push_back(rapt::chunk_peak_events(s, run.chunk_len, run.search.threshold));
    } else {
      events = rapt::search_batch(batch, run.search, engine, threads);
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      rapt::write_singlepulse(singlepulse_path(batch[i], run.outdir), events[i], args.force);
      result.events.insert(result.events.end(), events[i].begin(), events[i].end());
      result.dms.push_back(batch[i].dm);
    }
    if (args.messages.progress) {
      const size_t done = searched_before + result.dms.size();
      std::fprintf(stderr, "\rsnr: %zu of %zu series searched%s", done, total,
                   done == total ? "\n" : "");
    }
  }
  return result;
}

// The fused search with the series kept on the GPU: events of every series at once, then
// one .singlepulse per series. With several GPUs each takes a contiguous share of the DM
// trials, reads the input itself and searches its share; the events are put back in DM order,
// so the outputs are those of one GPU.
SearchResult search_on_gpu(const rapt::FusedDedispPlan& plan,
                           const std::vector<rapt::SeriesInput>& series,
                           const rapt::SnrRunOptions& run, const rapt::DeviceSet& devices,
                           const rapt::ParsedOptions& args) {
  SearchResult result;
  std::vector<rapt::FusedSearchTiming> timing;
  const auto events =
      rapt::search_fused_on_gpus(plan, series, run.search, devices.gpus, &timing);
  for (size_t d = 0; d < timing.size(); ++d) {
    const rapt::FusedSearchTiming& t = timing[d];
    char line[240];
    std::snprintf(line, sizeof line,
                  "%s: %.3f s reading and dedispersing, %.3f s normalising, %.3f s boxcars, "
                  "%.3f s events (%d DM batch%s)",
                  rapt::gpu_name(devices.gpus[d]).c_str(), t.dedisperse_s, t.normalise_s,
                  t.search_s, t.events_s, t.batches, t.batches == 1 ? "" : "es");
    args.messages.detail(line);
  }
  for (size_t i = 0; i < series.size(); ++i) {
    rapt::write_singlepulse(singlepulse_path(series[i], run.outdir), events[i], args.force);
    result.events.insert(result.events.end(), events[i].begin(), events[i].end());
    result.dms.push_back(series[i].dm);
  }
  return result;
}

// A boxcar wider than the shortest series has no sample to slide over: such widths are
// dropped, saying so, rather than searched in silence.
void restrict_widths_to_data(std::vector<int>& widths, const std::vector<rapt::SeriesInput>& series,
                             const rapt::Messages& messages) {
  const rapt::SeriesInput* shortest = &series.front();
  for (const rapt::SeriesInput& s : series)
    if (s.usable_samples < shortest->usable_samples) shortest = &s;
  const int64_t limit = shortest->usable_samples;
  if (widths.empty() || widths.back() <= limit) return;
  const int asked = widths.back();
  widths.erase(std::remove_if(widths.begin(), widths.end(), [&](int w) { return w > limit; }),
               widths.end());
  messages.warning(shortest->path + " has " + std::to_string(limit) +
                   " usable samples; boxcars up to " + std::to_string(asked) +
                   " samples were asked, widths up to " + std::to_string(widths.back()) +
                   " are searched");
}

const char* signal_name(int signal_number) {
  switch (signal_number) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

// --realtime: one filterbank (or stdin) searched chunk by chunk; candidates go out as they are
// final (to stdout as they come, or into --cands at the end), the .singlepulse files and the
// timing summary at the end.
int run_realtime(const rapt::SnrRunOptions& run, const std::vector<std::string>& paths,
                 const rapt::ParsedOptions& args) {
  if (paths.size() != 1) throw rapt::UsageError("--realtime takes one filterbank (or - for stdin)");
  rapt::RealtimePlan plan;
  plan.input = paths.front();
  plan.cleaning = run.cleaning;
  // A plan is made once the input's header is read (the input may be a pipe, read once).
  if (run.plan.enabled) {
    plan.dm_plan = run.plan;
    plan.lodm = run.lodm;
    plan.plan_table = [&](const std::string& table) { args.messages.info(table); };
  } else {
    plan.dms = rapt::fused_dms(fused_plan(run, plan.input, args.messages));
  }
  plan.settings = run.search;
  plan.max_width_s = run.max_width_s;
  plan.cluster = run.cluster;
  plan.chunk = run.realtime_chunk;
  plan.device = run.device;
  plan.threads = run.threads;
  plan.reader_warning = reader_warnings().sink();
  // Outputs that would be refused at the end are refused before hours of data are searched.
  plan.on_start = [&](const std::vector<rapt::SeriesInput>& series) {
    check_outputs(series, run, args.force);
  };
  const bool streaming = run.cands == "-";
  std::vector<rapt::PulseCandidate> kept;
  bool header_printed = false;  // only once the input has been read: no output for bad input
  const auto on_candidates = [&](const std::vector<rapt::PulseCandidate>& found) {
    if (!streaming) {
      kept.insert(kept.end(), found.begin(), found.end());
      return;
    }
    const std::string text = rapt::format_candidates(found);
    std::fputs(header_printed ? text.c_str() + text.find('\n') + 1 : text.c_str(), stdout);
    header_printed = true;
    std::fflush(stdout);
    if (std::ferror(stdout)) rapt::stop_for_closed_output();  // its reader has gone
  };
  const auto on_chunk = [&](const rapt::RealtimeProgress& p) {
    if (args.messages.progress)
      std::fprintf(stderr, "\rsnr: %.1f s of data searched, %.1f ms per s of data", p.data_s,
                   1e3 * p.busy_s / p.data_s);
  };
  // Ctrl-C or a scheduler's SIGTERM ends the observation, not the search: what was read is
  // searched and written.
  rapt::stop_on_first_signal("snr");
  const rapt::RealtimeResult result = rapt::run_realtime_search(plan, on_candidates, on_chunk);
  if (args.messages.progress) std::fputc('\n', stderr);
  if (result.stopped_by_signal != 0)
    args.messages.warning(rapt::format_string(
        "stopped %s after %.1f s of data; the outputs hold the data searched until then",
        result.stopped_by_signal == SIGPIPE
            ? "as standard output closed"
            : ("by " + std::string(signal_name(result.stopped_by_signal))).c_str(),
        result.progress.data_s));
  reader_warnings().report(args.messages);
  for (const std::string& warning : result.warnings) args.messages.warning(warning);
  if (streaming && !header_printed) std::fputs(rapt::format_candidates({}).c_str(), stdout);
  if (!streaming) write_text(run.cands, rapt::format_candidates(kept), args.force);
  std::vector<rapt::SinglePulseEvent> all;
  for (size_t i = 0; i < result.series.size(); ++i) {
    rapt::write_singlepulse(singlepulse_path(result.series[i], run.outdir), result.events[i],
                            args.force);
    all.insert(all.end(), result.events[i].begin(), result.events[i].end());
  }
  const rapt::RealtimeProgress& p = result.progress;
  const double ms_per_s = 1e3 * p.busy_s / p.data_s;
  const bool keeps_up = p.busy_s <= p.data_s;  // reading overlaps the processing
  if (!run.plot.empty()) {
    rapt::SinglePulsePlotRange range;
    range.duration_s = p.data_s;
    range.threshold = run.search.threshold;
    range.lo_dm = *std::min_element(result.dms.begin(), result.dms.end());
    range.hi_dm = *std::max_element(result.dms.begin(), result.dms.end());
    rapt::plot_singlepulse_png(run.plot, all, range,
                               "Single pulse search: " + rapt::observation_name(result.series[0].root),
                               args.force);
  }
  if (!run.json.empty()) {
    const std::string json = rapt::format_string(
        "{\"program\": \"snr\", \"mode\": \"realtime\", \"engine\": \"%s\", "
        "\"dms\": %zu, \"chunks\": %lld, \"data_seconds\": %.6f, "
        "\"processing_seconds\": %.6f, \"read_seconds\": %.6f, "
        "\"ms_per_second_of_data\": %.3f, \"realtime_factor\": %.2f, "
        "\"keeps_up\": %s, \"events\": %zu, \"candidates\": %zu}\n",
        result.engine.c_str(), result.dms.size(), static_cast<long long>(p.chunks), p.data_s,
        p.busy_s, p.read_s, ms_per_s, p.data_s / p.busy_s, keeps_up ? "true" : "false",
        all.size(), result.candidates);
    write_text(run.json, json, args.force);
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "%.1f s of data in %lld chunks: %.1f ms of processing per s of data (%.0fx real "
                "time), %.1f s reading (and waiting for data); %s; %zu events, %zu candidates",
                p.data_s, static_cast<long long>(p.chunks), ms_per_s, p.data_s / p.busy_s,
                p.read_s, keeps_up ? "keeps up" : "falls behind", all.size(), result.candidates);
  args.messages.info(line);
  args.messages.detail("engine " + result.engine);
  return 0;
}

int main(int argc, char** argv) {
  return rapt::run_program("snr", [&] {
    auto options = rapt::program_options(
        "snr", "single-pulse search of dedispersed time series (PRESTO .singlepulse output)");
    rapt::add_snr_options(options);
    options.parse_positional({"files"});
    options.positional_help("FILE...");
    const rapt::ParsedOptions args =
        rapt::parse_options(options, argc, argv, {"lodm", "dmstep", "numdms"});
    rapt::SnrRunOptions run = rapt::read_snr_options(args.result, args.positional);
    const rapt::Messages& messages = args.messages;

    std::vector<std::string> folds, series_paths;
    for (const std::string& path : run.files)
      (is_bestprof(path) ? folds : series_paths).push_back(path);
    if (!folds.empty()) print_profile_snrs(folds);
    if (series_paths.empty()) return 0;
    if (run.realtime) return run_realtime(run, series_paths, args);
    const bool fused = is_fused(series_paths);
    rapt::FusedDedispPlan plan;  // fused mode's
    if (fused) {
      if (series_paths.size() != 1)
        throw rapt::UsageError("give one filterbank (with --numdms or --plan) or time series, "
                               "not both");
      plan = fused_plan(run, series_paths.front(), messages);
    } else {
      const bool from_stdin =
          std::find(series_paths.begin(), series_paths.end(), "-") != series_paths.end();
      if (run.numdms > 0 || run.plan.enabled)
        throw rapt::UsageError(from_stdin ? "--numdms and --plan need a filterbank input; a "
                                            "filterbank on standard input is read with --realtime"
                                          : "--numdms and --plan need a filterbank input");
      const rapt::SpectraCleaning& c = run.cleaning;
      if (!c.mask_path.empty() || !c.ignorechan.empty() || c.zerodm)
        throw rapt::UsageError("--mask, --ignorechan and --zerodm need a filterbank input");
    }
    if (!run.part.whole()) {
      const rapt::ItemRange share = rapt::part_items(
          fused ? rapt::fused_trial_count(plan) : series_paths.size(), run.part);
      if (share.size() == 0) {
        messages.info(rapt::describe(run.part) + " has no " +
                      (fused ? "DM trials" : "files") + "; nothing to do");
        return 0;
      }
      if (!fused)
        series_paths = {series_paths.begin() + int64_t(share.begin),
                        series_paths.begin() + int64_t(share.end)};
    }

    if (!run.plot.empty() && !rapt::singlepulse_plot_available())
      rapt::plot_singlepulse_png(run.plot, {}, {}, "", args.force);  // says why it cannot
    const int threads = run.threads > 0 ? run.threads
                                        : int(std::max(1u, std::thread::hardware_concurrency()));
    const rapt::DeviceSet devices = rapt::choose_devices(run.device);
    const rapt::DeviceChoice device{devices.use_gpu, devices.use_gpu ? devices.gpus.front() : 0};
    // Fused boxcar searches on a GPU keep every series there (and never hold them on the host).
    const bool gpu_resident = device.use_gpu && fused && run.mode == rapt::SnrMode::kBoxcar;
    if (devices.gpus.size() > 1 && !gpu_resident)
      throw rapt::UsageError("--device " + run.device + ": several GPUs serve the fused boxcar "
                             "search (a filterbank with --numdms or --plan); give gpu:N");
    std::vector<rapt::SeriesInput> series = describe_inputs(series_paths, fused ? &plan : nullptr);
    check_outputs(series, run, args.force);
    require_one_block(series, run, fused ? plan.input : "");
    // On the CPU (or in peak mode) a fused plan's series are made in memory; on a GPU the
    // whole search keeps them there.
    if (fused && !gpu_resident) series = rapt::dedisperse_in_memory(plan);
    // Each series' sampling time in samples of the finest (refused before any search when
    // they have no common time base).
    std::vector<double> dts;
    std::vector<std::string> names;
    for (const rapt::SeriesInput& s : series) {
      dts.push_back(s.dt_s);
      names.push_back(s.path);
    }
    const std::vector<int> scales = rapt::finest_sample_scales(dts, names);
    const double finest_dt = *std::min_element(dts.begin(), dts.end());
    std::vector<double> starts;
    for (const rapt::SeriesInput& s : series) starts.push_back(s.start_mjd);
    rapt::check_common_start(starts, names, finest_dt);
    const size_t nseries = series.size();
    const std::string name = rapt::observation_name(series.front().root);
    rapt::SinglePulsePlotRange range;
    range.threshold = run.search.threshold;
    for (const rapt::SeriesInput& s : series)
      range.duration_s = std::max(range.duration_s, double(s.total_samples) * s.dt_s);

    // One search per sampling time, each with its widths (seconds with -m, else samples). The
    // finest series of a fused plan are dedispersed at its smallest downsampling.
    int finest_downsamp = 1;
    if (fused) {
      finest_downsamp = 1 << 30;
      for (const rapt::DmTrialGroup& trials : rapt::fused_groups(plan))
        finest_downsamp = std::min(finest_downsamp, trials.downsamp);
    }
    SearchResult found;
    std::vector<int> event_scales;
    std::vector<int> group_scales;
    auto groups = by_sampling_time(std::move(series), scales, &group_scales);
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<rapt::SeriesInput>& group = groups[g];
      rapt::SnrSettings settings = run.search;
      if (run.max_width_s > 0.0)
        settings.widths = rapt::widths_for_max_seconds(run.max_width_s, group.front().dt_s);
      restrict_widths_to_data(settings.widths, group, messages);
      auto engine = device.use_gpu
          ? rapt::make_gpu_boxcar_engine(settings.widths, float(settings.threshold),
                                         device.gpu_index)
          : rapt::make_cpu_boxcar_engine(settings.widths, float(settings.threshold), threads);
      std::string widths = "widths up to " + std::to_string(settings.max_width()) + " samples";
      if (groups.size() > 1)
        widths += rapt::format_string(" of %.6g s (%zu series)", group.front().dt_s, group.size());
      messages.detail("engine " + engine->name() +
                      (gpu_resident ? " (fused, series on the GPU)" : "") + ", " + widths);
      rapt::SnrRunOptions group_run = run;
      group_run.search = settings;
      const SearchResult part = gpu_resident
          ? search_on_gpu(one_sampling_time(plan, group, group_scales[g] * finest_downsamp), group,
                          group_run, devices, args)
          : search_all(group, group_run, *engine, threads, args, found.dms.size(), nseries);
      found.events.insert(found.events.end(), part.events.begin(), part.events.end());
      found.dms.insert(found.dms.end(), part.dms.begin(), part.dms.end());
      event_scales.insert(event_scales.end(), part.events.size(), group_scales[g]);
    }
    reader_warnings().report(messages);
    const auto candidates =
        rapt::cluster_events(found.events, found.dms, run.cluster, event_scales);
    write_text(run.cands, rapt::format_candidates(candidates), args.force);
    if (!run.plot.empty()) {
      range.lo_dm = *std::min_element(found.dms.begin(), found.dms.end());
      range.hi_dm = *std::max_element(found.dms.begin(), found.dms.end());
      rapt::plot_singlepulse_png(run.plot, found.events, range, "Single pulse search: " + name,
                                 args.force);
    }
    messages.info(std::to_string(nseries) + " series, " +
                  std::to_string(found.events.size()) + " events, " +
                  std::to_string(candidates.size()) + " candidates");
    return 0;
  });
}
