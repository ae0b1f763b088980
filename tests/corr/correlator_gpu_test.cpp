// The CUDA correlator against the CPU engine (skipped without a GPU or without CUDA), on random
// voltages, every channel, baseline and polarisation product, with sizes that are not multiples
// of the kernels' tiles (receivers) or stages (samples).
//
// Tolerances:
//   int8  none: both engines sum exact integers (the GPU in int32 over at most
//         kInt8SafeSamples, then in 64 bits), so every value must be bit-identical.
//   fp32  |GPU - CPU| <= 1e-5 sqrt(P1 P2), P the two receivers' powers (their autocorrelations,
//         the bound of |V| itself): the GPU sums products in FP32 in another order than the
//         CPU's double sums; FP32 rounding grows like 6e-8 sqrt(T), 2e-6 at the T used here.
//   fp16  the same with 1e-4: both engines multiply the same half values (exactly: 22-bit
//         products), so only the sums differ; tensor cores align the addends of a step to the
//         largest and truncate, a few units of 2^-23 per 8 samples, summed over T / 8 steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "corr/corr_gpu_factory.hpp"
#include "corr/correlator_engine.hpp"
#include "gpu_device.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/corr/corr_gpu_engine_options.hpp"
#endif

namespace rapt {
namespace {

using cd = std::complex<double>;

#define SKIP_WITHOUT_GPU()                                                                    \
  do {                                                                                        \
    if (!kGpuCorrelatorBuilt) GTEST_SKIP() << "built without CUDA";                           \
    if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU: the CUDA correlator is not tested"; \
  } while (0)

CorrelatorShape make_shape(int nchan, int nant, int npol, CorrPrecision precision) {
  CorrelatorShape s;
  s.nchan = nchan;
  s.nant = nant;
  s.npol = npol;
  s.precision = precision;
  return s;
}

// Canonical block [chan][ant][time][pol][re, im]: int8 values spread a little past +-127 so
// that some are clamped; float values of unit spread otherwise.
std::vector<float> random_block(const CorrelatorShape& s, int64_t nsamples, uint32_t seed) {
  std::mt19937 rng(seed);
  const bool integer = s.precision == CorrPrecision::int8;
  std::normal_distribution<float> value(0.0f, integer ? 50.0f : 1.0f);
  std::vector<float> v(size_t(s.nchan) * s.nant * size_t(nsamples) * s.npol * 2);
  for (float& x : v) x = value(rng);
  return v;
}

// Samples [t0, t0 + n) of a block of `nsamples`, as a block of its own.
std::vector<float> time_slice(const CorrelatorShape& s, const std::vector<float>& block,
                              int64_t nsamples, int64_t t0, int64_t n) {
  const size_t per_sample = size_t(s.npol) * 2;
  std::vector<float> out;
  for (int c = 0; c < s.nchan; ++c)
    for (int a = 0; a < s.nant; ++a) {
      const auto row = block.begin() + ((size_t(c) * s.nant + a) * nsamples + t0) * per_sample;
      out.insert(out.end(), row, row + n * per_sample);
    }
  return out;
}

std::vector<cd> correlate(CorrelatorEngine& engine, const std::vector<float>& block,
                          int64_t nsamples) {
  engine.accumulate(block.data(), nsamples);
  std::vector<cd> vis;
  engine.take(vis);
  return vis;
}

std::vector<cd> cpu_correlate(const CorrelatorShape& s, const std::vector<float>& block,
                              int64_t nsamples) {
  auto cpu = make_cpu_correlator(s, 2);
  return correlate(*cpu, block, nsamples);
}

size_t vis_index(const CorrelatorShape& s, int c, int a1, int a2, int p1, int p2) {
  return ((size_t(c) * s.nbaselines() + baseline_index(a1, a2)) * s.npol + p1) * s.npol + p2;
}

std::string shape_text(const CorrelatorShape& s, int64_t nsamples) {
  return std::to_string(s.nchan) + " chans x " + std::to_string(s.nant) + " ants x " +
         std::to_string(s.npol) + " pols x " + std::to_string(nsamples) + " samples";
}

// Every value bit for bit; the first few differences are named.
void expect_identical(const CorrelatorShape& s, const std::vector<cd>& gpu,
                      const std::vector<cd>& cpu) {
  ASSERT_EQ(gpu.size(), cpu.size());
  size_t differ = 0;
  for (int c = 0; c < s.nchan; ++c)
    for (int a2 = 0; a2 < s.nant; ++a2)
      for (int a1 = 0; a1 <= a2; ++a1)
        for (int p1 = 0; p1 < s.npol; ++p1)
          for (int p2 = 0; p2 < s.npol; ++p2) {
            const size_t k = vis_index(s, c, a1, a2, p1, p2);
            if (gpu[k] == cpu[k]) continue;
            if (++differ <= 5)
              ADD_FAILURE() << "chan " << c << " ants " << a1 << "," << a2 << " pols " << p1 << p2
                            << ": GPU " << gpu[k] << ", CPU " << cpu[k];
          }
  EXPECT_EQ(differ, 0u) << "of " << gpu.size();
}

// |GPU - CPU| <= tolerance sqrt(P1 P2), P from the CPU's autocorrelations.
void expect_close(const CorrelatorShape& s, const std::vector<cd>& gpu, const std::vector<cd>& cpu,
                  double tolerance) {
  ASSERT_EQ(gpu.size(), cpu.size());
  size_t differ = 0;
  double worst = 0.0;
  for (int c = 0; c < s.nchan; ++c)
    for (int a2 = 0; a2 < s.nant; ++a2)
      for (int a1 = 0; a1 <= a2; ++a1)
        for (int p1 = 0; p1 < s.npol; ++p1)
          for (int p2 = 0; p2 < s.npol; ++p2) {
            const size_t k = vis_index(s, c, a1, a2, p1, p2);
            const double p = std::sqrt(cpu[vis_index(s, c, a1, a1, p1, p1)].real() *
                                       cpu[vis_index(s, c, a2, a2, p2, p2)].real());
            const double error = std::abs(gpu[k] - cpu[k]) / p;
            worst = std::max(worst, std::isfinite(error) ? error : 1e30);
            if (error <= tolerance) continue;
            if (++differ <= 5)
              ADD_FAILURE() << "chan " << c << " ants " << a1 << "," << a2 << " pols " << p1 << p2
                            << ": GPU " << gpu[k] << ", CPU " << cpu[k] << " (error " << error
                            << " of sqrt(P1 P2))";
          }
  EXPECT_EQ(differ, 0u) << "of " << gpu.size() << "; largest error " << worst;
}

struct Case {
  int nchan, nant, npol;
  int64_t nsamples;
};

// Odd sizes: 1 to 300 receivers (64- and 128-receiver tiles, partial ones; from 128 receivers
// on, the wgmma kernels where the build has them), samples short of, just past and well past a
// kernel stage (16, 32 or 64 samples).
const Case kCases[] = {
    {1, 1, 1, 1},    {5, 1, 2, 37},   {1, 3, 1, 100}, {5, 3, 2, 65},   {1, 17, 2, 129},
    {5, 17, 1, 33},  {1, 70, 1, 200}, {5, 70, 2, 77}, {2, 150, 2, 70}, {1, 64, 2, 300},
    {2, 131, 1, 65},  {2, 48, 2, 50},   {1, 56, 2, 40},
};

void compare_with_cpu(CorrPrecision precision, double tolerance) {
  uint32_t seed = 1;
  for (const Case& k : kCases) {
    const CorrelatorShape s = make_shape(k.nchan, k.nant, k.npol, precision);
    SCOPED_TRACE(shape_text(s, k.nsamples));
    const std::vector<float> block = random_block(s, k.nsamples, seed++);
    auto gpu = make_gpu_correlator(s, 0);
    const std::vector<cd> got = correlate(*gpu, block, k.nsamples);
    auto cpu = make_cpu_correlator(s, 2);
    const std::vector<cd> want = correlate(*cpu, block, k.nsamples);
    if (precision == CorrPrecision::int8) {
      expect_identical(s, got, want);
      EXPECT_EQ(gpu->clamped_values(), cpu->clamped_values());
    } else {
      expect_close(s, got, want, tolerance);
    }
  }
}

TEST(CorrelatorGpu, Int8IsBitIdenticalToTheCpu) {
  SKIP_WITHOUT_GPU();
  compare_with_cpu(CorrPrecision::int8, 0.0);
}

TEST(CorrelatorGpu, Fp32MatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  compare_with_cpu(CorrPrecision::fp32, 1e-5);
}

// The fp32 kernel sums Gauss's three products, (ar + ai)(br + bi), ar bi and ai br, and takes
// re and im as their differences: where a strong common signal makes the three sums large and
// the differences small (receivers in quadrature or opposite phase), their rounding must still
// stay within 1e-5 of sqrt(P1 P2). Every receiver holds one tone at its own phase (a quarter
// turn apart, so that pairs are in phase, quadrature and opposition) and amplitude, with weak
// noise, over 4000 samples; 150 receivers give tiles on and off the diagonal.
TEST(CorrelatorGpu, Fp32CorrelatedTonesMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(2, 75, 2, CorrPrecision::fp32);
  const int64_t n = 4000;
  std::vector<float> block = random_block(s, n, 43);
  for (int c = 0; c < s.nchan; ++c)
    for (int a = 0; a < s.nant; ++a)
      for (int64_t t = 0; t < n; ++t)
        for (int p = 0; p < s.npol; ++p) {
          const int r = a * s.npol + p;
          const double phase = 0.5 * M_PI * r + 0.01 * double(t) * (c + 1);
          const double amplitude = 1.0 + 0.5 * (r % 7);
          const size_t k = ((((size_t(c) * s.nant + a) * n + t) * s.npol) + p) * 2;
          block[k] = float(amplitude * std::cos(phase) + 0.01 * block[k]);
          block[k + 1] = float(amplitude * std::sin(phase) + 0.01 * block[k + 1]);
        }
  auto gpu = make_gpu_correlator(s, 0);
  expect_close(s, correlate(*gpu, block, n), cpu_correlate(s, block, n), 1e-5);
}

TEST(CorrelatorGpu, Fp16MatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  compare_with_cpu(CorrPrecision::fp16, 1e-4);
}

// int8 and fp16 on the GPU against the CPU's sums (bit for bit, within 1e-4): dual-polarisation
// stations, random values.
void expect_tensor_paths_match_the_cpu(int nchan, int nant, int64_t nsamples, uint32_t seed) {
  for (const CorrPrecision precision : {CorrPrecision::int8, CorrPrecision::fp16}) {
    const CorrelatorShape s = make_shape(nchan, nant, 2, precision);
    SCOPED_TRACE(shape_text(s, nsamples));
    const std::vector<float> block = random_block(s, nsamples, seed);
    auto gpu = make_gpu_correlator(s, 0);
    const std::vector<cd> got = correlate(*gpu, block, nsamples);
    if (precision == CorrPrecision::int8)
      expect_identical(s, got, cpu_correlate(s, block, nsamples));
    else
      expect_close(s, got, cpu_correlate(s, block, nsamples), 1e-4);
  }
}

// 150 dual-polarisation stations over 24 channels: more tiles than one wave of blocks on an
// H100 (the wgmma kernels, where the build has them); the cases above fit in one.
TEST(CorrelatorGpu, ManyChannelsOfManyStationsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_tensor_paths_match_the_cpu(24, 150, 200, 24);
}

// 64 dual-polarisation stations (one 128-receiver tile, whose diagonal's lower half the wgmma
// kernels take as 64 columns) over 300 and 140 channels: more tiles than one round of blocks,
// the last round's split over the samples; 100 samples are fewer stages than the wgmma
// kernels copy ahead, 1000 samples more.
TEST(CorrelatorGpu, ManyChannelsOfOneTileMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_tensor_paths_match_the_cpu(300, 64, 100, 25);
  expect_tensor_paths_match_the_cpu(140, 64, 1000, 32);
}

// 250 and 270 dual-polarisation stations: 4 and 5 tiles of 128 receivers a side for the wgmma
// kernels, the last part-full, in launches of 20 and 15 tiles (each split over the samples).
TEST(CorrelatorGpu, FourAndFiveTilesASideMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_tensor_paths_match_the_cpu(2, 250, 300, 29);
  expect_tensor_paths_match_the_cpu(1, 270, 130, 30);
}

// 520 dual-polarisation stations: 9 tiles of 128 receivers a side, which the wgmma kernels take
// in pairs sharing their column rows, the columns' odd tiles paired among themselves and the
// last of those (column 8's) with an idle partner; 3 channels, the last round split.
TEST(CorrelatorGpu, NineTilesASideMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  expect_tensor_paths_match_the_cpu(3, 520, 130, 31);
}

// Launches of fewer tiles than the GPU has SMs: the wgmma kernels split each tile over the
// samples (up to 8 pieces; 2 channels of 150 stations are 12 tiles) and add the pieces' sums.
// The same data twice give the same sums, bit for bit, whichever piece ended last.
TEST(CorrelatorGpu, TilesSplitOverTheSamplesMatchTheCpuAndRepeatExactly) {
  SKIP_WITHOUT_GPU();
  expect_tensor_paths_match_the_cpu(1, 64, 4096, 26);
  expect_tensor_paths_match_the_cpu(2, 150, 1000, 27);
  const CorrelatorShape s = make_shape(1, 64, 2, CorrPrecision::fp16);
  const std::vector<float> block = random_block(s, 4096, 28);
  auto gpu = make_gpu_correlator(s, 0);
  const std::vector<cd> first = correlate(*gpu, block, 4096);
  const std::vector<cd> again = correlate(*gpu, block, 4096);
  ASSERT_EQ(first.size(), again.size());
  size_t differ = 0;
  for (size_t k = 0; k < first.size(); ++k) differ += first[k] != again[k];
  EXPECT_EQ(differ, 0u) << "sums differ between two runs of the same data";
}

TEST(CorrelatorGpu, Int8CountsClampedValuesAsTheCpuDoes) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(2, 3, 2, CorrPrecision::int8);
  std::vector<float> block = random_block(s, 40, 7);
  block[0] = -128.0f;  // clamped to -127
  block[1] = 127.4f;   // rounds to 127: not clamped
  block[2] = 300.0f;
  block[3] = -1e9f;
  block[4] = std::nanf("");
  auto gpu = make_gpu_correlator(s, 0);
  auto cpu = make_cpu_correlator(s, 1);
  expect_identical(s, correlate(*gpu, block, 40), correlate(*cpu, block, 40));
  EXPECT_EQ(gpu->clamped_values(), cpu->clamped_values());
  EXPECT_GE(gpu->clamped_values(), 4);
}

// A block in three calls sums to what it does in one (int8: exactly; float: within tolerance).
TEST(CorrelatorGpu, SeveralAccumulatesEqualOne) {
  SKIP_WITHOUT_GPU();
  for (const CorrPrecision precision :
       {CorrPrecision::int8, CorrPrecision::fp16, CorrPrecision::fp32}) {
    const CorrelatorShape s = make_shape(3, 17, 2, precision);
    SCOPED_TRACE(int(precision));
    const int64_t n = 300;
    const std::vector<float> block = random_block(s, n, 11);
    auto gpu = make_gpu_correlator(s, 0);
    const int64_t cuts[] = {0, 100, 177, 300};
    for (int i = 0; i < 3; ++i) {
      const std::vector<float> part = time_slice(s, block, n, cuts[i], cuts[i + 1] - cuts[i]);
      gpu->accumulate(part.data(), cuts[i + 1] - cuts[i]);
    }
    EXPECT_EQ(gpu->samples_accumulated(), n);
    std::vector<cd> pieces;
    gpu->take(pieces);
    const std::vector<cd> whole = cpu_correlate(s, block, n);
    if (precision == CorrPrecision::int8)
      expect_identical(s, pieces, whole);
    else
      expect_close(s, pieces, whole, precision == CorrPrecision::fp16 ? 1e-4 : 1e-5);
  }
}

TEST(CorrelatorGpu, TakeStartsAgainFromZero) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(2, 5, 2, CorrPrecision::int8);
  const std::vector<float> first = random_block(s, 90, 21), second = random_block(s, 50, 22);
  auto gpu = make_gpu_correlator(s, 0);
  gpu->accumulate(first.data(), 90);
  std::vector<cd> vis;
  gpu->take(vis);
  EXPECT_EQ(gpu->samples_accumulated(), 0);
  expect_identical(s, correlate(*gpu, second, 50), cpu_correlate(s, second, 50));
}

// Sums past 2^31 in one call and over several: the int32 partial sums must reach the 64-bit
// sums at least every kInt8SafeSamples samples. Every product is +-2 127^2, so the
// autocorrelations are exactly 2 127^2 T.
TEST(CorrelatorGpu, Int8SumsPastTwoToThe31AreExact) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(1, 2, 2, CorrPrecision::int8);
  const int64_t n = 2 * kInt8SafeSamples + 1000;
  std::vector<float> block(size_t(s.nant) * n * s.npol * 2);
  std::mt19937 rng(5);
  for (size_t k = 0; k < block.size(); ++k)
    block[k] = k < block.size() / 2 ? 127.0f : (rng() & 1 ? 127.0f : -127.0f);
  const std::vector<cd> want = cpu_correlate(s, block, n);
  ASSERT_EQ(want[vis_index(s, 0, 0, 0, 0, 0)], cd(2.0 * 127 * 127 * double(n), 0.0));
  ASSERT_GT(want[vis_index(s, 0, 0, 0, 1, 1)].real(), 2147483648.0);

