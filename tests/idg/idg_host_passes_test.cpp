// The host passes of an engine call (idg_host_passes.hpp) against plain loops over
// IdgVisibilities::weight_of and index, and the planner's answer against its thread count and
// its two ways of grouping rows by baseline.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "idg/idg_host_passes.hpp"
#include "idg/idg_plan.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

IdgSettings pass_settings(int npol) {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 8;
  s.max_channels_per_subgrid = 4;
  s.npol = npol;
  return s;
}

// 4 products per row and channel, of which the planned polarisations take a permutation;
// scattered flags (with NaN values under them) and zero weights.
struct FlaggedObservation {
  testing::IdgObservation obs;
  std::vector<uint8_t> flags;
  IdgVisibilities view(int npol) const {
    IdgVisibilities v = obs.view();
    v.product_index = npol == 4 ? std::array<int, 4>{0, 2, 1, 3} : std::array<int, 4>{3, 1, 0, 0};
    v.flag = flags.data();
    return v;
  }
};

FlaggedObservation flagged_observation() {
  FlaggedObservation f;
  f.obs = testing::make_idg_observation(7, 400.0, 50.0, 20, 0.02, 10, 150e6, 1e6, 4);
  f.flags.assign(f.obs.vis.size(), 0);
  for (size_t i = 0; i < f.obs.vis.size(); ++i)
    f.obs.vis[i] = {float(std::sin(0.1 * double(i))), float(std::cos(0.3 * double(i)))};
  for (size_t i = 0; i < f.obs.vis.size(); i += 11) {
    f.flags[i] = 1;
    f.obs.vis[i] = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
  }
  for (size_t i = 5; i < f.obs.vis.size(); i += 13) f.obs.weight[i] = 0;
  return f;
}

class IdgHostPasses : public ::testing::TestWithParam<int> {};

// Every subgrid of the plan, packed one after another in plan order or `reversed`.
struct PackedPlan {
  std::vector<size_t> subgrids, offsets;
  size_t values = 0;
  PackedPlan(const IdgPlan& plan, bool reversed) {
    for (size_t i = 0; i < plan.subgrids.size(); ++i) {
      subgrids.push_back(reversed ? plan.subgrids.size() - 1 - i : i);
      offsets.push_back(values);
      const IdgSubgrid& sub = plan.subgrids[subgrids.back()];
      values += size_t(sub.nr_timesteps) * sub.nr_channels;
    }
  }
};

TEST_P(IdgHostPasses, PackingMatchesTheValuesOneByOne) {
  const int npol = GetParam();
  const FlaggedObservation f = flagged_observation();
  const IdgVisibilities vis = f.view(npol);
  const IdgPlan plan = make_idg_plan(pass_settings(npol), vis);
  ASSERT_GT(plan.subgrids.size(), 40u);  // more than one group of subgrids
  // Weighted values, unit values, and weighted values with their weights beside.
  for (int mode : {0, 1, 2})
    for (bool reversed : {false, true}) {
      const bool unit = mode == 1, with_weights = mode == 2;
      const PackedPlan packing(plan, reversed);
      std::vector<std::complex<float>> packed(packing.values * npol, {5.0f, 5.0f});
      std::vector<float> weights(packing.values * npol, -1.0f);
      std::vector<double> sums(plan.subgrids.size() * npol, -1.0);
      if (with_weights)
        idg_pack_subgrids_and_weights(plan, vis, packing.subgrids.data(), packing.offsets.data(),
                                      packing.subgrids.size(), packed.data(), weights.data(),
                                      sums.data(), 3);
      else
        idg_pack_subgrids(plan, vis, unit, packing.subgrids.data(), packing.offsets.data(),
                          packing.subgrids.size(), packed.data(), sums.data(), 3);
      for (size_t j = 0; j < packing.subgrids.size(); ++j) {
        const IdgSubgrid& sub = plan.subgrids[packing.subgrids[j]];
        std::vector<double> expected_sums(size_t(npol), 0.0);
        size_t k = packing.offsets[j] * npol;
        for (int t = 0; t < sub.nr_timesteps; ++t) {
          const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
          for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c)
            for (int p = 0; p < npol; ++p, ++k) {
              const float w = vis.weight_of(row, size_t(c), p);
              expected_sums[size_t(p)] += w;
              const std::complex<float> v = vis.vis[vis.index(row, size_t(c), p)];
              const std::complex<float> expected =
                  w == 0 ? std::complex<float>()
                         : unit ? std::complex<float>(w, 0.0f)
                                : std::complex<float>(w * v.real(), w * v.imag());
              ASSERT_EQ(packed[k], expected) << j << " " << t << " " << c << " " << p;
              if (with_weights) {
                ASSERT_EQ(weights[k], w) << j << " " << t << " " << c << " " << p;
              }
            }
        }
        for (int p = 0; p < npol; ++p)
          EXPECT_EQ(sums[packing.subgrids[j] * npol + size_t(p)], expected_sums[size_t(p)]);
        std::vector<double> one(static_cast<size_t>(npol));
        idg_subgrid_weight_sums(plan, sub, vis, one.data());
        EXPECT_EQ(one, expected_sums);
      }
    }
}

