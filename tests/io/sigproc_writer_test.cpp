// SigprocWriter: quantisation, LSB-first packing, atomic output, and write-then-read round trips
// for every sample size and both channel orders.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;

namespace {

rapt::SigprocHeader small_header(int nbits, int nchans, double foff) {
  rapt::SigprocHeader h;
  h.source_name = "FAKE";
  h.telescope_id = 4;
  h.machine_id = 10;
  h.src_raj = 101010.5;
  h.src_dej = -3015.5;
  h.tstart = 60000.25;
  h.tsamp = 64e-6;
  h.nbits = nbits;
  h.nchans = nchans;
  h.fch1 = foff < 0 ? 1500.0 : 1100.0;
  h.foff = foff;
  return h;
}

// The bytes the writer stores for `values` (after the header).
std::string written_samples(const rapt::SigprocHeader& h, const std::vector<float>& values) {
  ScratchDir dir;
  const std::string path = dir.file("q.fil");
  rapt::SigprocWriter writer(path, h, false);
  writer.write(values.data(), values.size() / size_t(h.nchans * h.nifs));
  writer.commit();
  return read_whole_file(path).substr(rapt::encode_sigproc_header(h).size());
}

std::vector<int> as_ints(const std::string& bytes) {
  std::vector<int> values;
  for (const char c : bytes) values.push_back(int(uint8_t(c)));
  return values;
}

}  // namespace

TEST(SigprocWriter, RoundsToNearestAndClipsEightBitSamples) {
  const auto h = small_header(8, 8, -1.0);
  const std::vector<float> in{-3.0f, 0.4f, 0.5f, 1.49f, 2.6f, 254.5f, 300.0f,
                              std::numeric_limits<float>::quiet_NaN()};
  const std::string out = written_samples(h, in);
  EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.end()),
            (std::vector<uint8_t>{0, 0, 1, 1, 3, 255, 255, 0}));
}

TEST(SigprocWriter, RoundsAndClipsSignedEightBitSamples) {
  auto h = small_header(8, 8, -1.0);
  h.signed_byte = -1;
  const std::vector<float> in{-200.0f, -128.0f, -2.5f, -2.6f, 0.49f, 126.5f, 127.4f, 1e9f};
  const std::string out = written_samples(h, in);
  std::vector<int> values;
  for (const char c : out) values.push_back(int(int8_t(c)));
  EXPECT_EQ(values, (std::vector<int>{-128, -128, -2, -3, 0, 127, 127, 127}));
}

TEST(SigprocWriter, PacksTwoBitSamplesLowestChannelInTheLowestBits) {
  const std::string out = written_samples(small_header(2, 8, -1.0),
                                          {0.0f, 1.0f, 2.0f, 3.0f, 3.0f, 9.0f, -1.0f, 1.2f});
  EXPECT_EQ(as_ints(out), (std::vector<int>{0xE4, 0x4F}));
}

TEST(SigprocWriter, PacksOneAndFourBitSamplesLowestChannelFirst) {
  EXPECT_EQ(as_ints(written_samples(small_header(1, 8, -1.0),
                                    {1.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.6f})),
            (std::vector<int>{0x85}));
  EXPECT_EQ(as_ints(written_samples(small_header(4, 2, -1.0), {1.0f, 2.0f, 15.4f, 99.0f})),
            (std::vector<int>{0x21, 0xFF}));
}

TEST(SigprocWriter, StoresSixteenBitSamplesAsLittleEndianUnsigned) {
  const std::string out = written_samples(small_header(16, 2, -1.0),
                                          {258.0f, 65535.7f, -4.0f, 1.5f});
  EXPECT_EQ(as_ints(out), (std::vector<int>{2, 1, 255, 255, 0, 0, 2, 0}));
}

