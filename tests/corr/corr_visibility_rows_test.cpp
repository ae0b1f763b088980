// One integration's sums into rows: baseline order (antenna 2 slowest), no conjugation, the
// mean over valid samples and averaged channels, weights n K, flags for n = 0, the products
// reordered to XX YY XY YX, --no-autos, and uvw = antenna 1 - antenna 2.
#include "corr/visibility_rows.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <stdexcept>
#include <vector>

#include "corr/correlator_engine.hpp"

namespace rapt {
namespace {

using cd = std::complex<double>;
constexpr int kAnt = 3, kChan = 4, kPol = 2;
constexpr int kBl = kAnt * (kAnt + 1) / 2;

// A sum that names where it came from: channel, baseline and engine product.
cd tagged(int c, int bl, int product) { return {100.0 * c + 10.0 * bl + product, -1.0 - bl}; }

std::vector<cd> tagged_sums() {
  std::vector<cd> sums(size_t(kChan) * kBl * kPol * kPol);
  for (int c = 0; c < kChan; ++c)
    for (int bl = 0; bl < kBl; ++bl)
      for (int p = 0; p < kPol * kPol; ++p) sums[size_t((c * kBl + bl) * 4 + p)] = tagged(c, bl, p);
  return sums;
}

RowSettings settings(int chan_avg, bool autos) {
  RowSettings s;
  s.nant = kAnt, s.nchan = kChan, s.npol = kPol, s.chan_avg = chan_avg, s.autos = autos;
  s.products = correlation_products(kPol, false);
  return s;
}

VisibilitySet metadata(int chan_avg) {
  VisibilitySet m;
  std::vector<double> f{1.0e9, 1.1e9, 1.2e9, 1.3e9};
  m.channel_freq_hz = averaged_channel_freqs(f, chan_avg);
  m.stokes = correlation_products(kPol, false).stokes;
  return m;
}

const std::vector<Vector3> kUvw{{1, 2, 3}, {10, 20, 30}, {-5, 7, 11}};

TEST(CorrVisibilityRows, RowsFollowTheEngineOrderWithMeansAndWeights) {
  VisibilitySet rows = metadata(1);
  const std::vector<int64_t> counts{10, 20, 40, 8, 0, 5};
  append_integration_rows(settings(1, true), tagged_sums(), counts, 60000.25, 2.5, kUvw, rows);
  ASSERT_EQ(rows.nrows(), size_t(kBl));
  const int a1[] = {0, 0, 1, 0, 1, 2}, a2[] = {0, 1, 1, 2, 2, 2};
  const int engine_product[] = {0, 3, 1, 2};  // XX YY XY YX from XX XY YX YY
  for (int r = 0; r < kBl; ++r) {
    EXPECT_EQ(rows.antenna1[size_t(r)], a1[r]);
    EXPECT_EQ(rows.antenna2[size_t(r)], a2[r]);
    EXPECT_EQ(baseline_index(a1[r], a2[r]), r);
    EXPECT_EQ(rows.time_mjd[size_t(r)], 60000.25);
    EXPECT_EQ(rows.integration_s[size_t(r)], 2.5f);
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(rows.uvw_m[size_t(r)][k], kUvw[size_t(a1[r])][k] - kUvw[size_t(a2[r])][k]);
    for (int c = 0; c < kChan; ++c)
      for (int p = 0; p < 4; ++p) {
        const size_t i = rows.index(size_t(r), size_t(c), size_t(p));
        if (counts[size_t(r)] == 0) {
          EXPECT_EQ(rows.flag[i], 1);
          EXPECT_EQ(rows.weight[i], 0.0f);
          EXPECT_EQ(rows.vis[i], std::complex<float>(0, 0));
          continue;
        }
        EXPECT_EQ(rows.flag[i], 0);
        EXPECT_EQ(rows.weight[i], float(counts[size_t(r)]));
        const cd expected = tagged(c, r, engine_product[p]) / double(counts[size_t(r)]);
        EXPECT_NEAR(std::abs(cd(rows.vis[i]) - expected), 0.0, 1e-4) << r << " " << c << " " << p;
      }
  }
}

TEST(CorrVisibilityRows, ChannelAveragingIsTheMeanOfAdjacentChannels) {
  VisibilitySet rows = metadata(2);
  ASSERT_EQ(rows.nchan(), 2u);
  EXPECT_DOUBLE_EQ(rows.channel_freq_hz[0], 1.05e9);
  EXPECT_DOUBLE_EQ(rows.channel_freq_hz[1], 1.25e9);
  const std::vector<int64_t> counts(kBl, 4);
  append_integration_rows(settings(2, true), tagged_sums(), counts, 0, 1, kUvw, rows);
  const int bl = 3, p = 2;  // baseline 0-2, file product XY = engine product 1
  for (int c = 0; c < 2; ++c) {
    const cd expected = (tagged(2 * c, bl, 1) + tagged(2 * c + 1, bl, 1)) / (4.0 * 2);
    const size_t i = rows.index(size_t(bl), size_t(c), size_t(p));
    EXPECT_NEAR(std::abs(cd(rows.vis[i]) - expected), 0.0, 1e-4);
    EXPECT_EQ(rows.weight[i], 8.0f);
  }
}

TEST(CorrVisibilityRows, NoAutosLeavesTheCrossCorrelationsInOrder) {
  VisibilitySet rows = metadata(1);
  append_integration_rows(settings(1, false), tagged_sums(), std::vector<int64_t>(kBl, 1), 0, 1,
                          kUvw, rows);
  ASSERT_EQ(rows.nrows(), 3u);
  EXPECT_EQ(rows.antenna1, (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(rows.antenna2, (std::vector<int>{1, 2, 2}));
  EXPECT_NEAR(rows.vis[rows.index(0, 0, 0)].real(), tagged(0, 1, 0).real(), 1e-4);
}

TEST(CorrVisibilityRows, RowsAppendAndClearKeepsTheMetadata) {
  VisibilitySet rows = metadata(1);
  append_integration_rows(settings(1, true), tagged_sums(), std::vector<int64_t>(kBl, 1), 1, 1, kUvw, rows);
  append_integration_rows(settings(1, true), tagged_sums(), std::vector<int64_t>(kBl, 1), 2, 1, kUvw, rows);
  EXPECT_EQ(rows.nrows(), size_t(2 * kBl));
  EXPECT_EQ(rows.vis.size(), size_t(2 * kBl * kChan * 4));
  clear_rows(rows);
  EXPECT_EQ(rows.nrows(), 0u);
  EXPECT_TRUE(rows.vis.empty() && rows.weight.empty() && rows.flag.empty() && rows.uvw_m.empty());
  EXPECT_EQ(rows.nchan(), size_t(kChan));
  EXPECT_EQ(rows.stokes.size(), 4u);
}

TEST(CorrVisibilityRows, RefusesSizesThatDisagree) {
  VisibilitySet rows = metadata(1);
  EXPECT_THROW(append_integration_rows(settings(1, true), tagged_sums(), std::vector<int64_t>(5, 1),
                                       0, 1, kUvw, rows), std::invalid_argument);
  EXPECT_THROW(append_integration_rows(settings(2, true), tagged_sums(), std::vector<int64_t>(kBl, 1),
                                       0, 1, kUvw, rows), std::invalid_argument);
  EXPECT_THROW(averaged_channel_freqs({1, 2, 3}, 2), std::invalid_argument);
}

}  // namespace
}  // namespace rapt
