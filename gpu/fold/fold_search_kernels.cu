// The fold search on the GPU: one block per (DM, P') pair computes the reduced chi^2 of every
// period trial by shifting and adding the DM's part profiles, staged in shared memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../cuda/cuda_check.hpp"
#include "../cuda/dynamic_shared_memory.hpp"
#include "../cuda/device_buffer.hpp"
#include "fold/fold_search_gpu.hpp"

namespace rapt {
namespace {

constexpr int kThreads = 256;
constexpr size_t kMaxSharedBytes = 200 * 1024;

struct BlockBest {
  double redchi;
  int p_slot;
};

// ceil(bins - 1/2) mod nbins with the CPU search's arithmetic (its FastShift: offset by a whole
// number of profiles, truncate, round up; right_shift outside that range).
__device__ inline int right_shift(double bins, int nbins, double offset) {
  const double x = __dadd_rn(__dsub_rn(bins, 0.5), offset);
  if (!(x >= 0.0 && x < 4294967295.0)) {
    const long long n = (long long)ceil(__dsub_rn(bins, 0.5));
    const long long s = n % nbins;
    return int(s < 0 ? s + nbins : s);
  }
  unsigned int n = (unsigned int)x;
  n += double(n) < x ? 1u : 0u;
  return int(n % unsigned(nbins));
}

__global__ void fold_search_kernel(const float* centred, const double* variance,
                                   const double* times, const double* df_hz,
                                   const double* dfdot, const int* pds, const int* ps,
                                   int nps, int nbins, int npart, double shift_offset,
                                   BlockBest* best) {
  extern __shared__ float shared[];
  const int stride = 2 * nbins + 8;
  const int per_pass = max(1, kThreads / nbins);
  float* parts = shared;                                  // [npart][stride]
  float* sums = parts + size_t(npart) * stride;           // [per_pass][nbins]
  int* shifts = reinterpret_cast<int*>(sums + size_t(per_pass) * nbins);  // [per_pass][npart]
  const int dm = blockIdx.y;  // position in the searched DMs
  const int pd = pds[blockIdx.x];
  const float* source = centred + size_t(dm) * npart * stride;
  for (int i = threadIdx.x; i < npart * stride; i += blockDim.x) parts[i] = source[i];
  const double var = variance[dm];
  const double dfd = dfdot[pd];
  double block_best = -1.0;
  int block_slot = 0;
  for (int first = 0; first < nps; first += per_pass) {
    __syncthreads();
    for (int i = threadIdx.x; i < per_pass * npart; i += blockDim.x) {
      const int t = i / npart, part = i % npart;
      if (first + t < nps) {
        const double time = times[part];
        // As the CPU: 0.5 dfdot t t nbins, plus df t nbins, without fused multiply-adds.
        const double pd_bins = __dmul_rn(__dmul_rn(__dmul_rn(__dmul_rn(0.5, dfd), time), time),
                                         double(nbins));
        const double p_bins = __dmul_rn(__dmul_rn(df_hz[ps[first + t]], time), double(nbins));
        shifts[i] = right_shift(__dadd_rn(pd_bins, p_bins), nbins, shift_offset);
      }
    }
    __syncthreads();
    const int t = threadIdx.x / nbins, b = threadIdx.x % nbins;
    if (t < per_pass && first + t < nps) {
      float acc = 0.0f;
      for (int part = 0; part < npart; ++part) {
        acc = __fadd_rn(acc, parts[part * stride + (nbins - shifts[t * npart + part]) + b]);
      }
      sums[t * nbins + b] = acc;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      for (int u = 0; u < per_pass && first + u < nps; ++u) {
        double chi2 = 0.0;
        for (int k = 0; k < nbins; ++k) {
          const double v = sums[u * nbins + k];
          chi2 = __dadd_rn(chi2, __dmul_rn(v, v));
        }
        const double redchi = chi2 / var / (nbins - 1.0);
        if (redchi > block_best) {
          block_best = redchi;
          block_slot = first + u;
        }
      }
    }
  }
  if (threadIdx.x == 0) best[size_t(blockIdx.y) * gridDim.x + blockIdx.x] = {block_best, block_slot};
}

size_t shared_bytes(int nbins, int npart) {
  const int per_pass = std::max(1, kThreads / nbins);
  return size_t(npart) * (2 * nbins + 8) * sizeof(float) + size_t(per_pass) * nbins * sizeof(float) +
         size_t(per_pass) * npart * sizeof(int);
}

template <typename T>
cuda::DeviceBuffer<T> upload(const std::vector<T>& values) {
  cuda::DeviceBuffer<T> buffer(std::max<size_t>(values.size(), 1));
  if (!values.empty()) {
    RAPT_CUDA_CHECK(cudaMemcpy(buffer.get(), values.data(), values.size() * sizeof(T),
                               cudaMemcpyHostToDevice));
  }
  return buffer;
}

}  // namespace

bool fold_grid_gpu_supported(int nbins, int npart) {
  return nbins >= 2 && nbins <= kThreads && shared_bytes(nbins, npart) <= kMaxSharedBytes;
}

FoldGridBest search_fold_grid_gpu(const FoldGridInput& in, int gpu_index) {
  if (!fold_grid_gpu_supported(in.nbins, in.npart)) {
    throw UsageError("fold search on the GPU: " + std::to_string(in.nbins) + " bins x " +
                     std::to_string(in.npart) + " parts do not fit its blocks");
  }
  cuda::DeviceGuard guard(gpu_index);
  const auto centred = upload(in.centred);
  const auto variance = upload(in.variance);
  const auto times = upload(in.times_s);
  const auto df = upload(in.df_hz);
  const auto dfdot = upload(in.dfdot);
  const auto pds = upload(in.pds);
  const auto ps = upload(in.ps);
  const size_t nblocks = in.dms.size() * in.pds.size();
  cuda::DeviceBuffer<BlockBest> best(nblocks);
  const size_t shared = shared_bytes(in.nbins, in.npart);
  cuda::allow_dynamic_shared_memory(reinterpret_cast<const void*>(fold_search_kernel),
                                    size_t(shared), "fold_search_kernel");
  const dim3 grid(unsigned(in.pds.size()), unsigned(in.dms.size()));
  fold_search_kernel<<<grid, kThreads, shared>>>(centred.get(), variance.get(), times.get(),
                                                 df.get(), dfdot.get(), pds.get(), ps.get(),
                                                 int(in.ps.size()), in.nbins, in.npart,
                                                 in.shift_offset, best.get());
  RAPT_CUDA_CHECK_LAUNCH("fold_search_kernel");
  std::vector<BlockBest> host(nblocks);
  RAPT_CUDA_CHECK(cudaMemcpy(host.data(), best.get(), nblocks * sizeof(BlockBest),
                             cudaMemcpyDeviceToHost));
  // In the CPU search's loop order (DM, then P', then P), the first largest wins.
  FoldGridBest result;
  for (size_t d = 0; d < in.dms.size(); ++d) {
    for (size_t q = 0; q < in.pds.size(); ++q) {
      const BlockBest& b = host[d * in.pds.size() + q];
      if (b.redchi > result.redchi) {
        result = {b.redchi, in.dms[d], in.ps[size_t(b.p_slot)], in.pds[q]};
      }
    }
  }
  return result;
}

}  // namespace rapt
