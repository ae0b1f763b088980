// PSRFITS search-mode reader: sample unpacking and calibration from memory; headers, streaming
// and errors on synthetic files written with CFITSIO (psrfits_fixture.hpp). Real data:
// psrfits_parkes_data_test.cpp.
#include <fitsio.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/psrfits.hpp"
#include "io/psrfits_header.hpp"
#include "psrfits_fixture.hpp"
#include "test_data.hpp"

using rapt::PsrfitsReader;
using rapt::testing::PsrfitsFixture;
using rapt::testing::ScratchDir;
using rapt::testing::write_psrfits;

namespace {

// The message of the DataError that `open` throws ("" if none).
template <typename F>
std::string data_error_of(F&& open) {
  try {
    open();
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "";
}

std::vector<float> read_all(PsrfitsReader& reader) {
  const auto& info = reader.info();
  std::vector<float> out(size_t(info.nspectra) * size_t(info.nchans));
  const size_t got = reader.read(out.data(), size_t(info.nspectra));
  EXPECT_EQ(got, size_t(info.nspectra));
  std::vector<float> more(size_t(info.nchans));
  EXPECT_EQ(reader.read(more.data(), 1), 0u);
  return out;
}

// Stored sample values that exercise the whole range of `nbits`, different in every
// row, spectrum, polarisation and channel.
std::vector<double> sample_pattern(const PsrfitsFixture& f) {
  std::vector<double> values(f.samples_per_row() * size_t(f.nrows));
  for (size_t i = 0; i < values.size(); ++i) {
    const long k = long(i * 7 + i / 5);
    if (f.nbits <= 8) {
      values[i] = double(k % (1L << f.nbits));
    } else if (f.nbits == 16) {
      values[i] = double(k % 60001 - 30000);
    } else {
      values[i] = double(k % 1001 - 500) * 0.25;
    }
  }
  return values;
}

// Calibration values that keep every float result exact: scales 0.5, 1, 1.5; weights 1, 0.5
// and one channel weighted 0; offsets that differ by row.
void fill_scaling(PsrfitsFixture& f) {
  f.weights.clear();
  f.offsets.clear();
  f.scales.clear();
  for (int r = 0; r < f.nrows; ++r) {
    for (int c = 0; c < f.nchans; ++c) f.weights.push_back(c == 2 ? 0.0f : c % 2 ? 0.5f : 1.0f);
    for (int p = 0; p < f.npol; ++p) {
      for (int c = 0; c < f.nchans; ++c) {
        f.offsets.push_back(float(10 * p + c - 3 * r));
        f.scales.push_back(0.5f * float(1 + (c + p + r) % 3));
      }
    }
  }
}

// The PSRFITS rule written out directly: sum over summed products p of
// ((raw - |ZERO_OFF|) * DAT_SCL + DAT_OFFS) * DAT_WTS, per row, time-major output.
std::vector<float> expected_intensity(const PsrfitsFixture& f, int first_pol, int pols) {
  const size_t nchans = size_t(f.nchans), npol = size_t(f.npol);
  const float zero = float(std::fabs(f.zero_off.value_or(0.0)));
  std::vector<float> out;
  for (int r = 0; r < f.nrows; ++r) {
    for (int s = 0; s < f.nsblk; ++s) {
      for (size_t c = 0; c < nchans; ++c) {
        float sum = 0.0f;
        for (int p = first_pol; p < first_pol + pols; ++p) {
          const size_t k = size_t(r) * npol * nchans + size_t(p) * nchans + c;
          const double raw = f.samples[((size_t(r) * f.nsblk + s) * npol + p) * nchans + c];
          const float weight = f.weights.empty() ? 1.0f : f.weights[size_t(r) * nchans + c];
          const float scale = f.scales.empty() ? 1.0f : f.scales[k];
          const float offset = f.offsets.empty() ? 0.0f : f.offsets[k];
          sum += ((float(raw) - zero) * scale + offset) * weight;
        }
        out.push_back(sum);
      }
    }
  }
  return out;
}

PsrfitsFixture small_fixture(int nbits, char data_type, int npol = 1) {
  PsrfitsFixture f;
  f.nbits = nbits;
  f.data_type = data_type;
  f.npol = npol;
  f.nchans = 5;
  f.nsblk = 4;
  f.nrows = 3;
  f.samples = sample_pattern(f);
  fill_scaling(f);
  return f;
}

bool cfitsio_error_stack_is_empty() {
  char message[FLEN_ERRMSG];
  return fits_read_errmsg(message) == 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Unpacking and calibration from memory

TEST(UnpackPsrfitsSamples, TakesTheFirstFourBitSampleFromTheHighNibble) {
  const uint8_t bytes[] = {0x12, 0xAB};
  float out[4];
  rapt::unpack_psrfits_samples(bytes, 4, false, 0, 4, out);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{1, 2, 10, 11}));
}

TEST(UnpackPsrfitsSamples, TakesTwoAndOneBitSamplesFromTheHighBitsFirst) {
  const uint8_t two[] = {0x1B};  // 00 01 10 11
  float out[8];
  rapt::unpack_psrfits_samples(two, 2, false, 0, 4, out);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{0, 1, 2, 3}));
  const uint8_t one[] = {0xA1};  // 1010 0001
  rapt::unpack_psrfits_samples(one, 1, false, 0, 8, out);
  EXPECT_EQ(std::vector<float>(out, out + 8), (std::vector<float>{1, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(UnpackPsrfitsSamples, StartsInTheMiddleOfAByte) {
  const uint8_t bytes[] = {0x12, 0x34};
  float out[2];
  rapt::unpack_psrfits_samples(bytes, 4, false, 1, 2, out);
  EXPECT_EQ(std::vector<float>(out, out + 2), (std::vector<float>{2, 3}));
  const uint8_t two[] = {0x1B, 0xE4};  // 0 1 2 3 | 3 2 1 0
  rapt::unpack_psrfits_samples(two, 2, false, 3, 2, out);
  EXPECT_EQ(std::vector<float>(out, out + 2), (std::vector<float>{3, 3}));
}

TEST(UnpackPsrfitsSamples, ReadsEightBitsUnsignedOrSignedAndSixteenBitsBigEndian) {
  const uint8_t bytes[] = {0xFF, 0x80, 0x01, 0x00};
  float out[4];
  rapt::unpack_psrfits_samples(bytes, 8, false, 0, 2, out);
  EXPECT_EQ(std::vector<float>(out, out + 2), (std::vector<float>{255, 128}));
  rapt::unpack_psrfits_samples(bytes, 8, true, 0, 2, out);
  EXPECT_EQ(std::vector<float>(out, out + 2), (std::vector<float>{-1, -128}));
  rapt::unpack_psrfits_samples(bytes, 16, false, 0, 2, out);
  EXPECT_EQ(std::vector<float>(out, out + 2), (std::vector<float>{-128, 256}));
}

TEST(PsrfitsRowIntensity, AppliesZeroOffsetScaleOffsetAndWeightThenSumsTwoProducts) {
  // One spectrum, 2 channels, 4 products AABBCRCI: only AA and BB count.
  rapt::PsrfitsSampleLayout layout;
  layout.nchans = 2;
  layout.npol = 4;
  layout.nsblk = 1;
  layout.nbits = 32;
  layout.zero_offset = 1.0f;
  layout.pols_summed = 2;
  const float raw[] = {3, 5,  /*BB*/ 7, 9,  /*CR*/ 1000, 1000,  /*CI*/ 1000, 1000};
  rapt::PsrfitsRowScaling scaling;
  scaling.weights = {1.0f, 0.5f};
  scaling.offsets = {10, 20, 30, 40, 0, 0, 0, 0};
  scaling.scales = {2, 3, 4, 5, 1, 1, 1, 1};
  float scratch[2];
  float out[2];
  rapt::PsrfitsCell cell;
  cell.values = raw;
  rapt::psrfits_row_intensity(cell, layout, scaling, scratch, out);
  // channel 0: ((3-1)*2+10)*1 + ((7-1)*4+30)*1 = 14 + 54
  // channel 1: ((5-1)*3+20)*0.5 + ((9-1)*5+40)*0.5 = 16 + 40
  EXPECT_EQ(out[0], 68.0f);
  EXPECT_EQ(out[1], 56.0f);
}

TEST(ParseSexagesimal, ReadsHoursAndSignedDegrees) {
  EXPECT_DOUBLE_EQ(*rapt::parse_sexagesimal("05:34:31.900"), 5 + 34 / 60.0 + 31.9 / 3600);
  EXPECT_DOUBLE_EQ(*rapt::parse_sexagesimal("-00:30:00"), -0.5);
  EXPECT_DOUBLE_EQ(*rapt::parse_sexagesimal(" +22:00:52.0 "), 22 + 52 / 3600.0);
  EXPECT_DOUBLE_EQ(*rapt::parse_sexagesimal("12.5"), 12.5);
  EXPECT_FALSE(rapt::parse_sexagesimal("12:75:00"));
  EXPECT_FALSE(rapt::parse_sexagesimal("ab:cd"));
  EXPECT_FALSE(rapt::parse_sexagesimal("1:2:3:4"));
  EXPECT_FALSE(rapt::parse_sexagesimal(""));
}

// ---------------------------------------------------------------------------------------------
// Synthetic files: every sample coding with calibration applied

struct SampleCase {
  const char* name;
  int nbits;
  char data_type;
};

void PrintTo(const SampleCase& sample_case, std::ostream* os) { *os << sample_case.name; }

class PsrfitsSampleCodings : public ::testing::TestWithParam<SampleCase> {};

TEST_P(PsrfitsSampleCodings, ReadBackAsTheCalibrationRuleSays) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(GetParam().nbits, GetParam().data_type);
  f.zero_off = f.nbits <= 8 ? -0.5 * ((1 << f.nbits) - 1) : 0.0;  // sign is ignored: |ZERO_OFF|
  const std::string path = dir.file("coded.fits");
  write_psrfits(path, f);
  PsrfitsReader reader(path);
  EXPECT_EQ(reader.info().nbits, f.nbits);
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 1));
}