TEST_P(IdgHostPasses, WeightSumsGoSubgridBySubgridWhateverTheThreads) {
  const int npol = GetParam();
  const FlaggedObservation f = flagged_observation();
  const IdgVisibilities vis = f.view(npol);
  const IdgPlan plan = make_idg_plan(pass_settings(npol), vis);
  std::vector<double> expected(size_t(npol), 0.0);
  for (const IdgSubgrid& sub : plan.subgrids) {
    std::vector<double> part(size_t(npol), 0.0);
    for (int t = 0; t < sub.nr_timesteps; ++t) {
      const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
      for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c)
        for (int p = 0; p < npol; ++p) part[size_t(p)] += vis.weight_of(row, size_t(c), p);
    }
    for (int p = 0; p < npol; ++p) expected[size_t(p)] += part[size_t(p)];
  }
  EXPECT_EQ(idg_weight_sums(plan, vis, 1), expected);
  EXPECT_EQ(idg_weight_sums(plan, vis, 3), expected);
}

TEST_P(IdgHostPasses, UnpackingAndZeroingWriteEveryPlannedProductOnce) {
  const int npol = GetParam();
  FlaggedObservation f = flagged_observation();
  // One row planned on no subgrid: a baseline of its own, every weight 0.
  f.obs.antenna1.push_back(6), f.obs.antenna2.push_back(0), f.obs.uvw_m.push_back({1, 2, 3});
  for (int c = 0; c < 10 * 4; ++c) f.obs.vis.emplace_back(1.0f, 0.0f), f.obs.weight.push_back(0.0f);
  f.flags.resize(f.obs.vis.size(), 0);
  const IdgVisibilities vis = f.view(npol);
  const IdgPlan plan = make_idg_plan(pass_settings(npol), vis);
  const std::complex<float> untouched(7.0f, -7.0f);
  std::vector<std::complex<float>> predicted(f.obs.vis.size(), untouched);
  idg_zero_unplanned(plan, vis, 3, predicted.data());
  std::vector<int> planned(vis.nrows * vis.nchan, 0);
  const PackedPlan packing(plan, true);
  std::vector<std::complex<float>> values(packing.values * npol);
  for (size_t i = 0; i < values.size(); ++i) values[i] = {float(i), 1.0f};
  idg_unpack_subgrids(plan, vis, packing.subgrids.data(), packing.offsets.data(),
                      packing.subgrids.size(), values.data(), predicted.data(), 3);
  for (size_t j = 0; j < packing.subgrids.size(); ++j) {
    const IdgSubgrid& sub = plan.subgrids[packing.subgrids[j]];
    size_t k = packing.offsets[j] * npol;
    for (int t = 0; t < sub.nr_timesteps; ++t) {
      const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
      for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c) {
        ++planned[row * vis.nchan + size_t(c)];
        for (int p = 0; p < npol; ++p, ++k) ASSERT_EQ(predicted[vis.index(row, size_t(c), p)], values[k]);
      }
    }
  }
  size_t zeros = 0;
  for (size_t row = 0; row < vis.nrows; ++row)
    for (size_t c = 0; c < vis.nchan; ++c) {
      ASSERT_LE(planned[row * vis.nchan + c], 1);
      std::vector<bool> written(4, false);
      for (int p = 0; p < npol; ++p) {
        written[size_t(vis.product_index[size_t(p)])] = true;
        if (!planned[row * vis.nchan + c]) {
          ASSERT_EQ(predicted[vis.index(row, c, p)], std::complex<float>()) << row << " " << c;
          ++zeros;
        }
      }
      for (size_t q = 0; q < 4; ++q) {
        if (!written[q]) {
          ASSERT_EQ(predicted[(row * vis.nchan + c) * 4 + q], untouched);
        }
      }
    }
  EXPECT_GE(zeros, size_t(10 * npol));
}

