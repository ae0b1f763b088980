// Block preparation, the step between the reader and the X engine: the fringe-stopping phases
// a sample gets depend on its sample number only (not on where blocks end), flagged and lost
// samples are zeroed and counted, and the plan picks the precision and where fringes are
// stopped as the man page says.
#include "corr/block_preparation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "cli/errors.hpp"
#include "corr/corr_plan.hpp"
#include "corr/integrator.hpp"
#include "io/visibility_writer.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {
namespace {

constexpr int kChan = 4, kAnt = 3, kPol = 2;
constexpr int64_t kSamples = 1000;

VoltageHeader test_header() {
  VoltageHeader h;
  h.format = "PSRDADA";
  h.nant = kAnt;
  h.nchan = kChan;
  h.npol = kPol;
  h.nbits = 8;
  h.centre_freq_mhz = 1400;
  h.bandwidth_mhz = 0.5;
  h.tsamp_s = kChan / 0.5e6;
  h.start_mjd_day = 60000;
  h.start_mjd_seconds = 3600;
  h.ra_deg = 60;
  h.dec_deg = -30;
  h.array = parse_layout_text("# frame: enu -30.7 21.4 1000\na 0 0 0\nb 30 10 0\nc -20 25 1\n",
                              "test.txt");
  return h;
}

CorrOptions test_options() {
  CorrOptions o;
  o.input = "test.dada";
  o.output = "out.uvfits";
  o.nint = 250;
  o.delay_interval_s = 64 * test_header().tsamp_s;  // updates every 64 samples
  return o;
}

Messages quiet() {
  Messages m;
  m.verbosity = 0;
  return m;
}

VoltageBlock random_block(int64_t first, int64_t n, uint32_t seed) {
  VoltageBlock b;
  b.first_sample = first;
  b.nsamples = n;
  b.data.resize(size_t(kChan) * kAnt * n * kPol * 2);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-20, 20);
  for (float& x : b.data) x = float(d(rng));
  return b;
}

// Samples [first, first + n) of every row of `whole` (rows of kSamples samples).
std::vector<float> time_slice(const std::vector<float>& whole, int64_t first, int64_t n) {
  std::vector<float> out;
  const size_t per_sample = kPol * 2;
  for (int row = 0; row < kChan * kAnt; ++row) {
    const auto begin = whole.begin() + (row * kSamples + first) * per_sample;
    out.insert(out.end(), begin, begin + n * per_sample);
  }
  return out;
}

TEST(CorrBlockPreparation, PhasesDependOnSampleNumbersNotOnBlocks) {
  const CorrPlan plan = make_corr_plan(test_options(), test_header(), quiet());
  ASSERT_TRUE(plan.rotate_voltages);
  ASSERT_EQ(plan.phase_update_samples, 64);
  const StationFlags none;
  VoltageBlock whole = random_block(0, kSamples, 1);
  const std::vector<float> raw = whole.data;
  BlockPreparation one(plan, none, nullptr, 2);
  const PreparedBlock p = one.prepare(whole);  // turns whole.data in place
  ASSERT_EQ(p.nsamples, kSamples);
  const std::vector<float> reference(p.data, p.data + raw.size());
  for (int64_t cut : {1, 63, 64, 100, 500, 999}) {
    BlockPreparation pieces(plan, none, nullptr, 1);
    for (auto [first, n] : {std::pair<int64_t, int64_t>{0, cut}, {cut, kSamples - cut}}) {
      VoltageBlock b;
      b.first_sample = first;
      b.nsamples = n;
      b.data = time_slice(raw, first, n);
      const PreparedBlock q = pieces.prepare(b);
      ASSERT_EQ(q.first_sample, first);
      const std::vector<float> got(q.data, q.data + b.data.size());
      EXPECT_EQ(got, time_slice(reference, first, n)) << "cut at " << cut;
    }
  }
  // The voltages were turned: not equal to the input.
  EXPECT_NE(reference, raw);
}

