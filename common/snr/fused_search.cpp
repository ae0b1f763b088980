#include "snr/fused_search.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/errors.hpp"
#include "cli/work_part.hpp"
#include "dedisp/parallel_for.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "dedisp/spectra_preparer.hpp"
#include "io/presto_inf.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "snr/snr_gpu_factory.hpp"

namespace rapt {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string fused_input_root(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path;
  return path.substr(0, dot);
}

namespace {

// Keeps every trial's series in memory; on finish() they become SeriesInputs with the on/off
// pairs PrestoSeriesSink would have written into their .inf files.
class MemorySeriesSink final : public DedispSink {
 public:
  explicit MemorySeriesSink(std::string root) : root_(std::move(root)) {}
  void begin(const ObservationInfo&, const std::vector<DedispTrial>& trials) override {
    trials_ = trials;
    samples_.assign(trials.size(), {});
  }
  void append(size_t trial, const float* samples, size_t count) override {
    samples_[trial].insert(samples_[trial].end(), samples, samples + count);
  }
  void finish(const std::vector<TrialSummary>& summaries) override {
    for (size_t t = 0; t < trials_.size(); ++t) {
      SeriesInput s = fused_series(root_, trials_[t].dm, trials_[t].tsamp_s, summaries[t].nsamples,
                                   summaries[t].real_samples);
      s.samples = std::move(samples_[t]);
      s.samples.resize(size_t(s.usable_samples));
      series_.push_back(std::move(s));
    }
  }
  std::vector<SeriesInput> take() { return std::move(series_); }

 private:
  std::string root_;
  std::vector<DedispTrial> trials_;
  std::vector<std::vector<float>> samples_;
  std::vector<SeriesInput> series_;
};

}  // namespace

bool is_filterbank_path(const std::string& path) {
  return ends_with(path, ".fil") || ends_with(path, ".fits") || ends_with(path, ".sf");
}

SeriesInput fused_series(const std::string& root, double dm, double tsamp_s, int64_t nsamples,
                         int64_t real_samples) {
  SeriesInput s;
  s.root = dm_trial_root(root, dm);
  s.path = s.root + ".dat";
  s.dm = dm;
  s.dt_s = tsamp_s;
  s.total_samples = nsamples;
  InfFile inf;
  inf.n = nsamples;
  if (real_samples < nsamples) inf.onoff = {{0, real_samples - 1}, {nsamples - 1, nsamples - 1}};
  apply_onoff(inf, s);
  return s;
}

namespace {

// Every trial of the plan, before slicing.
std::vector<DmTrialGroup> all_trial_groups(const FusedDedispPlan& plan) {
  if (!plan.groups.empty()) {
    for (const DmTrialGroup& group : plan.groups)
      if (group.dms.empty() || group.downsamp < 1)
        throw UsageError("a DM plan's range needs DMs and a downsampling of at least 1");
    return plan.groups;
  }
  if (plan.numdms < 1)
    throw UsageError("a filterbank input needs --numdms (and --lodm, --dmstep) or --plan");
  if (plan.lodm < 0.0) throw UsageError("--lodm must be >= 0");
  if (!(plan.dmstep > 0.0)) throw UsageError("--dmstep must be > 0");
  DmTrialGroup group;
  for (int i = 0; i < plan.numdms; ++i) group.dms.push_back(plan.lodm + i * plan.dmstep);
  return {group};
}

}  // namespace

size_t fused_trial_count(const FusedDedispPlan& plan) {
  size_t count = 0;
  for (const DmTrialGroup& group : all_trial_groups(plan)) count += group.dms.size();
  return count;
}

std::vector<DmTrialGroup> fused_groups(const FusedDedispPlan& plan) {
  const size_t total = fused_trial_count(plan);
  const size_t first = std::min(plan.first_trial, total);
  const size_t end = plan.trial_count == 0 ? total : std::min(total, first + plan.trial_count);
  std::vector<DmTrialGroup> slice;
  size_t at = 0;  // the plan's index of the trial
  for (const DmTrialGroup& group : all_trial_groups(plan))
    for (double dm : group.dms) {
      if (at >= first && at < end) {
        if (slice.empty() || slice.back().downsamp != group.downsamp)
          slice.push_back({{}, group.downsamp});
        slice.back().dms.push_back(dm);
      }
      ++at;
    }
  return slice;
}

std::vector<double> fused_dms(const FusedDedispPlan& plan) {
  std::vector<double> dms;
  for (const DmTrialGroup& group : fused_groups(plan))
    dms.insert(dms.end(), group.dms.begin(), group.dms.end());
  return dms;
}

FusedInput::FusedInput(const std::string& path, const SpectraCleaning& cleaning)
    : file_(open_spectra_source(path)) {
  const SpectraPreparation prep = spectra_preparation(cleaning, file_->info(), &zapped_);
  if (prep.any()) prepared_ = std::make_unique<PreparedSpectra>(*file_, prep);
}

FusedInput::~FusedInput() = default;

SpectraSource& FusedInput::source() { return prepared_ ? *prepared_ : *file_; }

void FusedInput::report_warnings(const std::function<void(const std::string&)>& to) const {
  if (to)
    for (const std::string& warning : file_->warnings()) to(warning);
}

SigprocReader* FusedInput::raw() {
  return prepared_ ? nullptr : dynamic_cast<SigprocReader*>(file_.get());
}

DedispPlan fused_dedisp_plan(const ObservationInfo& info, const std::vector<double>& dms,
                             const std::vector<bool>& zapped, int downsamp) {
  DedispPlan plan;
  plan.downsamp = downsamp;
  plan.nchans = info.nchans;
  plan.fch1_mhz = info.fch1_mhz;
  plan.foff_mhz = info.foff_mhz;
  plan.tsamp_s = info.tsamp_s;
  plan.dms = dms;
  if (std::find(zapped.begin(), zapped.end(), true) != zapped.end()) plan.zapped = zapped;
  return plan;
}

std::vector<SeriesInput> describe_fused_series(const FusedDedispPlan& plan) {
  const std::vector<DmTrialGroup> groups = fused_groups(plan);
  FusedInput input(plan.input, plan.cleaning);
  const ObservationInfo& info = input.info();
  if (info.nspectra <= 0)
    throw file_error(plan.input, "the header does not give the number of spectra");
  // As the dedispersion runner counts them: output length as dedisp writes .dat files, real
  // data up to the delay of the lowest channel used, in samples of the group's downsampling.
  const int64_t nspectra = info.nspectra;
  std::vector<SeriesInput> series;
  for (const DmTrialGroup& group : groups) {
    const int64_t ds = group.downsamp;
    const DedispPlan dedisp = fused_dedisp_plan(info, group.dms, input.zapped(), group.downsamp);
    dedisp.validate();
    const int64_t nsamples = good_series_length((nspectra + ds - 1) / ds);
    for (double dm : group.dms) {
      const int64_t delay = dedisp.trial_delay_samples(dm);
      if (nspectra - delay < ds) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", dm);
        throw file_error(plan.input, "DM " + std::string(text) + " needs " +
                                         std::to_string(delay + ds) +
                                         " spectra (its dispersion delay plus one output sample) "
                                         "but the input has only " + std::to_string(nspectra));
      }
      series.push_back(fused_series(fused_input_root(plan.input), dm, info.tsamp_s * double(ds),
                                    nsamples, std::min((nspectra - delay) / ds, nsamples)));
    }
  }
  return series;
}

