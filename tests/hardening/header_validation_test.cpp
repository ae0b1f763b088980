// Header values no instrument can write are refused by the readers, one line naming the file,
// the field and the value; values a computation only needs finite pass.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/header_validation.hpp"
#include "io/presto_inf.hpp"
#include "io/sigproc.hpp"
#include "test_data.hpp"

namespace {

template <typename Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

// SIGPROC header bytes: a 4-byte length and the text for each keyword, then its value.
class Header {
 public:
  Header() { token("HEADER_START"); }
  Header& token(const std::string& text) {
    const uint32_t n = uint32_t(text.size());
    append(&n, 4);
    bytes_.insert(bytes_.end(), text.begin(), text.end());
    return *this;
  }
  Header& i32(const std::string& key, int32_t v) {
    token(key);
    append(&v, 4);
    return *this;
  }
  Header& f64(const std::string& key, double v) {
    token(key);
    append(&v, 8);
    return *this;
  }
  std::string error() {
    token("HEADER_END");
    return error_of([&] { rapt::parse_sigproc_header(bytes_.data(), bytes_.size(), "obs.fil"); });
  }

 private:
  void append(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
  }
  std::vector<uint8_t> bytes_;
};

Header filterbank(double fch1, double foff, double tsamp = 64e-6, int nchans = 64) {
  Header h;
  h.i32("nbits", 8).i32("nchans", nchans).f64("tsamp", tsamp).f64("fch1", fch1).f64("foff", foff);
  return h;
}

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(HeaderValidation, NamesTheFileTheFieldAndTheValue) {
  EXPECT_EQ(error_of([] { rapt::require_nonzero("obs.fil", "foff", 0.0, "MHz"); }),
            "obs.fil: header field foff = 0 MHz; must be non-zero");
  EXPECT_EQ(error_of([] { rapt::require_positive("obs.fil", "tsamp", -1e-3, "s"); }),
            "obs.fil: header field tsamp = -0.001 s; must be positive");
  EXPECT_EQ(error_of([] { rapt::require_finite("x.fits", "TBIN", kNan, "s"); }),
            "x.fits: header field TBIN = nan s; must be finite");
  EXPECT_EQ(error_of([] { rapt::require_in_range("a.inf", "DM", 2e6, "", -1e6, 1e6); }),
            "a.inf: header field DM = 2000000; must be between -1000000 and 1000000");
}

TEST(HeaderValidation, AcceptsARealBand) {
  EXPECT_EQ(error_of([] { rapt::validate_channel_band("o.fil", "fch1", 1500, "foff", -0.5, 512); }),
            "(no error)");
  EXPECT_EQ(error_of([] { rapt::validate_channel_band("o.tim", "fch1", 0, "foff", 0, 1); }),
            "(no error)");
}

TEST(HeaderValidation, RefusesABandReachingBelowZero) {
  EXPECT_EQ(error_of([] { rapt::validate_channel_band("o.fil", "fch1", 100, "foff", -1, 512); }),
            "o.fil: header fields fch1 = 100 MHz and foff = -1 MHz put channel 511 at -411 MHz; "
            "every channel must lie between 0 and 10000000 MHz");
}

TEST(HeaderValidation, RefusesASeriesShorterThanItsHeaderSays) {
  EXPECT_EQ(error_of([] { rapt::validate_series_length("a.inf", "N", 4000, "a.dat", 100); }),
            "a.dat: holds 100 samples but a.inf says N = 4000; the file is truncated");
  EXPECT_EQ(error_of([] { rapt::validate_series_length("a.inf", "N", 4000, "a.dat", 0); }),
            "a.dat: is empty (no samples)");
  EXPECT_EQ(error_of([] { rapt::validate_series_length("a.inf", "N", 0, "a.dat", 120); }),
            "a.dat: holds 120 samples but a.inf says N = 0; they must agree");
  EXPECT_EQ(error_of([] { rapt::validate_series_length("a.inf", "N", 120, "a.dat", 120); }),
            "(no error)");
}

std::string fits_header_block(const std::string& first_card) {
  std::string block = first_card;
  block.resize(80, ' ');
  block += "END";
  block.resize(2880, ' ');
  return block;
}

TEST(FitsHeaderValidation, AcceptsPrintableCardsUpToEnd) {
  rapt::testing::ScratchDir dir;
  rapt::testing::write_whole_file(dir.file("a.fits"), fits_header_block("SIMPLE  =                    T"));
  EXPECT_EQ(error_of([&] { rapt::require_ascii_fits_header(dir.file("a.fits"), 0, 1); }),
            "(no error)");
}

TEST(FitsHeaderValidation, RefusesABytePastAscii) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("b.fits");
  rapt::testing::write_whole_file(path, fits_header_block("TTYPE1  = '\xff\xff'"));
  EXPECT_EQ(error_of([&] { rapt::require_ascii_fits_header(path, 0, 2); }),
            path + ": header of HDU 2 holds a byte that is not printable ASCII (not FITS)");
}