INSTANTIATE_TEST_SUITE_P(
    AllWidths, PsrfitsSampleCodings,
    ::testing::Values(SampleCase{"OneBitBytes", 1, 'B'}, SampleCase{"OneBitBits", 1, 'X'},
                      SampleCase{"TwoBit", 2, 'B'}, SampleCase{"FourBit", 4, 'B'},
                      SampleCase{"EightBit", 8, 'B'}, SampleCase{"SixteenBitShorts", 16, 'I'},
                      SampleCase{"SixteenBitBytePairs", 16, 'B'},
                      SampleCase{"ThirtyTwoBitFloats", 32, 'E'}),
    [](const ::testing::TestParamInfo<SampleCase>& info) { return info.param.name; });

TEST(PsrfitsReader, ReplacesFloatsThatAreNotFiniteByTheirChannelsMean) {
  // Float data with a NaN: it takes its channel's level (a constant here), with one warning;
  // read as stored where asked (inspect counts them).
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(32, 'E');
  f.weights.clear();
  f.offsets.clear();
  f.scales.clear();
  const size_t nchans = size_t(f.nchans);
  for (size_t i = 2; i < f.samples.size(); i += nchans) f.samples[i] = 10.0;  // channel 2
  const size_t nan_at = (1 * size_t(f.nsblk) + 2) * nchans + 2;             // row 1, spectrum 6
  f.samples[nan_at] = std::nan("");
  const std::string path = dir.file("nan.fits");
  write_psrfits(path, f);
  std::vector<float> want(f.samples.begin(), f.samples.end());
  want[nan_at] = 10.0f;
  PsrfitsReader reader(path);
  EXPECT_EQ(read_all(reader), want);
  EXPECT_EQ(reader.warnings().back(),
            path + ": 1 sample is NaN or infinite (the first at spectrum 6, channel 2 (in file "
                   "order)); each was replaced by its channel's mean");
  PsrfitsReader kept(path);
  kept.keep_non_finite_samples();
  EXPECT_TRUE(std::isnan(read_all(kept)[nan_at]));
}

