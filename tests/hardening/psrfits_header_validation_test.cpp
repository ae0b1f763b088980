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

}  // namespace