TEST(SigprocHeaderValidation, RefusesAZeroChannelWidth) {
  EXPECT_EQ(filterbank(1500, 0.0).error(), "obs.fil: header field foff = 0 MHz; must be non-zero");
}

TEST(SigprocHeaderValidation, RefusesANegativeFirstChannel) {
  EXPECT_EQ(filterbank(-1500, -6.25).error(),
            "obs.fil: header field fch1 = -1500 MHz; must be positive");
}

TEST(SigprocHeaderValidation, RefusesNonFiniteFrequencies) {
  EXPECT_EQ(filterbank(1500, kNan).error(), "obs.fil: header field foff = nan MHz; must be finite");
  EXPECT_EQ(filterbank(kInf, -1).error(), "obs.fil: header field fch1 = inf MHz; must be finite");
}

TEST(SigprocHeaderValidation, RefusesChannelsBelowZeroFrequency) {
  EXPECT_EQ(filterbank(50, -1, 64e-6, 64).error(),
            "obs.fil: header fields fch1 = 50 MHz and foff = -1 MHz put channel 63 at -13 MHz; "
            "every channel must lie between 0 and 10000000 MHz");
}

TEST(SigprocHeaderValidation, RefusesSampleTimesOutsideAnyInstrument) {
  EXPECT_EQ(filterbank(1500, -1, kInf).error(), "obs.fil: header field tsamp = inf s; must be finite");
  EXPECT_EQ(filterbank(1500, -1, 1e9).error(),
            "obs.fil: header field tsamp = 1000000000 s; must be between 1e-10 and 10000 s");
}

TEST(SigprocHeaderValidation, RefusesANonFiniteStartTime) {
  Header h = filterbank(1500, -1);
  h.f64("tstart", kNan);
  EXPECT_EQ(h.error(), "obs.fil: header field tstart = nan MJD; must be finite");
}

TEST(SigprocHeaderValidation, AcceptsASingleChannelSeriesWithoutFrequency) {
  Header h;
  h.i32("nbits", 32).i32("nchans", 1).f64("tsamp", 1e-3);
  EXPECT_EQ(h.error(), "(no error)");
}

std::string inf_text(const std::string& dt, const std::string& nchan, const std::string& chan_bw,
                     const std::string& lofreq = "1400") {
  return " Data file name without suffix          =  x\n"
         " Telescope used                         =  Parkes\n"
         " Epoch of observation (MJD)             =  60000.0\n"
         " Number of bins in the time series      =  1000\n"
         " Width of each time series bin (sec)    =  " + dt + "\n"
         " Type of observation (EM band)          =  Radio\n"
         " Dispersion measure (cm-3 pc)           =  10\n"
         " Central freq of low channel (MHz)      =  " + lofreq + "\n"
         " Total bandwidth (MHz)                  =  64\n"
         " Number of channels                     =  " + nchan + "\n"
         " Channel bandwidth (MHz)                =  " + chan_bw + "\n";
}

std::string inf_error(const std::string& text) {
  return error_of([&] { rapt::parse_inf(text, "x.inf"); });
}

TEST(PrestoInfValidation, AcceptsAnOrdinaryFile) {
  EXPECT_EQ(inf_error(inf_text("6.4e-05", "64", "1")), "(no error)");
}

TEST(PrestoInfValidation, RefusesAZeroChannelWidthWithManyChannels) {
  EXPECT_EQ(inf_error(inf_text("6.4e-05", "64", "0")),
            "x.inf: header field \"Channel bandwidth (MHz)\" = 0 MHz; must be non-zero");
}

TEST(PrestoInfValidation, RefusesZeroChannels) {
  EXPECT_EQ(inf_error(inf_text("6.4e-05", "0", "1")),
            "x.inf: header field \"Number of channels\" = 0; must be at least 1");
}

TEST(PrestoInfValidation, RefusesANegativeLowFrequency) {
  EXPECT_EQ(inf_error(inf_text("6.4e-05", "64", "1", "-1400")),
            "x.inf: header field \"Central freq of low channel (MHz)\" = -1400 MHz; must be "
            "positive");
}

TEST(PrestoInfValidation, RefusesAnAbsurdSampleTime) {
  EXPECT_EQ(inf_error(inf_text("1e300", "64", "1")),
            "x.inf: header field \"Width of each time series bin (sec)\" = 1e+300 s; must be "
            "between 1e-10 and 10000 s");
}

}  // namespace