TEST(CorrBlockPreparation, FlaggedAndLostSamplesAreZeroedAndCounted) {
  CorrOptions o = test_options();
  const CorrPlan plan = make_corr_plan(o, test_header(), quiet());
  const StationFlags flags = parse_station_flags("b 0 0.0007996\n", "flags.txt", {"a", "b", "c"});  // 100 samples
  VoltageBlock block = random_block(0, kSamples, 2);
  // Station c loses samples 500..509 in every channel.
  for (int c = 0; c < kChan; ++c)
    for (int64_t t = 500; t < 510; ++t)
      for (int k = 0; k < kPol * 2; ++k)
        block.data[((size_t(c) * kAnt + 2) * kSamples + t) * kPol * 2 + k] = 0;
  BlockPreparation prep(plan, flags, nullptr, 3);
  const PreparedBlock p = prep.prepare(block);
  EXPECT_EQ(prep.flagged(), 100);
  EXPECT_EQ(prep.lost(), 10);
  EXPECT_EQ(prep.mask().valid_count(1, 2), kSamples - 100 - 10);
  for (int c = 0; c < kChan; ++c)
    for (int64_t t = 0; t < 100; ++t)
      for (int k = 0; k < kPol * 2; ++k)
        EXPECT_EQ(p.data[((size_t(c) * kAnt + 1) * kSamples + t) * kPol * 2 + k], 0.0f);
}

// Float input may hold NaN or infinity (bad data marked by a converter): such a station sample
// would make every sum it enters NaN, so it is left out like a lost one.
TEST(CorrBlockPreparation, NonFiniteFloatSamplesAreLeftOutAndCounted) {
  VoltageHeader h = test_header();
  h.nbits = 32;
  h.float_samples = true;
  const CorrPlan plan = make_corr_plan(test_options(), h, quiet());
  VoltageBlock block = random_block(0, kSamples, 3);
  auto at = [&](int c, int a, int64_t t, int k) -> float& {
    return block.data[((size_t(c) * kAnt + a) * kSamples + t) * kPol * 2 + k];
  };
  at(2, 0, 10, 3) = std::numeric_limits<float>::quiet_NaN();
  at(0, 2, 20, 0) = std::numeric_limits<float>::infinity();
  at(3, 2, 20, 1) = -std::numeric_limits<float>::infinity();  // the same station sample
  const StationFlags no_flags;  // the preparation keeps a reference
  BlockPreparation prep(plan, no_flags, nullptr, 2);
  const PreparedBlock p = prep.prepare(block);
  EXPECT_EQ(prep.non_finite(), 2);
  EXPECT_EQ(prep.lost(), 0);
  EXPECT_FALSE(prep.mask().valid(0, 10));
  EXPECT_FALSE(prep.mask().valid(2, 20));
  EXPECT_EQ(prep.mask().valid_count(0, 2), kSamples - 2);
  size_t non_finite = 0;
  for (size_t k = 0; k < block.data.size(); ++k) non_finite += !std::isfinite(p.data[k]);
  EXPECT_EQ(non_finite, 0u);
  for (int c = 0; c < kChan; ++c)
    for (int k = 0; k < kPol * 2; ++k) {
      EXPECT_EQ(p.data[((size_t(c) * kAnt + 0) * kSamples + 10) * kPol * 2 + k], 0.0f);
      EXPECT_EQ(p.data[((size_t(c) * kAnt + 2) * kSamples + 20) * kPol * 2 + k], 0.0f);
    }
}

// --nchan 4 --ntaps 5 --nint 50: each channelised sample takes 4 input samples, and the first 4
// reach back before the data.
CorrPlan channelised_plan() {
  CorrOptions o = test_options();
  o.channelise = true;
  o.pfb.design.nfine = 4;
  o.pfb.design.ntaps = 5;
  o.nint = 50;
  return make_corr_plan(o, test_header(), quiet());
}

