#include "accel/red_noise.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <sstream>
#include <vector>

#include "cli/errors.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "test_data.hpp"

namespace {

using Complex = std::complex<float>;

// Noise of mean power spectrum(k) in every bin k >= 1 (exponentially distributed powers).
std::vector<Complex> coloured_noise(size_t n, double (*spectrum)(size_t), uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<Complex> bins(n);
  for (size_t k = 0; k < n; ++k) {
    const double scale = std::sqrt(spectrum(k) / 2.0);
    const double re = scale * gauss(rng), im = scale * gauss(rng);
    bins[k] = Complex(static_cast<float>(re), static_cast<float>(im));
  }
  return bins;
}

double red_spectrum(size_t k) { return 1.0 + 5000.0 / (1.0 + static_cast<double>(k)); }
double white_spectrum(size_t) { return 3.0; }

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<double> powers(const std::vector<Complex>& bins, size_t from, size_t to) {
  std::vector<double> out;
  for (size_t k = from; k < to; ++k) out.push_back(std::norm(std::complex<double>(bins[k])));
  return out;
}

// Straight from the description, in double: block edges first, then each block's level
// (median / ln 2, the mean of the middle two for an even count), then the level of every bin by linear interpolation between block
// centres (flat before the first, last slope carried on after the last).
struct Block {
  size_t start, length;
};

std::vector<double> reference_levels(const std::vector<Complex>& raw,
                                     const std::vector<Block>& blocks) {
  std::vector<double> level(blocks.size()), centre(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) {
    std::vector<double> p = powers(raw, blocks[b].start, blocks[b].start + blocks[b].length);
    level[b] = median_of(p) / std::log(2.0);
    centre[b] = static_cast<double>(blocks[b].start + blocks[b].length / 2);
  }
  std::vector<double> per_bin(raw.size(), 0.0);
  double slope = 1.0;
  size_t b = 0;
  for (size_t k = 1; k < raw.size(); ++k) {
    while (b + 1 < blocks.size() && k >= centre[b + 1]) ++b;
    if (k < centre[0]) {
      per_bin[k] = level[0];
      continue;
    }
    if (b + 1 < blocks.size()) {
      slope = (level[b + 1] - level[b]) / (0.5 * (blocks[b].length + blocks[b + 1].length));
    } else if (blocks.size() > 1) {
      slope = (level[b] - level[b - 1]) / (0.5 * (blocks[b - 1].length + blocks[b].length));
    }
    per_bin[k] = level[b] + slope * (k - centre[b]);
  }
  return per_bin;
}

std::vector<Block> rednoise_blocks(size_t n, double T, const rapt::RedNoiseOptions& o) {
  std::vector<Block> blocks = {{1, static_cast<size_t>(o.startwidth)}};
  size_t start = 1 + o.startwidth;
  bool first = true;
  while (start < n) {
    size_t length = static_cast<size_t>(o.startwidth * std::log(static_cast<double>(start)));
    if (!first && start / T >= o.endfreq_hz) length = o.endwidth;
    length = std::min({length, static_cast<size_t>(o.endwidth), n - start});
    blocks.push_back({start, length});
    start += length;
    first = false;
  }
  return blocks;
}

std::vector<Block> accelsearch_blocks(size_t n) {
  std::vector<Block> blocks = {{1, 6}};
  size_t start = 7;
  for (;;) {
    const size_t length =
        std::min<size_t>(static_cast<size_t>(6 * std::log(static_cast<double>(start))), 200);
    if (start + length >= n) break;
    blocks.push_back({start, length});
    start += length;
  }
  return blocks;
}

void expect_scaled_by_levels(const std::vector<Complex>& raw, const std::vector<Complex>& out,
                             const std::vector<double>& level) {
  EXPECT_EQ(out[0], Complex(1.0f, 0.0f));
  for (size_t k = 1; k < raw.size(); ++k) {
    const double norm = 1.0 / std::sqrt(level[k]);
    ASSERT_NEAR(out[k].real(), raw[k].real() * norm, 2e-5 * std::abs(raw[k]) * norm + 1e-30)
        << "bin " << k;
    ASSERT_NEAR(out[k].imag(), raw[k].imag() * norm, 2e-5 * std::abs(raw[k]) * norm + 1e-30)
        << "bin " << k;
  }
}

TEST(RedNoise, RednoiseMatchesTheBlockMedianDescriptionBinForBin) {
  const size_t n = 20000;
  const double T = 100.0;  // endfreq 6 Hz = bin 600: log-growing blocks below, 100 above
  const std::vector<Complex> raw = coloured_noise(n, red_spectrum, 1);
  std::vector<Complex> out = raw;
  rapt::deredden(out, T);
  const rapt::RedNoiseOptions defaults;
  expect_scaled_by_levels(raw, out, reference_levels(raw, rednoise_blocks(n, T, defaults)));
}

TEST(RedNoise, EndfreqAndEndwidthChangeTheBlocks) {
  const size_t n = 5000;
  const double T = 10.0;
  const rapt::RedNoiseOptions options{4, 30, 25.0};  // bin 250 and up: 30-bin blocks
  const std::vector<Complex> raw = coloured_noise(n, red_spectrum, 2);
  std::vector<Complex> out = raw;
  rapt::deredden(out, T, options);
  expect_scaled_by_levels(raw, out, reference_levels(raw, rednoise_blocks(n, T, options)));
  std::vector<Complex> defaults = raw;
  rapt::deredden(defaults, T);
  EXPECT_NE(defaults[3000], out[3000]);
}

TEST(RedNoise, AccelsearchVariantLeavesTheShortLastBlockUnmeasured) {
  const size_t n = 12345;
  const std::vector<Complex> raw = coloured_noise(n, red_spectrum, 3);
  std::vector<Complex> out = raw;
  rapt::deredden_for_accelsearch(out);
  expect_scaled_by_levels(raw, out, reference_levels(raw, accelsearch_blocks(n)));
}

TEST(RedNoise, FlatSpectrumComesOutWithPowerLn2InEveryBin) {
  std::vector<Complex> bins(3000, Complex(3.0f, -4.0f));
  rapt::deredden(bins, 50.0);
  for (size_t k = 1; k < bins.size(); ++k)
    ASSERT_NEAR(std::norm(bins[k]), std::log(2.0), 1e-5) << k;
}

TEST(RedNoise, DereddenedRedNoiseHasMedianPowerLn2AndMeanOne) {
  const size_t n = 1 << 18;
  std::vector<Complex> bins = coloured_noise(n, red_spectrum, 4);
  rapt::deredden(bins, 60.0);
  for (size_t from : {size_t(100), size_t(1000), size_t(100000)}) {
    const std::vector<double> p = powers(bins, from, from + 20000);
    double mean = 0.0;
    for (double v : p) mean += v / p.size();
    EXPECT_NEAR(median_of(p), std::log(2.0), 0.03) << from;
    EXPECT_NEAR(mean, 1.0, 0.04) << from;
  }
}

TEST(RedNoise, RejectsSpectraShorterThanTheFirstBlockAndBadWidths) {
  std::vector<Complex> bins(6);
  EXPECT_THROW(rapt::deredden(bins, 1.0), std::invalid_argument);
  EXPECT_EQ(rapt::min_bins_to_deredden({}), 7u);
  std::vector<Complex> more(100, Complex(1.0f, 0.0f));
  EXPECT_THROW(rapt::deredden(more, 1.0, {10, 5, 6.0}), std::invalid_argument);
  EXPECT_THROW(rapt::deredden_for_accelsearch(bins), std::invalid_argument);
}

TEST(RedNoisePrestoGolden, InfOfTheDereddenedSpectrumIsRednoisesByteForByte) {
  RAPT_REQUIRE_SHARED_FILE(inf_path, "presto-golden/test_DM56.00.inf");
  RAPT_REQUIRE_SHARED_FILE(red_inf_path, "presto-golden/test_DM56.00_red.inf");
  const rapt::InfFile inf = rapt::read_inf(inf_path);
  const rapt::InfFile red = rapt::dereddened_inf(inf, rapt::red_noise_output_root(inf.name));
  EXPECT_EQ(rapt::format_inf(red), rapt::testing::read_whole_file(red_inf_path));
}

TEST(RedNoisePrestoGolden, WritesTheSpectrumAndInfTogetherAndRefusesToOverwrite) {
  RAPT_REQUIRE_SHARED_FILE(inf_path, "presto-golden/test_DM56.00.inf");
  rapt::testing::ScratchDir dir;
  const rapt::InfFile inf = rapt::read_inf(inf_path);
  std::vector<Complex> bins = coloured_noise(1000, white_spectrum, 5);
  const std::string root = dir.file("x_red");
  rapt::write_dereddened(root, bins, rapt::dereddened_inf(inf, "x_red"), false);
  EXPECT_EQ(rapt::read_fft(root + ".fft"), bins);
  EXPECT_EQ(rapt::read_inf(root + ".inf").name, "x_red");
  EXPECT_THROW(rapt::write_dereddened(root, bins, inf, false), rapt::DataError);
  rapt::write_dereddened(root, bins, inf, true);
}

// The harmonics table of accelsearch on PRESTO's own dereddened file: r and raw power of each
// harmonic of candidate 1 (the pulsar, z = 4 at the fundamental).
struct GoldenHarmonic {
  double r, z, raw_power;
};

std::vector<GoldenHarmonic> pulsar_harmonics(const std::string& text) {
  std::vector<GoldenHarmonic> rows;
  std::istringstream lines(text);
  std::string line;
  bool in_harmonics = false;
  while (std::getline(lines, line)) {
    if (line.find("Loc Pow") != std::string::npos) in_harmonics = true;
    if (!in_harmonics) continue;
    if (line.rfind(" 2 ", 0) == 0) break;  // candidate 2 starts
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string s; fields >> s;) f.push_back(s);
    const bool first = line.rfind(" 1 ", 0) == 0;
    const size_t shift = first ? 1 : 0;  // the first row carries the candidate number
    if (!first && (line.rfind("       ", 0) != 0 || rows.empty())) continue;
    rows.push_back({std::stod(f[4 + shift]), std::stod(f[6 + shift]), std::stod(f[3 + shift])});
  }
  return rows;
}

