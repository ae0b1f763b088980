#include <algorithm>

#include "dedisp/dedisp_pass.hpp"

namespace rapt {
namespace {

class DirectPass final : public DedispPass {
 public:
  explicit DirectPass(std::unique_ptr<DedispEngine> engine) : engine_(std::move(engine)) {
    const DedispPlan& plan = engine_->plan();
    int lowest_used = -1;  // the used channel with the largest delay: the lowest frequency
    for (int c = 0; c < plan.nchans; ++c) {
      if (!plan.zapped.empty() && plan.zapped[c]) continue;
      if (lowest_used < 0 || plan.delay_s(c, 1.0) > plan.delay_s(lowest_used, 1.0)) lowest_used = c;
    }
    for (double dm : plan.dms)
      trial_delays_.push_back(lowest_used < 0 ? 0 : plan.delay_samples(lowest_used, dm));
  }

  size_t overlap() const override { return size_t(engine_->max_delay()); }
  int downsamp() const override { return engine_->plan().downsamp; }
  size_t ntrials() const override { return engine_->plan().dms.size(); }
  bool accepts_packed() const override { return true; }
  int32_t trial_delay(size_t i) const override { return trial_delays_[i]; }
  std::string engine_name() const override { return engine_->name(); }

  void process(const SpectraBlock& block, size_t span, float* out, size_t out_stride) override {
    engine_->execute({block.data, block.nbits, span + overlap()}, out, out_stride);
  }

 private:
  std::unique_ptr<DedispEngine> engine_;
  std::vector<int32_t> trial_delays_;
};

}  // namespace

std::unique_ptr<DedispEngine> make_engine_for(const DedispPlan& plan, const std::string& device,
                                              int cpu_threads) {
  if (device == "cpu" && cpu_threads > 0) return make_cpu_dedisp_engine(plan, cpu_threads);
  return make_dedisp_engine(plan, device);
}

std::unique_ptr<DedispPass> make_direct_pass(const DedispPlan& plan, const std::string& device,
                                             int cpu_threads) {
  return std::make_unique<DirectPass>(make_engine_for(plan, device, cpu_threads));
}

}  // namespace rapt
