// Measurement Set reader: known answers for the PAPER and EVLA samples, selections, and one
// test per bad input. In a build without casacore, the one-line error instead.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>

#include "cli/errors.hpp"
#include "io/measurement_set.hpp"
#include "io/measurement_set_test_data.hpp"
#include "test_data.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/tables/Tables/ArrColDesc.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>
#endif

namespace rapt {
namespace {

constexpr const char* kPaperMs = "pyuvdata/zen.2456865.60537.xy.uvcRREAAM.ms";
constexpr const char* kEvlaMs = "pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms";

#define RAPT_REQUIRE_CASACORE() \
  if (!measurement_set_supported()) GTEST_SKIP() << "this build has no casacore"

template <typename F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  } catch (const UsageError& e) {
    return std::string("usage: ") + e.what();
  }
  return "no error";
}

std::complex<double> sum_of(const VisibilitySet& v) {
  std::complex<double> s = 0;
  for (const auto& x : v.vis) s += std::complex<double>(x);
  return s;
}

// Largest |u|, |v| or |w| (the "max |uvw|" of the known answers).
double max_uvw_component_m(const VisibilitySet& v) {
  double m = 0;
  for (const auto& u : v.uvw_m)
    for (double x : u) m = std::max(m, std::fabs(x));
  return m;
}

TEST(MeasurementSetReader, BuildWithoutCasacoreSaysSoInOneLine) {
  if (measurement_set_supported()) GTEST_SKIP() << "this build has casacore";
  const std::string read_error = error_text([] { read_measurement_set("obs.ms"); });
  EXPECT_EQ(read_error,
            "usage: obs.ms: this build of rapt has no Measurement Set support "
            "(built without casacore; install casacore-dev and rebuild)");
  const std::string write_error =
      error_text([] { write_measurement_set("out.ms", VisibilitySet{}, false); });
  EXPECT_NE(write_error.find("out.ms: this build of rapt has no Measurement Set support"),
            std::string::npos);
}

TEST(MeasurementSetReader, ReadsPaperSample) {
  RAPT_REQUIRE_CASACORE();
  RAPT_REQUIRE_SHARED_FILE(path, kPaperMs);
  std::vector<std::string> warnings;
  const VisibilitySet v = read_measurement_set(path, {}, &warnings);
  // Its spectral window is in the LSRK frame, named as such.
  bool frame_named = false;
  for (const std::string& w : warnings)
    frame_named |= w.find("frequencies are in frame LSRK (1) (MEAS_FREQ_REF), not TOPO") !=
                   std::string::npos;
  EXPECT_TRUE(frame_named);
  EXPECT_EQ(v.nrows(), 285u);
  EXPECT_EQ(v.nchan(), 11u);
  EXPECT_EQ(v.stokes, std::vector<int>{-7});
  EXPECT_EQ(v.array.size(), 64);
  EXPECT_EQ(v.object, "zenith");
  EXPECT_NEAR(v.channel_freq_hz[0], 1.0e8, 1e-3);
  EXPECT_NEAR(v.channel_width_hz, 492610.837438, 1e-3);
  const std::complex<double> s = sum_of(v);
  EXPECT_NEAR(s.real(), 1.41952, 1e-4);
  EXPECT_NEAR(s.imag(), -1.52424, 1e-4);
  const double t_min_s = *std::min_element(v.time_mjd.begin(), v.time_mjd.end()) * 86400;
  EXPECT_NEAR(t_min_s, 4913145103.581762, 1e-5);
  EXPECT_NEAR(max_uvw_component_m(v), 150.19, 0.01);
  EXPECT_EQ(v.telescope, "PAPER");
  // WEIGHT_SPECTRUM (31.647127, the UVFITS weight) wins over WEIGHT (348.1184, its sum).
  EXPECT_NEAR(v.weight[0], 31.647127, 1e-4);
  EXPECT_NEAR(v.integration_s[0], 31.65, 0.01);
  EXPECT_FALSE(std::is_sorted(v.time_mjd.begin(), v.time_mjd.end()));  // file order kept
}