INSTANTIATE_TEST_SUITE_P(Polarisations, IdgHostPasses, ::testing::Values(1, 2, 4));

TEST(IdgHostPasses, ImageFillAndScaleCoverEveryValue) {
  std::vector<std::complex<float>> values(1000003, {3.0f, -1.0f});
  idg_scale(values.data(), values.size(), 0.5f, 3);
  for (const std::complex<float>& v : values) ASSERT_EQ(v, std::complex<float>(1.5f, -0.5f));
  idg_fill_zero(values.data(), values.size(), 3);
  for (const std::complex<float>& v : values) ASSERT_EQ(v, std::complex<float>());
}

void expect_same_plan(const IdgPlan& a, const IdgPlan& b) {
  EXPECT_EQ(a.timestep_rows, b.timestep_rows);
  ASSERT_EQ(a.subgrids.size(), b.subgrids.size());
  for (size_t i = 0; i < a.subgrids.size(); ++i) {
    const IdgSubgrid &x = a.subgrids[i], &y = b.subgrids[i];
    ASSERT_EQ(x.first_timestep, y.first_timestep) << i;
    ASSERT_EQ(x.nr_timesteps, y.nr_timesteps) << i;
    ASSERT_EQ(x.first_channel, y.first_channel) << i;
    ASSERT_EQ(x.nr_channels, y.nr_channels) << i;
    ASSERT_EQ(x.w_layer, y.w_layer) << i;
    ASSERT_EQ(x.x, y.x) << i;
    ASSERT_EQ(x.y, y.y) << i;
  }
  EXPECT_EQ(a.visibilities_placed, b.visibilities_placed);
  EXPECT_EQ(a.unplaced_off_grid, b.unplaced_off_grid);
  EXPECT_EQ(a.unplaced_w, b.unplaced_w);
}

TEST(IdgPlanThreads, ThreadsAndAntennaNumberingDoNotChangeThePlan) {
  IdgSettings s = pass_settings(1);
  s.nr_w_layers = 8;
  s.w_step_lambda = 150.0;
  testing::IdgObservation obs = testing::make_idg_observation(9, 1200.0, 400.0, 30, 0.02, 6, 150e6, 1e6, 1);
  for (size_t i = 0; i < obs.weight.size(); i += 7) obs.weight[i] = 0;
  const IdgPlan one = make_idg_plan(s, obs.view(), 1);
  ASSERT_GT(one.subgrids.size(), 36u);
  expect_same_plan(one, make_idg_plan(s, obs.view(), 4));
  // Antenna numbers spread far apart (the grouping then sorts rather than counts) and
  // negative: the same baselines in the same order.
  for (size_t r = 0; r < obs.nrows(); ++r)
    obs.antenna1[r] = obs.antenna1[r] * 100000 - 300000, obs.antenna2[r] = obs.antenna2[r] * 100000 - 300000;
  expect_same_plan(one, make_idg_plan(s, obs.view(), 3));
}

}  // namespace
}  // namespace rapt