  auto gpu = make_gpu_correlator(s, 0);
  expect_identical(s, correlate(*gpu, block, n), want);
  // The same in calls of kInt8SafeSamples - 1 samples and a remainder.
  for (int64_t t0 = 0; t0 < n; t0 += kInt8SafeSamples - 1) {
    const int64_t part = std::min(kInt8SafeSamples - 1, n - t0);
    const std::vector<float> piece = time_slice(s, block, n, t0, part);
    gpu->accumulate(piece.data(), part);
  }
  std::vector<cd> vis;
  gpu->take(vis);
  expect_identical(s, vis, want);
}

// Tensor cores truncate as they sum; the engine keeps each launch short (4096 samples), so a
// long fp16 integration stays within the tolerance (one launch of 20000 samples would not:
// about 2.5e-4 of sqrt(P1 P2) on an H100).
TEST(CorrelatorGpu, Fp16LongIntegrationsStayAccurate) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(1, 3, 2, CorrPrecision::fp16);
  const int64_t n = 20000;
  const std::vector<float> block = random_block(s, n, 41);
  auto gpu = make_gpu_correlator(s, 0);
  expect_close(s, correlate(*gpu, block, n), cpu_correlate(s, block, n), 1e-4);
}

TEST(CorrelatorGpu, AnEmptyCallAddsNothing) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(1, 4, 1, CorrPrecision::fp32);
  auto gpu = make_gpu_correlator(s, 0);
  gpu->accumulate(nullptr, 0);
  std::vector<cd> vis;
  gpu->take(vis);
  ASSERT_EQ(vis.size(), s.nvis());
  for (const cd& v : vis) EXPECT_EQ(v, cd(0.0, 0.0));
  EXPECT_EQ(gpu->name(), "gpu:0");
}