TEST(MeasurementSetReader, ReadsEvlaSample) {
  RAPT_REQUIRE_CASACORE();
  RAPT_REQUIRE_SHARED_FILE(path, kEvlaMs);
  std::vector<std::string> warnings;
  const VisibilitySet v = read_measurement_set(path, {}, &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(v.nrows(), 1360u);
  EXPECT_EQ(v.nchan(), 64u);
  EXPECT_EQ(v.stokes, (std::vector<int>{-1, -3, -4, -2}));  // RR RL LR LL, file order
  EXPECT_EQ(v.array.size(), 28);
  EXPECT_EQ(v.array.antennas[0].dish_diameter_m, 25.0);
  EXPECT_EQ(v.object, "J1008+0730");
  EXPECT_NEAR(v.phase_centre_ra_rad, 2.65290163, 1e-8);
  EXPECT_NEAR(v.phase_centre_dec_rad, 0.13097994, 1e-8);
  EXPECT_NEAR(v.channel_freq_hz.front(), 36.30454e9, 1e4);
  EXPECT_NEAR(v.channel_freq_hz.back(), 36.31242e9, 1e4);
  EXPECT_EQ(v.channel_width_hz, 125e3);
  EXPECT_EQ(v.antenna1[0], 3);
  EXPECT_EQ(v.antenna2[0], 7);
  EXPECT_NEAR(v.uvw_m[0][0], 6.622179, 1e-6);
  EXPECT_NEAR(v.uvw_m[0][1], -37.997879, 1e-6);
  EXPECT_NEAR(v.uvw_m[0][2], 10.568732, 1e-6);
  EXPECT_NEAR(v.vis[v.index(0, 0, 0)].real(), 1.2469778e-3, 1e-9);
  EXPECT_NEAR(v.vis[v.index(0, 0, 0)].imag(), -2.9093418e-3, 1e-9);
  const std::complex<double> s = sum_of(v);
  EXPECT_NEAR(s.real(), 4.45587, 1e-4);
  EXPECT_NEAR(s.imag(), -10.394, 1e-3);
  EXPECT_NEAR(max_uvw_component_m(v), 1011.35, 0.01);
  EXPECT_EQ(v.telescope, "EVLA");
  EXPECT_NEAR(v.time_mjd.front() * 86400, 4778968916.000748, 1e-5);
  EXPECT_NEAR(v.time_mjd.back() * 86400, 4778968995.998383, 1e-5);
  EXPECT_EQ(v.weight[0], 0.15625f);  // WEIGHT_SPECTRUM, not WEIGHT 10
  EXPECT_EQ(std::count(v.flag.begin(), v.flag.end(), 1), 0);
}

TEST(MeasurementSetReader, SelectingTheOnlyWindowAndFieldGivesTheSameRows) {
  RAPT_REQUIRE_CASACORE();
  RAPT_REQUIRE_SHARED_FILE(path, kEvlaMs);
  MeasurementSetSelection sel;
  sel.data_desc_id = 0;
  sel.field_id = 0;
  EXPECT_EQ(read_measurement_set(path, sel).nrows(), 1360u);
  sel.field_id = 5;
  EXPECT_EQ(error_text([&] { read_measurement_set(path, sel); }),
            path + ": FIELD table has 1 row, no row 5");
}

TEST(MeasurementSetReader, RejectsAMissingDataColumn) {
  RAPT_REQUIRE_CASACORE();
  RAPT_REQUIRE_SHARED_FILE(path, kEvlaMs);
  MeasurementSetSelection sel;
  sel.data_column = "CORRECTED_DATA";
  EXPECT_EQ(error_text([&] { read_measurement_set(path, sel); }),
            path + ": no column CORRECTED_DATA in the main table");
}

TEST(MeasurementSetReader, RejectsAMissingPath) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("absent.ms");
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path + ": cannot open: No such file or directory");
}

TEST(MeasurementSetReader, RejectsAPlainFile) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("file.ms");
  testing::write_whole_file(path, "not a table");
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path + ": not a Measurement Set (an MS is a directory)");
}

TEST(MeasurementSetReader, RejectsADirectoryThatIsNotATable) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  EXPECT_EQ(error_text([&] { read_measurement_set(dir.path()); }),
            dir.path() + ": not a Measurement Set (no readable casacore table)");
}

#ifdef RAPT_WITH_CASACORE
// Writes the small set, then lets `damage` change the table in place.
template <typename F>
std::string damaged_ms(const testing::ScratchDir& dir, F&& damage) {
  const std::string path = dir.file("damaged.ms");
  write_measurement_set(path, testing::small_visibility_set(), false);
  casacore::Table table(path, casacore::Table::Update);
  damage(table);
  return path;
}