std::vector<std::vector<SinglePulseEvent>> search_fused_on_gpu(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, int gpu_index, FusedSearchTiming* timing) {
#ifdef RAPT_WITH_CUDA
  FusedSearchTiming own;
  return run_fused_search_cuda(plan, series, settings, gpu_index, timing ? *timing : own);
#else
  (void)plan, (void)series, (void)settings, (void)gpu_index, (void)timing;
  throw UsageError("the GPU fused search needs a build with CUDA");
#endif
}

std::vector<std::vector<SinglePulseEvent>> search_fused_on_gpus(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, const std::vector<int>& gpus,
    std::vector<FusedSearchTiming>* timing) {
  const size_t parts = gpus.size();
  std::vector<std::vector<std::vector<SinglePulseEvent>>> shares(parts);
  std::vector<FusedSearchTiming> times(parts);
  parallel_for(int(parts), parts, [&](size_t d, int) {
    const ItemRange share = part_items(series.size(), {int(d) + 1, int(parts)});
    if (share.size() == 0) return;
    FusedDedispPlan mine = plan;
    mine.first_trial = plan.first_trial + share.begin;
    mine.trial_count = share.size();
    // Shares on one GPU share its memory.
    mine.gpu_memory_share /= double(std::count(gpus.begin(), gpus.end(), gpus[d]));
    const std::vector<SeriesInput> described(series.begin() + int64_t(share.begin),
                                             series.begin() + int64_t(share.end));
    shares[d] = search_fused_on_gpu(mine, described, settings, gpus[d], &times[d]);
  });
  std::vector<std::vector<SinglePulseEvent>> events;
  for (auto& share : shares)
    for (auto& e : share) events.push_back(std::move(e));
  if (timing) *timing = std::move(times);
  return events;
}

std::vector<SeriesInput> dedisperse_in_memory(const FusedDedispPlan& plan) {
  DedispRunConfig config;
  config.groups = fused_groups(plan);
  config.device = plan.device;
  config.cpu_threads = plan.threads;
  config.length = OutputLength::kGoodN;  // as dedisp writes .dat files
  FusedInput input(plan.input, plan.cleaning);
  config.zapped = input.zapped();
  MemorySeriesSink sink(fused_input_root(plan.input));
  run_dedispersion(input.source(), input.raw(), config, sink);
  input.report_warnings(plan.reader_warning);
  return sink.take();
}

}  // namespace rapt