TEST(CorrelatorGpu, AMissingDeviceIsADataError) {
  if (!kGpuCorrelatorBuilt) GTEST_SKIP() << "built without CUDA";
  EXPECT_THROW(make_gpu_correlator(make_shape(1, 2, 2, CorrPrecision::int8), 99), DataError);
}

#ifdef RAPT_WITH_CUDA
// Chunks of a few KiB: the block is cut in channels and in time, every cut must give the sums
// one chunk gives.
TEST(CorrelatorGpu, SmallChunksGiveTheSameSums) {
  SKIP_WITHOUT_GPU();
  for (const CorrPrecision precision :
       {CorrPrecision::int8, CorrPrecision::fp16, CorrPrecision::fp32}) {
    const CorrelatorShape s = make_shape(5, 17, 2, precision);
    SCOPED_TRACE(int(precision));
    const int64_t n = 333;
    const std::vector<float> block = random_block(s, n, 31);
    for (const size_t chunk_bytes : {size_t(1), size_t(20000), size_t(100000)}) {
      auto gpu = gpu::make_cuda_correlator(s, 0, chunk_bytes);
      const std::vector<cd> got = correlate(*gpu, block, n);
      const std::vector<cd> want = cpu_correlate(s, block, n);
      if (precision == CorrPrecision::int8)
        expect_identical(s, got, want);
      else
        expect_close(s, got, want, precision == CorrPrecision::fp16 ? 1e-4 : 1e-5);
    }
  }
}

