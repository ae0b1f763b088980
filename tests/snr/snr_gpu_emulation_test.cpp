// The GPU boxcar kernel's per-thread code, run on the CPU by the emulation in gpu/ (a build
// with CUDA, no GPU needed), against the CPU engine: the same hits, values within 2e-3 (the
// kernel sums in float over one tile, the CPU engine in double over the whole series), series
// ends and tile edges included, PRESTO's default widths (the kernel's register path) and
// widths up to 300 (its general path).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>

#include "snr/boxcar_engine.hpp"
#include "snr/snr_settings.hpp"
#include "snr_test_support.hpp"

#ifdef RAPT_WITH_CUDA
#include "../../gpu/snr/snr_boxcar_emulation.hpp"

namespace rapt {
namespace {

class SnrGpuEmulation : public ::testing::TestWithParam<int> {};

// Widest boxcar 30: PRESTO's default widths, the kernel's register path; 300: the general path.
TEST_P(SnrGpuEmulation, KernelFindsTheCpuEnginesHits) {
  const int nseries = 3;
  const int64_t length = 5000;  // three tiles, the last one partial
  std::vector<float> series;
  for (int s = 0; s < nseries; ++s) {
    std::vector<float> x = testing::gaussian_noise(length, 40 + uint64_t(s));
    testing::add_boxcar_pulse(x, 0, 5, 3.0f);               // at the start
    testing::add_boxcar_pulse(x, gpu::kBoxcarTile - 8, 30, 1.5f);  // across a tile edge
    testing::add_boxcar_pulse(x, 4990, 10, 2.5f);           // at the end
    testing::add_boxcar_pulse(x, 3000 + 100 * s, 150, 0.6f);
    series.insert(series.end(), x.begin(), x.end());
  }
  const std::vector<int> widths = boxcar_widths_up_to(GetParam());
  const float threshold = 3.0f;
  std::vector<float> scales;
  for (int w : widths) scales.push_back(float(1.0 / std::sqrt(double(w))));
  gpu::BoxcarKernelParams p;
  p.series = series.data();
  p.length = length;
  p.num_series = nseries;
  p.first_series = 0;
  p.widths = widths.data();
  p.scales = scales.data();
  p.num_widths = int(widths.size());
  p.max_width = widths.back();
  p.threshold = threshold;
  p.default_widths = gpu::uses_default_boxcar_widths(widths.data(), int(widths.size()));
  EXPECT_EQ(p.default_widths, GetParam() == 30);
  const std::vector<gpu::DeviceBoxcarHit> emulated = gpu::emulate_boxcar_search(p);

  auto cpu = make_cpu_boxcar_engine(widths, threshold, 1);
  const std::vector<BoxcarHit> expected = cpu->find_hits(series, nseries, length);
  ASSERT_GT(expected.size(), 1000u);
  std::map<std::tuple<int, int, int64_t>, float> got;
  for (const auto& h : emulated) {
    EXPECT_TRUE(got.emplace(std::make_tuple(h.series, h.width_index, h.sample), h.snr).second)
        << "hit reported twice";
  }
  size_t matched = 0;
  for (const BoxcarHit& h : expected) {
    const auto it = got.find({h.series, h.width_index, h.sample});
    if (it == got.end()) {
      EXPECT_LT(h.snr - threshold, 2e-3f) << "missing hit: series " << h.series << " width "
                                          << widths[h.width_index] << " sample " << h.sample;
      continue;
    }
    ++matched;
    EXPECT_NEAR(it->second, h.snr, 2e-3f) << "series " << h.series << " width "
                                          << widths[h.width_index] << " sample " << h.sample;
    got.erase(it);
  }
  for (const auto& [key, snr] : got) EXPECT_LT(snr - threshold, 2e-3f) << "extra hit " << snr;
  EXPECT_GE(matched + 5, expected.size());
}

INSTANTIATE_TEST_SUITE_P(WidestBoxcar, SnrGpuEmulation, ::testing::Values(30, 300));

}  // namespace
}  // namespace rapt

#endif  // RAPT_WITH_CUDA
