#include "io/singlepulse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "cli/errors.hpp"
#include "test_data.hpp"

using rapt::SinglePulseEvent;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

std::string parse_error(const std::string& text) {
  try {
    rapt::parse_singlepulse(text, "x.singlepulse");
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(SinglePulseFile, GoldenFileWritesBackByteForByte) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00.singlepulse");
  const std::string original = read_whole_file(path);
  const std::vector<SinglePulseEvent> events = rapt::read_singlepulse(path);
  const size_t lines = static_cast<size_t>(std::count(original.begin(), original.end(), '\n'));
  ASSERT_EQ(events.size(), lines - 1);  // one header line
  EXPECT_EQ(rapt::format_singlepulse(events), original);

  ScratchDir dir;
  rapt::write_singlepulse(dir.file("copy.singlepulse"), events, false);
  EXPECT_EQ(read_whole_file(dir.file("copy.singlepulse")), original);
}

TEST(SinglePulseFile, GoldenEventsMakeSense) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/test_DM56.00.singlepulse");
  const std::vector<SinglePulseEvent> events = rapt::read_singlepulse(path);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0].dm, 56.0);
  EXPECT_EQ(events[0].sigma, 6.05);
  EXPECT_EQ(events[0].time_s, 0.000512);
  EXPECT_EQ(events[0].sample, 2);
  EXPECT_EQ(events[0].downfact, 6);
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_NEAR(events[i].time_s, events[i].sample * 0.000256, 1e-6) << "event " << i;
    EXPECT_GE(events[i].sigma, 6.0) << "event " << i;  // searched with -t 6
    if (i > 0) {
      EXPECT_GE(events[i].sample, events[i - 1].sample) << "rows are sorted by sample";
    }
  }
}

TEST(SinglePulseWriter, UsesPrestoColumns) {
  const std::vector<SinglePulseEvent> events{{56.0, 7.95, 0.174848, 683, 9},
                                             {1234.567, 123.456, 12345.5, 1234567890, 300}};
  EXPECT_EQ(rapt::format_singlepulse(events),
            "# DM      Sigma      Time (s)     Sample    Downfact\n"
            "  56.00    7.95      0.174848        683       9\n"
            "1234.57  123.46  12345.500000 1234567890     300\n");
}

TEST(SinglePulseWriter, WritesAnEmptyFileForNoEvents) {
  EXPECT_EQ(rapt::format_singlepulse({}), "");
  ScratchDir dir;
  const std::string path = dir.file("none.singlepulse");
  rapt::write_singlepulse(path, {}, false);
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(std::filesystem::file_size(path), 0u);
  EXPECT_TRUE(rapt::read_singlepulse(path).empty());
}

TEST(SinglePulseReader, AcceptsLooseLayout) {
  const std::string text =
      "# made by hand\r\n"
      "\n"
      "\t10.5\t5.5\t1.25\t100\t2\textra columns ignored\r\n"
      "   # comment in the middle\n"
      "20 6 2.5 200 1";
  const std::vector<SinglePulseEvent> events = rapt::parse_singlepulse(text, "x");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].dm, 10.5);
  EXPECT_EQ(events[0].sigma, 5.5);
  EXPECT_EQ(events[0].time_s, 1.25);
  EXPECT_EQ(events[0].sample, 100);
  EXPECT_EQ(events[0].downfact, 2);
  EXPECT_EQ(events[1].sample, 200);
  EXPECT_EQ(events[1].downfact, 1);
}

TEST(SinglePulseReader, NamesTheLineThatCannotBeRead) {
  EXPECT_EQ(parse_error("# DM Sigma\n1 2 3 4\n"),
            "x.singlepulse: line 2: expected 5 columns (DM Sigma Time Sample Downfact), found 4");
  EXPECT_EQ(parse_error("1 2 3 4 5\n1 2 3 four 5\n"),
            "x.singlepulse: line 2: Sample is not a number: \"four\"");
  EXPECT_EQ(parse_error("1 2 3 4.5 5\n"),
            "x.singlepulse: line 1: Sample is not a whole number: \"4.5\"");
  EXPECT_EQ(parse_error("1 2x 3 4 5\n"), "x.singlepulse: line 1: Sigma is not a number: \"2x\"");
  EXPECT_EQ(parse_error("1 2 3 4 0\n"),
            "x.singlepulse: line 1: Downfact must be a positive width: \"0\"");
}

TEST(SinglePulseReader, NamesAMissingFile) {
  ScratchDir dir;
  const std::string path = dir.file("none.singlepulse");
  try {
    rapt::read_singlepulse(path);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}
