#include "io/accel_files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "cli/errors.hpp"
#include "io/value_error_format.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string token; in >> token;) out.push_back(token);
  return out;
}

// A golden cell whose numbers the text cannot give back exactly: the exponent was cut off by the
// column width ("8.75109(13)x10", "0.0(2.5)x10^"), or a value too small for its error was shown
// as "0.0(e.e)x10^E" (read back as exactly 0, which PRESTO would print differently).
bool lossy_cell(const std::string& cell) {
  const size_t x = cell.find(")x10");
  if (x != std::string::npos && (cell.size() <= x + 5 || cell.back() == '^')) return true;
  return cell.rfind("0.0(", 0) == 0 && x != std::string::npos && cell.substr(x) != ")x10^1";
}

void expect_same_except_lossy_cells(const std::string& written, const std::string& golden) {
  const auto out = split_lines(written), ref = split_lines(golden);
  ASSERT_EQ(out.size(), ref.size());
  int lossy = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    if (out[i] == ref[i]) continue;
    const auto out_cells = tokens(out[i]), ref_cells = tokens(ref[i]);
    ASSERT_EQ(out_cells.size(), ref_cells.size()) << "line " << i + 1 << ":\n" << out[i];
    for (size_t k = 0; k < ref_cells.size(); ++k) {
      if (out_cells[k] == ref_cells[k]) continue;
      EXPECT_TRUE(lossy_cell(ref_cells[k]))
          << "line " << i + 1 << " cell " << k << ": wrote " << out_cells[k] << ", golden "
          << ref_cells[k];
      // Where the cut took the magnitude the writer has nothing to print; a vanishing value
      // was read as 0 and is written as such.
      const auto golden_cell = rapt::parse_value_error(ref_cells[k], 2);
      if (std::isnan(golden_cell.error)) {
        EXPECT_EQ(out_cells[k], "nan");
      } else {
        EXPECT_EQ(golden_cell.value, 0.0);
        EXPECT_EQ(rapt::parse_value_error(out_cells[k], 2).value, 0.0) << out_cells[k];
      }
      ++lossy;
    }
  }
  EXPECT_LT(lossy, 16);
}

void check_accel_round_trip(const std::string& text_path) {
  const std::string golden = read_whole_file(text_path);
  auto accel = rapt::parse_accel_text(golden, text_path);
  const auto records = rapt::read_cand_file(text_path + ".cand");
  rapt::apply_cand_records(accel, records, text_path + ".cand");
  const std::string written = rapt::format_accel_text(accel);
  expect_same_except_lossy_cells(written, golden);
  // The fundamentals table, the titles and the appended .inf are exact.
  const size_t first_table_end = golden.find("\n\n\n");
  ASSERT_NE(first_table_end, std::string::npos);
  EXPECT_EQ(written.substr(0, first_table_end), golden.substr(0, first_table_end));
  EXPECT_EQ(written.substr(written.size() - accel.inf_text.size()), accel.inf_text);
  // And the parsed-then-rewritten file parses to the same numbers.
  const auto again = rapt::parse_accel_text(written, "rewritten");
  ASSERT_EQ(again.candidates.size(), accel.candidates.size());
  for (size_t i = 0; i < accel.candidates.size(); ++i)
    ASSERT_EQ(again.candidates[i].harmonics.size(), accel.candidates[i].harmonics.size());
}

std::string cand_bytes_without_padding(std::string bytes) {
  for (size_t at = 0; at + rapt::kCandRecordBytes <= bytes.size(); at += rapt::kCandRecordBytes)
    for (size_t pad : {12, 13, 14, 15, 28, 29, 30, 31}) bytes[at + pad] = '\0';
  return bytes;
}

rapt::AccelCandidate synthetic_candidate(int numharm) {
  rapt::AccelCandidate c;
  c.sigma = 4711.234;
  c.summed_power = 110983.2;
  c.coherent_power = 321.5;
  c.numharm = numharm;
  c.r = 1000.25;
  c.z = -6.5;
  c.w = 40.0;
  for (int k = 1; k <= numharm; ++k) {
    rapt::AccelHarmonic h;
    h.sigma = 5.0 / k;
    h.props = {c.r * k, 0.013, c.z * k, 0.1,  c.w * k, 1.5,    93.0, 4.3,   4.1,
               155.0,   1.5,   0.25,    0.49, 0.0067,  0.98, 0.0105, 1.66};
    c.harmonics.push_back(h);
  }
  return c;
}

}  // namespace

