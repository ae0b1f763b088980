// What a SIGPROC header means: packed sexagesimal coordinates, telescope and backend ids, and
// the ObservationInfo built from it.
#include <gtest/gtest.h>

#include <cmath>

#include "io/sigproc.hpp"
#include "sigproc_test_support.hpp"

using rapt::testing::example_header;

TEST(SigprocCoordinates, UnpacksRightAscension) {
  EXPECT_NEAR(rapt::sigproc_ra_to_deg(123456.789), 15.0 * (12 + 34 / 60.0 + 56.789 / 3600.0),
              1e-9);
  EXPECT_NEAR(rapt::sigproc_ra_to_deg(53431.9), 83.6329166667, 1e-9);
}

TEST(SigprocCoordinates, KeepsTheSignOfDeclinationsAboveMinusOneDegree) {
  EXPECT_NEAR(rapt::sigproc_dec_to_deg(-3015.5), -(30 / 60.0 + 15.5 / 3600.0), 1e-12);
  EXPECT_NEAR(rapt::sigproc_dec_to_deg(-123456.78), -(12 + 34 / 60.0 + 56.78 / 3600.0), 1e-9);
  EXPECT_NEAR(rapt::sigproc_dec_to_deg(220052.0), 22 + 52 / 3600.0, 1e-9);
}

TEST(SigprocCoordinates, PackingInvertsUnpacking) {
  for (const double ra : {0.0, 83.6329166667, 179.999, 359.9}) {
    const double packed = rapt::deg_to_sigproc_ra(ra);
    EXPECT_NEAR(rapt::sigproc_ra_to_deg(packed), ra, 1e-9) << ra;
  }
  for (const double dec : {-89.5, -12.582439, -0.504305, 0.0, 0.25, 22.0144, 89.99}) {
    const double packed = rapt::deg_to_sigproc_dec(dec);
    EXPECT_NEAR(rapt::sigproc_dec_to_deg(packed), dec, 1e-9) << dec;
  }
  EXPECT_NEAR(rapt::deg_to_sigproc_dec(-(30 / 60.0 + 15.5 / 3600.0)), -3015.5, 1e-7);
  EXPECT_NEAR(rapt::deg_to_sigproc_ra(-15.0), 230000.0, 1e-7);  // wrapped into 0..24 h
  // A direction a rounding error short of a whole minute (4 h and -30 deg through radians) is
  // written as that minute: never 60 in the seconds (03:59:60).
  const double ra_deg = (60.0 * M_PI / 180) * (180 / M_PI), dec_deg = (-30.0 * M_PI / 180) * (180 / M_PI);
  EXPECT_EQ(rapt::deg_to_sigproc_ra(std::nextafter(60.0, 0.0)), 40000.0);
  EXPECT_EQ(rapt::deg_to_sigproc_dec(std::nextafter(-30.0, 0.0)), -300000.0);
  EXPECT_EQ(rapt::deg_to_sigproc_ra(ra_deg), 40000.0);
  EXPECT_EQ(rapt::deg_to_sigproc_dec(dec_deg), -300000.0);
  EXPECT_NEAR(rapt::deg_to_sigproc_ra(15.0 * (3 + 59 / 60.0 + 59.5 / 3600)), 35959.5, 1e-7);
}

TEST(SigprocIds, NamesTelescopesAsPrestoDoes) {
  EXPECT_EQ(rapt::sigproc_telescope_name(4), "Parkes");
  EXPECT_EQ(rapt::sigproc_telescope_name(6), "GBT");
  EXPECT_EQ(rapt::sigproc_telescope_name(9), "ATA");  // SIGPROC calls 9 "140ft"
  EXPECT_EQ(rapt::sigproc_telescope_name(64), "MeerKAT");
  EXPECT_EQ(rapt::sigproc_telescope_name(-1), "Unknown");
  EXPECT_EQ(rapt::sigproc_telescope_name(999), "Unknown");
  EXPECT_EQ(rapt::sigproc_machine_name(7), "SPIGOT");  // SIGPROC calls 7 "GMRTFB"
  EXPECT_EQ(rapt::sigproc_machine_name(10), "BPSR");
  EXPECT_EQ(rapt::sigproc_machine_name(-1), "Unknown");
}

TEST(SigprocIds, FindsTelescopeIdsByNameIgnoringCase) {
  EXPECT_EQ(rapt::sigproc_telescope_id("Parkes"), 4);
  EXPECT_EQ(rapt::sigproc_telescope_id("gbt"), 6);
  EXPECT_EQ(rapt::sigproc_telescope_id("MEERKAT"), 64);
  EXPECT_EQ(rapt::sigproc_telescope_id("Park"), -1);
  EXPECT_EQ(rapt::sigproc_telescope_id(""), -1);
}

TEST(SigprocObservation, DescribesTheHeader) {
  rapt::SigprocHeader h = example_header();
  h.nifs = 2;
  const rapt::ObservationInfo info = rapt::observation_from_sigproc(h, "obs.fil");
  EXPECT_EQ(info.path, "obs.fil");
  EXPECT_EQ(info.format, "SIGPROC filterbank");
  EXPECT_EQ(info.source_name, "PSR J1748-2446A");
  EXPECT_EQ(info.telescope, "GBT");
  EXPECT_EQ(info.instrument, "SPIGOT");
  EXPECT_EQ(info.telescope_id, 6);
  EXPECT_EQ(info.machine_id, 7);
  EXPECT_NEAR(info.ra_deg, 15.0 * (17 + 48 / 60.0 + 4.123 / 3600.0), 1e-9);
  EXPECT_NEAR(info.dec_deg, -(24 + 46 / 60.0 + 11.5 / 3600.0), 1e-9);
  EXPECT_EQ(info.az_start_deg, 180.25);
  EXPECT_EQ(info.za_start_deg, 30.5);
  EXPECT_EQ(info.tstart_mjd, 54721.123456789);
  EXPECT_EQ(info.tsamp_s, 81.92e-6);
  EXPECT_EQ(info.fch1_mhz, 2100.0);
  EXPECT_EQ(info.foff_mhz, -0.78125);
  EXPECT_EQ(info.highest_freq_mhz(), 2100.0);
  EXPECT_EQ(info.lowest_freq_mhz(), 2100.0 - 1023 * 0.78125);
  EXPECT_EQ(info.nchans, 1024);
  EXPECT_EQ(info.nbits, 8);
  EXPECT_EQ(info.npol_summed, 2);
  EXPECT_TRUE(info.barycentric);
  EXPECT_EQ(info.nspectra, -1);
  h.data_type = 2;
  EXPECT_EQ(rapt::observation_from_sigproc(h, "x.tim").format, "SIGPROC time series");
}
