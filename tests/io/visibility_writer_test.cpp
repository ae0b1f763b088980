// Streaming visibility writers (io/visibility_writer.hpp), UVFITS and Measurement Set: rows
// appended in pieces give what one write of all rows gives, nothing stands under the final
// name before commit(), an abandoned writer leaves nothing behind, rows of another setup and
// an existing destination are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>

#include "cli/errors.hpp"
#include "io/measurement_set.hpp"
#include "io/measurement_set_test_data.hpp"
#include "io/uvfits.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "io/visibility_writer.hpp"
#include "test_data.hpp"
#include "uvfits_test_support.hpp"

namespace rapt {
namespace {

namespace fs = std::filesystem;

using OpenWriter = std::function<std::unique_ptr<VisibilityWriter>(
    const std::string&, const VisibilitySet&, bool)>;

// Rows [begin, end) of `set`, with its metadata.
VisibilitySet rows_of(const VisibilitySet& set, size_t begin, size_t end) {
  VisibilitySet part = set;
  const size_t cells = set.nchan() * set.nstokes();
  auto cut = [&](auto& v, size_t per_row) {
    using Vec = std::decay_t<decltype(v)>;
    v = Vec(v.begin() + begin * per_row, v.begin() + end * per_row);
  };
  cut(part.time_mjd, 1);
  cut(part.integration_s, 1);
  cut(part.antenna1, 1);
  cut(part.antenna2, 1);
  cut(part.uvw_m, 1);
  cut(part.vis, cells);
  cut(part.weight, cells);
  cut(part.flag, cells);
  return part;
}

VisibilitySet without_rows(const VisibilitySet& set) { return rows_of(set, 0, 0); }

std::vector<std::string> directory_entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The message of the UsageError that `action` throws, or a note that it threw none.
std::string usage_error_text(const std::function<void()>& action) {
  try {
    action();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no UsageError";
}

// `set` through `open` in pieces of 7, 0, 23 and the remaining rows.
void write_in_pieces(const OpenWriter& open, const std::string& path, const VisibilitySet& set) {
  const std::unique_ptr<VisibilityWriter> writer = open(path, without_rows(set), false);
  size_t done = 0;
  for (size_t piece : {size_t(7), size_t(0), size_t(23), set.nrows()}) {
    const size_t end = std::min(set.nrows(), done + piece);
    writer->append(rows_of(set, done, end));
    done = end;
    EXPECT_EQ(writer->rows_written(), done);
  }
  writer->commit();
}

// ---- UVFITS -------------------------------------------------------------------------------

TEST(UvfitsVisibilityWriter, AppendingInPiecesGivesTheFileOfOneWrite) {
  testing::ScratchDir dir;
  const VisibilitySet set = testing::make_test_visibilities(5, 3, 4);  // 45 rows
  write_uvfits(dir.file("whole.uvfits"), set, false);
  write_in_pieces(open_uvfits_writer, dir.file("pieces.uvfits"), set);
  testing::expect_same_visibilities(read_uvfits(dir.file("whole.uvfits")),
                                    read_uvfits(dir.file("pieces.uvfits")));
  // The same code path with the same DATE day: the very same bytes.
  EXPECT_EQ(testing::read_whole_file(dir.file("whole.uvfits")),
            testing::read_whole_file(dir.file("pieces.uvfits")));
}

TEST(UvfitsVisibilityWriter, NothingStandsUnderTheNameBeforeCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.file("out.uvfits");
  const VisibilitySet set = testing::make_test_visibilities(3, 2, 2);
  const auto writer = open_uvfits_writer(path, set, false);
  writer->append(set);
  EXPECT_FALSE(fs::exists(path));
  ASSERT_EQ(directory_entries(dir.path()).size(), 1u);  // the temporary only
  EXPECT_EQ(directory_entries(dir.path())[0].rfind(".out.uvfits.", 0), 0u);
  writer->commit();
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.uvfits"});
  EXPECT_EQ(read_uvfits(path).nrows(), set.nrows());
}

TEST(UvfitsVisibilityWriter, AnAbandonedWriterLeavesNothingBehind) {
  testing::ScratchDir dir;
  const VisibilitySet set = testing::make_test_visibilities(3, 2, 2);
  {
    const auto writer = open_uvfits_writer(dir.file("out.uvfits"), set, false);
    writer->append(set);
  }
  EXPECT_TRUE(directory_entries(dir.path()).empty());
}

TEST(UvfitsVisibilityWriter, RefusesRowsOfAnotherSetupAndKeepsWhatItHas) {
  testing::ScratchDir dir;
  const std::string path = dir.file("out.uvfits");
  const VisibilitySet set = testing::make_test_visibilities(3, 1, 3);
  const auto writer = open_uvfits_writer(path, without_rows(set), false);
  writer->append(set);

  const VisibilitySet fewer_channels = testing::make_test_visibilities(3, 1, 2);
  EXPECT_EQ(usage_error_text([&] { writer->append(fewer_channels); }),
            path + ": appended rows have 2 channels; the file has 3");
  VisibilitySet shifted = set;
  shifted.channel_freq_hz[2] += 1.0;
  EXPECT_EQ(usage_error_text([&] { writer->append(shifted); }),
            path + ": appended rows put channel 2 at 150080001.000000 Hz; the file has it at "
                   "150080000.000000 Hz");
  VisibilitySet circular = set;
  circular.stokes = {-1, -2, -3, -4};
  EXPECT_EQ(usage_error_text([&] { writer->append(circular); }),
            path + ": appended rows have correlation products (Stokes codes) -1 -2 -3 -4; the "
                   "file has -5 -6 -7 -8");
  const VisibilitySet more_antennas = testing::make_test_visibilities(4, 1, 3);
  EXPECT_EQ(usage_error_text([&] { writer->append(more_antennas); }),
            path + ": appended rows come from a 4-antenna array; the file has 3 antennas");
  VisibilitySet short_weights = set;
  short_weights.weight.pop_back();
  EXPECT_NE(usage_error_text([&] { writer->append(short_weights); }).find("disagree in size"),
            std::string::npos);

  EXPECT_EQ(writer->rows_written(), set.nrows());
  writer->commit();
  write_uvfits(dir.file("whole.uvfits"), set, false);
  testing::expect_same_visibilities(read_uvfits(dir.file("whole.uvfits")), read_uvfits(path));
}

TEST(UvfitsVisibilityWriter, RefusesAnExistingFileWhichOutlivesAnAbandonedOverwrite) {
  testing::ScratchDir dir;
  const std::string path = dir.file("x.uvfits");
  testing::write_whole_file(path, "precious");
  const VisibilitySet set = testing::make_test_visibilities(2, 1, 1);
  try {
    open_uvfits_writer(path, set, false);
    ADD_FAILURE() << "an existing file was not refused";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": already exists (use --force to overwrite)");
  }
  {
    const auto writer = open_uvfits_writer(path, set, true);
    writer->append(set);
    EXPECT_THROW(writer->append(testing::make_test_visibilities(3, 1, 1)), UsageError);
  }  // abandoned after a refused append
  EXPECT_EQ(testing::read_whole_file(path), "precious");
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"x.uvfits"});
  const auto writer = open_uvfits_writer(path, set, true);
  writer->append(set);
  writer->commit();
  EXPECT_EQ(read_uvfits(path).nrows(), set.nrows());
}

