// The GPU boxcar engine against the CPU engine (skipped without a GPU). Both compute the same
// boxcar sums; the CPU in double over the whole series, the GPU in float over tile-local
// prefix sums, so values agree to about 1e-4 and a hit may be missing on one side only when its
// value lies within that of the threshold. The list of hits is made long enough to overflow
// the GPU's first hit buffer, so the re-run path is exercised too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "gpu_device.hpp"
#include "snr/single_pulse_search.hpp"
#include "snr_test_support.hpp"

namespace rapt {
namespace {

constexpr float kTolerance = 2e-3f;

using HitKey = std::tuple<int32_t, int32_t, int64_t>;

std::map<HitKey, float> by_key(const std::vector<BoxcarHit>& hits) {
  std::map<HitKey, float> out;
  for (const BoxcarHit& h : hits) out[{h.series, h.width_index, h.sample}] = h.snr;
  return out;
}

std::vector<float> test_series(int nseries, int64_t length) {
  std::vector<float> all;
  for (int s = 0; s < nseries; ++s) {
    std::vector<float> x = testing::gaussian_noise(length, 900 + uint64_t(s));
    // 20 pulses up to 300 samples wide, 4900 samples apart where the series is long enough.
    const int64_t spacing = std::min<int64_t>(4900, (length - 1000 - 300 - nseries) / 20);
    for (int k = 0; k < 20; ++k)
      testing::add_boxcar_pulse(x, 1000 + k * spacing + s, 1 + (k * 17) % 300, 1.0f + k * 0.3f);
    x[0] += 12.0f;                       // pulses at both ends: zeros outside the series
    x[size_t(length - 1)] += 12.0f;
    all.insert(all.end(), x.begin(), x.end());
  }
  return all;
}

void expect_same_hits(const std::vector<BoxcarHit>& cpu, const std::vector<BoxcarHit>& gpu,
                      float threshold) {
  const auto c = by_key(cpu), g = by_key(gpu);
  size_t matched = 0;
  for (const auto& [key, value] : c) {
    const auto it = g.find(key);
    if (it == g.end()) {
      EXPECT_LT(value - threshold, kTolerance) << "GPU misses a hit of S/N " << value;
      continue;
    }
    ++matched;
    ASSERT_NEAR(it->second, value, kTolerance * std::max(1.0f, std::fabs(value) / 10.0f));
  }
  for (const auto& [key, value] : g) {
    if (!c.count(key)) {
      EXPECT_LT(value - threshold, kTolerance) << "GPU-only hit " << value;
    }
  }
  EXPECT_GT(matched, 0.999 * double(c.size()));
}

TEST(SnrGpuEquivalence, GpuEngineFindsTheCpuEnginesHits) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  const int nseries = 12;
  const int64_t length = 100000;
  const std::vector<float> series = test_series(nseries, length);
  // Widest 30: PRESTO's default widths (the kernel's register path); 300: its general path.
  // Threshold 2: more hits than the GPU's first list holds.
  for (const auto& [max_width, threshold] : {std::pair<int, float>{30, 5.0f}, {300, 5.0f},
                                             {30, 2.0f}, {300, 2.0f}}) {
    SCOPED_TRACE("widths up to " + std::to_string(max_width) + ", threshold " +
                 std::to_string(threshold));
    const std::vector<int> widths = boxcar_widths_up_to(max_width);
    auto cpu = make_cpu_boxcar_engine(widths, threshold, 2);
    auto gpu = make_gpu_boxcar_engine(widths, threshold, 0);
    const auto cpu_hits = cpu->find_hits(series, nseries, length);
    const auto gpu_hits = gpu->find_hits(series, nseries, length);
    // At threshold 2 with 15 widths, about 410,000 hits: past the first list of 2^18.
    ASSERT_GT(cpu_hits.size(), threshold > 3 ? 100u : max_width == 300 ? size_t(1) << 18 : 100000u);
    expect_same_hits(cpu_hits, gpu_hits, threshold);
  }
}

TEST(SnrGpuEquivalence, SearchGivesTheSameEventsOnBothEngines) {
  if (gpu_device_count() == 0) GTEST_SKIP() << "no GPU";
  std::vector<SeriesInput> batch;
  const std::vector<float> all = test_series(4, 64000);
  for (int s = 0; s < 4; ++s) {
    SeriesInput in;
    in.path = "s" + std::to_string(s) + ".dat";
    in.dm = s;
    in.dt_s = 1e-3;
    in.samples.assign(all.begin() + s * 64000, all.begin() + (s + 1) * 64000);
    in.total_samples = in.usable_samples = 64000;
    batch.push_back(in);
  }
  SnrSettings settings;
  settings.widths = boxcar_widths_up_to(300);
  auto cpu = make_cpu_boxcar_engine(settings.widths, float(settings.threshold), 2);
  auto gpu = make_gpu_boxcar_engine(settings.widths, float(settings.threshold), 0);
  const auto a = search_batch(batch, settings, *cpu, 2);
  const auto b = search_batch(batch, settings, *gpu, 2);
  ASSERT_EQ(a.size(), b.size());
  // Pruning keeps the stronger of two nearby hits, so two values within the engines' 1e-4 of
  // each other may be kept differently; nearly all events must agree exactly, and the
  // strongest event of each series always.
  for (size_t s = 0; s < a.size(); ++s) {
    ASSERT_GT(a[s].size(), 10u);
    std::map<std::pair<int64_t, int>, double> gpu_events;
    for (const auto& e : b[s]) gpu_events[{e.sample, e.downfact}] = e.sigma;
    size_t matched = 0;
    for (const auto& e : a[s]) {
      const auto it = gpu_events.find({e.sample, e.downfact});
      if (it != gpu_events.end() && std::fabs(it->second - e.sigma) < 0.02) ++matched;
    }
    EXPECT_GE(double(matched), 0.99 * double(std::max(a[s].size(), b[s].size())))
        << "series " << s << ": " << matched << " of " << a[s].size() << " CPU and "
        << b[s].size() << " GPU events agree";
    auto strongest = [](const std::vector<SinglePulseEvent>& events) {
      return *std::max_element(events.begin(), events.end(),
                               [](const auto& x, const auto& y) { return x.sigma < y.sigma; });
    };
    ASSERT_FALSE(b[s].empty());
    EXPECT_EQ(strongest(a[s]).sample, strongest(b[s]).sample) << "series " << s;
    EXPECT_EQ(strongest(a[s]).downfact, strongest(b[s]).downfact) << "series " << s;
    EXPECT_NEAR(strongest(a[s]).sigma, strongest(b[s]).sigma, 0.02) << "series " << s;
  }
}

}  // namespace
}  // namespace rapt
