// Two-stage subband dedispersion. Stage 1 engines (one per subband, all sub-DMs) see the
// subband's channels; stage 2 engines (one per DM group) see the subband series of their
// group's sub-DM, each subband at the frequency of its top channel, which is the frequency
// stage 1 referred its delays to.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "cli/errors.hpp"
#include "dedisp/dedisp_pass.hpp"

namespace rapt {
namespace {

struct DmGroup {
  double sub_dm = 0.0;
  std::vector<size_t> trials;  // indices into the plan's DMs
};

// Subband s of `plan` as a plan of its own (delays relative to its top channel).
DedispPlan subband_plan(const DedispPlan& plan, int nsub, int s) {
  const int chans_per_sub = plan.nchans / nsub;
  DedispPlan p = plan;
  p.nchans = chans_per_sub;
  p.fch1_mhz = plan.fch1_mhz + s * chans_per_sub * plan.foff_mhz;
  p.downsamp = 1;
  if (!plan.zapped.empty())
    p.zapped.assign(plan.zapped.begin() + s * chans_per_sub,
                    plan.zapped.begin() + (s + 1) * chans_per_sub);
  return p;
}

// DM half-width of a group: half_width * k (f_lo^-2 - f_hi^-2) over the subband with the
// largest internal sweep stays below tolerance output samples.
double group_half_width(const DedispPlan& plan, int nsub, double tolerance) {
  const int lowest_channel = plan.foff_mhz < 0 ? plan.nchans / nsub - 1 : 0;
  double widest_sweep = 0.0;  // seconds per unit DM across one subband
  for (int s = 0; s < nsub; ++s)
    widest_sweep = std::max(widest_sweep, subband_plan(plan, nsub, s).delay_s(lowest_channel, 1.0));
  if (widest_sweep <= 0.0) return INFINITY;
  return tolerance * plan.downsamp * plan.tsamp_s / widest_sweep;
}

// Greedy grouping in increasing DM: a group spans at most 2 * half_width in DM.
std::vector<DmGroup> group_dms(const std::vector<double>& dms, double half_width) {
  std::vector<size_t> order(dms.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return dms[a] < dms[b]; });
  std::vector<DmGroup> groups;
  for (size_t i = 0; i < order.size();) {
    DmGroup group;
    const double first = dms[order[i]];
    double last = first;
    while (i < order.size() && dms[order[i]] <= first + 2.0 * half_width) {
      last = dms[order[i]];
      group.trials.push_back(order[i++]);
    }
    group.sub_dm = 0.5 * (first + last);
    groups.push_back(std::move(group));
  }
  return groups;
}

class SubbandPass final : public DedispPass {
 public:
  SubbandPass(const DedispPlan& plan, int nsub, double tolerance, const std::string& device,
              int cpu_threads)
      : plan_(plan), nsub_(nsub), chans_per_sub_(plan.nchans / nsub) {
    plan_.validate();
    groups_ = group_dms(plan_.dms, group_half_width(plan_, nsub_, tolerance));
    std::vector<double> sub_dms;
    for (const DmGroup& g : groups_) sub_dms.push_back(g.sub_dm);
    make_stage1(sub_dms, device, cpu_threads);
    make_stage2(device, cpu_threads);
    compute_trial_delays();
  }

  size_t overlap() const override { return size_t(max_delay1_ + max_delay2_); }
  int downsamp() const override { return plan_.downsamp; }
  size_t ntrials() const override { return plan_.dms.size(); }
  bool accepts_packed() const override { return false; }
  int32_t trial_delay(size_t i) const override { return trial_delays_[i]; }
  std::string engine_name() const override {
    return stage2_.front()->name() + ", two-stage subbands";
  }
  std::vector<std::string> notes() const override;

  void process(const SpectraBlock& block, size_t span, float* out, size_t out_stride) override;

 private:
  bool subband_used(int s) const {
    for (int c = 0; c < chans_per_sub_; ++c)
      if (plan_.zapped.empty() || !plan_.zapped[s * chans_per_sub_ + c]) return true;
    return false;
  }

  void make_stage1(const std::vector<double>& sub_dms, const std::string& device, int threads) {
    for (int s = 0; s < nsub_; ++s) {
      if (!subband_used(s)) {
        stage1_.push_back(nullptr);
        continue;
      }
      DedispPlan p = subband_plan(plan_, nsub_, s);
      p.dms = sub_dms;
      stage1_.push_back(make_engine_for(p, device, threads));
      max_delay1_ = std::max(max_delay1_, stage1_.back()->max_delay());
    }
  }

  void make_stage2(const std::string& device, int threads) {
    DedispPlan p = plan_;
    p.nchans = nsub_;
    p.foff_mhz = plan_.foff_mhz * chans_per_sub_;
    p.fch1_mhz = plan_.foff_mhz < 0 ? plan_.fch1_mhz
                                    : plan_.fch1_mhz + (chans_per_sub_ - 1) * plan_.foff_mhz;
    p.zapped.assign(nsub_, false);
    for (int s = 0; s < nsub_; ++s) p.zapped[s] = !subband_used(s);
    for (const DmGroup& g : groups_) {
      p.dms.clear();
      for (size_t i : g.trials) p.dms.push_back(plan_.dms[i]);
      stage2_.push_back(make_engine_for(p, device, threads));
      max_delay2_ = std::max(max_delay2_, stage2_.back()->max_delay());
    }
  }