TEST(PsrfitsReader, ReadsSignedEightBitSamplesWhenSignintIsOne) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  for (double& v : f.samples) v -= 128;  // -128 .. 127
  f.signint = 1;
  write_psrfits(dir.file("s.fits"), f);
  PsrfitsReader reader(dir.file("s.fits"));
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 1));
}

TEST(PsrfitsReader, SumsBothProductsOfTwoPolarisationData) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(4, 'B', 2);
  f.pol_type = "AABB";
  write_psrfits(dir.file("p2.fits"), f);
  PsrfitsReader reader(dir.file("p2.fits"));
  EXPECT_EQ(reader.info().npol_summed, 2);
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 2));
}

TEST(PsrfitsReader, SumsAaAndBbOfFourProductCoherenceData) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B', 4);
  f.pol_type = "AABBCRCI";
  write_psrfits(dir.file("p4.fits"), f);
  PsrfitsReader reader(dir.file("p4.fits"));
  EXPECT_EQ(reader.info().npol_summed, 2);
  const std::vector<float> got = read_all(reader);
  EXPECT_EQ(got, expected_intensity(f, 0, 2));
  EXPECT_NE(got, expected_intensity(f, 0, 4));
}

TEST(PsrfitsReader, TakesStokesIOfIquvData) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(16, 'I', 4);
  f.pol_type = "IQUV";
  write_psrfits(dir.file("iquv.fits"), f);
  PsrfitsReader reader(dir.file("iquv.fits"));
  EXPECT_EQ(reader.info().npol_summed, 1);
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 1));
}

