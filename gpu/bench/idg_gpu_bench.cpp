#include "idg_gpu_bench.hpp"

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdint>
#include <vector>

#include "../idg/idg_gpu_engine.hpp"
#include "idg/idg_gpu_factory.hpp"

namespace rapt::gpu {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs `call` 1 + repeats times and keeps the medians of the timed ones.
template <typename Call>
IdgGpuOpTiming time_op(IdgEngine& engine, int repeats, Call call) {
  const auto& timed = dynamic_cast<const IdgGpuTimed&>(engine);
  std::vector<double> wall, device, kernel, own, host, image;
  for (int r = 0; r <= repeats; ++r) {
    const double start = now_s();
    call();
    const double stop = now_s();
    if (r == 0) continue;  // warm-up: cuFFT and the kernels' first launches
    const IdgGpuCallTimes t = timed.last_call_times();
    wall.push_back(stop - start);
    device.push_back(t.subgrid_s + t.grid_s);
    kernel.push_back(t.kernel_s);
    own.push_back(t.call_s);
    host.push_back(stop - start - t.call_s + t.host_s);
    image.push_back(t.image_s);
  }
  return {median(wall), median(device), median(kernel), median(own), median(host), median(image)};
}

}  // namespace

IdgGpuBenchTiming time_gpu_idg(const IdgSettings& settings, const IdgPlan& plan,
                               const IdgVisibilities& vis, int gpu, int repeats,
                               const IdgGpuSustainedRun* sustained) {
  std::unique_ptr<IdgEngine> engine = make_cuda_idg_engine(settings, gpu);
  IdgGpuBenchTiming out;
  repeats = std::max(1, repeats);
  // Into one image, as idg-grid does: a fresh 4096^2 x 4 image would add its page faults.
  out.grid = time_op(*engine, repeats, [&] { engine->grid(plan, vis, out.image); });
  std::vector<std::complex<float>> predicted(vis.nrows * vis.nchan * vis.products);
  out.degrid = time_op(*engine, repeats, [&] { engine->degrid(plan, out.image, vis, predicted.data()); });
  out.hold = time_op(*engine, 1, [&] { engine->hold(plan, vis); });
  IdgImage residual;
  out.subtract_held = time_op(*engine, repeats, [&] { engine->subtract_held(out.image); });
  out.grid_held = time_op(*engine, repeats, [&] { engine->grid_held(residual); });
  // A CLEAN major cycle's model: components spread over the inner image, Stokes I as XX and YY.
  std::vector<IdgModelPoint> points;
  const int64_t n = settings.grid_size;
  for (int k = 0; k < kBenchModelPoints; ++k) {
    const int64_t index = (n / 4 + (k * 37) % (n / 2)) * n + n / 4 + (k * 91) % (n / 2);
    points.push_back({0, index, {0.01f, 0.0f}});
    points.push_back({settings.npol - 1, index, {0.01f, 0.0f}});
  }
  std::vector<float> plane;
  out.subtract_points = time_op(*engine, repeats, [&] { engine->subtract_held_points(points); });
  out.grid_real = time_op(*engine, repeats, [&] { engine->grid_held_real(0, plane); });
  if (sustained) {
    IdgImage image;
    for (int op = 0; op < 3; ++op) {
      if (sustained->begin) sustained->begin(op);
      const double start = now_s();
      do {
        if (op == 0) {
          engine->grid(plan, vis, image);
        } else if (op == 1) {
          engine->degrid(plan, out.image, vis, predicted.data());
        } else {
          engine->grid_held(residual);
        }
        ++out.sustained_runs[op];
      } while (now_s() - start < sustained->min_seconds);
      if (sustained->end) sustained->end(op);
    }
  }
  engine->release_held();
  return out;
}

}  // namespace rapt::gpu