TEST(SigprocWriter, RejectsAHeaderThatCannotBeRead) {
  ScratchDir dir;
  const std::string path = dir.file("bad.fil");
  try {
    rapt::SigprocWriter writer(path, small_header(3, 8, -1.0), false);
    FAIL() << "expected an error";
  } catch (const rapt::DataError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": header says nbits=3; supported: 1, 2, 4, 8, 16, 32");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(SigprocWriter, LeavesNothingBehindWithoutCommit) {
  ScratchDir dir;
  {
    rapt::SigprocWriter writer(dir.file("out.fil"), small_header(8, 4, -1.0), false);
    const std::vector<float> values(4, 1.0f);
    writer.write(values.data(), 1);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(SigprocWriter, RefusesToReplaceAFileUnlessAllowed) {
  ScratchDir dir;
  const std::string path = dir.file("out.fil");
  rapt::testing::write_whole_file(path, "precious");
  EXPECT_THROW(rapt::SigprocWriter(path, small_header(8, 4, -1.0), false), rapt::DataError);
  rapt::SigprocWriter writer(path, small_header(8, 4, -1.0), true);
  writer.commit();
  EXPECT_NE(read_whole_file(path), "precious");
}

TEST(SigprocWriter, WritesToStandardOutput) {
  ScratchDir dir;
  const std::string path = dir.file("stdout.fil");
  const auto h = small_header(8, 4, -1.0);
  const std::vector<float> values{1.0f, 2.0f, 3.0f, 4.0f};
  std::fflush(stdout);
  const int saved = ::dup(1);
  FILE* target = std::fopen(path.c_str(), "wb");
  ASSERT_NE(target, nullptr);
  ::dup2(fileno(target), 1);
  {
    rapt::SigprocWriter writer("-", h, false);
    writer.write(values.data(), 1);
    writer.commit();
  }
  ::dup2(saved, 1);
  ::close(saved);
  std::fclose(target);
  const std::vector<uint8_t> header = rapt::encode_sigproc_header(h);
  EXPECT_EQ(read_whole_file(path),
            std::string(header.begin(), header.end()) + std::string("\x01\x02\x03\x04"));
}

// One write-then-read round trip per sample encoding and channel order.
struct RoundTripCase {
  const char* name;
  int nbits;
  bool int8;
  double foff;
};
// By name in test output (not the struct's bytes, padding included).
void PrintTo(const RoundTripCase& c, std::ostream* os) { *os << c.name; }

class SigprocRoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(SigprocRoundTrip, ReadsBackExactlyWhatWasWritten) {
  const RoundTripCase& c = GetParam();
  auto h = small_header(c.nbits, 24, c.foff);
  if (c.int8) h.signed_byte = -1;
  const size_t nspectra = 1001;
  // Values the encoding can hold exactly, so reading must give them back bit for bit.
  std::mt19937 random(1234 + c.nbits);
  const int lo = c.int8 ? -128 : 0;
  const int hi = c.nbits == 32 ? 0 : c.int8 ? 127 : (1 << c.nbits) - 1;
  std::uniform_int_distribution<int> level(lo, hi);
  std::normal_distribution<float> gaussian(0.0f, 1e3f);
  std::vector<float> values(nspectra * size_t(h.nchans));
  for (float& v : values) v = c.nbits == 32 ? gaussian(random) : float(level(random));

  ScratchDir dir;
  const std::string path = dir.file("rt.fil");
  rapt::SigprocWriter writer(path, h, false);
  writer.write(values.data(), 500);  // in two calls, so appending is exercised too
  writer.write(values.data() + 500 * size_t(h.nchans), nspectra - 500);
  writer.commit();

  rapt::SigprocReader reader(path);
  EXPECT_TRUE(reader.warnings().empty());
  const rapt::ObservationInfo& info = reader.info();
  EXPECT_EQ(info.nspectra, int64_t(nspectra));
  EXPECT_EQ(info.nbits, c.nbits);
  EXPECT_EQ(info.fch1_mhz, h.fch1);
  EXPECT_EQ(info.foff_mhz, c.foff);
  EXPECT_EQ(info.telescope, "Parkes");
  EXPECT_EQ(reader.header().samples_signed(), c.int8);
  EXPECT_EQ(std::filesystem::file_size(path),
            reader.header().header_bytes + nspectra * size_t(h.nchans * c.nbits / 8));
  std::vector<float> back(values.size() + h.nchans, -1.0f);
  EXPECT_EQ(reader.read(back.data(), nspectra + 1), nspectra);
  back.resize(values.size());
  EXPECT_EQ(back, values);
}

INSTANTIATE_TEST_SUITE_P(
    EveryEncoding, SigprocRoundTrip,
    ::testing::Values(RoundTripCase{"OneBitDescending", 1, false, -0.5},
                      RoundTripCase{"OneBitAscending", 1, false, 0.5},
                      RoundTripCase{"TwoBitDescending", 2, false, -0.5},
                      RoundTripCase{"TwoBitAscending", 2, false, 0.5},
                      RoundTripCase{"FourBitDescending", 4, false, -0.5},
                      RoundTripCase{"FourBitAscending", 4, false, 0.5},
                      RoundTripCase{"EightBitDescending", 8, false, -0.5},
                      RoundTripCase{"EightBitAscending", 8, false, 0.5},
                      RoundTripCase{"SignedEightBitDescending", 8, true, -0.5},
                      RoundTripCase{"SignedEightBitAscending", 8, true, 0.5},
                      RoundTripCase{"SixteenBitDescending", 16, false, -0.5},
                      RoundTripCase{"SixteenBitAscending", 16, false, 0.5},
                      RoundTripCase{"FloatDescending", 32, false, -0.5},
                      RoundTripCase{"FloatAscending", 32, false, 0.5}),
    [](const ::testing::TestParamInfo<RoundTripCase>& info) { return info.param.name; });

TEST(SigprocWriter, WritesTimeSeriesThatReadBackAsOneChannel) {
  auto h = small_header(32, 1, -1.0);
  h.data_type = 2;
  h.refdm = 56.0;
  ScratchDir dir;
  const std::string path = dir.file("x.tim");
  const std::vector<float> series{0.5f, -1.25f, 3.0f};
  rapt::SigprocWriter writer(path, h, false);
  writer.write(series.data(), series.size());
  writer.commit();
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.info().format, "SIGPROC time series");
  EXPECT_EQ(reader.header().refdm, 56.0);
  std::vector<float> back(3);
  ASSERT_EQ(reader.read(back.data(), 3), 3u);
  EXPECT_EQ(back, series);
}