TEST(RedNoisePrestoGolden, PulsarHarmonicsKeepPrestosRawPowersAfterDereddening) {
  RAPT_REQUIRE_SHARED_FILE(fft_path, "presto-golden/test_DM56.00.fft");
  RAPT_REQUIRE_SHARED_FILE(accel_path, "presto-golden/test_DM56.00_red_ACCEL_50");
  const rapt::InfFile inf = rapt::read_inf(rapt::strip_suffix(fft_path, ".fft") + ".inf");
  std::vector<Complex> bins = rapt::read_fft(fft_path);
  rapt::deredden(bins, inf.n * inf.dt_s);
  EXPECT_EQ(bins[0], Complex(1.0f, 0.0f));
  const std::vector<double> p = powers(bins, 1000, bins.size());
  EXPECT_NEAR(median_of(p), std::log(2.0), 0.02);

  const std::vector<GoldenHarmonic> harmonics =
      pulsar_harmonics(rapt::testing::read_whole_file(accel_path));
  ASSERT_EQ(harmonics.size(), 8u);
  for (const GoldenHarmonic& h : harmonics) {
    // A signal drifting z bins spreads its power over about z + 2 bins; their summed power is
    // the coherent (interpolated) raw power to within the response's sidelobes and the noise
    // (found within 4 %).
    const long lo = static_cast<long>(std::floor(h.r - 0.5 * h.z - 2));
    const long hi = static_cast<long>(std::ceil(h.r + 0.5 * h.z + 2));
    double sum = 0.0;
    for (long k = lo; k <= hi; ++k) sum += std::norm(std::complex<double>(bins[k]));
    EXPECT_GT(sum, 0.93 * h.raw_power) << "r " << h.r;
    EXPECT_LT(sum, 1.07 * h.raw_power) << "r " << h.r;
  }
}

}  // namespace