// DATE-OBS and the first DATE parameter's PZERO of a written file.
std::pair<std::string, double> date_keys(const std::string& path) {
  const FitsHandle fits = open_fits_readonly(path);
  return {fits_string_key(fits.get(), "DATE-OBS").value_or("?"),
          fits_double_key(fits.get(), "PZERO4").value_or(0.0)};
}

TEST(UvfitsVisibilityWriter, DatesEveryRowFromTheDayOfTheMetadataTimes) {
  testing::ScratchDir dir;
  const std::string path = dir.file("days.uvfits");
  VisibilitySet set = testing::make_test_visibilities(3, 3, 1);  // 18 rows
  VisibilitySet metadata = without_rows(set);
  metadata.time_mjd = {60000.75};  // the observation starts late on MJD 60000 (2023-02-25)
  // Rows before that day, on it, and two days later, with sub-microsecond parts.
  for (size_t r = 0; r < set.nrows(); ++r)
    set.time_mjd[r] = 59999.9 + 1.1 * (r / 6) + r * 1.234567e-9;
  const auto writer = open_uvfits_writer(path, metadata, false);
  writer->append(rows_of(set, 0, 6));
  writer->append(rows_of(set, 6, 18));
  writer->commit();
  EXPECT_EQ(date_keys(path), std::make_pair(std::string("2023-02-25"), 2460000.5));
  const VisibilitySet back = read_uvfits(path);
  ASSERT_EQ(back.nrows(), set.nrows());
  for (size_t r = 0; r < set.nrows(); ++r)
    EXPECT_NEAR((back.time_mjd[r] - set.time_mjd[r]) * 86400.0, 0.0, 1e-7) << "row " << r;
}

