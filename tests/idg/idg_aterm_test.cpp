// Known answers of IDG with A-terms (digest 002 §2.3): per-station, direction-dependent,
// time-dependent full Jones matrices. A point source seen through them is imaged as a direct
// DFT with the same matrices gives it and predicted as the measurement equation V = A1 B A2^H
// gives it; degridding stays the adjoint of gridding; the plan never lets a subgrid span two
// A-term slots; identity A-terms change nothing.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <random>

#include "cli/errors.hpp"
#include "idg/idg_aterms.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

using Jones = std::array<std::complex<double>, 4>;  // xx, xy, yx, yy

constexpr int kStations = 8, kTimes = 24, kSlots = 3;

IdgSettings aterm_settings() {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  // The A-terms below vary once across the field: their spectrum widens the taper's by one uv
  // pixel each way, which the kernel must hold.
  s.kernel_size = 11;
  s.npol = 4;
  return s;
}

// A smooth full-Jones pattern of station a in slot t at direction (l, m): a complex gain per
// station and slot, a beam varying once across the field S, and leakage terms.
Jones station_jones(int a, int t, double l, double m, double field) {
  const double kl = 2 * M_PI * l / field, km = 2 * M_PI * m / field;
  const std::complex<double> gain = std::polar(1.0 + 0.1 * a, 0.7 * a - 0.9 * t);
  const std::complex<double> i(0, 1);
  return {gain * (1.0 + 0.3 * std::cos(kl + 0.4 * a)),
          gain * 0.1 * std::exp(i * (km + 0.2 * t)),
          gain * (0.05 + 0.02 * a) * std::exp(-i * kl),
          gain * (0.8 + 0.2 * std::sin(km - 0.3 * a + 0.1 * t))};
}

// The pattern sampled at the subgrid pixels, as IdgATerms holds it.
IdgATerms sampled_aterms(const IdgSettings& s) {
  IdgATerms a = identity_aterms(kSlots, kStations, s.subgrid_size);
  const int nb = s.subgrid_size;
  for (int t = 0; t < kSlots; ++t)
    for (int st = 0; st < kStations; ++st)
      for (int j = 0; j < nb; ++j)
        for (int i = 0; i < nb; ++i) {
          const double l = -(i - nb / 2) * s.image_size / nb, m = (j - nb / 2) * s.image_size / nb;
          const Jones J = station_jones(st, t, l, m, s.image_size);
          for (int e = 0; e < 4; ++e) a.at(t, st)[(size_t(j) * nb + i) * 4 + e] = std::complex<float>(J[e]);
        }
  return a;
}

Jones times(const Jones& a, const Jones& b) {
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
          a[2] * b[1] + a[3] * b[3]};
}
Jones adjoint(const Jones& a) { return {std::conj(a[0]), std::conj(a[2]), std::conj(a[1]), std::conj(a[3])}; }

// Owns the observation, its slots and A-terms, and the view onto them.
struct ATermObservation {
  IdgSettings settings = aterm_settings();
  testing::IdgObservation obs =
      testing::make_idg_observation(kStations, 400.0, 50.0, kTimes, 0.02, 4, 150e6, 2e6, 4);
  std::vector<int> slot;
  IdgATerms aterms = sampled_aterms(settings);

  ATermObservation() {
    const size_t baselines = obs.nrows() / kTimes;
    for (size_t r = 0; r < obs.nrows(); ++r) slot.push_back(int(r / baselines) * kSlots / kTimes);
  }
  IdgVisibilities view() const {
    IdgVisibilities v = obs.view();
    v.aterms = &aterms;
    v.aterm_slot = slot.data();
    return v;
  }
};

// Brightness [[I + Q, U + iV], [U - iV, I - Q]] of a polarised source.
const Jones kBrightness = {{{2.3, 0.0}, {0.2, 0.1}, {0.2, -0.1}, {1.7, 0.0}}};
constexpr int kSourceDx = -40, kSourceDy = 25;  // pixels from the centre: east and north