TEST(CandFile, RewritesTheGoldenRecordsByteForByteApartFromPadding) {
  for (const char* file : {"presto-golden/test_DM56.00_ACCEL_50.cand",
                           "presto-golden/test_DM56.00_red_ACCEL_50.cand"}) {
    RAPT_REQUIRE_SHARED_FILE(path, file);
    const std::string golden = read_whole_file(path);
    const auto records = rapt::read_cand_file(path);
    EXPECT_EQ(records.size() * 88, golden.size());
    const std::string written = rapt::format_cand_records(records);
    EXPECT_EQ(written, cand_bytes_without_padding(golden)) << file;
  }
}

TEST(CandFile, DecodesTheFieldsAtTheirOffsets) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50.cand");
  const auto records = rapt::read_cand_file(path);
  ASSERT_EQ(records.size(), 22u);
  EXPECT_EQ(records[0].r, 770.6875);
  EXPECT_EQ(records[0].rerr, 0.0625);  // 0.5 / numharm with numharm 8
  EXPECT_EQ(records[0].z, 4.0);
  EXPECT_EQ(records[0].zerr, 0.25);
  EXPECT_EQ(records[0].werr, 2.5);
  EXPECT_NEAR(records[0].pow, 933.099, 1e-3);
  EXPECT_NEAR(records[0].rawpow, 1553.206, 1e-3);
  EXPECT_NEAR(records[0].cen, 0.48884, 1e-5);
  EXPECT_NEAR(records[0].locpow, 1.66457, 1e-5);
}

TEST(CandFile, RejectsASizeThatIsNotWholeRecords) {
  ScratchDir dir;
  const std::string path = dir.file("cut.cand");
  rapt::testing::write_whole_file(path, std::string(100, '\0'));
  try {
    rapt::read_cand_file(path);
    FAIL() << "expected a DataError";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": size 100 bytes is not a whole number of 88-byte candidate records");
  }
}

TEST(CandFile, WritesThroughAnAtomicFileAndReadsBack) {
  ScratchDir dir;
  const auto c = synthetic_candidate(2);
  const std::vector<rapt::FourierProps> records = {rapt::cand_record(c)};
  rapt::write_cand_file(dir.file("x.cand"), records, false);
  const auto back = rapt::read_cand_file(dir.file("x.cand"));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].r, 1000.25);
  EXPECT_EQ(back[0].rerr, 0.25);
  EXPECT_EQ(back[0].zerr, 1.0);
  EXPECT_EQ(back[0].werr, 10.0);
  EXPECT_EQ(back[0].pow, 93.0);
  EXPECT_THROW(rapt::write_cand_file(dir.file("x.cand"), records, false), rapt::DataError);
}

TEST(AccelText, RewritesTheGoldenFileFromTextAndCandRecords) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_50");
  check_accel_round_trip(path);
}

TEST(AccelText, RewritesTheGoldenRedNoiseFileFromTextAndCandRecords) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50");
  check_accel_round_trip(path);
}

TEST(AccelText, TextAndCandRecordsAgreeOnEveryCandidate) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50");
  auto accel = rapt::read_accel_text(path);
  const std::string cand_bytes = read_whole_file(path + ".cand");
  const auto records = rapt::parse_cand_records(cand_bytes, path + ".cand");
  rapt::apply_cand_records(accel, records, path + ".cand");
  std::vector<rapt::FourierProps> rebuilt;
  for (const auto& c : accel.candidates) rebuilt.push_back(rapt::cand_record(c));
  EXPECT_EQ(rapt::format_cand_records(rebuilt), cand_bytes_without_padding(cand_bytes));
}

TEST(AccelText, ReadsTheTablesAsPrinted) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50");
  const auto accel = rapt::read_accel_text(path);
  ASSERT_EQ(accel.candidates.size(), 22u);
  EXPECT_FALSE(accel.jerk);
  EXPECT_DOUBLE_EQ(accel.obs_length_s, 262144 * 0.000256);
  const auto& c = accel.candidates[0];
  EXPECT_DOUBLE_EQ(c.sigma, 123.9);  // "123.90" cut to the 5-character column
  EXPECT_DOUBLE_EQ(c.summed_power, 7747.5);
  EXPECT_DOUBLE_EQ(c.coherent_power, 54873.19);
  EXPECT_EQ(c.numharm, 8);
  EXPECT_DOUBLE_EQ(c.r, 770.688);
  EXPECT_DOUBLE_EQ(c.z, 4.0);
  EXPECT_EQ(c.notes, "");
  ASSERT_EQ(c.harmonics.size(), 8u);
  const auto& h = c.harmonics[0];
  EXPECT_DOUBLE_EQ(h.sigma, 43.09);
  EXPECT_EQ(h.props.pow, 933.0);
  EXPECT_EQ(h.props.powerr, 43.0);
  EXPECT_EQ(h.props.rawpow, 1550.0);
  EXPECT_DOUBLE_EQ(h.props.r, 770.715);
  EXPECT_DOUBLE_EQ(h.props.rerr, 0.013);
  EXPECT_DOUBLE_EQ(h.props.cen, 0.4888);   // "0.4888(67" lost its ")"
  EXPECT_DOUBLE_EQ(h.props.cenerr, 0.0067);
  EXPECT_TRUE(std::isnan(h.props.sig));    // not in the text
  EXPECT_TRUE(std::isnan(c.harmonics[6].props.phserr));  // "0.0(2.5)x10^": exponent cut off
  EXPECT_EQ(accel.inf_text.rfind(" Data file name without suffix", 0), 0u);
}

