// The DM x P x P' search: it finds the injected period, derivative and DM.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dedisp/dedisp_plan.hpp"
#include "fold/fold_candidate.hpp"
#include "fold/fold_engine.hpp"
#include "fold/fold_input.hpp"
#include "fold/fold_outputs.hpp"
#include "fold/fold_search.hpp"

namespace {

double pulse(double phase, double centre, double width) {
  double d = phase - centre;
  d -= std::round(d);
  return std::exp(-0.5 * d * d / (width * width));
}

struct Simulation {
  rapt::FoldSpin truth;
  double dt_s = 1e-3;
  int64_t n = 1 << 18;
  std::vector<float> series;
};

Simulation simulate(double amplitude, unsigned seed) {
  Simulation s;
  s.truth = {1.0 / 0.05, -4e-6, 0.0};
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  s.series.resize(size_t(s.n));
  for (int64_t i = 0; i < s.n; ++i)
    s.series[i] = noise(rng) +
                  float(amplitude * pulse(s.truth.phase((i + 0.5) * s.dt_s), 0.4, 0.04));
  return s;
}

rapt::Pfd fold_series(const Simulation& s, const rapt::FoldSpin& spin, int nbins) {
  rapt::FoldLayout l;
  l.npart = 32;
  l.nsub = 1;
  l.nbins = nbins;
  l.total_samples = s.n;
  l.dt_s = s.dt_s;
  l.spin = spin;
  auto engine = rapt::make_cpu_fold_engine(l);
  engine->fold(s.series.data(), s.series.size(), 0, s.series.size());
  rapt::FoldObservation obs;
  obs.filenm = "sim.dat";
  obs.dt_s = s.dt_s;
  obs.epoch_mjd = 60000.0;
  obs.nsamples = s.n;
  rapt::FoldCandidate c;
  c.name = "test";
  c.spin = spin;
  return rapt::make_pfd(obs, c, l, engine->cube(), 0.0, "sim_test.pfd");
}

}  // namespace

TEST(FoldSearch, RecoversPeriodAndDerivativeWithinTheReportedErrors) {
  const Simulation s = simulate(0.15, 11);
  const int nbins = 50;
  const double t_obs = s.n * s.dt_s;
  rapt::FoldSearchOptions options;
  // Fold off the truth by 5 and -3 grid steps, so the search has to move.
  const rapt::FoldSpin start{s.truth.f_hz - 5.0 * options.pstep / nbins / t_obs,
                             s.truth.fdot + 3.0 * 2.0 * options.pdstep / nbins / (t_obs * t_obs), 0.0};
  rapt::Pfd pfd = fold_series(s, start, nbins);
  options.threads = 2;
  const rapt::FoldSearchResult r = rapt::search_fold(pfd, options);
  const double p_true = 1.0 / s.truth.f_hz;
  const double pd_true = -s.truth.fdot / (s.truth.f_hz * s.truth.f_hz);
  EXPECT_NEAR(pfd.topo.p1, p_true, 2.0 * r.errors.p_s);
  EXPECT_NEAR(pfd.topo.p2, pd_true, 2.0 * r.errors.pdot);
  EXPECT_LT(r.errors.p_s, 1e-6);  // a real detection, not the fallback errors (4.8e-6 s)
  EXPECT_GT(r.sigma, 10.0);
  EXPECT_EQ(r.trials, 201LL * 201LL);
  EXPECT_EQ(pfd.periods.size(), 201u);
  EXPECT_TRUE(pfd.dms.empty());
}

TEST(FoldSearch, NosearchKeepsTheFoldedParameters) {
  const Simulation s = simulate(0.15, 12);
  rapt::Pfd pfd = fold_series(s, s.truth, 50);
  rapt::FoldSearchOptions options;
  options.set_nosearch();
  const rapt::FoldSearchResult r = rapt::search_fold(pfd, options);
  EXPECT_EQ(r.trials, 1);
  EXPECT_DOUBLE_EQ(pfd.topo.p1, 1.0 / s.truth.f_hz);
  EXPECT_NEAR(pfd.topo.p2, -s.truth.fdot / (s.truth.f_hz * s.truth.f_hz), 1e-18);
  EXPECT_EQ(r.p_index, 100);
  EXPECT_EQ(r.pd_index, 100);
}

