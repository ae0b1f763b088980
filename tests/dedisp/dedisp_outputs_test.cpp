// Output files of dedisp: .inf text against PRESTO's own, names, padding pairs, errors.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_outputs.hpp"
#include "io/presto_inf.hpp"
#include "test_data.hpp"

namespace {

// A stream of pseudo-random 8-bit-valued spectra generated on the fly (no memory held).
class GeneratedSpectra : public rapt::SpectraSource {
 public:
  GeneratedSpectra(rapt::ObservationInfo info, size_t nspectra) : info_(std::move(info)) {
    info_.nspectra = int64_t(nspectra);
  }
  const rapt::ObservationInfo& info() const override { return info_; }
  size_t read(float* out, size_t max_spectra) override {
    const size_t n = std::min(max_spectra, size_t(info_.nspectra) - next_);
    for (size_t i = 0; i < n * info_.nchans; ++i) {
      state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
      out[i] = float((state_ >> 56) & 0xff);
    }
    next_ += n;
    return n;
  }

 private:
  rapt::ObservationInfo info_;
  size_t next_ = 0;
  uint64_t state_ = 1;
};

// The header of the PRESTO golden run (presto-golden/mkfil.py): GBT, FAKE_PSR, 128 channels
// from 1500 MHz down by 2 MHz, 256 us, 2^18 8-bit spectra.
rapt::ObservationInfo golden_observation() {
  rapt::ObservationInfo info;
  info.path = "test.fil";
  info.format = "SIGPROC filterbank";
  info.source_name = "FAKE_PSR";
  info.telescope = "GBT";
  info.instrument = "Unknown";
  info.telescope_id = 6;
  info.ra_deg = (12 + 34 / 60.0 + 56.789 / 3600.0) * 15.0;
  info.dec_deg = -(12 + 34 / 60.0 + 56.78 / 3600.0);
  info.tstart_mjd = 60000.123456789;
  info.tsamp_s = 256e-6;
  info.fch1_mhz = 1500.0;
  info.foff_mhz = -2.0;
  info.nchans = 128;
  info.nbits = 8;
  return info;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

rapt::DedispRunConfig config_for(std::vector<double> dms) {
  rapt::DedispRunConfig config;
  config.groups = {{std::move(dms), 1}};
  return config;
}

}  // namespace

// prepsubband -nsub 32 -lodm 0 -dmstep 2 -numdms 51 made test_DM56.00.inf. Ours must agree line
// by line, except where we legitimately differ: the observer (not in SIGPROC headers; PRESTO
// prints "unset"), the last real sample (PRESTO drops whole 2400-spectrum blocks at the end,
// we keep all but the DM's own delay), the analyst and the notes.
TEST(DedispOutputs, InfMatchesPrestoGoldenLineByLine) {
  RAPT_REQUIRE_SHARED_FILE(golden_path, "presto-golden/test_DM56.00.inf");
  rapt::testing::ScratchDir dir;
  GeneratedSpectra source(golden_observation(), size_t(1) << 18);
  rapt::DedispRunConfig config = config_for({56.0});
  config.nsub = 32;
  rapt::PrestoSeriesSink sink(dir.file("test"), false, {"0.1.0", config.dm_const, {}});
  rapt::run_dedispersion(source, nullptr, config, sink);

  const auto golden = lines_of(rapt::testing::read_whole_file(golden_path));
  const auto ours = lines_of(rapt::testing::read_whole_file(dir.file("test_DM56.00.inf")));
  ASSERT_GE(ours.size(), 23u);
  size_t compared = 0;
  for (size_t i = 0; i < 23; ++i) {
    const std::string& g = golden[i];
    if (g.rfind(" Data observed by", 0) == 0 || g.rfind(" Data analyzed by", 0) == 0) continue;
    if (i == 0) {  // the name carries our scratch directory
      EXPECT_EQ(ours[0], " Data file name without suffix          =  " + dir.file("test_DM56.00"));
      continue;
    }
    if (g.rfind(" On/Off bin pair #  1", 0) == 0) {
      // Ours: all but the DM 56 delay of the lowest channel is real: 182 samples with 32
      // subbands (6 within the lowest subband, 176 from its top to the top of the band).
      EXPECT_EQ(ours[i], " On/Off bin pair #  1                   =  0          , 261961     ");
      continue;
    }
    EXPECT_EQ(ours[i], g) << "line " << i + 1;
    ++compared;
  }
  EXPECT_EQ(compared, 19u);
  EXPECT_EQ(ours[22], " Any additional notes:");
  const std::string text = rapt::testing::read_whole_file(dir.file("test_DM56.00.inf"));
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");
  struct stat st{};
  ASSERT_EQ(stat(dir.file("test_DM56.00.dat").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 262144 * 4);
}

TEST(DedispOutputs, NamesEachTrialAsPrepsubbandDoes) {
  rapt::testing::ScratchDir dir;
  rapt::ObservationInfo info = golden_observation();
  GeneratedSpectra source(info, 3000);
  rapt::PrestoSeriesSink sink(dir.file("obs"), false, {"0.1.0", 4149.0, {}});
  rapt::run_dedispersion(source, nullptr, config_for({0.0, 1.005, 12.5, 100.0}), sink);
  for (const char* name : {"obs_DM0.00", "obs_DM1.00", "obs_DM12.50", "obs_DM100.00"}) {
    EXPECT_TRUE(rapt::path_exists(dir.file(std::string(name) + ".dat"))) << name;
    const rapt::InfFile inf = rapt::read_inf(dir.file(std::string(name) + ".inf"));
    EXPECT_EQ(inf.name, dir.file(name));
    EXPECT_EQ(inf.n, 3000);  // 3000 = 2^3 3 5^3: already a good length
  }
}

TEST(DedispOutputs, RefusesTwoDmsThatShareAName) {
  rapt::testing::ScratchDir dir;
  GeneratedSpectra source(golden_observation(), 1000);
  rapt::PrestoSeriesSink sink(dir.file("obs"), false, {"0.1.0", 4149.0, {}});
  try {
    rapt::run_dedispersion(source, nullptr, config_for({1.001, 1.004}), sink);
    FAIL() << "expected an error";
  } catch (const rapt::UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "DMs 1.001 and 1.004 would both be written as " + dir.file("obs_DM1.00"));
  }
}

TEST(DedispOutputs, NamesTheDirectoryThatIsNotWritable) {
  rapt::testing::ScratchDir dir;
  // root writes into mode-0555 directories; /proc refuses new files to everyone.
  std::string locked = dir.file("locked");
  if (geteuid() == 0)
    locked = "/proc";
  else
    ASSERT_EQ(mkdir(locked.c_str(), 0555), 0);
  GeneratedSpectra source(golden_observation(), 1000);
  rapt::PrestoSeriesSink sink(locked + "/obs", false, {"0.1.0", 4149.0, {}});
  try {
    rapt::run_dedispersion(source, nullptr, config_for({0.0}), sink);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(locked + "/obs_DM0.00.dat: ", 0), 0u) << e.what();
  }
  EXPECT_FALSE(rapt::path_exists(locked + "/obs_DM0.00.dat"));
  if (locked != "/proc") chmod(locked.c_str(), 0755);
}

TEST(DedispOutputs, NamesTheMissingOutputDirectory) {
  rapt::testing::ScratchDir dir;
  GeneratedSpectra source(golden_observation(), 1000);
  rapt::PrestoSeriesSink sink(dir.file("missing/obs"), false, {"0.1.0", 4149.0, {}});
  try {
    rapt::run_dedispersion(source, nullptr, config_for({0.0}), sink);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(dir.file("missing/obs_DM0.00.dat") + ": ", 0), 0u)
        << e.what();
  }
}

TEST(DedispOutputs, BeamDiameterFollowsTheDish) {
  EXPECT_NEAR(rapt::beam_diameter_arcsec("GBT", 1373.0), 540.4, 0.1);
  EXPECT_NEAR(rapt::beam_diameter_arcsec("Parkes", 1373.0), 844.4, 0.1);
  EXPECT_EQ(rapt::beam_diameter_arcsec("Unknown", 1373.0), 0.0);
}
