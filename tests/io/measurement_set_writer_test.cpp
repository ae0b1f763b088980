// Measurement Set writer: round trips through our reader, an independent read with
// python-casacore, atomic replacement, and one test per bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include "cli/errors.hpp"
#include "io/measurement_set.hpp"
#include "io/measurement_set_test_data.hpp"
#include "test_data.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/Tables/TableRecord.h>
#endif

namespace rapt {
namespace {

namespace fs = std::filesystem;

#define RAPT_REQUIRE_CASACORE() \
  if (!measurement_set_supported()) GTEST_SKIP() << "this build has no casacore"

std::string data_error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const DataError& e) {
    return e.what();
  }
  return "no DataError";
}

std::vector<std::string> directory_entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(MeasurementSetWriter, RoundTripsASmallSet) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const VisibilitySet in = testing::small_visibility_set();
  write_measurement_set(dir.file("small.ms"), in, false);
  testing::expect_same_visibilities(in, read_measurement_set(dir.file("small.ms")));
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"small.ms"});
}

TEST(MeasurementSetWriter, KeepsAPointingApartFromThePhaseCentre) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.pointing = SkyDirection{1.5, -0.25};
  write_measurement_set(dir.file("p.ms"), in, false);
  const VisibilitySet back = read_measurement_set(dir.file("p.ms"));
  testing::expect_same_visibilities(in, back);
  ASSERT_TRUE(back.pointing.has_value());
  EXPECT_EQ(back.pointing->ra_rad, 1.5);
  EXPECT_EQ(back.pointing->dec_rad, -0.25);
  EXPECT_EQ(back.phase_centre_ra_rad, 1.25);
  EXPECT_EQ(back.phase_centre_dec_rad, -0.5);
}

TEST(MeasurementSetWriter, PointsAtThePhaseCentreWhenGivenNoPointing) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  write_measurement_set(dir.file("same.ms"), testing::small_visibility_set(), false);
  const SkyDirection pointing = read_measurement_set(dir.file("same.ms")).pointing_or_phase_centre();
  EXPECT_EQ(pointing.ra_rad, 1.25);
  EXPECT_EQ(pointing.dec_rad, -0.5);
}

TEST(MeasurementSetWriter, RoundTripsTheEvlaSample) {
  RAPT_REQUIRE_CASACORE();
  RAPT_REQUIRE_SHARED_FILE(path, "pyuvdata/day2_TDEM0003_10s_norx_1src_1spw.ms");
  testing::ScratchDir dir;
  const VisibilitySet first = read_measurement_set(path);
  write_measurement_set(dir.file("evla.ms"), first, false);
  testing::expect_same_visibilities(first, read_measurement_set(dir.file("evla.ms")));
}

TEST(MeasurementSetWriter, RoundTripsASetWithoutRows) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.time_mjd.clear();
  in.integration_s.clear();
  in.antenna1.clear();
  in.antenna2.clear();
  in.uvw_m.clear();
  in.vis.clear();
  in.weight.clear();
  in.flag.clear();
  write_measurement_set(dir.file("empty.ms"), in, false);
  testing::expect_same_visibilities(in, read_measurement_set(dir.file("empty.ms")));
}

#ifdef RAPT_WITH_CASACORE
TEST(MeasurementSetWriter, CasacoreAcceptsTheOutputAsAMeasurementSet) {
  testing::ScratchDir dir;
  write_measurement_set(dir.file("valid.ms"), testing::small_visibility_set(), false);
  // The MeasurementSet constructor checks the MAIN columns and every required subtable.
  const casacore::MeasurementSet ms(dir.file("valid.ms"));
  EXPECT_EQ(ms.nrow(), 6u);
  EXPECT_EQ(ms.antenna().nrow(), 3u);
  EXPECT_EQ(ms.feed().nrow(), 3u);
  EXPECT_EQ(ms.spectralWindow().nrow(), 1u);
  EXPECT_EQ(ms.source().isNull(), true);  // optional, not written
  EXPECT_EQ(ms.state().nrow(), 0u);
  // UVW are in the phase centre's J2000 frame, and say so.
  const casacore::TableRecord& info =
      ms.tableDesc().columnDesc("UVW").keywordSet().asRecord("MEASINFO");
  EXPECT_EQ(info.asString("Ref"), "J2000");
}

// FEED: linear receptors X and Y at 0 and pi/2 (orthogonal, as rapt(7)'s Stokes take them),
// circular R and L both at 0.
TEST(MeasurementSetWriter, GivesTheReceptorsTheirAngles) {
  testing::ScratchDir dir;
  for (const bool linear : {true, false}) {
    VisibilitySet vis = testing::small_visibility_set();
    if (!linear) vis.stokes = {-1, -2, -3, -4};
    const std::string path = dir.file(linear ? "lin.ms" : "circ.ms");
    write_measurement_set(path, vis, false);
    const casacore::MeasurementSet ms(path);
    const casacore::MSFeedColumns feed(ms.feed());
    for (casacore::rownr_t row = 0; row < ms.feed().nrow(); ++row) {
      const casacore::Vector<double> angle = feed.receptorAngle()(row);
      const casacore::Vector<casacore::String> type = feed.polarizationType()(row);
      ASSERT_EQ(angle.size(), 2u);
      EXPECT_EQ(type[0], linear ? "X" : "R");
      EXPECT_EQ(angle[0], 0.0);
      EXPECT_DOUBLE_EQ(angle[1], linear ? M_PI / 2 : 0.0);
    }
  }
}
#endif

