// PSRFITS headers no backend writes are refused by the reader with the FITS keyword named.
#include <gtest/gtest.h>

#include <string>

#include "../io/psrfits_fixture.hpp"
#include "cli/errors.hpp"
#include "io/psrfits.hpp"
#include "test_data.hpp"

namespace {

using rapt::testing::PsrfitsFixture;

std::string open_error(const PsrfitsFixture& fixture) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("bad.fits");
  rapt::testing::write_psrfits(path, fixture);
  try {
    rapt::PsrfitsReader reader(path);
  } catch (const rapt::DataError& e) {
    const std::string text = e.what();
    return text.rfind(path + ": ", 0) == 0 ? text.substr(path.size() + 2) : text;
  }
  return "(no error)";
}

PsrfitsFixture fixture() {
  PsrfitsFixture f;
  f.samples.assign(size_t(f.nrows) * f.samples_per_row(), 1.0);
  return f;
}

// The error text (without the "path: " prefix) PsrfitsReader gives for a file of `bytes`.
std::string open_error_of_bytes(const std::string& bytes) {
  rapt::testing::ScratchDir dir;
  const std::string path = dir.file("bad.sf");
  rapt::testing::write_whole_file(path, bytes);
  try {
    rapt::PsrfitsReader reader(path);
  } catch (const rapt::DataError& e) {
    const std::string text = e.what();
    return text.rfind(path + ": ", 0) == 0 ? text.substr(path.size() + 2) : text;
  }
  return "(no error)";
}

// The bytes of the ordinary fixture file.
std::string fixture_bytes() {
  rapt::testing::ScratchDir dir;
  rapt::testing::write_psrfits(dir.file("good.sf"), fixture());
  return rapt::testing::read_whole_file(dir.file("good.sf"));
}

// The fixture cut 1000 bytes into the header of HDU 2 (which starts at a 2880-byte block).
std::string cut_inside_second_header() {
  const std::string bytes = fixture_bytes();
  const size_t hdu2 = bytes.find("XTENSION= ");
  EXPECT_EQ(hdu2 % 2880, 0u);
  return bytes.substr(0, hdu2 + 1000);
}

// Replaces the whole card of `keyword` with `card` (padded to 80 characters).
std::string with_card(std::string bytes, const std::string& keyword, std::string card) {
  card.resize(80, ' ');
  const size_t at = bytes.find(keyword);
  EXPECT_NE(at, std::string::npos);
  EXPECT_EQ(at % 80, 0u);
  return bytes.replace(at, 80, card);
}

TEST(PsrfitsHeaderValidation, AcceptsTheOrdinaryFixture) {
  EXPECT_EQ(open_error(fixture()), "(no error)");
}

TEST(PsrfitsHeaderValidation, RefusesASampleTimeOfDays) {
  PsrfitsFixture f = fixture();
  f.tbin_s = 1e6;
  EXPECT_EQ(open_error(f), "header field TBIN = 1000000 s; must be between 1e-10 and 10000 s");
}

TEST(PsrfitsHeaderValidation, RefusesNegativeChannelFrequencies) {
  PsrfitsFixture f = fixture();
  f.freqs_mhz = {-1400, -1401, -1402, -1403};
  EXPECT_EQ(open_error(f), "header field DAT_FREQ = -1400 MHz; must be between 0 and 10000000 MHz");
}

TEST(PsrfitsHeaderValidation, RefusesACutSecondHeaderHoldingBytesPastAscii) {
  std::string bytes = cut_inside_second_header();
  bytes[bytes.size() - 300] = '\x86';
  bytes[bytes.size() - 299] = '\0';
  EXPECT_EQ(open_error_of_bytes(bytes),
            "header of HDU 2 holds a byte that is not printable ASCII (not FITS)");
}

TEST(PsrfitsHeaderValidation, LeavesACutAsciiSecondHeaderToTheTruncationCheck) {
  EXPECT_EQ(open_error_of_bytes(cut_inside_second_header()),
            "file is truncated or damaged after HDU 1 (no SUBINT table found)");
}

TEST(PsrfitsHeaderValidation, RefusesALongIntegerValueThatIsNotANumber) {
  const std::string bytes =
      with_card(fixture_bytes(), "STT_IMJD=",
                "STT_IMJD=           (Flexible Image Transport System) format is defined in");
  EXPECT_EQ(open_error_of_bytes(bytes), "primary header has no usable STT_IMJD");
}

TEST(PsrfitsHeaderValidation, ReadsAnIntegerKeywordWrittenAsARealOrAQuotedNumber) {
  for (const std::string value : {"55000.0", "5.5D4", "'55000'"}) {
    const std::string bytes = with_card(fixture_bytes(), "STT_IMJD=", "STT_IMJD= " + value);
    EXPECT_EQ(open_error_of_bytes(bytes), "(no error)") << value;
  }
}

}  // namespace
