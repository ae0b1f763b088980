#include "accel/spectrum_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "accel/red_noise.hpp"
#include "cli/errors.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "test_data.hpp"

namespace {

using Complex = std::complex<float>;
using rapt::testing::ScratchDir;

rapt::InfFile small_inf(const std::string& name, int64_t n) {
  rapt::InfFile inf;
  inf.name = name;
  inf.telescope = rapt::kMakedataTelescope;
  inf.n = n;
  inf.dt_s = 0.001;
  return inf;
}

std::vector<float> noise(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> gauss(10.0f, 2.0f);
  std::vector<float> samples(n);
  for (float& s : samples) s = gauss(rng);
  return samples;
}

void expect_data_error(const std::string& path, const std::string& message) {
  try {
    rapt::load_accel_spectrum(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(SpectrumInput, PackedRealFftPutsDcAndNyquistInBinZero) {
  // x_j = 1 + cos(2 pi 3 j / 8) + (-1)^j: DC 8, bin 3 = 4, Nyquist 8.
  std::vector<float> x(8);
  for (int j = 0; j < 8; ++j)
    x[j] = static_cast<float>(1.0 + std::cos(2.0 * M_PI * 3.0 * j / 8.0) + (j % 2 ? -1.0 : 1.0));
  const std::vector<Complex> packed = rapt::packed_real_fft(x);
  ASSERT_EQ(packed.size(), 4u);
  EXPECT_NEAR(packed[0].real(), 8.0f, 1e-5);
  EXPECT_NEAR(packed[0].imag(), 8.0f, 1e-5);
  EXPECT_NEAR(std::abs(packed[1]), 0.0f, 1e-5);
  EXPECT_NEAR(std::abs(packed[2]), 0.0f, 1e-5);
  EXPECT_NEAR(packed[3].real(), 4.0f, 1e-5);
  EXPECT_NEAR(packed[3].imag(), 0.0f, 1e-5);
  EXPECT_THROW(rapt::packed_real_fft(std::vector<float>(7)), std::invalid_argument);
}

TEST(SpectrumInput, FftFileIsReadAsStoredWithItsInf) {
  ScratchDir dir;
  const std::string root = dir.file("obs");
  const std::vector<Complex> packed = rapt::packed_real_fft(noise(64, 1));
  rapt::write_fft(root + ".fft", packed, false);
  rapt::write_inf(root + ".inf", small_inf("obs", 64), false);
  const rapt::AccelSpectrum s = rapt::load_accel_spectrum(root + ".fft");
  EXPECT_EQ(s.root, root);
  EXPECT_EQ(s.path, root + ".fft");
  EXPECT_EQ(s.source, rapt::SpectrumSource::FftFile);
  EXPECT_EQ(s.packed, packed);
  EXPECT_EQ(s.numbins, 32);
  EXPECT_DOUBLE_EQ(s.T_s, 0.064);
  EXPECT_EQ(s.inf.name, "obs");
}

TEST(SpectrumInput, TimeSeriesIsTransformedDereddenedAndGetsBinZeroOfOnePlusOneI) {
  ScratchDir dir;
  const std::string root = dir.file("series");
  const std::vector<float> samples = noise(4096, 2);
  rapt::write_dat(root + ".dat", samples, false);
  rapt::write_inf(root + ".inf", small_inf("series", 4096), false);
  std::vector<Complex> expected = rapt::packed_real_fft(samples);
  rapt::deredden_for_accelsearch(expected);
  const rapt::AccelSpectrum s = rapt::load_accel_spectrum(root + ".dat");
  EXPECT_EQ(s.source, rapt::SpectrumSource::TimeSeries);
  ASSERT_EQ(s.packed.size(), 2048u);
  EXPECT_EQ(s.packed[0], Complex(1.0f, 1.0f));
  for (size_t k = 1; k < expected.size(); ++k)
    ASSERT_LT(std::abs(s.packed[k] - expected[k]), 1e-5f * (1.0f + std::abs(expected[k]))) << k;
  // With -photon bin 0 stays as dereddening left it.
  const rapt::AccelSpectrum photon = rapt::load_accel_spectrum(root + ".dat", {true});
  EXPECT_EQ(photon.packed[0], Complex(1.0f, 0.0f));
  // Without dereddening: the plain packed FFT.
  rapt::SpectrumInputOptions plain;
  plain.deredden_time_series = false;
  const std::vector<Complex> fft = rapt::packed_real_fft(samples);
  const rapt::AccelSpectrum raw = rapt::load_accel_spectrum(root + ".dat", plain);
  for (size_t k = 0; k < fft.size(); ++k)
    ASSERT_LT(std::abs(raw.packed[k] - fft[k]), 1e-5f * (1.0f + std::abs(fft[k]))) << k;
}

TEST(SpectrumInput, ShortSamplesGiveTheSameSpectrumAsTheirFloatValues) {
  ScratchDir dir;
  std::vector<int16_t> shorts(512);
  std::vector<float> floats(512);
  const std::vector<float> values = noise(shorts.size(), 3);
  for (size_t i = 0; i < shorts.size(); ++i) {
    shorts[i] = static_cast<int16_t>(std::lround(values[i] * 50.0f));
    floats[i] = shorts[i];
  }
  rapt::testing::write_whole_file(
      dir.file("a.sdat"),
      std::string(reinterpret_cast<const char*>(shorts.data()), shorts.size() * 2));
  rapt::write_inf(dir.file("a.inf"), small_inf("a", 512), false);
  rapt::write_dat(dir.file("b.dat"), floats, false);
  rapt::write_inf(dir.file("b.inf"), small_inf("b", 512), false);
  const std::vector<Complex> a = rapt::load_accel_spectrum(dir.file("a.sdat")).packed;
  const std::vector<Complex> b = rapt::load_accel_spectrum(dir.file("b.dat")).packed;
  ASSERT_EQ(a.size(), b.size());
  // Equal up to FFTW's choice of SIMD code for differently aligned buffers.
  for (size_t k = 0; k < a.size(); ++k)
    ASSERT_LT(std::abs(a[k] - b[k]), 1e-5f * (1.0f + std::abs(b[k]))) << k;
}

TEST(SpectrumInput, ErrorsNameTheFileAndTheProblem) {
  ScratchDir dir;
  rapt::write_fft(dir.file("noinf.fft"), std::vector<Complex>(32), false);
  expect_data_error(dir.file("noinf.fft"),
                    dir.file("noinf.fft") + ": no .inf beside it (" + dir.file("noinf.inf") + ")");
  expect_data_error(dir.file("x.txt"),
                    dir.file("x.txt") + ": input must be a .fft, .dat or .sdat file");
  expect_data_error(dir.file("gone.fft"), dir.file("gone.fft") + ": no such file");

  rapt::write_fft(dir.file("short.fft"), std::vector<Complex>(30), false);
  rapt::write_inf(dir.file("short.inf"), small_inf("short", 64), false);
  expect_data_error(dir.file("short.fft"),
                    dir.file("short.fft") +
                        ": holds 30 complex values; its .inf says N = 64 samples, i.e. 32");

  rapt::write_dat(dir.file("odd.dat"), std::vector<float>(65), false);
  rapt::write_inf(dir.file("odd.inf"), small_inf("odd", 65), false);
  expect_data_error(dir.file("odd.dat"),
                    dir.file("odd.inf") +
                        ": N = 65 is odd; a real FFT search needs an even number of samples");

  rapt::write_dat(dir.file("mismatch.dat"), std::vector<float>(60), false);
  rapt::write_inf(dir.file("mismatch.inf"), small_inf("mismatch", 64), false);
  expect_data_error(dir.file("mismatch.dat"),
                    dir.file("mismatch.dat") + ": holds 60 samples; its .inf says N = 64");

  rapt::write_dat(dir.file("tiny.dat"), std::vector<float>(8), false);
  rapt::write_inf(dir.file("tiny.inf"), small_inf("tiny", 8), false);
  expect_data_error(dir.file("tiny.dat"),
                    dir.file("tiny.inf") + ": N = 8 samples; at least 16 needed");
}

TEST(SpectrumInputPrestoGolden, OurFftOfTheDatMatchesRealfftsFile) {
  RAPT_REQUIRE_SHARED_FILE(dat_path, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(fft_path, "presto-golden/test_DM56.00.fft");
  const rapt::AccelSpectrum from_fft = rapt::load_accel_spectrum(fft_path);
  EXPECT_EQ(from_fft.numbins, 131072);
  EXPECT_NEAR(from_fft.T_s, 67.108864, 1e-9);
  const std::vector<Complex> ours = rapt::packed_real_fft(rapt::read_dat(dat_path));
  ASSERT_EQ(ours.size(), from_fft.packed.size());
  double diff = 0.0, total = 0.0;
  for (size_t k = 0; k < ours.size(); ++k) {
    diff += std::norm(std::complex<double>(ours[k]) - std::complex<double>(from_fft.packed[k]));
    total += std::norm(std::complex<double>(from_fft.packed[k]));
  }
  EXPECT_LT(std::sqrt(diff / total), 1e-6);
  // And the .dat input path dereddens it: noise powers have median ln 2.
  const rapt::AccelSpectrum from_dat = rapt::load_accel_spectrum(dat_path);
  std::vector<float> powers;
  for (size_t k = 1000; k < from_dat.packed.size(); ++k)
    powers.push_back(std::norm(from_dat.packed[k]));
  std::nth_element(powers.begin(), powers.begin() + powers.size() / 2, powers.end());
  EXPECT_NEAR(powers[powers.size() / 2], std::log(2.0), 0.02);
}

}  // namespace
