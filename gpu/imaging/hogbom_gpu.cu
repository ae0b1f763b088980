// Hogbom's minor cycle on a GPU (imaging/minor_cycle.hpp), the arithmetic of
// hogbom_minor_cycle step for step so that the results are the same bit for bit: the peak is
// the largest |value| in the clean region, the first in row order on ties; a component is
// float(gain x peak), and the PSF is subtracted as a rounded product then a rounded difference
// (no fused multiply-add, as the host computes it).
//
// A component takes three kernels, all on the device's own state, so that the host launches
// them in batches and looks at the state only between batches: the peak of each block of
// region rows, the peak of those and the decision (take a component or stop), the subtraction.
// Once stopped, the rest of a batch does nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../cuda/cuda_check.hpp"
#include "../cuda/cuda_device_query.hpp"
#include "../cuda/device_buffer.hpp"
#include "cli/errors.hpp"
#include "imaging/minor_cycle.hpp"

namespace rapt::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = 8;       // region rows a peak-finding block scans
constexpr int kComponentsPerBatch = 32;  // launched before the host looks at the state

struct Peak {
  float value;  // signed
  int index;    // y n + x; -1: none
};

// a beats b: larger |value|, or as large and earlier in row order. |value| of 0 never wins
// over none (both are "no peak"), and NaN never wins.
__device__ inline bool beats(const Peak& a, const Peak& b) {
  const float fa = fabsf(a.value), fb = fabsf(b.value);
  return fa > fb || (fa == fb && fa > 0.0f && a.index < b.index);
}

// The best of the block's threads' peaks (every thread of the block calls it).
__device__ inline Peak block_best(Peak p) {
  __shared__ Peak best[kThreads];
  best[threadIdx.x] = p;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half && beats(best[threadIdx.x + half], best[threadIdx.x]))
      best[threadIdx.x] = best[threadIdx.x + half];
    __syncthreads();
  }
  return best[0];
}

struct State {
  int components;   // taken so far in this minor cycle
  int stopped;      // no more components in this minor cycle
  int taken;        // the last decision took a component: subtract it
  int peak_index;   // the component's pixel
  float c;          // its flux, gain x peak
  float first_peak, last_peak;
  int started;      // first_peak and the stop level are set
  double stop;      // the level below which no component is taken
  double diverging;  // the level above which no component is taken (kDivergingPeakRatio)
};

struct Component {
  int index;
  float c;
};

struct Region {
  int n, lo, hi;  // rows and columns [lo, hi) of the N x N image
};

// The best pixel of each block of kRowsPerBlock region rows.
__global__ void __launch_bounds__(kThreads)
    block_peaks_kernel(const float* residual, Region r, const State* state, Peak* out) {
  if (state->stopped) return;
  Peak p{0.0f, -1};
  const int y1 = r.lo + int(blockIdx.x) * kRowsPerBlock, y2 = min(r.hi, y1 + kRowsPerBlock);
  const int width = r.hi - r.lo;
  // Each thread's pixels in row order, so its own ties keep the first.
  for (int k = int(threadIdx.x); k < (y2 - y1) * width; k += kThreads) {
    const int y = y1 + k / width, x = r.lo + k % width;
    const Peak q{residual[size_t(y) * r.n + x], y * r.n + x};
    if (beats(q, p)) p = q;
  }
  p = block_best(p);
  if (threadIdx.x == 0) out[blockIdx.x] = p;
}

// The peak of the blocks' peaks, and the decision hogbom_minor_cycle's loop makes on it.
__global__ void __launch_bounds__(kThreads)
    decide_kernel(const Peak* blocks, int nblocks, State* state, Component* components,
                  int max_components, double gain, double threshold, double mgain) {
  if (state->stopped) return;
  Peak p{0.0f, -1};
  for (int b = int(threadIdx.x); b < nblocks; b += kThreads)
    if (beats(blocks[b], p)) p = blocks[b];
  p = block_best(p);
  if (threadIdx.x != 0) return;
  const float magnitude = fabsf(p.value);
  if (!state->started) {
    state->started = 1;
    state->first_peak = magnitude;
    state->stop = fmax(threshold, (1 - mgain) * double(magnitude));
    state->diverging = kDivergingPeakRatio * double(magnitude);
  }
  state->last_peak = magnitude;
  state->taken = 0;
  if (state->components < max_components && p.index >= 0 && magnitude > 0.0f &&
      double(magnitude) >= state->stop && double(magnitude) <= state->diverging) {
    const float c = float(gain * double(p.value));
    components[state->components] = {p.index, c};
    ++state->components;
    state->taken = 1;
    state->peak_index = p.index;
    state->c = c;
  } else {
    state->stopped = 1;
  }
}

// residual -= c x the PSF centred on the component, in the region.
__global__ void __launch_bounds__(kThreads)
    subtract_kernel(float* residual, const float* psf, Region r, const State* state) {
  if (state->stopped || !state->taken) return;
  const int px = state->peak_index % r.n, py = state->peak_index / r.n;
  const int y1 = max(r.lo, py - r.n / 2), y2 = min(r.hi, py + r.n / 2);
  const int x1 = max(r.lo, px - r.n / 2), x2 = min(r.hi, px + r.n / 2);
  const int width = x2 - x1;
  const float c = state->c;
  const int64_t count = int64_t(max(y2 - y1, 0)) * max(width, 0);
  for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < count;
       k += int64_t(gridDim.x) * kThreads) {
    const int y = y1 + int(k / width), x = x1 + int(k % width);
    float& out = residual[size_t(y) * r.n + x];
    const float in = psf[size_t(y - py + r.n / 2) * r.n + (x - px + r.n / 2)];
    out = __fsub_rn(out, __fmul_rn(c, in));
  }
}