TEST(CorrBlockPreparation, TheFilterbanksFirstOutputsAreLeftOut) {
  // The first 4 channelised samples are invalid at every station; later ones are not.
  const CorrPlan plan = channelised_plan();
  ASSERT_TRUE(plan.channeliser);
  std::unique_ptr<ChanneliserEngine> engine = make_channeliser(*plan.channeliser, DeviceChoice{}, 1);
  const StationFlags no_flags;  // the preparation keeps a reference
  BlockPreparation prep(plan, no_flags, engine.get(), 1);
  VoltageBlock first = random_block(0, 200, 3), second = random_block(200, 200, 4);
  prep.prepare(first);
  EXPECT_EQ(prep.warmup_left_out(), 4);
  for (int a = 0; a < kAnt; ++a) {
    EXPECT_EQ(prep.mask().invalid_count(a), 4);
    EXPECT_FALSE(prep.mask().valid(a, 3));
    EXPECT_TRUE(prep.mask().valid(a, 4));
  }
  prep.prepare(second);  // channelised samples 50 .. 99: none left out
  EXPECT_EQ(prep.warmup_left_out(), 4);
  EXPECT_EQ(prep.mask().invalid_count(), 0);
}

// Keeps the time and length of every row appended.
class RowTimes final : public VisibilityWriter {
 public:
  void append(const VisibilitySet& rows) override {
    times.insert(times.end(), rows.time_mjd.begin(), rows.time_mjd.end());
    lengths.insert(lengths.end(), rows.integration_s.begin(), rows.integration_s.end());
  }
  void commit() override {}
  size_t rows_written() const override { return times.size(); }
  std::vector<double> times;
  std::vector<float> lengths;
};

TEST(CorrBlockPreparation, TheFirstIntegrationsTimeLeavesTheWarmUpOut) {
  // The first integration's samples 0-3 are left out, so its time is the centre of samples
  // 4-49 and its length 46 samples; the second is whole.
  const CorrPlan plan = channelised_plan();
  std::unique_ptr<ChanneliserEngine> channeliser = make_channeliser(*plan.channeliser, DeviceChoice{}, 1);
  std::unique_ptr<CorrelatorEngine> engine = make_cpu_correlator(plan.engine, 1);
  const StationFlags no_flags;  // the preparation keeps a reference
  BlockPreparation prep(plan, no_flags, channeliser.get(), 1);
  RowTimes rows;
  Integrator integration(plan, *engine, rows);
  for (int k = 0; k < 2; ++k) {
    VoltageBlock block = random_block(200 * k, 200, 5 + k);
    const PreparedBlock p = prep.prepare(block);
    integration.add(p.data, p.first_sample, p.nsamples, prep.mask());
    ASSERT_TRUE(integration.complete());
    integration.write();
  }
  const double tsamp = plan.voltages.tsamp_s;
  const double start_mjd = plan.voltages.start_mjd();
  ASSERT_EQ(rows.times.size(), 2u * 6);  // 6 baselines of 3 stations, autocorrelations too
  const size_t per_integration = 6;
  // Times are MJDs: a double holds them to about a microsecond; the warm-up moves the centre
  // by 2 samples (64 us).
  EXPECT_NEAR((rows.times.front() - start_mjd) * 86400, (4 + 0.5 * 45) * tsamp, 2e-6);
  EXPECT_NEAR(rows.lengths.front(), 46 * tsamp, 1e-9);
  EXPECT_NEAR((rows.times[per_integration] - start_mjd) * 86400, (50 + 0.5 * 49) * tsamp, 2e-6);
  EXPECT_NEAR(rows.lengths[per_integration], 50 * tsamp, 1e-9);
}

