// fold's inputs: raw spectra dedispersed into subbands the way prepsubband forms them, whatever
// the read sizes; time series with their .inf.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "fold/fold_input.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "io/sigproc.hpp"
#include "test_data.hpp"

namespace {

constexpr int kChans = 16, kSpectra = 3000;

// 32-bit float spectra, channel 0 the highest (foff < 0); returns them time-major.
std::vector<float> write_filterbank(const std::string& path) {
  rapt::SigprocHeader h;
  h.source_name = "T";
  h.telescope_id = 6;
  h.machine_id = 0;
  h.tstart = 60000.5;
  h.tsamp = 1e-3;
  h.nbits = 32;
  h.fch1 = 1500.0;
  h.foff = -10.0;
  h.nchans = kChans;
  std::vector<float> x(size_t(kChans) * kSpectra);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> value(0.0f, 10.0f);
  for (float& v : x) v = std::round(value(rng));
  rapt::SigprocWriter writer(path, h, false);
  writer.write(x.data(), kSpectra);
  writer.commit();
  return x;
}

std::vector<float> read_all(rapt::FoldInput& input, size_t chunk) {
  const int nsub = input.nsub();
  std::vector<float> all(size_t(nsub) * kSpectra), block(size_t(nsub) * chunk);
  size_t done = 0;
  while (size_t n = input.read(block.data(), chunk, chunk)) {
    for (int s = 0; s < nsub; ++s)
      std::copy_n(&block[size_t(s) * chunk], n, &all[size_t(s) * kSpectra + done]);
    done += n;
  }
  EXPECT_EQ(done, size_t(kSpectra));
  return all;
}

}  // namespace

TEST(FoldInput, FormsSubbandsAtTheDmAsPrepsubband) {
  rapt::testing::ScratchDir dir;
  const std::vector<float> x = write_filterbank(dir.file("t.fil"));
  auto input = rapt::open_fold_input(dir.file("t.fil"));
  const rapt::FoldObservation& obs = input->observation();
  EXPECT_TRUE(obs.raw);
  EXPECT_EQ(obs.nsamples, kSpectra);
  EXPECT_DOUBLE_EQ(obs.lofreq_mhz, 1350.0);
  EXPECT_DOUBLE_EQ(obs.chan_wid_mhz, 10.0);
  const double dm = 300.0;
  input->set_subbands(4, dm);
  const std::vector<float> got = read_all(*input, 777);
  // Subband s holds ascending channels 4s..4s+3 (file channels 15-a), each delayed to the
  // subband's highest channel, rounded to whole samples.
  for (int s = 0; s < 4; ++s) {
    const double f_top = 1350.0 + (4 * s + 3) * 10.0;
    for (int t = 0; t < kSpectra - 50; t += 37) {
      double want = 0.0;
      for (int a = 4 * s; a < 4 * s + 4; ++a) {
        const double f = 1350.0 + a * 10.0;
        const double delay = dm * rapt::kDispersionConstantPresto * (1 / (f * f) - 1 / (f_top * f_top));
        const int d = int(delay / 1e-3 + 0.5);
        want += x[size_t(t + d) * kChans + (kChans - 1 - a)];
      }
      EXPECT_EQ(got[size_t(s) * kSpectra + t], float(want)) << "subband " << s << " sample " << t;
    }
  }
  auto again = rapt::open_fold_input(dir.file("t.fil"));
  again->set_subbands(4, dm);
  EXPECT_EQ(read_all(*again, 64), got);  // independent of how much is read at a time
}

TEST(FoldInput, RefusesSubbandsThatDoNotDivideTheChannels) {
  rapt::testing::ScratchDir dir;
  write_filterbank(dir.file("t.fil"));
  auto input = rapt::open_fold_input(dir.file("t.fil"));
  EXPECT_THROW(input->set_subbands(5, 0.0), rapt::UsageError);
  EXPECT_EQ(rapt::default_subbands(128), 32);
  EXPECT_EQ(rapt::default_subbands(1024), 128);
  EXPECT_EQ(rapt::default_subbands(4096), 128);
  EXPECT_EQ(rapt::default_subbands(7), 0);
}

TEST(FoldInput, ReadsATimeSeriesWithItsInf) {
  rapt::testing::ScratchDir dir;
  rapt::InfFile inf;
  inf.name = "s";
  inf.telescope = "GBT";
  inf.n = 5;
  inf.dt_s = 2e-3;
  inf.dm = 12.5;
  inf.set_epoch_mjd(60001.25);
  rapt::write_inf(dir.file("s.inf"), inf, false);
  rapt::write_dat(dir.file("s.dat"), {1, 2, 3, 4, 5}, false);
  auto input = rapt::open_fold_input(dir.file("s.dat"));
  const rapt::FoldObservation& obs = input->observation();
  EXPECT_FALSE(obs.raw);
  EXPECT_EQ(obs.filenm, "s.dat");
  EXPECT_EQ(obs.root, dir.file("s"));
  EXPECT_EQ(obs.nsamples, 5);
  EXPECT_DOUBLE_EQ(obs.dm, 12.5);
  EXPECT_EQ(obs.telescope, "GBT");
  EXPECT_NEAR(obs.epoch_mjd, 60001.25, 1e-12);
  EXPECT_THROW(input->set_subbands(2, 0.0), rapt::UsageError);
  std::vector<float> x(8);
  EXPECT_EQ(input->read(x.data(), 8, 8), 5u);
  EXPECT_EQ(x[4], 5.0f);
}
