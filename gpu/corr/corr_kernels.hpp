// The correlator's kernels as the engine and the benchmark launch them: one launch adds the
// products of one chunk of packed input (a range of channels and at most kInt8SafeSamples
// samples) to the visibility sums that stay on the GPU.
//
// Packed input, the layout every kernel reads: [chan][receiver][tpad][re, im], receiver =
// ant * npol + pol, so each receiver's samples of a channel are one contiguous row (what a tile
// of a matrix product wants), elements int8 (int8), IEEE half (fp16) or float (fp32). Samples
// from the chunk's length up to tpad (a multiple of corr_time_quantum) are zero and add nothing.
//
// Sums: [chan][baseline][p1][p2] complex, int32 pairs (int8) or float pairs. int8 sums are
// exact while they hold at most kInt8SafeSamples samples; the engine adds them into 64-bit sums
// (widen_int8_sums) before they would hold more. Writing int32 rather than int64 pairs halves
// the kernels' output: int8 at 256-1024 stations 50-53 -> 56-57 % of the dense peak on an H100.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "corr/correlator_engine.hpp"

namespace rapt::gpu {

struct CorrChunkArgs {
  const void* packed = nullptr;
  int nchan = 0;  // channels in the chunk, at most kMaxLaunchChannels
  int nant = 0;
  int npol = 0;
  int64_t tpad = 0;  // samples per receiver row, a multiple of corr_time_quantum()
  void* sums = nullptr;
  int64_t chan0 = 0;  // the chunk's first channel among the sums
  // Scratch of corr_split_scratch_bytes(...) for the wgmma kernels' split items (see WgmmaGrid in
  // corr_wgmma_kernel.cu), zeroed before its first use (the kernels leave it so), used by one
  // stream at a time; null: no item is split.
  void* split_scratch = nullptr;
  // The chunk's channels have no sums yet (the first launch of an integration): the kernel
  // stores its products where it would add them, so the sums are written without being read.
  // Every sum of those channels is written, whatever the buffer held.
  bool first = false;
};

// Channels are the grid's second dimension.
inline constexpr int kMaxLaunchChannels = 65535;

// Bytes of one real value of the packed input: 1, 2 or 4.
int corr_element_bytes(CorrPrecision precision);
// Bytes of one complex visibility sum as the kernels keep it: two int32 or two floats.
inline constexpr int kCorrSumBytes = 8;
// Samples a packed row's length must be a multiple of: one pipeline stage of the kernel.
int64_t corr_time_quantum(CorrPrecision precision);
// Bytes of one packed chunk.
size_t corr_packed_bytes(CorrPrecision precision, int nchan, int nrecv, int64_t tpad);

// Adds the chunk's products to the sums, on `stream`. int8 sums must not pass kInt8SafeSamples
// samples with the chunk's.
void launch_correlator(CorrPrecision precision, const CorrChunkArgs& args, cudaStream_t stream);

// int8: adds `count` int32-pair sums to int64-pair sums (stores them there if `first`), on
// `stream` (corr_widen_kernel.cu).
void widen_int8_sums(const void* narrow, void* wide, size_t count, bool first,
                     cudaStream_t stream);

// What runs, for the benchmark's notes: "int8 mma.sync m16n8k32, 64x64 receiver tiles".
std::string correlator_kernel_text(CorrPrecision precision, int nrecv);

// The launches behind launch_correlator, one per .cu file.
void launch_tensor_correlator(CorrPrecision precision, const CorrChunkArgs& args,
                              cudaStream_t stream);
bool use_wgmma_correlator(int nrecv);
void launch_fp32_correlator(const CorrChunkArgs& args, cudaStream_t stream);
int tensor_correlator_tile(int nrecv);  // receivers per side of a block's tile
int fp32_correlator_tile();
// int8 and fp16 on wgmma (corr_wgmma_kernel.cu): whether this device runs an sm_90a build of
// it (false elsewhere), its tile, its launch; and whether launch_tensor_correlator takes it.
bool wgmma_correlator_available();
int wgmma_correlator_tile();
// Bytes of CorrChunkArgs::split_scratch on the current device for these launches: 0 where
// the wgmma kernels do not run them (fp32, fewer than 128 receivers, no sm_90a build).
size_t corr_split_scratch_bytes(CorrPrecision precision, int nrecv);
void launch_wgmma_correlator(CorrPrecision precision, const CorrChunkArgs& args,
                             cudaStream_t stream);

}  // namespace rapt::gpu
