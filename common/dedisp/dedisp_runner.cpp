#include "dedisp/dedisp_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "cli/errors.hpp"
#include "dedisp/dedisp_pass.hpp"
#include "dedisp/spectra_input.hpp"

namespace rapt {
namespace {

constexpr size_t kDefaultGulp = 16384;

size_t lcm(size_t a, size_t b) { return a / std::gcd(a, b) * b; }

// The pieces of one run: passes, buffers and per-trial bookkeeping.
class Runner {
 public:
  Runner(SpectraInput& input, const DedispRunConfig& config, DedispSink& sink)
      : input_(input), config_(config), sink_(sink), info_(input.info()) {
    if (config.groups.empty()) throw UsageError("no DM trials: the DM list is empty");
    if (config.length == OutputLength::kNumout && config.numout <= 0)
      throw UsageError("--numout must be > 0 (got " + std::to_string(config.numout) + ")");
    for (const DmTrialGroup& group : config.groups) add_pass(group);
    size_t step = 1;
    for (const auto& pass : passes_) {
      overlap_ = std::max(overlap_, pass->overlap());
      step = lcm(step, size_t(pass->downsamp()));
    }
    gulp_ = config.gulp > 0 ? config.gulp : std::max(kDefaultGulp, overlap_);
    // No gulp longer than the whole input, when its length is known.
    if (info_.nspectra > 0) gulp_ = std::min(gulp_, size_t(info_.nspectra));
    gulp_ = (gulp_ + step - 1) / step * step;
    check_delays_against_known_length();
  }

  DedispRunReport run();

 private:
  void add_pass(const DmTrialGroup& group);
  void check_delays_against_known_length() const;
  void check_delays(int64_t nspectra) const;
  void process(const SpectraBlock& block, bool at_end);
  void emit(size_t trial, const float* samples, size_t count, bool at_end);
  void finish_trials(const std::vector<double>& channel_means);
  int64_t target_length(size_t trial) const;

