// The FITS images idg-grid writes (centre frequency, band, phase centre, real part in the
// pixel order of io/fits_image.hpp), the date they carry, and how an input is recognised.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/errors.hpp"
#include "imaging/dirty_image_output.hpp"
#include "imaging/visibility_input.hpp"

namespace rapt {
namespace {

TEST(DirtyImageOutput, DatesAreUtcIso) {
  EXPECT_EQ(iso_date_from_mjd(60000.5), "2023-02-25T12:00:00.000");
  EXPECT_EQ(iso_date_from_mjd(51544.0), "2000-01-01T00:00:00.000");
}

TEST(DirtyImageOutput, SkyImageTakesTheGroupsBandAndTheRealPart) {
  VisibilitySet vs;
  vs.phase_centre_ra_rad = 1.0;
  vs.phase_centre_dec_rad = -0.5;
  vs.channel_width_hz = -1e6;  // descending channels: the band is still positive
  vs.time_mjd = {60000.5, 60000.25};
  vs.object = "FIELD";
  const std::vector<std::complex<float>> plane(16 * 16, {2.0f, -7.0f});
  const FitsImage image = sky_image(plane.data(), 16, 1e-4, vs, {1.403e9, 1.402e9, 1.401e9}, -5);
  EXPECT_EQ(image.nx, 16);
  EXPECT_EQ(image.ny, 16);
  EXPECT_FLOAT_EQ(image.pixels[37], 2.0f);
  EXPECT_DOUBLE_EQ(image.freq_hz, 1.402e9);
  EXPECT_DOUBLE_EQ(image.bandwidth_hz, 3e6);
  EXPECT_EQ(image.stokes, -5);
  EXPECT_EQ(image.bunit, "JY/BEAM");
  EXPECT_DOUBLE_EQ(image.phase_centre_ra_rad, 1.0);
  EXPECT_EQ(image.date_obs, "2023-02-25T06:00:00.000");  // the first integration
  EXPECT_EQ(image.object, "FIELD");
}

TEST(VisibilityInput, TellsFormatsByContent) {
  char dir_template[] = "/tmp/rapt_idg_input_XXXXXX";
  const std::string dir = ::mkdtemp(dir_template);
  const std::string text = dir + "/a.uvfits", fits = dir + "/b.ms";
  std::ofstream(text) << "not visibilities\n";
  std::ofstream(fits) << "SIMPLE  =                    T";  // a FITS header, whatever the name
  EXPECT_EQ(visibility_file_kind(fits), VisibilityFileKind::uvfits);
  try {
    visibility_file_kind(text);
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              text + ": is neither a Measurement Set (a directory) nor a UVFITS file");
  }
  EXPECT_THROW(visibility_file_kind(dir), DataError);  // a directory without table.dat
  EXPECT_THROW(visibility_file_kind(dir + "/missing"), DataError);
  std::ofstream(dir + "/table.dat") << "";
  EXPECT_EQ(visibility_file_kind(dir), VisibilityFileKind::measurement_set);
  std::remove(text.c_str());
  std::remove(fits.c_str());
  std::remove((dir + "/table.dat").c_str());
  ::rmdir(dir.c_str());
}

}  // namespace
}  // namespace rapt
