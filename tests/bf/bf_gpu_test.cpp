// The CUDA beam former against the CPU engine (skipped without a GPU or without CUDA), on random
// voltages and weights: every output of every shape, in FP32 and in FP16, and FP16 both ways:
// conversion, cuBLAS and detection (the default) and, for detected output alone, the fused
// kernel (gpu/bf/bf_fused_detect.cu), which each case below with `coherent` off tests.
//
// Tolerances, relative to the rms of the CPU's output:
//   FP32: the largest |GPU - CPU| 1e-4 (the same sums in another order; cuBLAS's CGEMM).
//   FP16: the largest |GPU - CPU| 1e-2 and the rms of GPU - CPU 2e-3, for the detected and the
//         coherent outputs: voltages, weights and beams are rounded to half (11 significant
//         bits, up to 2^-11 = 4.9e-4 relative each); a detected value is a square, so about
//         twice that, and the largest values are several times the rms (seen on an H100: up to
//         5.4e-3 of the rms).
//   The incoherent beam is summed from the float voltages in both precisions: 1e-4.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "bf/beamformer_engine.hpp"
#include "bf/bf_gpu_factory.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/bf/bf_gpu_engine_choice.hpp"
#endif

namespace rapt {
namespace {

struct Tolerance {
  double largest;  // of |GPU - CPU|, over the rms of the CPU's output
  double rms;      // of GPU - CPU, likewise
};
constexpr Tolerance kFp32Tolerance = {1e-4, 1e-4};
constexpr Tolerance kFp16Tolerance = {1e-2, 2e-3};

#define SKIP_WITHOUT_GPU()                                                      \
  do {                                                                          \
    if (!kGpuBeamformerBuilt) GTEST_SKIP() << "built without CUDA";             \
    if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the CUDA beam former is not tested"; \
  } while (0)

struct Block {
  std::vector<float> voltages;  // [chan][ant][time][pol][re, im]
  std::vector<uint8_t> flags;   // empty: none
  int64_t nsamples = 0;
};

// Random phases of unit amplitude over the valid stations; station `left_out` (if >= 0) has
// weight 0 and station scale 0, as normalise_weights makes them.
BeamWeights random_weights(const BeamformerShape& s, int left_out, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> phase(0.0f, 6.2831853f);
  const int nvalid = s.nant - (left_out >= 0 ? 1 : 0);
  BeamWeights w;
  w.station_scale.assign(size_t(s.nant), 1.0f / float(nvalid));
  if (left_out >= 0) w.station_scale[size_t(left_out)] = 0.0f;
  w.weights.resize(size_t(s.nchan) * s.nbeams * s.nant);
  for (size_t i = 0; i < w.weights.size(); ++i) {
    const bool out = int(i % size_t(s.nant)) == left_out;
    w.weights[i] = out ? std::complex<float>(0.0f, 0.0f)
                       : std::polar(1.0f / float(nvalid), phase(rng));
  }
  return w;
}

// Gaussian voltages; with `flagged`, a few single samples and (when tint > 1) one whole window
// are flagged.
Block random_block(const BeamformerShape& s, int64_t nsamples, bool flagged, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  Block block;
  block.nsamples = nsamples;
  block.voltages.resize(size_t(s.nchan) * s.nant * size_t(nsamples) * s.npol * 2);
  for (float& v : block.voltages) v = normal(rng);
  if (flagged) {
    block.flags.assign(size_t(nsamples), 0);
    for (int64_t t : {int64_t(1), nsamples / 3, nsamples / 2 + 1, nsamples - 1})
      block.flags[size_t(t)] = 1;
    if (s.tint > 1)
      for (int k = 0; k < s.tint; ++k) block.flags[size_t(s.tint * 2 + k)] = 1;
  }
  return block;
}

BeamBlockOutput form(BeamformerEngine& engine, const Block& block) {
  BeamBlockOutput out;
  engine.form(block.voltages.data(), block.nsamples,
              block.flags.empty() ? nullptr : block.flags.data(), out);
  return out;
}

void expect_close(const std::vector<float>& cpu, const std::vector<float>& gpu,
                  const Tolerance& tolerance, const std::string& what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  if (cpu.empty()) return;
  double sum_sq = 0.0, err_sq = 0.0, worst = 0.0;
  size_t worst_at = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    sum_sq += double(cpu[i]) * cpu[i];
    const double err = std::fabs(double(gpu[i]) - cpu[i]);
    err_sq += err * err;
    if (!(err <= worst)) worst = err, worst_at = i;  // NaN counts as worst
  }
  const double rms = std::sqrt(sum_sq / double(cpu.size()));
  const double err_rms = std::sqrt(err_sq / double(cpu.size()));
  EXPECT_LE(worst, tolerance.largest * rms)
      << what << ": largest difference " << worst << " (" << worst / rms << " of the rms " << rms
      << ") at " << worst_at << ": cpu " << cpu[worst_at] << ", gpu " << gpu[worst_at];
  EXPECT_LE(err_rms, tolerance.rms * rms)
      << what << ": rms difference " << err_rms << " (" << err_rms / rms << " of the rms)";
}

// The ways the GPU engine forms a block.
struct GpuPath {
  const char* name;
  BeamPrecision precision;
  bool fused_fp16;
};
constexpr GpuPath kGpuPaths[] = {
    {"FP32", BeamPrecision::fp32, false},
    {"FP16", BeamPrecision::fp16, false},
    {"FP16 fused", BeamPrecision::fp16, true},
};

std::unique_ptr<BeamformerEngine> gpu_engine(const BeamformerShape& shape, size_t group_bytes,
                                             bool fused_fp16) {
#ifdef RAPT_WITH_CUDA
  if (group_bytes > 0 || fused_fp16) {
    CudaBeamformerChoice choice;
    choice.group_bytes = group_bytes;
    choice.fused_fp16 = fused_fp16;
    return make_cuda_beamformer(shape, 0, choice);
  }
#else
  (void)group_bytes;
  (void)fused_fp16;
#endif
  return make_gpu_beamformer(shape, 0);
}

// Forms `blocks` (sizes in samples) with the CPU and the GPU engine, each GPU path, and compares
// every output. `group_bytes` > 0 sets the GPU's channel-group size.
void expect_gpu_matches_cpu(BeamformerShape shape, const std::vector<int64_t>& blocks,
                            bool flagged, int left_out, size_t group_bytes = 0) {
  for (const GpuPath& path : kGpuPaths) {
    SCOPED_TRACE(path.name);
    // With the coherent output, FP16 is never fused: that path was just tested.
    if (path.fused_fp16 && shape.coherent) continue;
    const bool fp16 = path.precision == BeamPrecision::fp16;
    shape.precision = path.precision;
    const BeamWeights weights = random_weights(shape, left_out, 17);
    auto cpu = make_cpu_beamformer(shape, 2);
    auto gpu = gpu_engine(shape, group_bytes, path.fused_fp16);
    cpu->set_weights(weights);
    gpu->set_weights(weights);
    uint32_t seed = 100;
    for (const int64_t nsamples : blocks) {
      SCOPED_TRACE("block of " + std::to_string(nsamples) + " samples");
      const Block block = random_block(shape, nsamples, flagged, seed++);
      const BeamBlockOutput a = form(*cpu, block);
      const BeamBlockOutput b = form(*gpu, block);
      EXPECT_EQ(a.nsamples_out, b.nsamples_out);
      const Tolerance& tolerance = fp16 ? kFp16Tolerance : kFp32Tolerance;
      expect_close(a.detected, b.detected, tolerance, "detected");
      expect_close(a.coherent, b.coherent, tolerance, "coherent");
      expect_close(a.incoherent, b.incoherent, kFp32Tolerance, "incoherent");
    }
  }
}

BeamformerShape small_shape(BeamDetection detection) {
  BeamformerShape s;
  s.nchan = 8;
  s.nant = 6;
  s.npol = 2;
  s.nbeams = 5;
  s.detection = detection;
  return s;
}

TEST(BeamformerGpu, MatchesCpuForStokesI) {
  SKIP_WITHOUT_GPU();
  expect_gpu_matches_cpu(small_shape(BeamDetection::stokes_i), {100}, false, -1);
}

TEST(BeamformerGpu, MatchesCpuForFullStokesFromLinearFeeds) {
  SKIP_WITHOUT_GPU();
  expect_gpu_matches_cpu(small_shape(BeamDetection::full_stokes), {100}, false, -1);
}

TEST(BeamformerGpu, MatchesCpuForFullStokesFromCircularFeeds) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::full_stokes);
  s.circular = true;
  expect_gpu_matches_cpu(s, {100}, false, -1);
}