TEST(UvfitsVisibilityWriter, TakesTheDayFromTheFirstRowsWithoutMetadataTimes) {
  testing::ScratchDir dir;
  const std::string path = dir.file("first.uvfits");
  VisibilitySet set = testing::make_test_visibilities(2, 2, 1);  // 6 rows
  for (size_t r = 0; r < set.nrows(); ++r) set.time_mjd[r] = r < 3 ? 60001.2 : 60000.9;
  const auto writer = open_uvfits_writer(path, without_rows(set), false);
  writer->append(rows_of(set, 0, 0));  // no rows: no day yet
  writer->append(rows_of(set, 0, 3));
  writer->append(rows_of(set, 3, 6));  // the day before the first rows
  writer->commit();
  EXPECT_EQ(date_keys(path), std::make_pair(std::string("2023-02-26"), 2460001.5));
  const VisibilitySet back = read_uvfits(path);
  for (size_t r = 0; r < set.nrows(); ++r)
    EXPECT_NEAR((back.time_mjd[r] - set.time_mjd[r]) * 86400.0, 0.0, 1e-7) << "row " << r;
}

TEST(UvfitsVisibilityWriter, CommitsAFileWithoutRows) {
  testing::ScratchDir dir;
  const std::string path = dir.file("empty.uvfits");
  const VisibilitySet set = testing::make_test_visibilities(3, 1, 2);
  const auto writer = open_uvfits_writer(path, without_rows(set), false);
  writer->commit();
  const VisibilitySet back = read_uvfits(path);
  EXPECT_EQ(back.nrows(), 0u);
  EXPECT_EQ(back.array.size(), 3);
  EXPECT_EQ(back.channel_freq_hz, set.channel_freq_hz);
}

TEST(UvfitsVisibilityWriter, RefusesWorkAfterCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.file("done.uvfits");
  const VisibilitySet set = testing::make_test_visibilities(2, 1, 1);
  const auto writer = open_uvfits_writer(path, set, false);
  writer->append(set);
  writer->commit();
  EXPECT_EQ(usage_error_text([&] { writer->append(set); }),
            path + ": the UVFITS file is already complete");
  EXPECT_THROW(writer->commit(), UsageError);
  EXPECT_EQ(read_uvfits(path).nrows(), set.nrows());
}

TEST(UvfitsVisibilityWriter, RefusesMetadataOneFileCannotHoldBeforeCreatingAnything) {
  testing::ScratchDir dir;
  VisibilitySet set = testing::make_test_visibilities(2, 1, 3);
  set.channel_freq_hz[2] += 1000.0;
  EXPECT_NE(usage_error_text([&] { open_uvfits_writer(dir.file("u.uvfits"), set, false); })
                .find("channels are not evenly spaced"),
            std::string::npos);
  EXPECT_TRUE(directory_entries(dir.path()).empty());
}

// ---- Measurement Set ----------------------------------------------------------------------

#define RAPT_REQUIRE_CASACORE() \
  if (!measurement_set_supported()) GTEST_SKIP() << "this build has no casacore"

TEST(MeasurementSetVisibilityWriter, AppendingInPiecesGivesTheSetOfOneWrite) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const VisibilitySet set = testing::make_test_visibilities(5, 3, 4);  // 45 rows
  write_measurement_set(dir.file("whole.ms"), set, false);
  write_in_pieces(open_measurement_set_writer, dir.file("pieces.ms"), set);
  const VisibilitySet whole = read_measurement_set(dir.file("whole.ms"));
  testing::expect_same_visibilities(whole, read_measurement_set(dir.file("pieces.ms")));
  EXPECT_EQ(whole.nrows(), set.nrows());
  EXPECT_EQ(directory_entries(dir.path()), (std::vector<std::string>{"pieces.ms", "whole.ms"}));
}

