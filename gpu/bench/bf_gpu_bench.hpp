// What the benchmark measures of the GPU beam former. No CUDA headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "bf/beamformer_engine.hpp"

namespace rapt::gpu {

struct GpuBeamformerTiming {
  double kernel_s = 0.0;       // product + detection (FP16: conversion, cuBLAS and detection,
                               // or the fused kernel), float voltages on the GPU
  double with_upload_s = 0.0;  // the same after copying the 8-bit voltages from page-locked
                               // memory and unpacking them to float on the GPU
  size_t upload_bytes = 0;     // 8-bit complex voltages: chan x ant x samples x pol x 2 bytes
  int group_channels = 0;      // channels per product + detection group
  size_t checked = 0;          // detected values compared with a CPU double-precision sum
  size_t mismatches = 0;       // of those, how many differ by more than the tolerance
  double max_error = 0.0;      // largest |GPU - CPU| over the rms of the checked CPU values
  double tolerance = 0.0;      // 1e-4 (FP32) or 1e-2 (FP16) of that rms
};

// Forms one block of `nsamples` random 8-bit-valued voltages (weights: random phases over
// nant, made on the GPU) `repeats` times each way (medians after a warm-up run). The Stokes I
// of three beams and three output channels, every output sample, is checked against the CPU.
// FP16 goes through the conversion, cuBLAS and detection passes, or with `fp16_fused` (detected
// output alone) through the fused kernel (BfPipelineOptions::fused_fp16).
GpuBeamformerTiming time_gpu_beamformer(const BeamformerShape& shape, int64_t nsamples, int gpu,
                                        int repeats, bool fp16_fused = false);

// Peak arithmetic rates of the device, with where each figure comes from.
struct GpuPeakRates {
  double fp32_flops = 0.0;         // SMs x FP32 lanes x 2 x peak clock
  double fp16_tensor_flops = 0.0;  // dense FP16 tensor-core rate with FP32 accumulation
  std::string source;              // "FP32: 132 SMs x 128 x 2 x 1.98 GHz; FP16 tensor: ..."
};

GpuPeakRates gpu_peak_rates(int gpu);

}  // namespace rapt::gpu