TEST(IdgATerm, PointSourceThroughATermsIsImagedAsADirectDftWithThem) {
  ATermObservation o;
  const IdgSettings& s = o.settings;
  const int n = s.grid_size;
  const testing::IdgSource src{testing::pixel_l(s, n / 2 + kSourceDx), testing::pixel_m(s, n / 2 + kSourceDy), 1.0};
  const size_t nchan = o.obs.freq_hz.size();
  for (size_t r = 0; r < o.obs.nrows(); ++r) {
    const Jones j1 = station_jones(o.obs.antenna1[r], o.slot[r], src.l, src.m, s.image_size);
    const Jones j2 = station_jones(o.obs.antenna2[r], o.slot[r], src.l, src.m, s.image_size);
    const Jones seen = times(times(j1, kBrightness), adjoint(j2));
    for (size_t c = 0; c < nchan; ++c) {
      const std::complex<double> fringe = point_source_visibility(1.0, o.obs.uvw_m[r], o.obs.freq_hz[c], src.lmn());
      for (int p = 0; p < 4; ++p) o.obs.vis[(r * nchan + c) * 4 + p] = std::complex<float>(seen[p] * fringe);
    }
  }
  const IdgPlan plan = make_idg_plan(s, o.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  const IdgImage image = make_cpu_idg_engine(s, 2)->grid(plan, o.view());

  // The reference: sum_k [J1^H (w_k o V_k) J2]_p exp(-i phase) / sum_k w_kp, in double, with the
  // patterns evaluated at each image pixel itself.
  auto reference = [&](int x, int y) {
    const double l = testing::pixel_l(s, x), m = testing::pixel_m(s, y);
    const double n1 = std::sqrt(1.0 - l * l - m * m) - 1.0;
    Jones sum{};
    double weights[4] = {0, 0, 0, 0};
    for (size_t r = 0; r < o.obs.nrows(); ++r) {
      const Jones j1 = station_jones(o.obs.antenna1[r], o.slot[r], l, m, s.image_size);
      const Jones j2 = station_jones(o.obs.antenna2[r], o.slot[r], l, m, s.image_size);
      const std::array<double, 3>& uvw = o.obs.uvw_m[r];
      for (size_t c = 0; c < nchan; ++c) {
        Jones wv;
        for (int p = 0; p < 4; ++p) {
          const size_t i = (r * nchan + c) * 4 + p;
          wv[p] = double(o.obs.weight[i]) * std::complex<double>(o.obs.vis[i]);
          weights[p] += o.obs.weight[i];
        }
        const double phase = -2 * M_PI * (uvw[0] * l + uvw[1] * m + uvw[2] * n1) * o.obs.freq_hz[c] / kSpeedOfLight_m_s;
        const Jones corrected = times(times(adjoint(j1), wv), j2);
        for (int p = 0; p < 4; ++p) sum[p] += corrected[p] * std::polar(1.0, phase);
      }
    }
    for (int p = 0; p < 4; ++p) sum[p] /= weights[p];
    return sum;
  };
  const Jones peak = reference(n / 2 + kSourceDx, n / 2 + kSourceDy);
  const double scale = std::abs(peak[0]);
  ASSERT_GT(scale, 1.0);  // the source is there, brightened by the beams
  double worst = 0;
  std::vector<std::pair<int, int>> pixels = {{n / 2 + kSourceDx, n / 2 + kSourceDy}};
  for (int y = n / 10; y < n - n / 10; y += 9)
    for (int x = n / 10; x < n - n / 10; x += 9) pixels.emplace_back(x, y);
  for (const auto& [x, y] : pixels) {
    const Jones want = reference(x, y);
    for (int p = 0; p < 4; ++p)
      worst = std::max(worst, std::abs(std::complex<double>(image.plane(p)[size_t(y) * n + x]) - want[p]));
  }
  EXPECT_LE(worst, 1e-3 * scale) << "largest difference " << worst << " against a peak of " << scale;
}

TEST(IdgATerm, PointSourceModelPredictsTheMeasurementEquation) {
  ATermObservation o;
  const IdgSettings& s = o.settings;
  const int n = s.grid_size, x0 = n / 2 + kSourceDx, y0 = n / 2 + kSourceDy;
  IdgImage model;
  model.npol = 4;
  model.size = n;
  model.pixels.assign(size_t(4) * n * n, {0.0f, 0.0f});
  for (int p = 0; p < 4; ++p) model.plane(p)[size_t(y0) * n + x0] = std::complex<float>(kBrightness[p]);
  const testing::IdgSource src{testing::pixel_l(s, x0), testing::pixel_m(s, y0), 1.0};

  const IdgPlan plan = make_idg_plan(s, o.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  std::vector<std::complex<float>> predicted(o.obs.vis.size());
  make_cpu_idg_engine(s, 2)->degrid(plan, model, o.view(), predicted.data());
  const size_t nchan = o.obs.freq_hz.size();
  double worst = 0, largest = 0;
  for (size_t r = 0; r < o.obs.nrows(); ++r) {
    const Jones j1 = station_jones(o.obs.antenna1[r], o.slot[r], src.l, src.m, s.image_size);
    const Jones j2 = station_jones(o.obs.antenna2[r], o.slot[r], src.l, src.m, s.image_size);
    const Jones seen = times(times(j1, kBrightness), adjoint(j2));
    for (size_t c = 0; c < nchan; ++c) {
      const std::complex<double> fringe = point_source_visibility(1.0, o.obs.uvw_m[r], o.obs.freq_hz[c], src.lmn());
      for (int p = 0; p < 4; ++p) {
        const std::complex<double> want = seen[p] * fringe;
        largest = std::max(largest, std::abs(want));
        worst = std::max(worst, std::abs(want - std::complex<double>(predicted[(r * nchan + c) * 4 + p])));
      }
    }
  }
  ASSERT_GT(largest, 1.0);
  EXPECT_LE(worst, 1e-3 * largest) << "largest error " << worst << " of visibilities up to " << largest;
}

// <degrid(I), w V> = <I, sum(w) grid(V)> with random, unsmooth A-terms: the adjoint holds for
// any matrices.
TEST(IdgATerm, DegriddingIsTheAdjointOfGridding) {
  ATermObservation o;
  const IdgSettings& s = o.settings;
  std::mt19937 random(2024);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (std::complex<float>& j : o.aterms.jones) j = {uniform(random), uniform(random)};
  // One weight for every polarisation of a sample, as the sandwich mixes them.
  for (size_t i = 0; i < o.obs.weight.size(); ++i) o.obs.weight[i] = o.obs.weight[i / 4 * 4];
  const IdgPlan plan = make_idg_plan(s, o.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  const int n = s.grid_size;
  IdgImage image;
  image.npol = 4;
  image.size = n;
  const std::vector<double> taper = idg_image_taper(s.subgrid_size, n);
  for (int p = 0; p < 4; ++p)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const float t = float(taper[size_t(x)] * taper[size_t(y)]);
        image.pixels.emplace_back(t * uniform(random), t * uniform(random));
      }
  auto engine = make_cpu_idg_engine(s, 2);
  std::vector<std::complex<float>> predicted(o.obs.vis.size());
  engine->degrid(plan, image, o.view(), predicted.data());
  for (size_t i = 0; i < o.obs.vis.size(); ++i)
    o.obs.vis[i] = predicted[i] * (1.0f + 0.3f * std::polar(1.0f, 3.0f * uniform(random)));
  const IdgImage dirty = engine->grid(plan, o.view());
  std::complex<double> lhs = 0, rhs = 0;
  for (size_t i = 0; i < o.obs.vis.size(); ++i)
    lhs += std::conj(std::complex<double>(predicted[i])) * double(o.obs.weight[i]) * std::complex<double>(o.obs.vis[i]);
  for (int p = 0; p < 4; ++p)
    for (size_t i = 0; i < size_t(n) * n; ++i)
      rhs += std::conj(std::complex<double>(image.plane(p)[i])) * std::complex<double>(dirty.plane(p)[i]) *
             dirty.weight_sum[size_t(p)];
  EXPECT_GT(std::abs(lhs), 1.0);
  EXPECT_LE(std::abs(lhs - rhs), 1e-5 * std::abs(lhs)) << lhs << " vs " << rhs;
}

TEST(IdgATerm, IdentityATermsChangeNothing) {
  ATermObservation o;
  const IdgSettings& s = o.settings;
  testing::fill_point_sources(o.obs, {{0.01, -0.005, 1.5}, {-0.02, 0.015, 0.7}});
  o.aterms = identity_aterms(kSlots, kStations, s.subgrid_size);
  auto engine = make_cpu_idg_engine(s, 2);
  // One plan for both: a plan split at other places approximates differently near the edge.
  const IdgPlan plan = make_idg_plan(s, o.view());
  const IdgImage with = engine->grid(plan, o.view());
  const IdgImage without = engine->grid(plan, o.obs.view());
  ASSERT_EQ(with.pixels.size(), without.pixels.size());
  double worst = 0, peak = 0;
  for (size_t i = 0; i < with.pixels.size(); ++i) {
    worst = std::max(worst, double(std::abs(with.pixels[i] - without.pixels[i])));
    peak = std::max(peak, double(std::abs(without.pixels[i])));
  }
  EXPECT_GT(peak, 0.5);
  EXPECT_LE(worst, 1e-6 * peak);
}

TEST(IdgATerm, NoSubgridSpansTwoSlots) {
  ATermObservation o;
  const IdgPlan plan = make_idg_plan(o.settings, o.view());
  const IdgPlan unsplit = make_idg_plan(o.settings, o.obs.view());
  EXPECT_EQ(plan.visibilities_placed, unsplit.visibilities_placed);
  EXPECT_GT(plan.subgrids.size(), unsplit.subgrids.size());  // 3 slots in 24 steps split tracks
  std::vector<int> seen(kSlots, 0);
  for (const IdgSubgrid& sub : plan.subgrids) {
    ++seen[size_t(sub.aterm_slot)];
    for (int t = 0; t < sub.nr_timesteps; ++t)
      ASSERT_EQ(o.slot[size_t(plan.timestep_rows[size_t(sub.first_timestep + t)])], sub.aterm_slot);
  }
  for (int count : seen) EXPECT_GT(count, 0);
}

TEST(IdgATerm, RefusesATermsThatDoNotFit) {
  ATermObservation o;
  IdgSettings two = o.settings;
  two.npol = 2;
  EXPECT_THROW(make_idg_plan(two, o.view()), UsageError);  // A-terms need all four products

  o.slot[5] = kSlots;  // beyond the slots
  EXPECT_THROW(make_idg_plan(o.settings, o.view()), UsageError);
  o.slot[5] = 0;

  o.aterms = identity_aterms(kSlots, kStations - 1, o.settings.subgrid_size);  // too few stations
  EXPECT_THROW(make_idg_plan(o.settings, o.view()), UsageError);

  o.aterms = identity_aterms(kSlots, kStations, 16);  // sampled for another subgrid size
  EXPECT_THROW(make_idg_plan(o.settings, o.view()), UsageError);
}

}  // namespace
}  // namespace rapt
