// Our ACCEL text files read the way PRESTO's sifting module (ACCEL_sift.py) reads ACCEL files,
// side by side with PRESTO's own file for the same search. The reader below follows the rules
// of ../shared/reference/formats.md section 4.3: the DM comes from "DM(\d+\.\d{2})" in the
// file name; fundamentals are the lines that start with a digit, split on white space
// (0 cand, 1 sigma, 2 summed power, 3 coherent power, 4 numharm, 7 r and 9 z before any "(");
// harmonic rows start with a space and a digit (power in field 3, phase in 9) or are
// continuation rows (fields 2 and 8); the observation comes from two .inf label prefixes.
// Every number is converted as Python's float() and int() convert: the whole field or fail.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "accel/accel_search.hpp"
#include "io/presto_series.hpp"
#include "test_data.hpp"

namespace rapt {
namespace {

constexpr double kGoldenT = 67.108864;

std::vector<std::string> split_fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

// Python's float(text): the whole text must be a number.
double python_float(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw std::runtime_error("float('" + text + "') fails");
  return value;
}

int python_int(const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') throw std::runtime_error("int('" + text + "') fails");
  return int(value);
}

std::string before_paren(const std::string& field) { return field.substr(0, field.find('(')); }

struct SiftedCandidate {
  int number = 0;
  double sigma = 0.0, summed_power = 0.0, coherent_power = 0.0, r = 0.0, z = 0.0;
  int numharm = 0;
  std::vector<std::string> harmonic_powers, harmonic_phases;  // as sifting splits them
};

struct SiftedFile {
  double dm = -1.0;
  double numbins = 0.0, dt = 0.0;
  std::vector<SiftedCandidate> candidates;
};

SiftedFile sift_read(const std::string& path) {
  SiftedFile file;
  std::smatch match;
  const std::regex dm_pattern("DM(\\d+\\.\\d{2})");
  if (std::regex_search(path, match, dm_pattern)) file.dm = python_float(match[1]);
  std::ifstream in(path);
  SiftedCandidate* current = nullptr;
  bool in_harmonics = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(" Number of bins in the time series", 0) == 0) {
      file.numbins = python_float(split_fields(line.substr(line.find('=') + 1))[0]);
    } else if (line.rfind(" Width of each time series bin (sec)", 0) == 0) {
      file.dt = python_float(split_fields(line.substr(line.find('=') + 1))[0]);
    } else if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) {
      const std::vector<std::string> f = split_fields(line);
      SiftedCandidate c;
      c.number = python_int(f.at(0));
      c.sigma = python_float(f.at(1));
      c.summed_power = python_float(f.at(2));
      c.coherent_power = python_float(f.at(3));
      c.numharm = python_int(f.at(4));
      c.r = python_float(before_paren(f.at(7)));
      c.z = python_float(before_paren(f.at(9)));
      file.candidates.push_back(c);
    } else if (line.rfind("Cand   Harm", 0) == 0) {
      in_harmonics = true;
    } else if (in_harmonics && line.size() > 1 && line[0] == ' ' &&
               std::isdigit(static_cast<unsigned char>(line[1]))) {
      const std::vector<std::string> f = split_fields(line);
      const int number = python_int(f.at(0));
      current = number >= 1 && size_t(number) <= file.candidates.size()
                    ? &file.candidates[size_t(number) - 1]
                    : nullptr;
      if (!current) throw std::runtime_error("harmonic row of unknown candidate " + f[0]);
      current->harmonic_powers.push_back(f.at(3));
      current->harmonic_phases.push_back(f.at(9));
    } else if (in_harmonics && current && line.rfind("       ", 0) == 0 &&
               !split_fields(line).empty()) {
      const std::vector<std::string> f = split_fields(line);
      current->harmonic_powers.push_back(f.at(2));
      current->harmonic_phases.push_back(f.at(8));
    } else if (line.empty()) {
      current = nullptr;
    }
  }
  return file;
}

TEST(AccelSifting, ReadsOurFileAsItReadsPrestosForTheSameSearch) {
  RAPT_REQUIRE_SHARED_FILE(fft, "presto-golden/test_DM56.00.fft");
  RAPT_REQUIRE_SHARED_FILE(inf, "presto-golden/test_DM56.00.inf");
  RAPT_REQUIRE_SHARED_FILE(presto_path, "presto-golden/test_DM56.00_ACCEL_50");
  testing::ScratchDir dir;
  const std::string root = dir.file("test_DM56.00");
  AccelSearchOptions o;
  o.zmax = 50;
  o.numharm = 8;
  auto engine = make_cpu_accel_engine(2);
  const AccelSearchResult result = run_accel_search(
      read_fft(fft), o, kGoldenT, testing::read_whole_file(inf), true, *engine, 2);
  write_accel_outputs(root, result, true, false);

  const SiftedFile presto = sift_read(presto_path);
  const SiftedFile ours = sift_read(accel_output_name(root, 50));
  EXPECT_EQ(ours.dm, 56.0);
  EXPECT_EQ(ours.dm, presto.dm);
  EXPECT_EQ(ours.numbins, presto.numbins);
  EXPECT_EQ(ours.dt, presto.dt);
  ASSERT_EQ(ours.candidates.size(), result.accel.candidates.size());
  ASSERT_GE(ours.candidates.size(), 30u);
  for (size_t i = 0; i < ours.candidates.size(); ++i) {
    const SiftedCandidate& a = ours.candidates[i];
    EXPECT_EQ(a.number, int(i) + 1);
    EXPECT_EQ(int(a.harmonic_powers.size()), a.numharm) << "candidate " << i + 1;
  }
  for (size_t i = 0; i < 30; ++i) {
    const SiftedCandidate& a = ours.candidates[i];
    const SiftedCandidate& b = presto.candidates[i];
    EXPECT_EQ(a.numharm, b.numharm) << "candidate " << i + 1;
    EXPECT_EQ(a.r, b.r) << "candidate " << i + 1;
    EXPECT_EQ(a.z, b.z) << "candidate " << i + 1;
    EXPECT_NEAR(a.sigma, b.sigma, b.sigma >= 1000.0 ? 1.0 : 0.1) << "candidate " << i + 1;
    // The optimised summed power: the two simplex searches end within 0.35 % of each other.
    EXPECT_NEAR(a.summed_power / b.summed_power, 1.0, 5e-3) << "candidate " << i + 1;
  }
  // The pulsar (candidate 2): every harmonic's power and phase fields as PRESTO prints them.
  EXPECT_EQ(ours.candidates[1].harmonic_powers, presto.candidates[1].harmonic_powers);
  EXPECT_EQ(ours.candidates[1].harmonic_phases, presto.candidates[1].harmonic_phases);
}

}  // namespace
}  // namespace rapt