TEST(MeasurementSetStokes, MapsEveryCorrelationTypeBothWays) {
  const int fits_for_corr_type[] = {1, 2, 3, 4, -1, -3, -4, -2, -5, -7, -8, -6};
  for (int corr_type = 1; corr_type <= 12; ++corr_type) {
    EXPECT_EQ(fits_stokes_from_ms_corr_type(corr_type), fits_for_corr_type[corr_type - 1]);
    EXPECT_EQ(ms_corr_type_from_fits_stokes(fits_for_corr_type[corr_type - 1]), corr_type);
  }
  EXPECT_EQ(fits_stokes_from_ms_corr_type(13), 0);  // RX: mixed bases, no FITS code
  EXPECT_EQ(ms_corr_type_from_fits_stokes(-9), 0);
}

TEST(MeasurementSetWriter, RefusesAnExistingDestination) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("out.ms");
  fs::create_directory(path);
  EXPECT_EQ(
      data_error_text([&] { write_measurement_set(path, testing::small_visibility_set(), false); }),
      path + ": already exists (use --force to overwrite)");
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.ms"});
}

TEST(MeasurementSetWriter, OverwriteReplacesTheOldMeasurementSet) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("out.ms");
  VisibilitySet in = testing::small_visibility_set();
  write_measurement_set(path, in, false);
  in.object = "SECOND";
  in.vis[0] = {42.0f, -1.0f};
  write_measurement_set(path, in, true);
  testing::expect_same_visibilities(in, read_measurement_set(path));
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.ms"});
}

TEST(MeasurementSetWriter, OverwriteLeavesADirectoryThatIsNotAMeasurementSetAlone) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("notes");
  fs::create_directory(path);
  testing::write_whole_file(path + "/keep.txt", "precious");
  EXPECT_EQ(
      data_error_text([&] { write_measurement_set(path, testing::small_visibility_set(), true); }),
      path + ": exists and is not a Measurement Set; not replacing it");
  EXPECT_EQ(testing::read_whole_file(path + "/keep.txt"), "precious");
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"notes"});
}

TEST(MeasurementSetWriter, AcceptsAPathWithATrailingSlash) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  write_measurement_set(dir.file("slash.ms/"), testing::small_visibility_set(), false);
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"slash.ms"});
  EXPECT_EQ(read_measurement_set(dir.file("slash.ms")).nrows(), 6u);
}

TEST(MeasurementSetWriter, RejectsMismatchedSampleCounts) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.weight.pop_back();
  const std::string path = dir.file("bad.ms");
  EXPECT_EQ(data_error_text([&] { write_measurement_set(path, in, false); }),
            path +
                ": cannot write: visibility, weight or flag count is not rows x channels x "
                "products (120)");
  EXPECT_TRUE(directory_entries(dir.path()).empty());
}

TEST(MeasurementSetWriter, RejectsAStokesCodeWithoutCorrelationType) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.stokes[3] = -9;
  const std::string path = dir.file("bad.ms");
  EXPECT_EQ(data_error_text([&] { write_measurement_set(path, in, false); }),
            path + ": cannot write: Stokes code -9 has no Measurement Set correlation type");
}

TEST(MeasurementSetWriter, RejectsAnAntennaOutsideTheArray) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.antenna2[5] = 3;
  const std::string path = dir.file("bad.ms");
  EXPECT_EQ(data_error_text([&] { write_measurement_set(path, in, false); }),
            path + ": cannot write: row 5 names an antenna outside the array");
}

TEST(MeasurementSetWriter, RejectsAMissingParentDirectory) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("no/such/dir/out.ms");
  const std::string text =
      data_error_text([&] { write_measurement_set(path, testing::small_visibility_set(), false); });
  // Named as given, not as the temporary beside it.
  EXPECT_EQ(text, path + ": cannot create: No such file or directory");
}

// A python3 that has python-casacore, or "".
std::string python_with_casacore() {
  for (const char* python : {"python3", "/usr/bin/python3"}) {
    const std::string probe = std::string(python) + " -c 'import casacore.tables' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return python;
  }
  return "";
}

std::map<std::string, std::vector<std::string>> run_check_script(const std::string& python,
                                                                 const std::string& script,
                                                                 const std::string& ms) {
  std::map<std::string, std::vector<std::string>> out;
  const std::string command = python + " '" + script + "' '" + ms + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char line[65536];
  while (std::fgets(line, sizeof line, pipe)) {
    std::istringstream words(line);
    std::string key, word;
    words >> key;
    while (words >> word) out[key].push_back(word);
    if (key == "subtable") out["subtables"].push_back(out[key].back());
  }
  ::pclose(pipe);
  return out;
}