TEST(BeamformerGpu, MatchesCpuForCoherentBeamsWithFlaggedSamplesZeroed) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::none);
  s.coherent = true;
  expect_gpu_matches_cpu(s, {100}, true, -1);
}

TEST(BeamformerGpu, MatchesCpuForTheIncoherentBeam) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::stokes_i);
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {100}, true, 2);
  s.detection = BeamDetection::none;  // the incoherent beam alone: no product at all
  expect_gpu_matches_cpu(s, {100}, true, 2);
}

TEST(BeamformerGpu, MatchesCpuWithIntegrationChannelSumsFlagsAndAStationLeftOut) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::full_stokes);
  s.tint = 4;
  s.fscrunch = 2;
  s.coherent = true;
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {4 * 37}, true, 3);
  s.detection = BeamDetection::stokes_i;
  expect_gpu_matches_cpu(s, {4 * 37}, true, 0);
  s.coherent = false;  // now FP16 fused too
  expect_gpu_matches_cpu(s, {4 * 37}, true, 0);
  s.detection = BeamDetection::full_stokes;
  expect_gpu_matches_cpu(s, {4 * 37}, true, 3);
  s.circular = true;
  expect_gpu_matches_cpu(s, {4 * 37}, true, 5);
}

TEST(BeamformerGpu, MatchesCpuForOnePolarisationAndAnOddNumberOfSamples) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::stokes_i);
  s.npol = 1;
  s.coherent = true;
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {77}, true, 1);
  s.coherent = false;
  expect_gpu_matches_cpu(s, {77}, true, 1);
}