TEST(MeasurementSetVisibilityWriter, NothingStandsUnderTheNameBeforeCommit) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("out.ms");
  const VisibilitySet set = testing::small_visibility_set();
  const auto writer = open_measurement_set_writer(path, without_rows(set), false);
  writer->append(rows_of(set, 0, 4));
  writer->append(rows_of(set, 4, 6));
  EXPECT_FALSE(fs::exists(path));
  ASSERT_EQ(directory_entries(dir.path()).size(), 1u);  // the temporary only
  EXPECT_EQ(directory_entries(dir.path())[0].rfind(".out.ms.tmp.", 0), 0u);
  writer->commit();
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.ms"});
  testing::expect_same_visibilities(set, read_measurement_set(path));
}

TEST(MeasurementSetVisibilityWriter, AnAbandonedWriterLeavesNothingBehind) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const VisibilitySet set = testing::small_visibility_set();
  {
    const auto writer = open_measurement_set_writer(dir.file("out.ms"), set, false);
    writer->append(set);
  }
  EXPECT_TRUE(directory_entries(dir.path()).empty());
}

TEST(MeasurementSetVisibilityWriter, RefusesRowsOfAnotherSetupAndKeepsWhatItHas) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("out.ms");
  const VisibilitySet set = testing::small_visibility_set();
  const auto writer = open_measurement_set_writer(path, without_rows(set), false);
  writer->append(set);
  VisibilitySet other = set;
  other.stokes = {-5, -6};
  EXPECT_EQ(usage_error_text([&] { writer->append(other); }),
            path + ": appended rows have correlation products (Stokes codes) -5 -6; the file "
                   "has -5 -6 -7 -8");
  other = set;
  other.channel_freq_hz.pop_back();
  EXPECT_EQ(usage_error_text([&] { writer->append(other); }),
            path + ": appended rows have 4 channels; the file has 5");
  other = set;
  other.channel_freq_hz[0] -= 250e3;
  EXPECT_NE(usage_error_text([&] { writer->append(other); }).find("channel 0 at"),
            std::string::npos);
  other = set;
  other.array.antennas.pop_back();
  EXPECT_EQ(usage_error_text([&] { writer->append(other); }),
            path + ": appended rows come from a 2-antenna array; the file has 3 antennas");
  EXPECT_EQ(writer->rows_written(), set.nrows());
  writer->commit();
  testing::expect_same_visibilities(set, read_measurement_set(path));
}

TEST(MeasurementSetVisibilityWriter, RefusesAnExistingSetWhichOutlivesAnAbandonedOverwrite) {
  RAPT_REQUIRE_CASACORE();
  testing::ScratchDir dir;
  const std::string path = dir.file("out.ms");
  VisibilitySet first = testing::small_visibility_set();
  write_measurement_set(path, first, false);
  try {
    open_measurement_set_writer(path, first, false);
    ADD_FAILURE() << "an existing Measurement Set was not refused";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": already exists (use --force to overwrite)");
  }
  VisibilitySet second = first;
  second.object = "SECOND";
  second.vis[0] = {42.0f, -1.0f};
  {
    const auto writer = open_measurement_set_writer(path, second, true);
    writer->append(second);
  }
  testing::expect_same_visibilities(first, read_measurement_set(path));
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.ms"});
  const auto writer = open_measurement_set_writer(path, second, true);
  writer->append(second);
  writer->commit();
  testing::expect_same_visibilities(second, read_measurement_set(path));
  EXPECT_EQ(directory_entries(dir.path()), std::vector<std::string>{"out.ms"});
}

TEST(MeasurementSetVisibilityWriter, SaysSoInABuildWithoutCasacore) {
  if (measurement_set_supported()) GTEST_SKIP() << "this build has casacore";
  testing::ScratchDir dir;
  EXPECT_NE(usage_error_text([&] {
              open_measurement_set_writer(dir.file("out.ms"), testing::small_visibility_set(),
                                          false);
            }).find("out.ms: this build of rapt has no Measurement Set support"),
            std::string::npos);
  EXPECT_TRUE(directory_entries(dir.path()).empty());
}

}  // namespace
}  // namespace rapt
