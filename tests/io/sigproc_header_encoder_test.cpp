// encode_sigproc_header: what it writes, what it leaves out, and that the parser reads it back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/sigproc.hpp"
#include "sigproc_test_support.hpp"

using rapt::testing::example_header;

namespace {

bool contains(const std::vector<uint8_t>& bytes, const std::string& text) {
  const std::string as_text(bytes.begin(), bytes.end());
  return as_text.find(text) != std::string::npos;
}

}  // namespace

TEST(SigprocHeaderEncoder, WritesWhatTheParserReadsBack) {
  const rapt::SigprocHeader h = example_header();
  const std::vector<uint8_t> bytes = rapt::encode_sigproc_header(h);
  const rapt::SigprocHeader back = rapt::parse_sigproc_header(bytes.data(), bytes.size(), "x");
  EXPECT_EQ(back.rawdatafile, h.rawdatafile);
  EXPECT_EQ(back.source_name, h.source_name);
  EXPECT_EQ(back.telescope_id, h.telescope_id);
  EXPECT_EQ(back.machine_id, h.machine_id);
  EXPECT_EQ(back.barycentric, h.barycentric);
  EXPECT_EQ(back.src_raj, h.src_raj);
  EXPECT_EQ(back.src_dej, h.src_dej);
  EXPECT_EQ(back.az_start, h.az_start);
  EXPECT_EQ(back.za_start, h.za_start);
  EXPECT_EQ(back.tstart, h.tstart);
  EXPECT_EQ(back.tsamp, h.tsamp);
  EXPECT_EQ(back.fch1, h.fch1);
  EXPECT_EQ(back.foff, h.foff);
  EXPECT_EQ(back.nchans, h.nchans);
  EXPECT_EQ(back.nbeams, h.nbeams);
  EXPECT_EQ(back.ibeam, h.ibeam);
  EXPECT_EQ(back.refdm, h.refdm);
  EXPECT_EQ(back.signed_byte, int8_t(-1));
  EXPECT_EQ(back.header_bytes, bytes.size());
}

TEST(SigprocHeaderEncoder, StartsWithTheSigprocMagicAndEndsWithHeaderEnd) {
  const std::vector<uint8_t> bytes = rapt::encode_sigproc_header(example_header());
  const std::string start("\x0c\0\0\0HEADER_START", 16);
  const std::string end("\x0a\0\0\0HEADER_END", 14);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 16), start);
  EXPECT_EQ(std::string(bytes.end() - 14, bytes.end()), end);
}

TEST(SigprocHeaderEncoder, WritesOnlyKeywordsPrestoAccepts) {
  rapt::SigprocHeader h = example_header();
  h.period = 0.0116;
  h.nbins = 64;
  h.npuls = 1000;
  h.channel_freqs.assign(1024, 1400.0);
  const std::vector<uint8_t> bytes = rapt::encode_sigproc_header(h);
  for (const char* forbidden : {"period", "nbins", "npuls", "FREQUENCY_START", "fchannel",
                                "FREQUENCY_END", "nsamples"})
    EXPECT_FALSE(contains(bytes, forbidden)) << forbidden;
}

TEST(SigprocHeaderEncoder, WritesSignedOnlyForInt8Samples) {
  rapt::SigprocHeader h = example_header();
  std::vector<uint8_t> bytes = rapt::encode_sigproc_header(h);
  const std::string signed_minus_one("\x06\0\0\0signed\xff", 11);
  EXPECT_TRUE(contains(bytes, signed_minus_one));
  for (const std::optional<int8_t> unsigned_mark : {std::optional<int8_t>(),
                                                     std::optional<int8_t>(1)}) {
    h.signed_byte = unsigned_mark;
    bytes = rapt::encode_sigproc_header(h);
    EXPECT_FALSE(contains(bytes, "signed"));
  }
  h.signed_byte = -1;
  h.nbits = 16;  // `signed` only means something for 8-bit samples
  EXPECT_FALSE(contains(rapt::encode_sigproc_header(h), "signed"));
}

TEST(SigprocHeaderEncoder, ClipsStringsTo79Bytes) {
  rapt::SigprocHeader h = example_header();
  h.rawdatafile = std::string(200, 'r');
  h.source_name = std::string(80, 's');
  const std::vector<uint8_t> bytes = rapt::encode_sigproc_header(h);
  const rapt::SigprocHeader back = rapt::parse_sigproc_header(bytes.data(), bytes.size(), "x");
  EXPECT_EQ(back.rawdatafile, std::string(79, 'r'));
  EXPECT_EQ(back.source_name, std::string(79, 's'));
}

TEST(SigprocHeaderEncoder, OmitsEmptyStringsAndAbsentIds) {
  rapt::SigprocHeader h = example_header();
  h.rawdatafile.clear();
  h.source_name.clear();
  h.telescope_id = -1;
  h.machine_id = -1;
  const std::vector<uint8_t> bytes = rapt::encode_sigproc_header(h);
  for (const char* absent : {"rawdatafile", "source_name", "telescope_id", "machine_id"})
    EXPECT_FALSE(contains(bytes, absent)) << absent;
  const rapt::SigprocHeader back = rapt::parse_sigproc_header(bytes.data(), bytes.size(), "x");
  EXPECT_EQ(back.telescope_id, -1);
}
