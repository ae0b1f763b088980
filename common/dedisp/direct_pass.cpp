#include <algorithm>

#include "dedisp/dedisp_pass.hpp"

namespace rapt {
namespace {

class DirectPass final : public DedispPass {
 public:
  explicit DirectPass(std::unique_ptr<DedispEngine> engine) : engine_(std::move(engine)) {
    for (double dm : engine_->plan().dms)
      trial_delays_.push_back(engine_->plan().trial_delay_samples(dm));
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