TEST(MeasurementSetReader, RejectsAMissingSubtable) {
  testing::ScratchDir dir;
  const std::string path =
      damaged_ms(dir, [](casacore::Table& t) { t.rwKeywordSet().removeField("FIELD"); });
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }), path + ": no FIELD subtable");
}

TEST(MeasurementSetReader, RejectsAMissingUvwColumn) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) { t.removeColumn("UVW"); });
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path + ": no column UVW in the main table");
}

TEST(MeasurementSetReader, RejectsAnUnknownCorrelationType) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) {
    casacore::Table pol = t.keywordSet().asTable("POLARIZATION");
    pol.reopenRW();
    casacore::ArrayColumn<int> corr(pol, "CORR_TYPE");
    corr.put(0, casacore::Vector<int>({9, 12, 10, 13}));
  });
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path +
                ": POLARIZATION row 0: CORR_TYPE 13 is not one of I Q U V, RR RL LR LL, XX XY "
                "YX YY");
}

TEST(MeasurementSetReader, RejectsAnAntennaOutsideTheTable) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(
      dir, [](casacore::Table& t) { casacore::ScalarColumn<int>(t, "ANTENNA2").put(4, 7); });
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path + ": row 4: ANTENNA1/2 0-7 outside the 3 ANTENNA rows");
}

// Adds DATA_DESCRIPTION row 1 (spectral window `spw`, polarisation 0) and moves rows 3-5 to it.
void add_second_data_description(casacore::Table& t, int spw) {
  casacore::Table dd = t.keywordSet().asTable("DATA_DESCRIPTION");
  dd.reopenRW();
  dd.addRow();
  casacore::ScalarColumn<int>(dd, "SPECTRAL_WINDOW_ID").put(1, spw);
  casacore::ScalarColumn<int>(dd, "POLARIZATION_ID").put(1, 0);
  for (int r = 3; r < 6; ++r) casacore::ScalarColumn<int>(t, "DATA_DESC_ID").put(r, 1);
}

TEST(MeasurementSetReader, ReadsTheFirstOfSeveralWindowsOfOneShapeWithAWarning) {
  testing::ScratchDir dir;
  const std::string path =
      damaged_ms(dir, [](casacore::Table& t) { add_second_data_description(t, 0); });
  std::vector<std::string> warnings;
  const VisibilitySet v = read_measurement_set(path, {}, &warnings);
  EXPECT_EQ(v.nrows(), 3u);
  EXPECT_EQ(warnings,
            std::vector<std::string>{path + ": rows use 2 DATA_DESC_IDs; reading only 0"});
  MeasurementSetSelection sel;
  sel.data_desc_id = 1;
  const VisibilitySet second = read_measurement_set(path, sel);
  const VisibilitySet in = testing::small_visibility_set();
  ASSERT_EQ(second.nrows(), 3u);
  EXPECT_EQ(second.uvw_m[0], in.uvw_m[3]);
  EXPECT_EQ(second.vis[second.index(2, 4, 3)], in.vis[in.index(5, 4, 3)]);
}

TEST(MeasurementSetReader, AsksForADataDescIdWhenWindowShapesDiffer) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) {
    casacore::Table spw = t.keywordSet().asTable("SPECTRAL_WINDOW");
    spw.reopenRW();
    spw.addRow();
    casacore::ArrayColumn<double>(spw, "CHAN_FREQ").put(1, casacore::Vector<double>(3, 1e9));
    add_second_data_description(t, 1);
  });
  EXPECT_EQ(error_text([&] { read_measurement_set(path); }),
            path +
                ": rows use spectral windows of different shapes (DATA_DESC_ID 0: 5 channels "
                "x 4, 1: 3 channels x 4); choose one DATA_DESC_ID");
}