TEST(FoldSearch, FindsTheDispersionMeasureOfSubbands) {
  // Eight subbands of 8 channels each, 1200-1456 MHz; the pulse arrives later at low frequency
  // as DM 40 says; the subbands were formed (and the grid centred) at DM 30.
  rapt::Pfd pfd;
  pfd.nsub = 8;
  pfd.npart = 4;
  pfd.proflen = 64;
  pfd.numchan = 64;
  pfd.lofreq_mhz = 1200.0;
  pfd.chan_wid_mhz = 4.0;
  pfd.dt_s = 1e-4;
  pfd.fold.p1 = 10.0;  // Hz
  pfd.bestdm = 30.0;
  pfd.allocate_folds();
  const double top = 1200.0 + 63 * 4.0;
  const auto delay = [](double dm, double f) { return dm * rapt::kDispersionConstantPresto / (f * f); };
  for (int p = 0; p < 4; ++p)
    for (int s = 0; s < 8; ++s) {
      const double f_sub = 1200.0 + (s * 8 + 7) * 4.0;
      const double shift = (delay(40.0, f_sub) - delay(40.0, top)) * pfd.fold.p1;  // turns
      for (int b = 0; b < 64; ++b) pfd.rawfold(p, s, b) = 100.0 + 50.0 * pulse((b + 0.5) / 64.0, 0.2 + shift, 0.02);
      rapt::FoldStats& st = pfd.stat(p, s);
      st.numdata = 25000;
      st.data_avg = 100.0 * 64 / 25000;
      st.data_var = 1.0;
      st.numprof = 64;
      st.prof_avg = 100.0 + 50.0 * 0.02 * std::sqrt(2 * M_PI);
      st.prof_var = 25000.0 / 64;
    }
  rapt::FoldSearchOptions options;
  options.search_p = options.search_pd = false;
  const rapt::FoldSearchResult r = rapt::search_fold(pfd, options);
  ASSERT_EQ(pfd.dms.size(), size_t(2 * 3 * 64 + 1));
  const double ddm = pfd.dms[1] - pfd.dms[0];
  EXPECT_NEAR(pfd.bestdm, 40.0, 1.5 * ddm);
  EXPECT_DOUBLE_EQ(pfd.bestdm, pfd.dms[r.dm_index]);
}

TEST(FoldSearchOptions, FineAndCoarseSetPrestosSteps) {
  rapt::FoldSearchOptions fine;
  fine.set_fine();
  EXPECT_EQ(fine.npfact, 1);
  EXPECT_EQ(fine.pstep, 1);
  EXPECT_EQ(fine.pdstep, 2);
  EXPECT_EQ(fine.dmstep, 1);
  rapt::FoldSearchOptions coarse;
  coarse.set_coarse();
  EXPECT_EQ(coarse.npfact, 4);
  EXPECT_EQ(coarse.pstep, 3);
  EXPECT_EQ(coarse.pdstep, 6);
}

// Long profiles on several threads: the shift-and-add's scratch sums come from memory the
// default-target code allocates (16-byte aligned for its vectors), which the AVX2 clone must
// not store to as if 32-byte aligned (fold -n 2000 crashed in the P' search).
TEST(FoldSearch, SearchesProfilesOfTwoThousandBinsOnThreads) {
  const Simulation s = simulate(0.15, 12);
  rapt::Pfd pfd = fold_series(s, s.truth, 2000);
  rapt::FoldSearchOptions options;
  options.search_p = false;
  options.npfact = 1;
  options.threads = 4;
  const rapt::FoldSearchResult r = rapt::search_fold(pfd, options);
  const double pd_true = -s.truth.fdot / (s.truth.f_hz * s.truth.f_hz);
  EXPECT_NEAR(pfd.topo.p2, pd_true, 3.0 * r.errors.pdot);
  EXPECT_EQ(r.trials, 4001);
}
