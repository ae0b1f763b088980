#include "io/pfd.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "cli/errors.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

namespace {

template <typename T>
T at(const std::string& bytes, size_t offset) {
  T value;
  EXPECT_LE(offset + sizeof value, bytes.size());
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

// Small enough to lay out by hand: 2 DMs, 3 periods, 1 pdot, 3 parts x 2 subbands x 4 bins.
rapt::Pfd synthetic_pfd() {
  rapt::Pfd p;
  p.nsub = 2;
  p.npart = 3;
  p.proflen = 4;
  p.numchan = 8;
  p.pstep = 1;
  p.pdstep = 2;
  p.dmstep = 3;
  p.ndmfact = 4;
  p.npfact = 5;
  p.filenm = "in.fil";
  p.candnm = "Cand";
  p.telescope = "GBT";
  p.pgdev = "x.pfd.ps/CPS";
  p.rastr = "12:34:56.7890";
  p.decstr = "-12:34:56.7800";
  p.dt_s = 6.4e-5;
  p.start_frac = 0.0;
  p.end_frac = 1.0;
  p.tepoch_mjd = 60000.5;
  p.bepoch_mjd = 60000.25;
  p.avgvoverc = 1e-4;
  p.lofreq_mhz = 1200.0;
  p.chan_wid_mhz = 0.5;
  p.bestdm = 56.0;
  p.topo = {1.5f, {}, 0.0873, -6.7e-6, 0.0};
  p.bary = {2.5f, {}, 0.0874, -6.8e-6, 1e-12};
  p.fold = {3.5f, {}, 11.45, 8.8e-4, 0.0};
  p.orbit = {86400.0, 0.1, 2.5, 90.0, 60000.125, 1e-12, 1e-3};
  p.dms = {55.0, 57.0};
  p.periods = {0.0872, 0.0873, 0.0874};
  p.pdots = {-6.7e-6};
  p.allocate_folds();
  for (int part = 0; part < 3; ++part)
    for (int sub = 0; sub < 2; ++sub) {
      for (int bin = 0; bin < 4; ++bin) p.rawfold(part, sub, bin) = 100 * part + 10 * sub + bin;
      p.stat(part, sub) = {1.0 * part, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0 + sub};
    }
  return p;
}

// Offsets of every numeric field of synthetic_pfd()'s file, with their sizes, in file order.
std::vector<std::pair<size_t, size_t>> synthetic_scalar_fields() {
  std::vector<std::pair<size_t, size_t>> fields;
  for (size_t i = 0; i < 12; ++i) fields.push_back({4 * i, 4});
  for (size_t offset : {48, 58, 66, 73}) fields.push_back({offset, 4});  // string lengths
  for (size_t i = 0; i < 9; ++i) fields.push_back({121 + 8 * i, 8});
  for (size_t pos = 0; pos < 3; ++pos) {
    fields.push_back({193 + 32 * pos, 4});  // float pow; its 4 padding bytes are not a number
    for (size_t i = 0; i < 3; ++i) fields.push_back({201 + 32 * pos + 8 * i, 8});
  }
  for (size_t offset = 289; offset < 921; offset += 8) fields.push_back({offset, 8});
  return fields;
}

std::string byte_swapped_copy(std::string bytes) {
  for (const auto& [offset, size] : synthetic_scalar_fields())
    std::reverse(bytes.begin() + offset, bytes.begin() + offset + size);
  return bytes;
}

void expect_data_error(const std::string& bytes, const std::string& message) {
  try {
    rapt::parse_pfd(bytes, "f.pfd");
    FAIL() << "expected a DataError: " << message;
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

}  // namespace

TEST(Pfd, RewritesTheGoldenFilesByteForByte) {
  for (const char* file : {"presto-golden/test_DM56.00_ACCEL_Cand_2.pfd",
                           "presto-golden/rawfold_ns_87.30ms_Cand.pfd",
                           "presto/M28A_bary_PSR_1824-2452A.pfd"}) {
    RAPT_REQUIRE_SHARED_FILE(path, file);
    const std::string golden = read_whole_file(path);
    const rapt::Pfd pfd = rapt::read_pfd(path);
    EXPECT_EQ(rapt::format_pfd(pfd), golden) << file;
  }
}

TEST(Pfd, ReadsTheGoldenFoldOfTheRawFilterbank) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto-golden/rawfold_ns_87.30ms_Cand.pfd");
  const rapt::Pfd p = rapt::read_pfd(path);
  EXPECT_EQ(p.dms.size(), 385u);
  EXPECT_EQ(p.periods.size(), 257u);
  EXPECT_EQ(p.nsub, 32);
  EXPECT_EQ(p.npart, 64);
  EXPECT_EQ(p.proflen, 64);
  EXPECT_EQ(p.numchan, 128);
  EXPECT_EQ(p.filenm, "test.fil");
  EXPECT_EQ(p.candnm, "87.30ms_Cand");
  EXPECT_EQ(p.pgdev, "rawfold_ns_87.30ms_Cand.pfd.ps/CPS");
  EXPECT_EQ(p.rastr, "12:34:56.7890");
  EXPECT_EQ(p.decstr, "-12:34:56.7800");
  EXPECT_DOUBLE_EQ(p.tepoch_mjd, 60000.123456789);
  EXPECT_DOUBLE_EQ(p.lofreq_mhz, 1246.0);
  EXPECT_DOUBLE_EQ(p.topo.p1, 0.0873);
  EXPECT_DOUBLE_EQ(p.topo.p2, -6.769e-06);
  EXPECT_DOUBLE_EQ(p.stat(0, 0).numdata, 2400.0);
  EXPECT_NEAR(p.stat(0, 0).redchi, 1.39442544, 1e-8);
}

TEST(Pfd, KeepsThePositionPaddingAsRead) {
  RAPT_REQUIRE_SHARED_FILE(path, "presto/M28A_bary_PSR_1824-2452A.pfd");
  const rapt::Pfd p = rapt::read_pfd(path);
  const std::array<unsigned char, 4> garbage = {0xfe, 0x7f, 0x00, 0x00};
  EXPECT_EQ(p.topo.padding, garbage);
  EXPECT_EQ(p.fold.padding, (std::array<unsigned char, 4>{}));
  EXPECT_TRUE(p.dms.empty());
  EXPECT_DOUBLE_EQ(p.bepoch_mjd, 52586.24269631531);
}

TEST(Pfd, LaysOutASyntheticFoldAsPrestosReadersExpect) {
  const std::string b = rapt::format_pfd(synthetic_pfd());
  ASSERT_EQ(b.size(), 921u);
  const int32_t counts[12] = {2, 3, 1, 2, 3, 4, 8, 1, 2, 3, 4, 5};
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(at<int32_t>(b, 4 * i), counts[i]) << "int " << i;
  EXPECT_EQ(at<int32_t>(b, 48), 6);
  EXPECT_EQ(b.substr(52, 6), "in.fil");
  EXPECT_EQ(at<int32_t>(b, 58), 4);
  EXPECT_EQ(b.substr(62, 4), "Cand");
  EXPECT_EQ(at<int32_t>(b, 66), 3);
  EXPECT_EQ(b.substr(70, 3), "GBT");
  EXPECT_EQ(at<int32_t>(b, 73), 12);
  EXPECT_EQ(b.substr(77, 12), "x.pfd.ps/CPS");
  EXPECT_EQ(b.substr(89, 16), std::string("12:34:56.7890\0\0\0", 16));
  EXPECT_EQ(b.substr(105, 16), std::string("-12:34:56.7800\0\0", 16));
  EXPECT_EQ(at<double>(b, 121), 6.4e-5);          // dt
  EXPECT_EQ(at<double>(b, 121 + 3 * 8), 60000.5);  // tepoch
  EXPECT_EQ(at<double>(b, 121 + 8 * 8), 56.0);     // bestdm
  EXPECT_EQ(at<float>(b, 193), 1.5f);              // topo.pow, then 4 zero bytes
  EXPECT_EQ(at<uint32_t>(b, 197), 0u);
  EXPECT_EQ(at<double>(b, 201), 0.0873);
  EXPECT_EQ(at<double>(b, 217), 0.0);
  EXPECT_EQ(at<float>(b, 225), 2.5f);              // bary
  EXPECT_EQ(at<double>(b, 249), 1e-12);
  EXPECT_EQ(at<float>(b, 257), 3.5f);              // fold: f, f', f''
  EXPECT_EQ(at<double>(b, 265), 11.45);
  EXPECT_EQ(at<double>(b, 289), 86400.0);          // orbit p, e, x, w, t, pd, wd
  EXPECT_EQ(at<double>(b, 289 + 6 * 8), 1e-3);
  EXPECT_EQ(at<double>(b, 345), 55.0);             // dms
  EXPECT_EQ(at<double>(b, 361), 0.0872);           // periods
  EXPECT_EQ(at<double>(b, 385), -6.7e-6);          // pdots
  for (int part = 0; part < 3; ++part)
    for (int sub = 0; sub < 2; ++sub)
      for (int bin = 0; bin < 4; ++bin)
        EXPECT_EQ(at<double>(b, 393 + 8 * ((part * 2 + sub) * 4 + bin)),
                  100.0 * part + 10 * sub + bin);
  EXPECT_EQ(at<double>(b, 585 + 8 * 7 * 5), 2.0);       // stats[2][1].numdata
  EXPECT_EQ(at<double>(b, 585 + 8 * (7 * 5 + 6)), 8.0);  // stats[2][1].redchi
}

TEST(Pfd, ReadsBackWhatItWrites) {
  ScratchDir dir;
  const rapt::Pfd p = synthetic_pfd();
  rapt::write_pfd(dir.file("s.pfd"), p, false);
  const rapt::Pfd back = rapt::read_pfd(dir.file("s.pfd"));
  EXPECT_EQ(rapt::format_pfd(back), rapt::format_pfd(p));
  EXPECT_EQ(back.orbit.w_deg, 90.0);
  EXPECT_EQ(back.rawfold(2, 1, 3), 213.0);
  EXPECT_THROW(rapt::write_pfd(dir.file("s.pfd"), p, false), rapt::DataError);
}

TEST(Pfd, ReadsByteSwappedFiles) {
  const std::string native = rapt::format_pfd(synthetic_pfd());
  const std::string swapped = byte_swapped_copy(native);
  ASSERT_NE(swapped, native);
  EXPECT_EQ(rapt::format_pfd(rapt::parse_pfd(swapped, "big.pfd")), native);
}

TEST(Pfd, RejectsTruncatedAndOverlongFiles) {
  const std::string b = rapt::format_pfd(synthetic_pfd());
  const std::string counts = "numdms=2, numperiods=3, numpdots=1, nsub=2, npart=3, proflen=4";
  expect_data_error(b.substr(0, b.size() - 8),
                    "f.pfd: truncated: 913 bytes; the header (" + counts + ") implies 921");
  expect_data_error(b + "x", "f.pfd: 922 bytes; the header (" + counts +
                                 ") implies 921 (trailing data)");
  expect_data_error(b.substr(0, 64), "f.pfd: corrupt or truncated: string length 4 at byte 58");
  expect_data_error(b.substr(0, 60), "f.pfd: truncated: 60 bytes end inside the header");
  expect_data_error(b.substr(0, 20), "f.pfd: truncated: 20 bytes end inside the header counts");
}

TEST(Pfd, RejectsAbsurdHeaderCounts) {
  std::string b = rapt::format_pfd(synthetic_pfd());
  const int32_t npart = 2000000000;
  std::memcpy(&b[16], &npart, 4);
  expect_data_error(b, "f.pfd: not a .pfd file: header counts are absurd (numdms=2, "
                       "numperiods=3, numpdots=1, nsub=2, npart=2000000000, proflen=4)");
  rapt::Pfd mismatched = synthetic_pfd();
  mismatched.stats.pop_back();
  EXPECT_THROW(rapt::format_pfd(mismatched), rapt::DataError);
}