std::vector<double> numbers(const std::vector<std::string>& words) {
  std::vector<double> v;
  for (const auto& w : words) v.push_back(std::stod(w));
  return v;
}

TEST(MeasurementSetWriter, PythonCasacoreReadsWhatWeWrite) {
  RAPT_REQUIRE_CASACORE();
  const std::string python = python_with_casacore();
  if (python.empty()) GTEST_SKIP() << "python3 module casacore.tables not available";
  const fs::path script = fs::path(__FILE__).parent_path() / "measurement_set_casacore_check.py";
  if (!fs::exists(script)) GTEST_SKIP() << "check script not found: " << script;
  testing::ScratchDir dir;
  VisibilitySet in = testing::small_visibility_set();
  in.pointing = SkyDirection{1.5, -0.25};  // re-phased: the pointing is not the phase centre
  write_measurement_set(dir.file("check.ms"), in, false);
  auto got = run_check_script(python, script.string(), dir.file("check.ms"));
  ASSERT_EQ(got["nrows"], std::vector<std::string>{"6"}) << "script output incomplete";
  EXPECT_EQ(got["data_shape"], (std::vector<std::string>{"5", "4"}));  // (nchan, ncorr)
  EXPECT_EQ(got["weight_spectrum_shape"], (std::vector<std::string>{"5", "4"}));
  for (size_t r = 0; r < 3; ++r) {
    const std::string n = std::to_string(r);
    const std::vector<double> uvw = numbers(got["uvw" + n]);
    ASSERT_EQ(uvw.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(uvw[k], in.uvw_m[r][k]);
    const std::vector<double> data = numbers(got["data" + n]);  // product 0, every channel
    const std::vector<double> weights = numbers(got["weight_spectrum" + n]);
    const std::vector<double> flags = numbers(got["flag" + n]);
    ASSERT_EQ(data.size(), 2 * in.nchan());
    for (size_t c = 0; c < in.nchan(); ++c) {
      EXPECT_EQ(data[2 * c], in.vis[in.index(r, c, 0)].real());
      EXPECT_EQ(data[2 * c + 1], in.vis[in.index(r, c, 0)].imag());
      EXPECT_EQ(weights[c], in.weight[in.index(r, c, 0)]);
      EXPECT_EQ(flags[c], in.flag[in.index(r, c, 0)]);
    }
    EXPECT_EQ(numbers(got["ants" + n]),
              (std::vector<double>{double(in.antenna1[r]), double(in.antenna2[r])}));
    EXPECT_NEAR(numbers(got["time" + n]).at(0), in.time_mjd[r] * 86400, 1e-6);
  }
  for (const char* t : {"ANTENNA", "SPECTRAL_WINDOW", "POLARIZATION", "FIELD", "DATA_DESCRIPTION",
                        "OBSERVATION", "FEED"})
    EXPECT_NE(std::find(got["subtables"].begin(), got["subtables"].end(), t),
              got["subtables"].end())
        << t;
  EXPECT_EQ(got["antenna_names"], (std::vector<std::string>{"A0", "A1", "A2"}));
  EXPECT_EQ(numbers(got["antenna0_position"]),
            (std::vector<double>{5109000.0, 2006000.0, -3239000.0}));
  EXPECT_EQ(numbers(got["antenna0_dish"]), std::vector<double>{13.5});
  EXPECT_EQ(numbers(got["chan_freq"]), in.channel_freq_hz);
  EXPECT_EQ(numbers(got["chan_width"]), std::vector<double>{250e3});
  EXPECT_EQ(got["meas_freq_ref"], std::vector<std::string>{"5"});  // TOPO
  EXPECT_EQ(got["corr_type"], (std::vector<std::string>{"9", "12", "10", "11"}));
  // CORR_PRODUCT (ncorr, 2) in python: XX (0,0), YY (1,1), XY (0,1), YX (1,0).
  EXPECT_EQ(got["corr_product"],
            (std::vector<std::string>{"0", "0", "1", "1", "0", "1", "1", "0"}));
  // PHASE_DIR and DELAY_DIR (the visibilities are fringe-stopped there) hold the phase centre,
  // REFERENCE_DIR the pointing.
  EXPECT_EQ(numbers(got["phase_dir"]), (std::vector<double>{1.25, -0.5}));
  EXPECT_EQ(numbers(got["delay_dir"]), (std::vector<double>{1.25, -0.5}));
  EXPECT_EQ(numbers(got["reference_dir"]), (std::vector<double>{1.5, -0.25}));
  EXPECT_EQ(got["field_name"], std::vector<std::string>{"J0000+0000"});
  EXPECT_EQ(got["telescope"], std::vector<std::string>{"TESTARRAY"});
  EXPECT_EQ(got["time_units"], std::vector<std::string>{"s"});
}

}  // namespace
}  // namespace rapt
