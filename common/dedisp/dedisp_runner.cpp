#include "dedisp/dedisp_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <numeric>

#include "cli/errors.hpp"
#include "cli/stopwatch.hpp"
#include "dedisp/dedisp_pass.hpp"
#include "dedisp/parallel_for.hpp"
#include "dedisp/spectra_input.hpp"
#include "gpu_device.hpp"

namespace rapt {
namespace {

constexpr size_t kDefaultGulp = 16384;

size_t lcm(size_t a, size_t b) { return a / std::gcd(a, b) * b; }

DedispPlan group_plan(const ObservationInfo& info, const DedispRunConfig& config,
                      const DmTrialGroup& group) {
  DedispPlan plan;
  plan.nchans = info.nchans;
  plan.fch1_mhz = info.fch1_mhz;
  plan.foff_mhz = info.foff_mhz;
  plan.tsamp_s = info.tsamp_s;
  plan.dms = group.dms;
  plan.dm_const = config.dm_const;
  plan.downsamp = group.downsamp;
  plan.zapped = config.zapped;
  return plan;
}

// The trials of `group` that are computed together (indices into group.dms): each trial on its
// own, or one subband DM group each when subbands are formed, since a subband pass over whole
// groups gives each trial exactly what the pass over all of them gives.
std::vector<std::vector<size_t>> trial_units(const ObservationInfo& info,
                                             const DedispRunConfig& config,
                                             const DmTrialGroup& group) {
  if (config.nsub > 1) {
    std::vector<std::vector<size_t>> units =
        subband_dm_groups(group_plan(info, config, group), config.nsub, config.subband_tolerance);
    if (!units.empty()) return units;  // else make_subband_pass names the problem
  }
  std::vector<std::vector<size_t>> units(group.dms.size());
  for (size_t i = 0; i < units.size(); ++i) units[i] = {i};
  return units;
}

// The trials of units [begin, end), in the group's order.
std::vector<size_t> trials_of_units(const std::vector<std::vector<size_t>>& units, size_t begin,
                                    size_t end) {
  std::vector<size_t> trials;
  for (size_t u = begin; u < end; ++u) trials.insert(trials.end(), units[u].begin(), units[u].end());
  std::sort(trials.begin(), trials.end());
  return trials;
}

// The pieces of one run: passes, buffers and per-trial bookkeeping.
class Runner {
 public:
  Runner(SpectraInput& input, const DedispRunConfig& config, DedispSink& sink)
      : input_(input), config_(config), sink_(sink), info_(input.info()) {
    if (config.groups.empty()) throw UsageError("no DM trials: the DM list is empty");
    if (config.length == OutputLength::kNumout && config.numout <= 0)
      throw UsageError("--numout must be > 0 (got " + std::to_string(config.numout) + ")");
    const DeviceSet devices = choose_devices(config.device);
    if (devices.parts() == 1) {
      // One worker: on the GPU the set resolved to (also where a list such as "gpu:all" names
      // only one), else the option as given; as accelgpu and fold --brute-force do.
      worker_devices_ = {devices.use_gpu ? gpu_name(devices.gpus[0]) : config.device};
    } else {
      for (int gpu : devices.gpus) worker_devices_.push_back(gpu_name(gpu));
    }
    outs_.resize(worker_devices_.size());
    for (const DmTrialGroup& group : config.groups) add_group(group);
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
  void add_group(const DmTrialGroup& group);
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
  std::vector<std::string> worker_devices_;  // one per part of the work (several GPUs: one each)
  std::vector<std::unique_ptr<DedispPass>> passes_;
  std::vector<std::vector<size_t>> pass_trials_;  // per pass: the run's index of each trial
  std::vector<std::vector<size_t>> rounds_;  // per DM group: its passes, one per worker, run at once
  std::vector<float> averaged_;  // a downsampled trial's samples on their way to the sink
  std::vector<DedispTrial> trials_;
  std::vector<int32_t> trial_delays_;
  std::vector<int64_t> computed_;       // per trial: samples taken from the engines
  std::vector<int64_t> written_;        // per trial: samples handed to the sink
  std::vector<std::vector<float>> outs_;  // per worker: its pass's output
  size_t overlap_ = 0;
  size_t gulp_ = 0;
  int64_t nspectra_ = 0;                // known at the end of the input
  DedispRunReport report_;              // its timings add up as the run goes
};

// One pass per worker for the group, each over its contiguous share of the group's units.
void Runner::add_group(const DmTrialGroup& group) {
  if (group.dms.empty()) throw UsageError("no DM trials: the DM list is empty");
  const size_t first = trials_.size();
  for (double dm : group.dms) trials_.push_back({dm, group.downsamp, info_.tsamp_s * group.downsamp});
  trial_delays_.resize(trials_.size());
  const std::vector<std::vector<size_t>> units = trial_units(info_, config_, group);
  const int workers = int(worker_devices_.size());
  rounds_.emplace_back();
  for (int w = 0; w < workers; ++w) {
    const ItemRange share = part_items(units.size(), {w + 1, workers});
    const std::vector<size_t> mine = trials_of_units(units, share.begin, share.end);
    if (mine.empty()) continue;
    DmTrialGroup subset{{}, group.downsamp};
    for (size_t i : mine) subset.dms.push_back(group.dms[i]);
    const DedispPlan plan = group_plan(info_, config_, subset);
    const std::string& device = worker_devices_[size_t(w)];
    if (config_.nsub > 1)
      passes_.push_back(make_subband_pass(plan, config_.nsub, config_.subband_tolerance, device,
                                          config_.cpu_threads));
    else
      passes_.push_back(make_direct_pass(plan, device, config_.cpu_threads));
    pass_trials_.emplace_back();
    for (size_t k = 0; k < mine.size(); ++k) {
      pass_trials_.back().push_back(first + mine[k]);
      trial_delays_[first + mine[k]] = passes_.back()->trial_delay(k);
    }
    rounds_.back().push_back(passes_.size() - 1);
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
// the real data (only at the end) and any beyond a requested length. The passes sum `downsamp`
// spectra a sample; the series are their mean, as prepsubband's (which averages them).
void Runner::emit(size_t trial, const float* samples, size_t count, bool at_end) {
  const int ds = trials_[trial].downsamp;
  int64_t wanted = int64_t(count);
  if (at_end) wanted = std::min(wanted, (nspectra_ + ds - 1) / ds - computed_[trial]);
  wanted = std::max<int64_t>(wanted, 0);
  computed_[trial] += wanted;
  if (config_.length == OutputLength::kNumout)
    wanted = std::min(wanted, config_.numout - written_[trial]);
  if (wanted <= 0) return;
  if (ds > 1) {
    averaged_.resize(size_t(wanted));
    for (size_t k = 0; k < averaged_.size(); ++k) averaged_[k] = samples[k] / float(ds);
    samples = averaged_.data();
  }
  sink_.append(trial, samples, size_t(wanted));
  written_[trial] += wanted;
}

// Each DM group's passes run at once (one per worker, several GPUs at a time); their series
// then go to the sink in turn.
void Runner::process(const SpectraBlock& block, bool at_end) {
  for (const std::vector<size_t>& round : rounds_) {
    const Stopwatch compute;
    parallel_for(int(round.size()), round.size(), [&](size_t j, int) {
      DedispPass& pass = *passes_[round[j]];
      outs_[j].resize(gulp_ / pass.downsamp() * pass.ntrials());
      pass.process(block, gulp_, outs_[j].data(), gulp_ / pass.downsamp());
    });
    report_.compute_s += compute.seconds();
    const Stopwatch output;
    for (size_t j = 0; j < round.size(); ++j) {
      const size_t per_trial = gulp_ / passes_[round[j]]->downsamp();
      const std::vector<size_t>& trials = pass_trials_[round[j]];
      for (size_t i = 0; i < trials.size(); ++i)
        emit(trials[i], outs_[j].data() + i * per_trial, per_trial, at_end);
    }
    report_.output_s += output.seconds();
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
  buffer.defer_sums();  // summed on a thread of their own while the block is dedispersed
  const auto fill = [&] {
    const Stopwatch read;
    const size_t filled = buffer.fill();
    report_.read_s += read.seconds();
    return filled;
  };
  int64_t done = 0;
  while (fill() == capacity) {
    std::future<void> sums = std::async(std::launch::async, [&] { buffer.add_pending_sums(); });
    process(buffer.block(), false);
    sums.get();
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
  const Stopwatch finish;
  finish_trials(buffer.channel_means());
  report_.output_s += finish.seconds();

  report_.spectra_read = nspectra_;
  report_.ntrials = trials_.size();
  report_.packed_input = packed;
  for (const auto& pass : passes_) {
    if (report_.engine.find(pass->engine_name()) == std::string::npos)
      report_.engine += (report_.engine.empty() ? "" : "; ") + pass->engine_name();
    for (const std::string& note : pass->notes()) report_.notes.push_back(note);
  }
  return report_;
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

// Pads every series to its length with its expected mean: the sum of the means of the channels
// it uses.
void Runner::finish_trials(const std::vector<double>& channel_means) {
  double used_sum = 0.0;
  for (int c = 0; c < info_.nchans; ++c)
    if (config_.zapped.empty() || !config_.zapped[c]) used_sum += channel_means[c];
  std::vector<TrialSummary> summaries(trials_.size());
  std::vector<float> padding;
  for (size_t i = 0; i < trials_.size(); ++i) {
    TrialSummary& summary = summaries[i];
    const int ds = trials_[i].downsamp;
    summary.pad_value = float(used_sum);
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

std::vector<DmTrialGroup> part_of_trials(const DedispRunConfig& config,
                                         const ObservationInfo& info, const WorkPart& part) {
  std::vector<std::vector<std::vector<size_t>>> units;  // per group
  size_t total = 0;
  for (const DmTrialGroup& group : config.groups) {
    units.push_back(trial_units(info, config, group));
    total += units.back().size();
  }
  const ItemRange share = part_items(total, part);
  std::vector<DmTrialGroup> groups;
  size_t first = 0;  // the run's index of the group's first unit
  for (size_t g = 0; g < config.groups.size(); ++g) {
    const size_t begin = std::clamp(share.begin, first, first + units[g].size()) - first;
    const size_t end = std::clamp(share.end, first, first + units[g].size()) - first;
    first += units[g].size();
    if (begin == end) continue;
    DmTrialGroup subset{{}, config.groups[g].downsamp};
    for (size_t i : trials_of_units(units[g], begin, end))
      subset.dms.push_back(config.groups[g].dms[i]);
    groups.push_back(std::move(subset));
  }
  return groups;
}

DedispRunReport run_dedispersion(SpectraSource& source, SigprocReader* raw,
                                 const DedispRunConfig& config, DedispSink& sink) {
  SpectraInput input(source, raw);
  const Stopwatch setup;
  Runner runner(input, config, sink);
  const double setup_s = setup.seconds();
  DedispRunReport report = runner.run();
  report.setup_s = setup_s;
  return report;
}

}  // namespace rapt
