// The CPU acceleration-search engine: per segment, normalise and FFT the amplitudes once, then
// for every z row multiply by the kernel spectrum, inverse FFT and keep the good powers.
// Segments are shared out over threads; FFTW plans are made once and run on each thread's
// own buffers.
#include <fftw3.h>

#include <chrono>
#include <thread>

#include "accel/accel_engine.hpp"
#include "accel/fdot_kernels.hpp"
#include "accel/harmonic_sum.hpp"
#include "accel/plane_builder.hpp"
#include "accel/plane_segments.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class CpuAccelEngine final : public AccelEngine {
 public:
  explicit CpuAccelEngine(int threads)
      : threads_(threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()))) {}

  std::vector<PlaneHit> search(const std::vector<std::complex<float>>& spectrum,
                               const AccelPlan& plan, AccelEngineTimings& timings) override {
    const auto start = std::chrono::steady_clock::now();
    const FfdotPlane plane = build_ffdot_plane_cpu(spectrum, plan, threads_);
    timings.plane_s = seconds_since(start);
    const auto sum_start = std::chrono::steady_clock::now();
    const size_t nsegments = plan.search_segment_starts().size();
    std::vector<std::vector<PlaneHit>> per_segment(nsegments);
    parallel_for(threads_, nsegments, [&](size_t segment, int) {
      per_segment[segment] = search_segment_harmonic_sums(plane, plan, int(segment));
    });
    std::vector<PlaneHit> hits;
    for (auto& part : per_segment) hits.insert(hits.end(), part.begin(), part.end());
    timings.harmsum_s = seconds_since(sum_start);
    timings.total_s = seconds_since(start);
    return hits;
  }

  std::string name() const override { return "cpu (" + std::to_string(threads_) + " threads)"; }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<AccelEngine> make_cpu_accel_engine(int threads) {
  return std::make_unique<CpuAccelEngine>(threads);
}

}  // namespace rapt
