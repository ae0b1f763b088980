#include "io/presto_series.hpp"

#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

#include "cli/errors.hpp"
#include "test_data.hpp"

using rapt::Complex64;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

using ComplexDouble = std::complex<double>;

// Unnormalised forward real FFT in double precision: bins 0..N/2.
std::vector<ComplexDouble> reference_half_spectrum(const std::vector<float>& samples) {
  std::vector<double> input(samples.begin(), samples.end());
  std::vector<ComplexDouble> bins(samples.size() / 2 + 1);
  fftw_plan plan =
      fftw_plan_dft_r2c_1d(static_cast<int>(input.size()), input.data(),
                           reinterpret_cast<fftw_complex*>(bins.data()), FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return bins;
}

// The same in single precision, as realfft computes it.
std::vector<Complex64> float_half_spectrum(std::vector<float> samples) {
  std::vector<Complex64> bins(samples.size() / 2 + 1);
  fftwf_plan plan =
      fftwf_plan_dft_r2c_1d(static_cast<int>(samples.size()), samples.data(),
                            reinterpret_cast<fftwf_complex*>(bins.data()), FFTW_ESTIMATE);
  fftwf_execute(plan);
  fftwf_destroy_plan(plan);
  return bins;
}

struct SpectrumComparison {
  double max_bin_error = 0;  // over packed bins 1..N/2-1
  double rms_bin_error = 0;
  double dc_error = 0;
  double nyquist_error = 0;
  double rms = 0;  // rms amplitude over all N/2 packed values (DC included)
  double dc = 0;   // |DC| of the reference
};

SpectrumComparison compare_packed(const std::vector<Complex64>& packed,
                                  const std::vector<ComplexDouble>& half) {
  SpectrumComparison c;
  const size_t m = packed.size();
  double power = half[0].real() * half[0].real();
  double error_power = 0;
  for (size_t k = 1; k < m; ++k) {
    const double e = std::abs(ComplexDouble(packed[k]) - half[k]);
    c.max_bin_error = std::max(c.max_bin_error, e);
    error_power += e * e;
    power += std::norm(half[k]);
  }
  c.rms = std::sqrt(power / m);
  c.rms_bin_error = std::sqrt(error_power / (m - 1));
  c.dc = std::fabs(half[0].real());
  c.dc_error = std::fabs(packed[0].real() - half[0].real());
  c.nyquist_error = std::fabs(packed[0].imag() - half[m].real());
  return c;
}

// Tolerances relative to the spectrum's rms amplitude (DC included). float32 FFT rounding
// scales with the whole signal's norm, which the DC term (mean 12296 x 262144 samples)
// dominates; measured against the double reference: max 8.3e-6, rms 5.2e-8, Nyquist 7e-6.
// The DC value is held to 1e-6 of itself (measured 5.4e-8: half a float32 ulp is 4e-8).
constexpr double kMaxBinTolerance = 1e-5;
constexpr double kRmsBinTolerance = 1e-7;
constexpr double kDcTolerance = 1e-6;

void expect_matches_reference(const SpectrumComparison& c) {
  EXPECT_LE(c.max_bin_error, kMaxBinTolerance * c.rms);
  EXPECT_LE(c.rms_bin_error, kRmsBinTolerance * c.rms);
  EXPECT_LE(c.dc_error, kDcTolerance * c.dc);
  EXPECT_LE(c.nyquist_error, kMaxBinTolerance * c.rms);
}

std::vector<float> ramp(size_t n) {
  std::vector<float> samples(n);
  for (size_t i = 0; i < n; ++i) samples[i] = 0.5f * static_cast<float>(i) - 3.0f;
  return samples;
}

std::string error_text(const std::function<void()>& action) {
  try {
    action();
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

// ---- Golden PRESTO files ---------------------------------------------------------------------

TEST(PrestoFft, GoldenFileIsThePackedUnnormalisedFftOfTheDat) {
  RAPT_REQUIRE_SHARED_FILE(dat_path, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(fft_path, "presto-golden/test_DM56.00.fft");
  const std::vector<float> samples = rapt::read_dat(dat_path);
  const std::vector<Complex64> golden = rapt::read_fft(fft_path);
  ASSERT_EQ(samples.size(), 262144u);
  ASSERT_EQ(golden.size(), samples.size() / 2);
  const SpectrumComparison c = compare_packed(golden, reference_half_spectrum(samples));
  expect_matches_reference(c);
  EXPECT_GT(c.dc, 3e9);  // unnormalised: DC is the plain sum of 262144 samples near 12296
}

TEST(PrestoFft, OwnPipelineWritesWhatRealfftWrote) {
  RAPT_REQUIRE_SHARED_FILE(dat_path, "presto-golden/test_DM56.00.dat");
  RAPT_REQUIRE_SHARED_FILE(fft_path, "presto-golden/test_DM56.00.fft");
  const std::vector<float> samples = rapt::read_dat(dat_path);
  std::vector<Complex64> bins = float_half_spectrum(samples);
  const size_t num_packed = samples.size() / 2;
  rapt::pack_half_spectrum(bins.data(), num_packed);

  ScratchDir dir;
  const std::string path = dir.file("ours.fft");
  rapt::FftWriter out(path, false);
  const size_t block = 10000;  // not a divisor of N/2: the last block is short
  for (size_t start = 0; start < num_packed; start += block)
    out.append(bins.data() + start, std::min(block, num_packed - start));
  EXPECT_EQ(out.count_written(), static_cast<int64_t>(num_packed));
  out.commit();

  EXPECT_EQ(std::filesystem::file_size(path), std::filesystem::file_size(fft_path));
  const std::vector<Complex64> ours = rapt::read_fft(path);
  const std::vector<Complex64> golden = rapt::read_fft(fft_path);
  ASSERT_EQ(ours.size(), golden.size());
  // Bin by bin, the packed element 0 included, same tolerance as against the reference.
  double power = 0;
  for (const Complex64& z : golden) power += std::norm(ComplexDouble(z));
  const double rms = std::sqrt(power / golden.size());
  for (size_t k = 0; k < golden.size(); ++k)
    ASSERT_LE(std::abs(ComplexDouble(ours[k]) - ComplexDouble(golden[k])), kMaxBinTolerance * rms)
        << "bin " << k;
}

TEST(PrestoDat, GoldenFileHoldsTheInfsSampleCount) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/pd_DM56.00.dat");
  rapt::DatReader reader(path);
  EXPECT_EQ(reader.size(), 262144);
  // prepdata sums 128 channels of mean ~96: the series sits near 12296.
  std::vector<float> block(4096);
  ASSERT_EQ(reader.read(block.data(), block.size()), block.size());
  double mean = 0;
  for (float x : block) mean += x / block.size();
  EXPECT_NEAR(mean, 12296, 100);
}

// ---- Packing ---------------------------------------------------------------------------------

TEST(PrestoFftPacking, PutsDcAndNyquistInElementZero) {
  const std::vector<Complex64> half{{10, 0}, {1, 2}, {3, 4}, {-7, 0}};
  const std::vector<Complex64> packed = rapt::packed_from_half_spectrum(half);
  const std::vector<Complex64> expected{{10, -7}, {1, 2}, {3, 4}};
  EXPECT_EQ(packed, expected);
  EXPECT_EQ(rapt::half_spectrum_from_packed(packed), half);
}

TEST(PrestoFftPacking, InPlaceVersionsAgreeWithCopies) {
  const std::vector<float> samples = ramp(64);
  std::vector<Complex64> bins = float_half_spectrum(samples);
  const std::vector<Complex64> half = bins;
  rapt::pack_half_spectrum(bins.data(), 32);
  const std::vector<Complex64> packed(bins.begin(), bins.begin() + 32);
  EXPECT_EQ(packed, rapt::packed_from_half_spectrum(half));
  rapt::unpack_half_spectrum(bins.data(), 32);
  EXPECT_EQ(bins, half);
  // A ramp's Nyquist bin is -N/2 * slope = -16, and its DC is the sum.
  EXPECT_FLOAT_EQ(packed[0].imag(), -16.0f);
  EXPECT_FLOAT_EQ(packed[0].real(), 0.5f * 63 * 64 / 2 - 3.0f * 64);
}

TEST(PrestoFftPacking, RejectsEmptyInput) {
  EXPECT_THROW(rapt::packed_from_half_spectrum({Complex64(1, 0)}), std::invalid_argument);
  EXPECT_THROW(rapt::half_spectrum_from_packed({}), std::invalid_argument);
}

// ---- Streaming readers and writers -----------------------------------------------------------

TEST(PrestoDat, WritesInBlocksAndReadsBackInOtherBlocks) {
  ScratchDir dir;
  const std::string path = dir.file("x.dat");
  const std::vector<float> samples = ramp(1000);
  rapt::DatWriter out(path, false);
  for (size_t start = 0; start < samples.size(); start += 300)
    out.append(samples.data() + start, std::min<size_t>(300, samples.size() - start));
  EXPECT_FALSE(std::filesystem::exists(path));
  out.commit();
  EXPECT_EQ(std::filesystem::file_size(path), 4000u);

  rapt::DatReader reader(path);
  EXPECT_EQ(reader.size(), 1000);
  std::vector<float> back;
  std::vector<float> block(128);
  while (size_t got = reader.read(block.data(), block.size()))
    back.insert(back.end(), block.begin(), block.begin() + got);
  EXPECT_EQ(back, samples);
  EXPECT_EQ(reader.position(), 1000);
  EXPECT_EQ(reader.read(block.data(), block.size()), 0u);
}

TEST(PrestoDat, SeeksAndReadsTheRest) {
  ScratchDir dir;
  const std::string path = dir.file("x.dat");
  const std::vector<float> samples = ramp(100);
  rapt::write_dat(path, samples, false);
  rapt::DatReader reader(path);
  reader.seek(90);
  const std::vector<float> rest = reader.read_rest();
  EXPECT_EQ(rest, std::vector<float>(samples.begin() + 90, samples.end()));
  reader.seek(0);
  EXPECT_EQ(reader.read_rest(), samples);
  EXPECT_EQ(error_text([&] { reader.seek(101); }), path + ": cannot seek to element 101 of 100");
}

TEST(PrestoDat, ReadsAnEmptyFileAsNoSamples) {
  ScratchDir dir;
  const std::string path = dir.file("empty.dat");
  write_whole_file(path, "");
  EXPECT_TRUE(rapt::read_dat(path).empty());
}

TEST(PrestoDat, RejectsASizeThatIsNotWholeSamples) {
  ScratchDir dir;
  const std::string path = dir.file("odd.dat");
  write_whole_file(path, std::string(1001, '\0'));
  EXPECT_EQ(error_text([&] { rapt::read_dat(path); }),
            path + ": size 1001 bytes is not a whole number of float32 samples (4 bytes each)");
}

TEST(PrestoFft, RejectsASizeThatIsNotWholeComplexValues) {
  ScratchDir dir;
  const std::string path = dir.file("odd.fft");
  write_whole_file(path, std::string(12, '\0'));
  EXPECT_EQ(error_text([&] { rapt::read_fft(path); }),
            path + ": size 12 bytes is not a whole number of complex64 values (8 bytes each)");
}

TEST(PrestoDat, NamesAMissingFile) {
  ScratchDir dir;
  const std::string path = dir.file("none.dat");
  EXPECT_EQ(error_text([&] { rapt::DatReader reader(path); }),
            path + ": cannot open: No such file or directory");
  EXPECT_EQ(error_text([&] { rapt::DatReader reader(dir.path()); }),
            dir.path() + ": not a regular file");
}

TEST(PrestoDat, WriterLeavesNothingWithoutCommit) {
  ScratchDir dir;
  const std::string path = dir.file("abandoned.dat");
  {
    rapt::DatWriter out(path, false);
    out.append(ramp(10));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(PrestoFft, RoundTripsComplexValues) {
  ScratchDir dir;
  const std::string path = dir.file("x.fft");
  const std::vector<Complex64> values{{1.5f, -2.0f}, {3.0f, 4.25f}, {-0.0f, 1e-30f}};
  rapt::write_fft(path, values, false);
  EXPECT_EQ(read_whole_file(path).size(), 24u);
  EXPECT_EQ(rapt::read_fft(path), values);
}

TEST(PrestoSdat, ReadsInt16SamplesAsFloat) {
  ScratchDir dir;
  const std::string path = dir.file("x.sdat");
  const int16_t raw[] = {0, 1, -1, 32767, -32768, 1234};
  write_whole_file(path, std::string(reinterpret_cast<const char*>(raw), sizeof raw));
  const std::vector<float> expected{0, 1, -1, 32767, -32768, 1234};
  EXPECT_EQ(rapt::read_sdat_as_float(path), expected);
  write_whole_file(path, std::string(3, '\0'));
  EXPECT_EQ(error_text([&] { rapt::read_sdat_as_float(path); }),
            path + ": size 3 bytes is not a whole number of int16 samples (2 bytes each)");
}