TEST(BeamformerGpu, MatchesCpuAcrossChannelGroups) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::full_stokes);
  s.nchan = 52;  // 64 KiB of scratch: groups of 2 channels, each its own output channel
  s.fscrunch = 2;
  s.tint = 2;
  s.coherent = true;
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {300}, true, 4, size_t(64) << 10);
  s.coherent = false;
  expect_gpu_matches_cpu(s, {300}, true, 4, size_t(64) << 10);
}

TEST(BeamformerGpu, MatchesCpuAsBlocksChangeSize) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::full_stokes);
  s.tint = 2;
  s.coherent = true;
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {64, 64, 640, 30, 64}, true, -1);
  s.coherent = false;
  expect_gpu_matches_cpu(s, {64, 64, 640, 30, 64}, true, -1);
}

// The fused FP16 kernel's tile edges (tiles of 64 beams x 64 samples x up to 8 output channels,
// the product in stages of 16 stations): a partial beam tile after a whole one, a partial
// station stage, output channels past one tile, integration windows that divide the 64-sample
// tile, that do not, and that are longer than it (atomic sums over tiles), one polarisation
// with an even and an odd number of samples (16- and 8-byte copies).
TEST(BeamformerGpu, MatchesCpuAcrossFusedTileEdges) {
  SKIP_WITHOUT_GPU();
  BeamformerShape s = small_shape(BeamDetection::stokes_i);
  s.nbeams = 70;
  s.nant = 37;
  s.nchan = 22;
  expect_gpu_matches_cpu(s, {200}, true, 36);
  s.tint = 4;
  expect_gpu_matches_cpu(s, {4 * 75}, true, -1);
  s.tint = 3;
  s.fscrunch = 2;
  s.incoherent = true;
  expect_gpu_matches_cpu(s, {3 * 67}, true, 5);
  s.detection = BeamDetection::full_stokes;
  expect_gpu_matches_cpu(s, {3 * 67}, true, 0);
  s.tint = 1;  // full Stokes at tint 1: 2 output channels per tile
  expect_gpu_matches_cpu(s, {130}, true, 0);
  s.tint = 96;
  s.fscrunch = 11;
  expect_gpu_matches_cpu(s, {96 * 3}, true, 20);
  s.tint = 128;
  s.fscrunch = 1;
  s.circular = true;
  expect_gpu_matches_cpu(s, {128 * 3}, true, -1);
  s.detection = BeamDetection::stokes_i;
  s.npol = 1;
  s.tint = 5;
  expect_gpu_matches_cpu(s, {5 * 41}, true, 2);
  s.tint = 1;
  expect_gpu_matches_cpu(s, {130}, true, 2);
  s.nant = 1;
  s.nbeams = 1;
  expect_gpu_matches_cpu(s, {3}, false, -1);
}

TEST(BeamformerGpu, NamesItsDevice) {
  SKIP_WITHOUT_GPU();
  EXPECT_EQ(make_gpu_beamformer(small_shape(BeamDetection::stokes_i), 0)->name(), "gpu:0");
}

}  // namespace
}  // namespace rapt
