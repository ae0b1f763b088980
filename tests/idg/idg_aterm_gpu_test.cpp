// The GPU engine's A-terms against the CPU engine's (the reference: idg_aterm_grid and
// idg_aterm_degrid in double), with full-Jones matrices that differ per pixel, station and
// time slot; and identity A-terms against none. Skips while no GPU engine can be made (no CUDA
// build, no device). Images are compared as idg_engine_comparison.hpp says: the difference
// times taper(x) taper(y), against the peak, and the degridded model only where
// 1 / taper <= 100.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "idg/idg_aterms.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"
#include "idg_engine_comparison.hpp"
#include "idg_test_support.hpp"

namespace rapt {
namespace {

using testing::ImageDifference;
using testing::prediction_difference;
using testing::tapered_difference;
using testing::trusted_part;

std::unique_ptr<IdgEngine> make_gpu(const IdgSettings& s) { return testing::gpu_engine_or_null(s); }

// Four polarisations that differ (the point sources' visibility times a complex factor per
// product), so the off-diagonal Jones terms mix unequal values.
void fill_polarised(testing::IdgObservation& obs) {
  testing::fill_point_sources(obs, {{0.01, 0.005, 1.0}, {-0.02, 0.015, 0.5}});
  const std::complex<float> factor[4] = {{1.0f, 0.0f}, {0.3f, 0.2f}, {0.25f, -0.1f}, {0.8f, 0.05f}};
  for (size_t i = 0; i < obs.vis.size(); ++i) obs.vis[i] *= factor[i % 4];
}

// Per slot and station a random complex 2 x 2 matrix, and per pixel a random change of up to
// 0.3 in each element: every matrix full (no zero element), none alike.
IdgATerms random_aterms(int nr_slots, int nr_stations, int subgrid_size, unsigned seed) {
  IdgATerms a = identity_aterms(nr_slots, nr_stations, subgrid_size);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const size_t pixels = a.matrices_per_station();
  for (int slot = 0; slot < nr_slots; ++slot)
    for (int station = 0; station < nr_stations; ++station) {
      std::complex<float> base[4];
      for (std::complex<float>& e : base) e = {u(rng), u(rng)};
      base[0] += 1.0f, base[3] += 1.0f;  // mostly diagonal, as a beam is
      std::complex<float>* m = a.at(slot, station);
      for (size_t q = 0; q < pixels * 4; ++q)
        m[q] = base[q % 4] + 0.3f * std::complex<float>(u(rng), u(rng));
    }
  return a;
}

// Slot of each row: `nr_slots` equal spans of the observation's time steps (rows time-major).
std::vector<int> time_slots(const testing::IdgObservation& obs, int ntimes, int nr_slots) {
  const size_t per_step = obs.nrows() / size_t(ntimes);
  std::vector<int> slot(obs.nrows());
  for (size_t r = 0; r < slot.size(); ++r) slot[r] = int(r / per_step) * nr_slots / ntimes;
  return slot;
}

// grid, psf and degrid of the GPU engine against the single-threaded CPU engine, with `aterms`
// and `slots` on `obs`.
void expect_gpu_matches_cpu(const IdgSettings& s, IdgEngine& gpu, const testing::IdgObservation& obs,
                            const IdgATerms& aterms, const std::vector<int>& slots) {
  IdgVisibilities view = obs.view();
  view.aterms = &aterms;
  view.aterm_slot = slots.data();
  const IdgPlan plan = make_idg_plan(s, view);
  ASSERT_GT(plan.visibilities_placed, 0);
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  std::vector<bool> slot_seen(size_t(aterms.nr_slots), false);
  for (const IdgSubgrid& sub : plan.subgrids) slot_seen[size_t(sub.aterm_slot)] = true;
  ASSERT_EQ(std::count(slot_seen.begin(), slot_seen.end(), true), aterms.nr_slots);
  auto reference = make_cpu_idg_engine(s, 1);

  const IdgImage expected = reference->grid(plan, view);
  for (const bool psf : {false, true}) {
    const IdgImage want = psf ? reference->psf(plan, view) : expected;
    const IdgImage image = psf ? gpu.psf(plan, view) : gpu.grid(plan, view);
    ASSERT_EQ(image.pixels.size(), want.pixels.size());
    const ImageDifference d = tapered_difference(s, want, image);
    EXPECT_LE(d.diff, 1e-5 * d.peak) << (psf ? "psf" : "image") << " with A-terms, gpu vs cpu";
  }

  const IdgImage model = trusted_part(s, expected);
  std::vector<std::complex<float>> want(obs.vis.size()), got(obs.vis.size());
  reference->degrid(plan, model, view, want.data());
  gpu.degrid(plan, model, view, got.data());
  const auto [error, largest] = prediction_difference(want, got);
  EXPECT_GT(largest, 0.0);
  EXPECT_LE(error, 1e-5 * largest) << "predictions with A-terms, gpu vs cpu";

  // Held in device memory (with the engine's own copy of the A-terms): the image, the PSF, an
  // ordinary call beside them, and the residuals of a model of the brightest pixel where the
  // taper leaves the image trustworthy (outside it, dividing by the taper amplifies the pixels a
  // hundredfold and more); subtracting leaves the PSF as it was.
  gpu.hold(plan, view);
  IdgImage held;
  gpu.grid_held(held);
  const double peak = tapered_difference(s, expected, expected).peak;  // as the checks above
  ImageDifference d = tapered_difference(s, expected, held);
  EXPECT_LE(d.diff, 1e-5 * peak) << "held image with A-terms, gpu vs cpu, worst at " << d.where;
  const IdgImage psf = reference->psf(plan, view);
  const double psf_peak = tapered_difference(s, psf, psf).peak;
  IdgImage held_psf;
  gpu.psf_held(held_psf);
  d = tapered_difference(s, psf, held_psf);
  EXPECT_LE(d.diff, 1e-5 * psf_peak) << "held psf with A-terms, gpu vs cpu, worst at " << d.where;
  d = tapered_difference(s, expected, gpu.grid(plan, view));
  EXPECT_LE(d.diff, 1e-5 * peak) << "image with A-terms while others are held, worst at " << d.where;
  const size_t plane = size_t(s.grid_size) * s.grid_size;
  size_t brightest = 0;
  for (size_t i = 0; i < model.pixels.size(); ++i)
    if (std::abs(model.pixels[i]) > std::abs(model.pixels[brightest])) brightest = i;
  IdgImage point = expected;
  std::fill(point.pixels.begin(), point.pixels.end(), std::complex<float>(0.0f, 0.0f));
  for (int p = 0; p < 4; ++p) point.plane(p)[brightest % plane] = expected.plane(p)[brightest % plane];
  std::vector<std::complex<float>> predicted(obs.vis.size());
  reference->degrid(plan, point, view, predicted.data());
  testing::IdgObservation rest = obs;
  for (size_t i = 0; i < rest.vis.size(); ++i) rest.vis[i] -= predicted[i];
  IdgVisibilities rest_view = rest.view();
  rest_view.aterms = &aterms;
  rest_view.aterm_slot = slots.data();
  const IdgImage residual = reference->grid(plan, rest_view);
  gpu.subtract_held(point);
  gpu.grid_held(held);
  d = tapered_difference(s, residual, held);
  EXPECT_LE(d.diff, 1e-5 * peak) << "held residuals with A-terms, gpu vs cpu, worst at " << d.where;
  gpu.psf_held(held_psf);
  d = tapered_difference(s, psf, held_psf);
  EXPECT_LE(d.diff, 1e-5 * psf_peak) << "held psf after a subtraction, worst at " << d.where;
}

IdgSettings small_settings() {
  IdgSettings s;
  s.grid_size = 256;
  s.image_size = 0.08;
  s.max_timesteps_per_subgrid = 16;
  s.max_channels_per_subgrid = 4;
  s.npol = 4;
  s.nr_w_layers = 8;
  s.w_step_lambda = 150.0;
  return s;
}

// Eight stations, three time slots: the plan splits baselines' subgrids at the slot changes.
TEST(IdgATermGpu, MatchesTheCpuEngineWithFullJonesATerms) {
  const IdgSettings s = small_settings();
  std::unique_ptr<IdgEngine> gpu = make_gpu(s);
  if (!gpu) GTEST_SKIP() << "no GPU IDG engine in this build or on this machine";
  constexpr int kTimes = 16, kStations = 8;
  testing::IdgObservation obs =
      testing::make_idg_observation(kStations, 400.0, 400.0, kTimes, 0.03, 4, 150e6, 2e6, 4);
  fill_polarised(obs);
  const IdgATerms aterms = random_aterms(3, kStations, s.subgrid_size, 7);
  expect_gpu_matches_cpu(s, *gpu, obs, aterms, time_slots(obs, kTimes, 3));
}

// Subgrids of 128 x 128 pixels: the plan's subgrids take two GPU batches (as in
// IdgEngines.MatchTheCpuReferenceOverSeveralBatches), so the A-term offsets are staged in both
// batch buffers.
TEST(IdgATermGpu, MatchesTheCpuEngineOverSeveralBatches) {
  IdgSettings s;
  s.grid_size = 512;
  s.image_size = 0.08;
  s.subgrid_size = 128;
  s.max_timesteps_per_subgrid = 2;
  s.max_channels_per_subgrid = 2;
  s.npol = 4;
  std::unique_ptr<IdgEngine> gpu = make_gpu(s);
  if (!gpu) GTEST_SKIP() << "no GPU IDG engine in this build or on this machine";
  constexpr int kTimes = 16, kStations = 10;
  testing::IdgObservation obs =
      testing::make_idg_observation(kStations, 400.0, 5.0, kTimes, 0.03, 2, 150e6, 2e6, 4);
  fill_polarised(obs);
  ASSERT_GT(make_idg_plan(s, obs.view()).subgrids.size(), 256u);
  const IdgATerms aterms = random_aterms(2, kStations, s.subgrid_size, 11);
  expect_gpu_matches_cpu(s, *gpu, obs, aterms, time_slots(obs, kTimes, 2));
}

// Identity A-terms (their own kernels) give what no A-terms give, and a call without A-terms
// after one with them uses none.
TEST(IdgATermGpu, IdentityATermsMatchNone) {
  const IdgSettings s = small_settings();
  std::unique_ptr<IdgEngine> gpu = make_gpu(s);
  if (!gpu) GTEST_SKIP() << "no GPU IDG engine in this build or on this machine";
  constexpr int kTimes = 16, kStations = 8;
  testing::IdgObservation obs =
      testing::make_idg_observation(kStations, 400.0, 400.0, kTimes, 0.03, 4, 150e6, 2e6, 4);
  fill_polarised(obs);
  const IdgATerms identity = identity_aterms(2, kStations, s.subgrid_size);
  const std::vector<int> slots = time_slots(obs, kTimes, 2);
  IdgVisibilities with = obs.view();
  with.aterms = &identity;
  with.aterm_slot = slots.data();
  // One plan for both: split at the slot changes, which the call without A-terms ignores.
  const IdgPlan plan = make_idg_plan(s, with);
  ASSERT_GT(plan.visibilities_placed, 0);

  const IdgImage expected = gpu->grid(plan, obs.view());
  const IdgImage image = gpu->grid(plan, with);
  const ImageDifference d = tapered_difference(s, expected, image);
  EXPECT_LE(d.diff, 1e-6 * d.peak) << "image with identity A-terms vs none";

  const IdgImage model = trusted_part(s, expected);
  std::vector<std::complex<float>> want(obs.vis.size()), got(obs.vis.size()), again(obs.vis.size());
  gpu->degrid(plan, model, obs.view(), want.data());
  gpu->degrid(plan, model, with, got.data());
  gpu->degrid(plan, model, obs.view(), again.data());
  const auto [error, largest] = prediction_difference(want, got);
  EXPECT_GT(largest, 0.0);
  EXPECT_LE(error, 1e-6 * largest) << "predictions with identity A-terms vs none";
  EXPECT_EQ(prediction_difference(want, again).first, 0.0) << "A-terms left over from an earlier call";
}

}  // namespace
}  // namespace rapt