  void compute_trial_delays() {
    trial_delays_.assign(plan_.dms.size(), 0);
    for (size_t g = 0; g < groups_.size(); ++g) {
      const DedispPlan& p2 = stage2_[g]->plan();
      for (size_t k = 0; k < groups_[g].trials.size(); ++k)
        for (int s = 0; s < nsub_; ++s) {
          if (!stage1_[s]) continue;
          const DedispPlan& p1 = stage1_[s]->plan();
          int32_t within = 0;
          for (int c = 0; c < chans_per_sub_; ++c)
            if (p1.zapped.empty() || !p1.zapped[c])
              within = std::max(within, p1.delay_samples(c, groups_[g].sub_dm));
          const size_t i = groups_[g].trials[k];
          trial_delays_[i] = std::max(trial_delays_[i], within + p2.delay_samples(s, p2.dms[k]));
        }
    }
  }

  DedispPlan plan_;
  int nsub_;
  int chans_per_sub_;
  std::vector<DmGroup> groups_;
  std::vector<std::unique_ptr<DedispEngine>> stage1_;  // per subband; null if fully zapped
  std::vector<std::unique_ptr<DedispEngine>> stage2_;  // per group
  int32_t max_delay1_ = 0, max_delay2_ = 0;
  std::vector<int32_t> trial_delays_;
  std::vector<float> subband_in_;    // one subband's channels, time-major
  std::vector<float> stage1_out_;    // [subband][group][t]
  std::vector<float> stage2_in_;     // one group's subbands, time-major
  std::vector<float> stage2_out_;    // one group's trials
};

void SubbandPass::process(const SpectraBlock& block, size_t span, float* out, size_t out_stride) {
  const size_t len1 = span + size_t(max_delay2_);  // stage-1 samples stage 2 needs
  const size_t ngroups = groups_.size();
  stage1_out_.assign(size_t(nsub_) * ngroups * len1, 0.0f);
  const float* in = static_cast<const float*>(block.data);
  for (int s = 0; s < nsub_; ++s) {
    if (!stage1_[s]) continue;
    const size_t n = len1 + size_t(stage1_[s]->max_delay());
    subband_in_.resize(n * chans_per_sub_);
    for (size_t t = 0; t < n; ++t)
      std::copy_n(in + t * plan_.nchans + s * chans_per_sub_, chans_per_sub_,
                  subband_in_.data() + t * chans_per_sub_);
    stage1_[s]->execute({subband_in_.data(), 32, n}, stage1_out_.data() + s * ngroups * len1,
                        len1);
  }
  const size_t per_trial = span / plan_.downsamp;
  for (size_t g = 0; g < ngroups; ++g) {
    const size_t n = span + size_t(stage2_[g]->max_delay());
    stage2_in_.resize(n * nsub_);
    for (int s = 0; s < nsub_; ++s) {
      const float* series = stage1_out_.data() + (s * ngroups + g) * len1;
      for (size_t t = 0; t < n; ++t) stage2_in_[t * nsub_ + s] = series[t];
    }
    stage2_out_.resize(groups_[g].trials.size() * per_trial);
    stage2_[g]->execute({stage2_in_.data(), 32, n}, stage2_out_.data(), per_trial);
    for (size_t k = 0; k < groups_[g].trials.size(); ++k)
      std::copy_n(stage2_out_.data() + k * per_trial, per_trial,
                  out + groups_[g].trials[k] * out_stride);
  }
}

std::vector<std::string> SubbandPass::notes() const {
  char line[160];
  std::snprintf(line, sizeof line,
                "%d subbands of %d channels; %zu DM group%s (sub-DMs %.3f to %.3f); stage-1 "
                "delay %d, stage-2 delay %d samples",
                nsub_, chans_per_sub_, groups_.size(), groups_.size() == 1 ? "" : "s",
                groups_.front().sub_dm, groups_.back().sub_dm, max_delay1_, max_delay2_);
  return {line};
}

}  // namespace

std::vector<std::vector<size_t>> subband_dm_groups(const DedispPlan& plan, int nsub,
                                                  double tolerance) {
  std::vector<std::vector<size_t>> groups;
  if (nsub < 1 || plan.nchans % nsub != 0 || !(tolerance > 0.0)) return groups;
  for (DmGroup& g : group_dms(plan.dms, group_half_width(plan, nsub, tolerance)))
    groups.push_back(std::move(g.trials));
  return groups;
}

std::unique_ptr<DedispPass> make_subband_pass(const DedispPlan& plan, int nsub, double tolerance,
                                              const std::string& device, int cpu_threads) {
  if (nsub < 1 || plan.nchans % nsub != 0)
    throw UsageError("--nsub " + std::to_string(nsub) + " does not divide the " +
                     std::to_string(plan.nchans) + " channels");
  if (!(tolerance > 0.0)) throw UsageError("subband DM tolerance must be > 0");
  return std::make_unique<SubbandPass>(plan, nsub, tolerance, device, cpu_threads);
}

}  // namespace rapt