// An integration's first launch for each chunk of channels writes the sums rather than adding
// to them: a second integration must not see the first's sums, nor a take with nothing added.
// 150 dual-polarisation stations (the wgmma kernels where the build has them) in chunks of one
// channel and one kernel stage, so that most launches add and some write.
TEST(CorrelatorGpu, EachIntegrationStartsFromNothing) {
  SKIP_WITHOUT_GPU();
  for (const CorrPrecision precision :
       {CorrPrecision::int8, CorrPrecision::fp16, CorrPrecision::fp32}) {
    const CorrelatorShape s = make_shape(2, 150, 2, precision);
    SCOPED_TRACE(int(precision));
    const int64_t n1 = 150, n2 = 70;
    const std::vector<float> first = random_block(s, n1, 51), second = random_block(s, n2, 52);
    auto gpu = gpu::make_cuda_correlator(s, 0, 20000);
    const std::vector<float> head = time_slice(s, first, n1, 0, 100);
    const std::vector<float> tail = time_slice(s, first, n1, 100, n1 - 100);
    gpu->accumulate(head.data(), 100);
    gpu->accumulate(tail.data(), n1 - 100);
    std::vector<cd> got;
    gpu->take(got);
    const double tolerance = precision == CorrPrecision::fp16 ? 1e-4 : 1e-5;
    if (precision == CorrPrecision::int8)
      expect_identical(s, got, cpu_correlate(s, first, n1));
    else
      expect_close(s, got, cpu_correlate(s, first, n1), tolerance);
    gpu->take(got);
    ASSERT_EQ(got.size(), s.nvis());
    EXPECT_EQ(std::count(got.begin(), got.end(), cd(0.0, 0.0)), std::ptrdiff_t(got.size()))
        << "a take with nothing added";
    if (precision == CorrPrecision::int8)
      expect_identical(s, correlate(*gpu, second, n2), cpu_correlate(s, second, n2));
    else
      expect_close(s, correlate(*gpu, second, n2), cpu_correlate(s, second, n2), tolerance);
  }
}

// int8 sums are int32 pairs on the GPU, added into 64-bit sums before they would hold more than
// kInt8SafeSamples samples. With the channels in chunks of one, a long integration (widened
// once mid-way and once at its take) must be exact, and leave nothing behind for a short one
// (never widened) nor for a long one after that.
TEST(CorrelatorGpu, Int8WidenedSumsLeaveNothingBehind) {
  SKIP_WITHOUT_GPU();
  const CorrelatorShape s = make_shape(3, 5, 2, CorrPrecision::int8);
  const int64_t n_long = kInt8SafeSamples + 3000, n_short = 200;
  const std::vector<float> long_block = random_block(s, n_long, 61);
  const std::vector<float> short_block = random_block(s, n_short, 62);
  const std::vector<cd> long_want = cpu_correlate(s, long_block, n_long);
  const std::vector<cd> short_want = cpu_correlate(s, short_block, n_short);
  auto gpu = gpu::make_cuda_correlator(s, 0, 20000);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    expect_identical(s, correlate(*gpu, long_block, n_long), long_want);
    expect_identical(s, correlate(*gpu, short_block, n_short), short_want);
  }
}
#endif

}  // namespace
}  // namespace rapt
