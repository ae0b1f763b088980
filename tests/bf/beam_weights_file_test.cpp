#include <gtest/gtest.h>

#include <complex>
#include <string>

#include "bf/beam_weights.hpp"
#include "cli/errors.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

std::string parse_error(const std::string& text) {
  try {
    parse_weights_text(text, "w.txt");
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

// A weight that says where it came from: re = 100 b + 10 c + a, im = -(re + 0.5).
std::complex<double> labelled_weight(int b, int c, int a) {
  const double re = 100.0 * b + 10.0 * c + a;
  return {re, -(re + 0.5)};
}

TEST(WeightsFile, StoresChannelSlowestThenBeamThenAntenna) {
  const int nbeams = 2, nchan = 3, nant = 4;
  std::string text = "nbeams 2 nchan 3 nant 4\n";
  for (int b = 0; b < nbeams; ++b) {  // the file: beam slowest, antenna fastest
    for (int c = 0; c < nchan; ++c) {
      for (int a = 0; a < nant; ++a) {
        const std::complex<double> w = labelled_weight(b, c, a);
        text += std::to_string(w.real()) + " " + std::to_string(w.imag()) + "\n";
      }
    }
  }
  const RawBeamWeights weights = parse_weights_text(text, "w.txt");
  EXPECT_EQ(weights.nbeams, nbeams);
  EXPECT_EQ(weights.nchan, nchan);
  EXPECT_EQ(weights.nant, nant);
  ASSERT_EQ(weights.values.size(), 24u);
  for (int c = 0; c < nchan; ++c) {
    for (int b = 0; b < nbeams; ++b) {
      for (int a = 0; a < nant; ++a) {
        EXPECT_EQ(weights.values[(c * nbeams + b) * nant + a], labelled_weight(b, c, a))
            << "chan " << c << " beam " << b << " ant " << a;
      }
    }
  }
}

TEST(WeightsFile, ReadsCommentsAnyWhitespaceAndKeysInAnyOrder) {
  const RawBeamWeights weights = parse_weights_text(
      "# weights for two antennas\r\n"
      "\r\n"
      "NANT 2 nbeams 1   nchan 1  # one beam, one channel\r\n"
      "1.5\t-2 # antenna 0\r\n"
      "\r\n"
      "3e-1\n"
      "   4\n",
      "w.txt");
  ASSERT_EQ(weights.values.size(), 2u);
  EXPECT_EQ(weights.values[0], std::complex<double>(1.5, -2));
  EXPECT_EQ(weights.values[1], std::complex<double>(0.3, 4));
}

TEST(WeightsFile, ReadsTheFileItNames) {
  testing::ScratchDir scratch;
  const std::string path = scratch.file("w.txt");
  testing::write_whole_file(path, "nbeams 1 nchan 1 nant 1\n0.5 0.25\n");
  EXPECT_EQ(read_weights_file(path).values.at(0), std::complex<double>(0.5, 0.25));
  try {
    read_weights_file(scratch.file("none.txt"));
    FAIL() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(scratch.file("none.txt") + ":", 0), 0u) << e.what();
  }
}

TEST(WeightsFile, CountMismatchNamesTheSizes) {
  std::string ten;
  for (int k = 0; k < 10; ++k) ten += "1 0\n";
  EXPECT_EQ(parse_error("nbeams 2 nchan 4 nant 3\n" + ten),
            "w.txt: has 10 weights; nbeams 2 x nchan 4 x nant 3 needs 24");
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 2\n1 0 1 0 1 0\n"),
            "w.txt: has 3 weights; nbeams 1 x nchan 1 x nant 2 needs 2");
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 2\n1 0 1\n"),
            "w.txt: has 1 weights and a lone number; nbeams 1 x nchan 1 x nant 2 needs 2");
  // Far more weights than the file has bytes for: counted, never allocated.
  EXPECT_EQ(parse_error("nbeams 100000 nchan 100000 nant 100\n1 0\n"),
            "w.txt: has 1 weights; nbeams 100000 x nchan 100000 x nant 100 needs 1000000000000");
}

TEST(WeightsFile, MalformedSizeLineNamesLineAndText) {
  EXPECT_EQ(parse_error("# header next\nnbeams 2 nchan 4\n"),
            "w.txt: line 2: expected 'nbeams B nchan C nant A', got 'nbeams 2 nchan 4'");
  EXPECT_EQ(parse_error("nbeams 2 nchan 4 nbeams 3\n"),
            "w.txt: line 1: expected 'nbeams B nchan C nant A', got 'nbeams 2 nchan 4 nbeams 3'");
  EXPECT_EQ(parse_error("1 0 1 0 1 0\n"),
            "w.txt: line 1: expected 'nbeams B nchan C nant A', got '1 0 1 0 1 0'");
  EXPECT_EQ(parse_error("nbeams 0 nchan 4 nant 3\n"),
            "w.txt: line 1: nbeams '0' is not a positive integer");
  EXPECT_EQ(parse_error("nbeams 1 nchan 2.5 nant 3\n"),
            "w.txt: line 1: nchan '2.5' is not a positive integer");
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 99999999999\n"),
            "w.txt: line 1: nant '99999999999' is not a positive integer");
  EXPECT_EQ(parse_error("nbeams 2147483647 nchan 2147483647 nant 2147483647\n"),
            "w.txt: line 1: nbeams 2147483647 x nchan 2147483647 x nant 2147483647 is too many "
            "weights");
}

TEST(WeightsFile, NonFiniteWeightNamesLineAndText) {
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 2\n1 0\n1 nan\n"),
            "w.txt: line 3: weight 'nan' is not a finite number");
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 1\n1e999 0\n"),
            "w.txt: line 2: weight '1e999' is not a finite number");
  EXPECT_EQ(parse_error("nbeams 1 nchan 1 nant 1\n1,0\n"),
            "w.txt: line 2: weight '1,0' is not a finite number");
}

TEST(WeightsFile, MissingSizeLineAndNulAreErrors) {
  EXPECT_EQ(parse_error(""), "w.txt: no 'nbeams B nchan C nant A' line");
  EXPECT_EQ(parse_error("# nothing\n"), "w.txt: no 'nbeams B nchan C nant A' line");
  EXPECT_EQ(parse_error(std::string("nbeams 1 nchan 1 nant 1\n1 \0\n", 28)),
            "w.txt: line 2: contains a NUL byte");
}

}  // namespace
}  // namespace rapt