  SpectraInput& input_;
  const DedispRunConfig& config_;
  DedispSink& sink_;
  ObservationInfo info_;
  std::vector<std::unique_ptr<DedispPass>> passes_;
  std::vector<size_t> first_trial_;     // per pass: index of its first trial
  std::vector<DedispTrial> trials_;
  std::vector<int32_t> trial_delays_;
  std::vector<int64_t> computed_;       // per trial: samples taken from the engines
  std::vector<int64_t> written_;        // per trial: samples handed to the sink
  std::vector<float> pass_out_;
  size_t overlap_ = 0;
  size_t gulp_ = 0;
  int64_t nspectra_ = 0;                // known at the end of the input
};

void Runner::add_pass(const DmTrialGroup& group) {
  DedispPlan plan;
  plan.nchans = info_.nchans;
  plan.fch1_mhz = info_.fch1_mhz;
  plan.foff_mhz = info_.foff_mhz;
  plan.tsamp_s = info_.tsamp_s;
  plan.dms = group.dms;
  plan.dm_const = config_.dm_const;
  plan.downsamp = group.downsamp;
  plan.zapped = config_.zapped;
  first_trial_.push_back(trials_.size());
  if (config_.nsub > 1)
    passes_.push_back(make_subband_pass(plan, config_.nsub, config_.subband_tolerance,
                                        config_.device, config_.cpu_threads));
  else
    passes_.push_back(make_direct_pass(plan, config_.device, config_.cpu_threads));
  for (size_t i = 0; i < group.dms.size(); ++i) {
    trials_.push_back({group.dms[i], group.downsamp, info_.tsamp_s * group.downsamp});
    trial_delays_.push_back(passes_.back()->trial_delay(i));
  }
}

void Runner::check_delays(int64_t nspectra) const {
  for (size_t i = 0; i < trials_.size(); ++i)
    if (nspectra - trial_delays_[i] < trials_[i].downsamp) {
      char dm[32];
      std::snprintf(dm, sizeof dm, "%g", trials_[i].dm);
      throw file_error(info_.path, "DM " + std::string(dm) + " needs " +
                                       std::to_string(trial_delays_[i] + trials_[i].downsamp) +
                                       " spectra (its dispersion delay plus one output sample) "
                                       "but the input has only " + std::to_string(nspectra));
    }
}

void Runner::check_delays_against_known_length() const {
  if (info_.nspectra >= 0) check_delays(info_.nspectra);
}

// Hands `count` computed samples of a trial to the sink, minus any computed past the end of
// the real data (only at the end) and any beyond a requested length.
void Runner::emit(size_t trial, const float* samples, size_t count, bool at_end) {
  const int ds = trials_[trial].downsamp;
  int64_t wanted = int64_t(count);
  if (at_end) wanted = std::min(wanted, (nspectra_ + ds - 1) / ds - computed_[trial]);
  wanted = std::max<int64_t>(wanted, 0);
  computed_[trial] += wanted;
  if (config_.length == OutputLength::kNumout)
    wanted = std::min(wanted, config_.numout - written_[trial]);
  if (wanted <= 0) return;
  sink_.append(trial, samples, size_t(wanted));
  written_[trial] += wanted;
}

void Runner::process(const SpectraBlock& block, bool at_end) {
  for (size_t p = 0; p < passes_.size(); ++p) {
    DedispPass& pass = *passes_[p];
    const size_t per_trial = gulp_ / pass.downsamp();
    pass_out_.resize(per_trial * pass.ntrials());
    pass.process(block, gulp_, pass_out_.data(), per_trial);
    for (size_t i = 0; i < pass.ntrials(); ++i)
      emit(first_trial_[p] + i, pass_out_.data() + i * per_trial, per_trial, at_end);
  }
}

DedispRunReport Runner::run() {
  computed_.assign(trials_.size(), 0);
  written_.assign(trials_.size(), 0);
  bool packed = input_.nbits() != 32;
  for (const auto& pass : passes_) packed = packed && pass->accepts_packed();
  if (!packed) input_.use_float();
  sink_.begin(info_, trials_);

  const size_t capacity = gulp_ + overlap_;
  SpectraBuffer buffer(input_, capacity);
  int64_t done = 0;
  while (buffer.fill() == capacity) {
    process(buffer.block(), false);
    buffer.shift(gulp_);
    done += int64_t(gulp_);
    if (config_.on_progress) config_.on_progress(done);
  }
  nspectra_ = buffer.spectra_read();
  if (nspectra_ == 0) throw file_error(info_.path, "no spectra to dedisperse");
  check_delays(nspectra_);
  // The end: pad with channel means and step on until every real sample has been an output.
  buffer.switch_to_float();
  for (int64_t remaining = int64_t(buffer.filled()); remaining > 0; remaining -= gulp_) {
    buffer.pad_with_means();
    process(buffer.block(), true);
    buffer.shift(gulp_);
    done = std::min(done + int64_t(gulp_), nspectra_);
    if (config_.on_progress) config_.on_progress(done);
  }
  finish_trials(buffer.channel_means());

  DedispRunReport report;
  report.spectra_read = nspectra_;
  report.ntrials = trials_.size();
  report.packed_input = packed;
  for (const auto& pass : passes_) {
    if (report.engine.find(pass->engine_name()) == std::string::npos)
      report.engine += (report.engine.empty() ? "" : "; ") + pass->engine_name();
    for (const std::string& note : pass->notes()) report.notes.push_back(note);
  }
  return report;
}

int64_t Runner::target_length(size_t trial) const {
  const int64_t computed = (nspectra_ + trials_[trial].downsamp - 1) / trials_[trial].downsamp;
  switch (config_.length) {
    case OutputLength::kComputed: return computed;
    case OutputLength::kGoodN: return good_series_length(computed);
    case OutputLength::kNumout: return config_.numout;
  }
  return computed;
}

// Pads every series to its length with its expected mean: downsamp x the sum of the means of
// the channels it uses.
void Runner::finish_trials(const std::vector<double>& channel_means) {
  double used_sum = 0.0;
  for (int c = 0; c < info_.nchans; ++c)
    if (config_.zapped.empty() || !config_.zapped[c]) used_sum += channel_means[c];
  std::vector<TrialSummary> summaries(trials_.size());
  std::vector<float> padding;
  for (size_t i = 0; i < trials_.size(); ++i) {
    TrialSummary& summary = summaries[i];
    const int ds = trials_[i].downsamp;
    summary.pad_value = float(used_sum * ds);
    summary.nsamples = target_length(i);
    summary.real_samples = std::min((nspectra_ - trial_delays_[i]) / ds, summary.nsamples);
    while (written_[i] < summary.nsamples) {
      const int64_t n = std::min<int64_t>(summary.nsamples - written_[i], 65536);
      padding.assign(size_t(n), summary.pad_value);
      sink_.append(i, padding.data(), size_t(n));
      written_[i] += n;
    }
  }
  sink_.finish(summaries);
}

}  // namespace

int64_t good_series_length(int64_t n) {
  for (int64_t candidate = std::max<int64_t>(n, 2);; ++candidate) {
    if (candidate % 2 != 0) continue;
    int64_t rest = candidate;
    for (int64_t prime : {2, 3, 5, 7})
      while (rest % prime == 0) rest /= prime;
    if (rest == 1) return candidate;
  }
}

std::vector<DedispTrial> dedisp_trials(const DedispRunConfig& config, double tsamp_s) {
  std::vector<DedispTrial> trials;
  for (const DmTrialGroup& group : config.groups)
    for (double dm : group.dms) trials.push_back({dm, group.downsamp, tsamp_s * group.downsamp});
  return trials;
}

DedispRunReport run_dedispersion(SpectraSource& source, SigprocReader* raw,
                                 const DedispRunConfig& config, DedispSink& sink) {
  SpectraInput input(source, raw);
  Runner runner(input, config, sink);
  return runner.run();
}

}  // namespace rapt
