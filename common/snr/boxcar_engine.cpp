#include "snr/boxcar_engine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#ifdef RAPT_WITH_CUDA
#include "snr/snr_gpu_factory.hpp"
#endif

namespace rapt {

std::vector<BoxcarHit> BoxcarEngine::find_hits(const std::vector<float>& series,
                                               int64_t num_series, int64_t length) {
  if (num_series < 0 || length < 0 || int64_t(series.size()) != num_series * length)
    throw std::invalid_argument("find_hits: series size is not num_series x length");
  if (num_series == 0 || length == 0) return {};
  return compute_hits(series.data(), num_series, length);
}

void sort_boxcar_hits(std::vector<BoxcarHit>& hits) {
  std::sort(hits.begin(), hits.end(), [](const BoxcarHit& a, const BoxcarHit& b) {
    return std::tie(a.series, a.width_index, a.sample) <
           std::tie(b.series, b.width_index, b.sample);
  });
}

void boxcar_hits_of_series(const float* x, int64_t length, const std::vector<int>& widths,
                           float threshold, int32_t series, std::vector<double>& prefix,
                           std::vector<BoxcarHit>& out) {
  prefix.resize(size_t(length) + 1);
  prefix[0] = 0.0;
  for (int64_t i = 0; i < length; ++i) prefix[i + 1] = prefix[i] + double(x[i]);
  for (size_t wi = 0; wi < widths.size(); ++wi) {
    const int64_t w = widths[wi];
    if (w == 1) {
      for (int64_t i = 0; i < length; ++i)
        if (x[i] > threshold) out.push_back({series, int32_t(wi), i, x[i]});
      continue;
    }
    const double scale = 1.0 / std::sqrt(double(w));
    for (int64_t i = 0; i < length; ++i) {
      const int64_t lo = std::max<int64_t>(i - w / 2, 0);
      const int64_t hi = std::min<int64_t>(i - w / 2 + w, length);
      const float value = float((prefix[hi] - prefix[lo]) * scale);
      if (value > threshold) out.push_back({series, int32_t(wi), i, value});
    }
  }
}

namespace {

class CpuBoxcarEngine final : public BoxcarEngine {
 public:
  CpuBoxcarEngine(std::vector<int> widths, float threshold, int threads)
      : BoxcarEngine(std::move(widths), threshold), threads_(std::max(threads, 1)) {}
  std::string name() const override { return "cpu"; }

 private:
  std::vector<BoxcarHit> compute_hits(const float* series, int64_t num_series,
                                      int64_t length) override {
    std::vector<std::vector<BoxcarHit>> per_series(static_cast<size_t>(num_series));
    std::vector<std::vector<double>> scratch(static_cast<size_t>(threads_));
    parallel_for(threads_, size_t(num_series), [&](size_t s, int worker) {
      boxcar_hits_of_series(series + int64_t(s) * length, length, widths(), threshold(),
                            int32_t(s), scratch[size_t(worker)], per_series[s]);
    });
    std::vector<BoxcarHit> hits;
    for (auto& h : per_series) hits.insert(hits.end(), h.begin(), h.end());
    return hits;  // already in series, width, sample order
  }
  int threads_;
};

}  // namespace

std::unique_ptr<BoxcarEngine> make_cpu_boxcar_engine(std::vector<int> widths, float threshold,
                                                     int threads) {
  return std::make_unique<CpuBoxcarEngine>(std::move(widths), threshold, threads);
}

std::unique_ptr<BoxcarEngine> make_gpu_boxcar_engine(std::vector<int> widths, float threshold,
                                                     int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_boxcar_engine(std::move(widths), threshold, gpu_index);
#else
  (void)widths, (void)threshold, (void)gpu_index;
  throw UsageError("the GPU engine needs a build with CUDA");
#endif
}

}  // namespace rapt