TEST(PsrfitsReader, UsesOneOffsetAndScalePerChannelForEveryPolarisationWhenThatIsAllThereIs) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B', 2);
  f.nrows = 1;
  f.samples.resize(f.samples_per_row());
  f.weights.clear();
  f.offsets.clear();
  f.scales.clear();
  write_psrfits(dir.file("plain.fits"), f);
  PsrfitsReader reader(dir.file("plain.fits"));
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 2));
}

// ---------------------------------------------------------------------------------------------
// Synthetic files: header facts

TEST(PsrfitsReader, FillsObservationInfoFromThePrimaryAndSubintHeaders) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.telescope = "parkes";
  write_psrfits(dir.file("h.fits"), f);
  PsrfitsReader reader(dir.file("h.fits"));
  const rapt::ObservationInfo& info = reader.info();
  EXPECT_EQ(info.format, "PSRFITS search");
  EXPECT_EQ(info.path, dir.file("h.fits"));
  EXPECT_EQ(info.source_name, "J1234-5678");
  EXPECT_EQ(info.telescope, "Parkes");
  EXPECT_EQ(info.instrument, "GUPPI");
  EXPECT_DOUBLE_EQ(info.ra_deg, (12 + 34 / 60.0 + 30 / 3600.0) * 15);
  EXPECT_DOUBLE_EQ(info.dec_deg, -(56 + 46 / 60.0 + 30 / 3600.0));
  EXPECT_DOUBLE_EQ(info.az_start_deg, 123.5);
  EXPECT_DOUBLE_EQ(info.za_start_deg, 12.25);
  EXPECT_DOUBLE_EQ(info.tstart_mjd, 55000 + 3600.25 / 86400);
  EXPECT_DOUBLE_EQ(info.tsamp_s, 0.001);
  EXPECT_EQ(info.nchans, 5);
  EXPECT_EQ(info.nbits, 8);
  EXPECT_EQ(info.npol_summed, 1);
  EXPECT_EQ(info.nspectra, 12);
  EXPECT_DOUBLE_EQ(info.fch1_mhz, 1400.0);
  EXPECT_DOUBLE_EQ(info.foff_mhz, 1.0);
  EXPECT_TRUE(reader.warnings().empty());
}

TEST(PsrfitsReader, KeepsDescendingChannelsInFileOrder) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.freqs_mhz = {1500, 1496, 1492, 1488, 1484};
  write_psrfits(dir.file("down.fits"), f);
  PsrfitsReader reader(dir.file("down.fits"));
  EXPECT_DOUBLE_EQ(reader.info().fch1_mhz, 1500.0);
  EXPECT_DOUBLE_EQ(reader.info().foff_mhz, -4.0);
  EXPECT_DOUBLE_EQ(reader.info().lowest_freq_mhz(), 1484.0);
  EXPECT_EQ(read_all(reader), expected_intensity(f, 0, 1));
}