TEST(AccelText, CentresCellsCutsWideOnesAndAddsJerkColumns) {
  rapt::AccelCandidates accel;
  accel.obs_length_s = 100.0;
  accel.jerk = true;
  accel.candidates.push_back(synthetic_candidate(2));
  accel.candidates[0].notes = "H 2 of Cand 1";
  accel.inf_text = "inf text\n";
  const auto lines = split_lines(rapt::format_accel_text(accel));
  ASSERT_GE(lines.size(), 12u);
  EXPECT_NE(lines[0].find("FFT 'w'"), std::string::npos);
  EXPECT_EQ(lines[2], std::string(169, '-'));  // 13 columns: widths + 2 per gap
  EXPECT_EQ(lines[3].substr(0, 13), "1     4711.  ");  // "4711.23" cut to 5 characters
  EXPECT_EQ(lines[3].substr(13, 8), "110983  ");
  EXPECT_EQ(lines[3].substr(lines[3].size() - 17), "    H 2 of Cand 1");
  EXPECT_EQ(lines[9].substr(0, 13), " 1     1     ");
  EXPECT_EQ(lines[8].size(), 193u);
  EXPECT_EQ(lines.back(), "inf text");
  const auto back = rapt::parse_accel_text(rapt::format_accel_text(accel), "synthetic");
  ASSERT_EQ(back.candidates.size(), 1u);
  EXPECT_TRUE(back.jerk);
  EXPECT_DOUBLE_EQ(back.candidates[0].w, 40.0);
  EXPECT_DOUBLE_EQ(back.candidates[0].harmonics[1].props.w, 80.0);
  EXPECT_EQ(back.candidates[0].notes, "H 2 of Cand 1");
}

TEST(AccelText, RefusesTextThatIsNotAnAccelFile) {
  try {
    rapt::parse_accel_text("hello\nworld\n", "x_ACCEL_50");
    FAIL() << "expected a DataError";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "x_ACCEL_50: not an accelsearch candidate file (no fundamentals table)");
  }
}

TEST(AccelText, RefusesAHarmonicCountOutsideOneTo32) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_red_ACCEL_50");
  const std::string text = rapt::testing::read_whole_file(path);
  const std::string row = "1     123.9  7747.5  54873.19   8 ";
  const size_t at = text.find(row);
  ASSERT_NE(at, std::string::npos);
  for (const std::string count : {"0", "64", "2.5", "9e9"}) {
    std::string damaged = text;
    damaged.replace(at + row.size() - 2, 1, count);
    try {
      rapt::parse_accel_text(damaged, "x_ACCEL_50");
      FAIL() << "expected a DataError for " << count;
    } catch (const rapt::DataError& e) {
      EXPECT_EQ(std::string(e.what()), "x_ACCEL_50: line 4: the number of harmonics must be a "
                                       "whole number from 1 to 32, found '" + count + "'");
    }
  }
}

TEST(AccelText, RefusesCandRecordsThatDoNotMatchTheTable) {
  rapt::AccelCandidates accel;
  accel.candidates.push_back(synthetic_candidate(1));
  EXPECT_THROW(rapt::apply_cand_records(accel, {}, "x.cand"), rapt::DataError);
}

TEST(TxtCand, RewritesTheGoldenLogByteForByte) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00_ACCEL_50.txtcand");
  const std::string golden = read_whole_file(path);
  const auto entries = rapt::parse_txtcand(golden, path);
  EXPECT_EQ(entries.size(), 6802u);
  std::string written;
  for (const auto& e : entries) written += rapt::format_txtcand_line(e);
  EXPECT_EQ(written, golden);
}

TEST(TxtCand, FormatsTheSpecExample) {
  const rapt::AccelTextLogEntry e{19.91, 2.6173, 1, 745.0, 11.101365089, -50.0, 0.0};
  EXPECT_EQ(rapt::format_txtcand_line(e),
            "19.91    2.6173   1   745.0000        11.101365089    -50.0000   0.0000    \n");
}

TEST(TxtCand, NamesTheBadLine) {
  try {
    rapt::parse_txtcand("1 2 3 4 5 6 7\n1 2 x\n", "a.txtcand");
    FAIL() << "expected a DataError";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "a.txtcand: line 2: expected 7 numbers (power sigma numharm r f z w)");
  }
}
