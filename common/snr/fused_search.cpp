#include "snr/fused_search.hpp"

#include <memory>

#include "cli/errors.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "io/presto_inf.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"

namespace rapt {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "dir/obs.fil" -> "dir/obs": the root dedisp -o would be given to write beside the input.
std::string input_root(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path;
  return path.substr(0, dot);
}

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
      SeriesInput s;
      s.root = dm_trial_root(root_, trials_[t].dm);
      s.path = s.root + ".dat";
      s.dm = trials_[t].dm;
      s.dt_s = trials_[t].tsamp_s;
      s.total_samples = summaries[t].nsamples;
      InfFile inf;
      inf.n = s.total_samples;
      if (summaries[t].real_samples < summaries[t].nsamples)
        inf.onoff = {{0, summaries[t].real_samples - 1},
                     {summaries[t].nsamples - 1, summaries[t].nsamples - 1}};
      apply_onoff(inf, s);
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

std::vector<SeriesInput> dedisperse_in_memory(const FusedDedispPlan& plan) {
  if (plan.numdms < 1) throw UsageError("a filterbank input needs --numdms (and --lodm, --dmstep)");
  if (plan.lodm < 0.0) throw UsageError("--lodm must be >= 0");
  if (!(plan.dmstep > 0.0)) throw UsageError("--dmstep must be > 0");
  DedispRunConfig config;
  DmTrialGroup group;
  for (int i = 0; i < plan.numdms; ++i) group.dms.push_back(plan.lodm + i * plan.dmstep);
  config.groups = {group};
  config.device = plan.device;
  config.cpu_threads = plan.threads;
  config.length = OutputLength::kGoodN;  // as dedisp writes .dat files
  std::unique_ptr<SpectraSource> source = open_spectra_source(plan.input);
  auto* raw = dynamic_cast<SigprocReader*>(source.get());
  MemorySeriesSink sink(input_root(plan.input));
  run_dedispersion(*source, raw, config, sink);
  return sink.take();
}

}  // namespace rapt
