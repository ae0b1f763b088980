// CLEAN's parts (hogbom_clean.hpp) on images made to measure: the restoring beam of an
// elliptical Gaussian, Hogbom's components of point sources seen through a PSF with sidelobes,
// its stops (threshold, mgain, the component budget), the restored image's peak and width; and
// the major cycles (clean_cycles.hpp) on a simulated observation through each IDG engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "../idg/idg_engine_comparison.hpp"
#include "../idg/idg_test_support.hpp"
#include "clean_test_fields.hpp"
#include "cli/errors.hpp"
#include "imaging/clean_cycles.hpp"
#include "imaging/hogbom_clean.hpp"

namespace rapt {
namespace {

// A Gaussian of peak 1 at (cx, cy): FWHM `major` and `minor` pixels, the major axis at position
// angle `pa` (from +y towards -x).
std::vector<float> gaussian(int n, double cx, double cy, double major, double minor, double pa) {
  const double k = 1 / (2 * std::sqrt(2 * std::log(2.0)));
  const double sa = major * k, sb = minor * k, ux = -std::sin(pa), uy = std::cos(pa);
  std::vector<float> g(size_t(n) * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double dx = x - cx, dy = y - cy;
      const double a = dx * ux + dy * uy, b = -dx * uy + dy * ux;
      g[size_t(y) * n + x] = float(std::exp(-0.5 * (a * a / (sa * sa) + b * b / (sb * sb))));
    }
  return g;
}

TEST(CleanBeam, FitsTheWidthsAndAngleOfAnEllipticalGaussian) {
  const int n = 128;
  for (const double pa : {0.0, 0.5, -1.0, 1.4}) {
    const CleanBeam b = fit_clean_beam(gaussian(n, n / 2, n / 2, 12.0, 7.0, pa), n);
    EXPECT_NEAR(b.major_px, 12.0, 1e-3) << pa;
    EXPECT_NEAR(b.minor_px, 7.0, 1e-3) << pa;
    EXPECT_NEAR(std::remainder(b.pa_rad - pa, M_PI), 0.0, 1e-4) << pa;
  }
}

TEST(CleanBeam, RefusesAPsfWithoutItsPeakAtTheCentre) {
  std::vector<float> psf(64 * 64, 0.0f);
  EXPECT_THROW(fit_clean_beam(psf, 64), DataError);
}

// Two sources, 3 Jy and -1 Jy (a negative one is cleaned too), through a PSF of a Gaussian core
// and sidelobe rings: the components land on the sources' pixels with their fluxes, and the
// residual falls below the threshold.
TEST(HogbomMinorCycle, RecoversPointSourcesThroughAPsfWithSidelobes) {
  const int n = 128;
  const std::vector<float> psf = testing::ringing_psf(n);
  const int sx[2] = {50, 80}, sy[2] = {60, 70};
  std::vector<float> dirty =
      testing::sources_through_psf(psf, n, {{sx[0], sy[0], 3.0}, {sx[1], sy[1], -1.0}});
  CleanSettings s;
  s.niter = 5000;
  s.gain = 0.2;
  s.mgain = 1;
  s.threshold = 1e-3;
  std::vector<float> model(size_t(n) * n, 0.0f);
  const MinorCycle c = hogbom_minor_cycle(dirty, psf, n, s, s.niter, model, 3);
  EXPECT_GT(c.components, 10);
  EXPECT_LT(c.components, s.niter);
  EXPECT_LT(c.last_peak, 1e-3);
  EXPECT_NEAR(model[size_t(sy[0]) * n + sx[0]], 3.0, 3e-3);
  EXPECT_NEAR(model[size_t(sy[1]) * n + sx[1]], -1.0, 3e-3);
  double elsewhere = 0;
  for (size_t i = 0; i < model.size(); ++i)
    if (i != size_t(sy[0]) * n + sx[0] && i != size_t(sy[1]) * n + sx[1]) elsewhere += std::abs(model[i]);
  EXPECT_LT(elsewhere, 3e-3);
  EXPECT_LT(clean_region_peak(dirty, n, 2), 1e-3);
  // The cycle lists every component's pixel, and every pixel the model holds is listed.
  ASSERT_EQ(c.pixels.size(), size_t(c.components));
  std::vector<char> listed(model.size(), 0);
  for (const size_t q : c.pixels) listed[q] = 1;
  for (size_t i = 0; i < model.size(); ++i)
    EXPECT_TRUE(model[i] == 0.0f || listed[i]) << "model pixel " << i << " not listed";
}

TEST(HogbomMinorCycle, StopsAtMgainAtTheThresholdAndAtTheBudget) {
  const int n = 64;
  const std::vector<float> psf = gaussian(n, n / 2, n / 2, 4, 4, 0);
  const std::vector<float> source = gaussian(n, 30, 35, 4, 4, 0);
  CleanSettings s;
  s.gain = 0.1;
  s.mgain = 0.5;  // clean half of the first peak: 2 Jy of 4
  std::vector<float> dirty(source.size()), model(source.size(), 0.0f);
  for (size_t i = 0; i < dirty.size(); ++i) dirty[i] = 4 * source[i];
  MinorCycle c = hogbom_minor_cycle(dirty, psf, n, s, 1000, model, 1);
  EXPECT_NEAR(c.first_peak, 4.0, 1e-5);
  EXPECT_LT(c.last_peak, 2.0);
  EXPECT_GT(c.last_peak, 2.0 * 0.9);  // one component fewer would leave it above 2
  EXPECT_EQ(c.components, 7);         // 4 x 0.9^k < 2 first at k = 7
  s.mgain = 1;
  s.threshold = 1.0;
  c = hogbom_minor_cycle(dirty, psf, n, s, 1000, model, 1);
  EXPECT_LT(c.last_peak, 1.0);
  EXPECT_GT(c.last_peak, 0.9);
  s.threshold = 0;
  c = hogbom_minor_cycle(dirty, psf, n, s, 3, model, 1);
  EXPECT_EQ(c.components, 3);
}

TEST(HogbomMinorCycle, StopsWhereThePeakPassesTwiceTheFirst) {
  // A PSF whose sidelobe two pixels right is -15: taking 0.1 of a 1 Jy peak raises the pixel
  // there to 1 + 1.5 = 2.5, more than twice the first peak, and the cycle stops.
  const int n = 64;
  std::vector<float> psf(size_t(n) * n, 0.0f);
  psf[size_t(n / 2) * n + n / 2] = 1.0f;
  psf[size_t(n / 2) * n + n / 2 + 2] = -15.0f;
  std::vector<float> dirty(psf.size(), 0.0f), model(psf.size(), 0.0f);
  dirty[size_t(30) * n + 30] = 1.0f;
  dirty[size_t(30) * n + 32] = 1.0f;
  CleanSettings s;
  s.gain = 0.1;
  s.mgain = 1;
  const MinorCycle c = hogbom_minor_cycle(dirty, psf, n, s, 1000, model, 1);
  EXPECT_EQ(c.components, 1);
  EXPECT_FLOAT_EQ(c.last_peak, 2.5f);
  EXPECT_EQ(model[size_t(30) * n + 30], 0.1f);
}

TEST(RestoreImage, PutsEachComponentsFluxAtItsPixelWithTheBeamsWidth) {
  const int n = 64;
  std::vector<float> model(size_t(n) * n, 0.0f), residual(size_t(n) * n, 0.01f);
  model[size_t(30) * n + 20] = 2.0f;
  CleanBeam beam;
  beam.major_px = 6, beam.minor_px = 3, beam.pa_rad = 0;  // major axis along y
  const std::vector<float> image = restore_image(model, residual, n, beam);
  EXPECT_NEAR(image[size_t(30) * n + 20], 2.01, 1e-5);
  EXPECT_NEAR(image[size_t(33) * n + 20], 1.01, 1e-5);     // half the peak 3 pixels north
  EXPECT_NEAR(image[size_t(30) * n + 21], 2 * std::pow(0.5, 4.0 / 9) + 0.01, 1e-5);  // 1 of 1.5 px
  EXPECT_NEAR(image[size_t(5) * n + 5], 0.01, 1e-6);       // far away: the residual alone
}

// Of two pixels of the same |value| the first in row order is taken (here the negative one,
// on the earlier row), and a NaN pixel is passed over.
TEST(HogbomMinorCycle, TakesTheFirstOfEqualPeaksAndPassesOverNaN) {
  const int n = 64;
  std::vector<float> psf(size_t(n) * n, 0.0f), dirty(size_t(n) * n, 0.0f);
  psf[size_t(n / 2) * n + n / 2] = 1.0f;
  dirty[size_t(30) * n + 20] = 1.0f;
  dirty[size_t(28) * n + 40] = -1.0f;
  dirty[size_t(26) * n + 30] = std::nanf("");
  CleanSettings s;
  s.gain = 0.5;
  s.mgain = 1;
  std::vector<float> model(dirty.size(), 0.0f);
  const MinorCycle c = hogbom_minor_cycle(dirty, psf, n, s, 1, model, 2);
  EXPECT_EQ(c.components, 1);
  EXPECT_EQ(c.first_peak, 1.0);
  EXPECT_EQ(model[size_t(28) * n + 40], -0.5f);
  EXPECT_EQ(model[size_t(30) * n + 20], 0.0f);
  EXPECT_EQ(c.last_peak, 1.0);  // the other pixel is next
}

// The major cycles on a simulated observation: two sources on pixel centres come out of CLEAN
// as their fluxes in their pixels (to 1 %), the residual's peak below 2 % of the brighter, the
// restored image's peaks at the sources.
class CleanCycles : public ::testing::TestWithParam<std::string> {};

TEST_P(CleanCycles, FindTheSourcesOfASimulatedObservation) {
  const testing::TwoSourceObservation field = testing::two_source_observation();
  const IdgSettings& s = field.settings;
  const testing::IdgObservation& obs = field.obs;
  std::unique_ptr<IdgEngine> engine =
      GetParam() == "cpu" ? make_cpu_idg_engine(s, 3) : testing::gpu_engine_or_null(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  const int x[2] = {field.sources[0].x, field.sources[1].x};
  const int y[2] = {field.sources[0].y, field.sources[1].y};
  const double flux[2] = {field.sources[0].flux, field.sources[1].flux};
  const IdgPlan plan = make_idg_plan(s, obs.view());
  ASSERT_EQ(plan.unplaced_off_grid + plan.unplaced_w, 0);
  engine->hold(plan, obs.view());
  IdgImage dirty, psf;
  engine->grid_held(dirty);
  engine->psf_held(psf);
  CleanSettings c;
  c.niter = 2000;
  c.gain = 0.1;
  c.mgain = 0.8;
  c.threshold = 0.002;
  const CleanResult r = clean_held(*engine, dirty, psf, c, 2);
  EXPECT_FALSE(r.diverged);
  EXPECT_GE(r.major_cycles, 2);
  EXPECT_LT(r.components, c.niter);
  EXPECT_LT(r.peak, 0.02 * flux[0]);
  const int n = s.grid_size;
  for (int k = 0; k < 2; ++k) {
    double near = 0;
    for (int v = y[k] - 1; v <= y[k] + 1; ++v)
      for (int u = x[k] - 1; u <= x[k] + 1; ++u) near += r.model[size_t(v) * n + u];
    EXPECT_NEAR(near, flux[k], 0.01 * flux[k]) << engine->name() << " source " << k;
    EXPECT_NEAR(r.restored[size_t(y[k]) * n + x[k]], flux[k], 0.02 * flux[k]) << engine->name();
  }
  double total = 0;
  for (float v : r.model) total += v;
  EXPECT_NEAR(total, flux[0] + flux[1], 0.02 * (flux[0] + flux[1])) << engine->name();
  EXPECT_GT(r.beam.major_px, 1.0);
}

// A PSF a quarter of the true one makes each minor cycle take four times the flux it should,
// so the first major cycle leaves a residual peak above the dirty image's: CLEAN stops there
// and says so rather than cleaning on towards a model of millions of Jy.
TEST_P(CleanCycles, StopsWhereAMajorCycleRaisesThePeak) {
  const testing::TwoSourceObservation field = testing::two_source_observation();
  const IdgSettings& s = field.settings;
  std::unique_ptr<IdgEngine> engine =
      GetParam() == "cpu" ? make_cpu_idg_engine(s, 3) : testing::gpu_engine_or_null(s);
  if (!engine) GTEST_SKIP() << "no " << GetParam() << " IDG engine in this build or on this machine";
  const IdgPlan plan = make_idg_plan(s, field.obs.view());
  engine->hold(plan, field.obs.view());
  IdgImage dirty, psf;
  engine->grid_held(dirty);
  engine->psf_held(psf);
  for (std::complex<float>& v : psf.pixels) v *= 0.25f;
  CleanSettings c;
  c.niter = 2000;
  const CleanResult r = clean_held(*engine, dirty, psf, c, 2);
  EXPECT_TRUE(r.diverged);
  EXPECT_EQ(r.major_cycles, 1);
  EXPECT_GT(r.diverged_to, r.diverged_from);
  std::vector<float> dirty_real(size_t(dirty.size) * dirty.size);
  for (size_t i = 0; i < dirty_real.size(); ++i) dirty_real[i] = dirty.plane(0)[i].real();
  EXPECT_EQ(r.diverged_from, clean_region_peak(dirty_real, dirty.size, 2));  // where it began
  EXPECT_EQ(r.peak, r.diverged_to);
}

INSTANTIATE_TEST_SUITE_P(Idg, CleanCycles, ::testing::Values("cpu", "gpu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace rapt