class CudaMinorCycle final : public MinorCycleEngine {
 public:
  CudaMinorCycle(const std::vector<float>& psf, int n, int gpu) : gpu_(gpu), n_(n) {
    const cuda::DeviceGuard device(gpu_);
    const int half = int(std::floor(n * kCleanRegion / 2));
    region_ = {n, std::max(0, n / 2 - half), std::min(n, n / 2 + half)};
    nblocks_ = std::max(1, (region_.hi - region_.lo + kRowsPerBlock - 1) / kRowsPerBlock);
    const size_t pixels = size_t(n) * n;
    size_t free_bytes = 0, total_bytes = 0;
    RAPT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t needed = 2 * pixels * sizeof(float) + size_t(nblocks_) * sizeof(Peak);
    if (needed > free_bytes)
      throw DataError("CLEAN on GPU " + std::to_string(gpu) + ": the residual and the PSF of " +
                      std::to_string(n) + " x " + std::to_string(n) + " pixels need " +
                      cuda::byte_size_text(needed) + " of GPU memory, but only " +
                      cuda::byte_size_text(free_bytes) + " of " +
                      cuda::byte_size_text(total_bytes) + " is free; use --device cpu");
    residual_ = cuda::DeviceBuffer<float>(pixels);
    psf_ = cuda::DeviceBuffer<float>(pixels);
    blocks_ = cuda::DeviceBuffer<Peak>(size_t(nblocks_));
    state_ = cuda::DeviceBuffer<State>(1);
    RAPT_CUDA_CHECK(cudaMemcpy(psf_.get(), psf.data(), pixels * sizeof(float),
                               cudaMemcpyHostToDevice));
    subtract_blocks_ = cuda::multiprocessor_count(gpu) * 8;
  }

  MinorCycle run(std::vector<float>& residual, const CleanSettings& s, int max_components,
                 std::vector<float>& model) override {
    const cuda::DeviceGuard device(gpu_);
    const size_t pixels = size_t(n_) * n_;
    cuda::DeviceBuffer<Component> components(size_t(std::max(max_components, 1)));
    RAPT_CUDA_CHECK(cudaMemcpy(residual_.get(), residual.data(), pixels * sizeof(float),
                               cudaMemcpyHostToDevice));
    RAPT_CUDA_CHECK(cudaMemset(state_.get(), 0, sizeof(State)));
    State state{};
    // The peak and the loop's decision on it; a budget of 0 only finds the peak.
    const auto find_peak_and_decide = [&](int budget) {
      block_peaks_kernel<<<nblocks_, kThreads>>>(residual_.get(), region_, state_.get(),
                                                 blocks_.get());
      decide_kernel<<<1, kThreads>>>(blocks_.get(), nblocks_, state_.get(), components.get(),
                                     budget, s.gain, s.threshold, s.mgain);
    };
    // Components go one kernel triple after another; the host reads the state once a batch.
    // A minor cycle can end earlier than max_components, so batches stay short.
    while (!state.stopped && state.components < max_components) {
      for (int k = 0; k < kComponentsPerBatch; ++k) {
        find_peak_and_decide(max_components);
        subtract_kernel<<<subtract_blocks_, kThreads>>>(residual_.get(), psf_.get(), region_,
                                                        state_.get());
      }
      RAPT_CUDA_CHECK_LAUNCH("CLEAN minor cycle kernels");
      RAPT_CUDA_CHECK(cudaMemcpy(&state, state_.get(), sizeof(State), cudaMemcpyDeviceToHost));
    }
    // The peak the next component would have taken, as the host's loop leaves it: found after
    // the last subtraction unless the cycle stopped on it.
    if (!state.stopped) {
      find_peak_and_decide(0);
      RAPT_CUDA_CHECK_LAUNCH("CLEAN minor cycle kernels");
      RAPT_CUDA_CHECK(cudaMemcpy(&state, state_.get(), sizeof(State), cudaMemcpyDeviceToHost));
    }
    RAPT_CUDA_CHECK(cudaMemcpy(residual.data(), residual_.get(), pixels * sizeof(float),
                               cudaMemcpyDeviceToHost));
    std::vector<Component> taken(size_t(state.components));
    if (!taken.empty())
      RAPT_CUDA_CHECK(cudaMemcpy(taken.data(), components.get(), taken.size() * sizeof(Component),
                                 cudaMemcpyDeviceToHost));
    MinorCycle cycle;
    for (const Component& k : taken) {  // in the host's order
      model[size_t(k.index)] += k.c;
      cycle.pixels.push_back(size_t(k.index));
    }
    cycle.components = state.components;
    cycle.first_peak = state.first_peak;
    cycle.last_peak = state.last_peak;
    return cycle;
  }

 private:
  int gpu_, n_;
  Region region_{};
  int nblocks_ = 1, subtract_blocks_ = 1;
  cuda::DeviceBuffer<float> residual_, psf_;
  cuda::DeviceBuffer<Peak> blocks_;
  cuda::DeviceBuffer<State> state_;
};

}  // namespace
}  // namespace rapt::gpu

namespace rapt {

std::unique_ptr<MinorCycleEngine> make_cuda_minor_cycle(const std::vector<float>& psf, int n,
                                                        int gpu_index) {
  std::string why;
  const int count = cuda::device_count(&why);
  if (gpu_index < 0 || gpu_index >= count)
    throw UsageError("CLEAN: no GPU " + std::to_string(gpu_index) +
                     (count ? " (" + std::to_string(count) + " found)" : " (" + why + ")"));
  if (psf.size() != size_t(n) * n) throw UsageError("CLEAN: the PSF is not N x N");
  return std::make_unique<gpu::CudaMinorCycle>(psf, n, gpu_index);
}

}  // namespace rapt