TEST(PsrfitsReader, RejectsUnevenlySpacedChannels) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.freqs_mhz = {1400, 1401, 1402.5, 1403, 1404};
  write_psrfits(dir.file("uneven.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("uneven.fits")); }),
            dir.file("uneven.fits") +
                ": DAT_FREQ channels are not evenly spaced (channel 2 at 1402.500000 MHz, "
                "expected 1402.000000 MHz)");
}

TEST(PsrfitsReader, StartsLaterByTheRowsBeforeTheFile) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  const double row_s = f.nsblk * f.tbin_s;
  f.offs_sub_s = {3.5 * row_s, 4.5 * row_s, 5.5 * row_s};  // OFFS_SUB says 3 rows came before
  f.be_delay = 0.5;
  write_psrfits(dir.file("offs.fits"), f);
  EXPECT_DOUBLE_EQ(PsrfitsReader(dir.file("offs.fits")).info().tstart_mjd,
                   55000 + (3600.25 + 0.5 + 3 * row_s) / 86400);

  f.offs_sub_s = {0, 0, 0};  // not filled in: NSUBOFFS counts instead
  f.be_delay.reset();
  f.nsuboffs = 7;
  write_psrfits(dir.file("nsub.fits"), f);
  EXPECT_DOUBLE_EQ(PsrfitsReader(dir.file("nsub.fits")).info().tstart_mjd,
                   55000 + (3600.25 + 7 * row_s) / 86400);
}

TEST(PsrfitsReader, WarnsAndUsesZeroForAnUnreadablePosition) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.ra = "somewhere";
  write_psrfits(dir.file("pos.fits"), f);
  PsrfitsReader reader(dir.file("pos.fits"));
  EXPECT_EQ(reader.info().ra_deg, 0.0);
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0],
            dir.file("pos.fits") + ": RA 'somewhere' is not [-]xx:mm:ss.s; using 0");
}

TEST(PsrfitsReader, AcceptsSrchAsSearchMode) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.obs_mode = "SRCH";
  write_psrfits(dir.file("srch.fits"), f);
  EXPECT_EQ(PsrfitsReader(dir.file("srch.fits")).info().nspectra, 12);
}

// ---------------------------------------------------------------------------------------------
// Synthetic files: streaming

TEST(PsrfitsReader, GivesTheSameSpectraInSmallReadsAcrossRows) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(2, 'B');
  write_psrfits(dir.file("r.fits"), f);
  PsrfitsReader once(dir.file("r.fits"));
  const std::vector<float> whole = read_all(once);
  PsrfitsReader reader(dir.file("r.fits"));
  std::vector<float> pieces;
  std::vector<float> buffer(3 * 5);
  size_t got = 0;
  while ((got = reader.read(buffer.data(), 3)) > 0) {
    pieces.insert(pieces.end(), buffer.begin(), buffer.begin() + long(got * 5));
  }
  EXPECT_EQ(pieces, whole);
}

TEST(PsrfitsReader, SkipsWithinRowsAndOverWholeRows) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(4, 'B');
  f.nrows = 5;
  f.samples = sample_pattern(f);
  fill_scaling(f);
  write_psrfits(dir.file("skip.fits"), f);
  const std::vector<float> expected = expected_intensity(f, 0, 1);
  const size_t nchans = 5;
  PsrfitsReader reader(dir.file("skip.fits"));
  std::vector<float> spectrum(nchans);
  ASSERT_EQ(reader.skip(1), 1u);    // inside row 1
  ASSERT_EQ(reader.read(spectrum.data(), 1), 1u);
  EXPECT_EQ(spectrum, std::vector<float>(expected.begin() + 5, expected.begin() + 10));
  ASSERT_EQ(reader.skip(10), 10u);  // rest of row 1, all of rows 2 and 3 unread, into row 4
  ASSERT_EQ(reader.read(spectrum.data(), 1), 1u);
  EXPECT_EQ(spectrum, std::vector<float>(expected.begin() + 12 * 5, expected.begin() + 13 * 5));
  EXPECT_EQ(reader.skip(100), 7u);  // to the end: 20 spectra in all
  EXPECT_EQ(reader.read(spectrum.data(), 1), 0u);
}

// ---------------------------------------------------------------------------------------------
// Errors: one line naming the file, nothing left on CFITSIO's error stack