TEST(CorrBlockPreparation, ThePlanPicksPrecisionAndWhereFringesStop) {
  CorrOptions o = test_options();
  const VoltageHeader h = test_header();
  CorrPlan raw = make_corr_plan(o, h, quiet());
  EXPECT_EQ(raw.engine.precision, CorrPrecision::fp32);  // 8-bit, but the fringes must turn
  EXPECT_TRUE(raw.rotate_voltages);
  o.fringe_stopped = true;
  CorrPlan stopped = make_corr_plan(o, h, quiet());
  EXPECT_EQ(stopped.engine.precision, CorrPrecision::int8);  // exact, nothing to turn
  EXPECT_FALSE(stopped.rotate_voltages || stopped.rotate_visibilities);
  o.phase_centre = "04:00:10 -30:00:00";
  CorrPlan moved = make_corr_plan(o, h, quiet());
  EXPECT_EQ(moved.engine.precision, CorrPrecision::fp32);
  o.precision = PrecisionChoice::int8;
  CorrPlan int8 = make_corr_plan(o, h, quiet());
  EXPECT_TRUE(int8.rotate_visibilities);
  EXPECT_FALSE(int8.rotate_voltages);
  VoltageHeader floats = h;
  floats.nbits = 32;
  floats.float_samples = true;
  EXPECT_THROW(make_corr_plan(o, floats, quiet()), UsageError);
  o.precision = PrecisionChoice::automatic;
  o.chan_avg = 3;
  EXPECT_THROW(make_corr_plan(o, h, quiet()), UsageError);
}

TEST(CorrBlockPreparation, ThePlanNeedsAStartTime) {
  VoltageHeader h = test_header();
  h.start_mjd_day = 0;  // what a reader gives for a header without UTC_START or MJD_START
  h.start_mjd_seconds = 0;
  try {
    make_corr_plan(test_options(), h, quiet());
    FAIL() << "a plan was made without a start time";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), "test.dada: carries no start time (UTC_START or MJD_START); "
                                     "the baselines' geometry needs one");
  }
}

TEST(CorrBlockPreparation, ThePlanDescribesTheOutput) {
  CorrOptions o = test_options();
  o.chan_avg = 2;
  const CorrPlan plan = make_corr_plan(o, test_header(), quiet());
  ASSERT_EQ(plan.metadata.nchan(), 2u);
  EXPECT_DOUBLE_EQ(plan.metadata.channel_freq_hz[0], 1399.875e6);  // channels 0 and 1
  EXPECT_DOUBLE_EQ(plan.metadata.channel_width_hz, 250e3);
  EXPECT_EQ(plan.metadata.stokes, (std::vector<int>{-5, -6, -7, -8}));
  EXPECT_EQ(plan.metadata.array.size(), kAnt);
  EXPECT_NEAR(plan.metadata.phase_centre_ra_rad, 60 * 3.14159265358979323846 / 180, 1e-12);
  EXPECT_EQ(plan.integration.nint, 250);
}

// --phase-centre moves where the visibilities are phased to, not where the antennas point: the
// output keeps the header's RA/DEC as its pointing (for primary-beam correction).
TEST(CorrBlockPreparation, ThePlanKeepsTheHeadersPointingWhenThePhaseCentreMoves) {
  constexpr double kDeg = 3.14159265358979323846 / 180;
  CorrOptions o = test_options();
  const CorrPlan same = make_corr_plan(o, test_header(), quiet());
  ASSERT_TRUE(same.metadata.pointing.has_value());
  EXPECT_NEAR(same.metadata.pointing->ra_rad, same.metadata.phase_centre_ra_rad, 1e-15);
  EXPECT_NEAR(same.metadata.pointing->dec_rad, same.metadata.phase_centre_dec_rad, 1e-15);
  o.phase_centre = "61.5 -29.25";
  const CorrPlan moved = make_corr_plan(o, test_header(), quiet());
  EXPECT_NEAR(moved.metadata.phase_centre_ra_rad, 61.5 * kDeg, 1e-12);
  EXPECT_NEAR(moved.metadata.phase_centre_dec_rad, -29.25 * kDeg, 1e-12);
  ASSERT_TRUE(moved.metadata.pointing.has_value());
  EXPECT_NEAR(moved.metadata.pointing->ra_rad, 60 * kDeg, 1e-12);
  EXPECT_NEAR(moved.metadata.pointing->dec_rad, -30 * kDeg, 1e-12);
}

}  // namespace
}  // namespace rapt