TEST(MeasurementSetReader, ReadsOneFieldAndItsPhaseCentre) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) {
    casacore::Table field = t.keywordSet().asTable("FIELD");
    field.reopenRW();
    field.addRow();
    casacore::Matrix<double> dir(2, 1);
    dir(0, 0) = 0.5;
    dir(1, 0) = 0.25;
    casacore::ArrayColumn<double>(field, "PHASE_DIR").put(1, dir);
    casacore::ScalarColumn<casacore::String>(field, "NAME").put(1, "OTHER");
    for (int r = 0; r < 2; ++r) casacore::ScalarColumn<int>(t, "FIELD_ID").put(r, 1);
  });
  std::vector<std::string> warnings;
  EXPECT_EQ(read_measurement_set(path, {}, &warnings).nrows(), 4u);
  EXPECT_EQ(warnings,
            std::vector<std::string>{path + ": rows use 2 fields; reading only FIELD_ID 0"});
  MeasurementSetSelection sel;
  sel.field_id = 1;
  const VisibilitySet v = read_measurement_set(path, sel);
  EXPECT_EQ(v.nrows(), 2u);
  EXPECT_EQ(v.object, "OTHER");
  EXPECT_EQ(v.phase_centre_ra_rad, 0.5);
  EXPECT_EQ(v.phase_centre_dec_rad, 0.25);
  EXPECT_FALSE(v.pointing.has_value());  // the new row's REFERENCE_DIR holds nothing
}

TEST(MeasurementSetReader, TakesAFieldWithoutReferenceDirAsPointingAtThePhaseCentre) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) {
    casacore::Table field = t.keywordSet().asTable("FIELD");
    field.reopenRW();
    field.removeColumn("REFERENCE_DIR");
  });
  const VisibilitySet v = read_measurement_set(path);
  EXPECT_FALSE(v.pointing.has_value());
  EXPECT_EQ(v.pointing_or_phase_centre().ra_rad, 1.25);
  EXPECT_EQ(v.pointing_or_phase_centre().dec_rad, -0.5);
}

TEST(MeasurementSetReader, OrsFlagRowIntoTheFlags) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(
      dir, [](casacore::Table& t) { casacore::ScalarColumn<bool>(t, "FLAG_ROW").put(2, true); });
  const VisibilitySet v = read_measurement_set(path);
  for (size_t c = 0; c < v.nchan(); ++c)
    for (size_t p = 0; p < v.nstokes(); ++p) EXPECT_EQ(v.flag[v.index(2, c, p)], 1);
  EXPECT_EQ(v.flag[v.index(1, 0, 0)], 0);
}

// Any complex array column of the main table can be imaged, as in WSClean; others are refused.
TEST(MeasurementSetReader, ReadsAUsersComplexColumnAndRefusesOtherKinds) {
  testing::ScratchDir dir;
  const std::string path = damaged_ms(dir, [](casacore::Table& t) {
    casacore::ArrayColumnDesc<casacore::Complex> desc("MY_DATA", "a user's copy of DATA times 2");
    t.addColumn(desc);
    casacore::ArrayColumn<casacore::Complex> from(t, "DATA"), to(t, "MY_DATA");
    for (casacore::rownr_t r = 0; r < t.nrow(); ++r) to.put(r, from(r) * casacore::Complex(2, 0));
  });
  MeasurementSetSelection sel;
  sel.data_column = "MY_DATA";
  const VisibilitySet mine = read_measurement_set(path, sel);
  const VisibilitySet data = read_measurement_set(path);
  ASSERT_EQ(mine.vis.size(), data.vis.size());
  for (size_t i = 0; i < data.vis.size(); ++i) EXPECT_EQ(mine.vis[i], data.vis[i] * 2.0f);
  sel.data_column = "TIME";
  EXPECT_EQ(error_text([&] { read_measurement_set(path, sel); }),
            path + ": column TIME of the main table is not a complex data column");
}

TEST(MeasurementSetReader, BroadcastsWeightWithoutWeightSpectrum) {
  testing::ScratchDir dir;
  const std::string path =
      damaged_ms(dir, [](casacore::Table& t) { t.removeColumn("WEIGHT_SPECTRUM"); });
  const VisibilitySet v = read_measurement_set(path);
  const VisibilitySet in = testing::small_visibility_set();
  float sum = 0;  // the writer keeps the per-product sum over channels in WEIGHT
  for (size_t c = 0; c < in.nchan(); ++c) sum += in.weight[in.index(1, c, 2)];
  for (size_t c = 0; c < v.nchan(); ++c) EXPECT_FLOAT_EQ(v.weight[v.index(1, c, 2)], sum);
}
#endif

}  // namespace
}  // namespace rapt