TEST(PsrfitsReader, SaysWhenAFileIsMissing) {
  ScratchDir dir;
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("none.fits")); }),
            dir.file("none.fits") + ": cannot open: No such file or directory");
}

TEST(PsrfitsReader, SaysWhenAFileIsNotFits) {
  ScratchDir dir;
  rapt::testing::write_whole_file(dir.file("x.fits"), "just some text\n");
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("x.fits")); }),
            dir.file("x.fits") + ": not a FITS file");
}

TEST(PsrfitsReader, SaysWhenAFitsFileIsNotPsrfits) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.fitstype.reset();
  write_psrfits(dir.file("plain.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("plain.fits")); }),
            dir.file("plain.fits") + ": not a PSRFITS file (no FITSTYPE keyword)");
  f.fitstype = "FOLDED";
  write_psrfits(dir.file("other.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("other.fits")); }),
            dir.file("other.fits") + ": not a PSRFITS file (FITSTYPE is 'FOLDED')");
  EXPECT_TRUE(cfitsio_error_stack_is_empty());
}

TEST(PsrfitsReader, SaysWhenAFileIsNotSearchMode) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.obs_mode = "PSR";
  write_psrfits(dir.file("fold.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("fold.fits")); }),
            dir.file("fold.fits") + ": PSRFITS file is not search mode (OBS_MODE is 'PSR')");
}

TEST(PsrfitsReader, SaysWhenTheSubintTableIsMissing) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  f.write_subint = false;
  write_psrfits(dir.file("nosub.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("nosub.fits")); }),
            dir.file("nosub.fits") + ": no SUBINT table");
  EXPECT_TRUE(cfitsio_error_stack_is_empty());
}

TEST(PsrfitsReader, SaysHowManyRowsATruncatedFileHolds) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  const std::string path = dir.file("cut.fits");
  write_psrfits(path, f);
  const auto size = std::filesystem::file_size(path);
  // A row is 4 * 5 data bytes plus 4*8 + 5*8 + 5*4 + 2*5*4 bytes of other columns = 152; the
  // table ends padded to a 2880-byte block. Cutting the padding and 200 bytes more leaves row 1
  // and part of row 2.
  std::filesystem::resize_file(path, size - (2880 - 3 * 152) - 200);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(path); }),
            path + ": file is truncated: SUBINT table has 1 of 3 rows");
  std::filesystem::resize_file(path, 3000);  // inside the SUBINT header
  EXPECT_NE(data_error_of([&] { PsrfitsReader r(path); }).find(path + ": "), std::string::npos);
  EXPECT_TRUE(cfitsio_error_stack_is_empty());
}

TEST(PsrfitsReader, SaysWhenOnlyTheFinalBlockPaddingIsMissing) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B');
  const std::string path = dir.file("unpadded.fits");
  write_psrfits(path, f);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - (2880 - 3 * 152));
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(path); }),
            path + ": file is truncated: the last 2880-byte block of the SUBINT table lacks " +
                std::to_string(2880 - 3 * 152) + " bytes of padding");
}

TEST(PsrfitsReader, RejectsUnsupportedLayoutsByName) {
  ScratchDir dir;
  PsrfitsFixture f = small_fixture(8, 'B', 4);
  f.pol_type = "XXYY";
  write_psrfits(dir.file("pol.fits"), f);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("pol.fits")); }),
            dir.file("pol.fits") + ": NPOL=4 with POL_TYPE 'XXYY'; supported: AABBCRCI, IQUV");

  PsrfitsFixture odd = small_fixture(8, 'B');
  odd.nbits = 3;
  odd.data_type = 'E';
  write_psrfits(dir.file("bits.fits"), odd);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("bits.fits")); }),
            dir.file("bits.fits") + ": NBITS=3; supported: 1, 2, 4, 8, 16, 32");

  PsrfitsFixture wide = small_fixture(16, 'E');  // floats where NBITS says 16
  write_psrfits(dir.file("type.fits"), wide);
  EXPECT_EQ(data_error_of([&] { PsrfitsReader r(dir.file("type.fits")); }),
            dir.file("type.fits") +
                ": DATA column is '20E'; NBITS=16 NSBLK=4 NPOL=1 NCHAN=5 need 40 bytes per row");
}
