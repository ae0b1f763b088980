// SIGPROC header parsing, encoding, coordinates and id tables, on hand-made header bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

namespace {

// Builds header bytes token by token, exactly as formats.md 1.1 lays them out.
class HeaderBytes {
 public:
  HeaderBytes& token(const std::string& text) {
    put(uint64_t(text.size()), 4);
    bytes.insert(bytes.end(), text.begin(), text.end());
    return *this;
  }
  HeaderBytes& i32(const std::string& key, int32_t v) { return token(key).raw32(v); }
  HeaderBytes& i64(const std::string& key, int64_t v) {
    token(key);
    put(uint64_t(v), 8);
    return *this;
  }
  HeaderBytes& f64(const std::string& key, double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    token(key);
    put(bits, 8);
    return *this;
  }
  HeaderBytes& i8(const std::string& key, int8_t v) {
    token(key);
    bytes.push_back(uint8_t(v));
    return *this;
  }
  HeaderBytes& str(const std::string& key, const std::string& v) { return token(key).token(v); }
  HeaderBytes& raw32(int32_t v) {
    put(uint64_t(uint32_t(v)), 4);
    return *this;
  }
  // The keywords every valid header needs, then HEADER_END.
  HeaderBytes& minimal_body() {
    return i32("nchans", 16).i32("nbits", 8).f64("tsamp", 64e-6).f64("fch1", 1400.0)
        .f64("foff", -1.0).token("HEADER_END");
  }
  rapt::SigprocHeader parse(std::vector<std::string>* warnings = nullptr) const {
    return rapt::parse_sigproc_header(bytes.data(), bytes.size(), "obs.fil", warnings);
  }
  std::string error() const {
    try {
      parse();
    } catch (const rapt::DataError& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::vector<uint8_t> bytes;

 private:
  void put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes.push_back(uint8_t(v >> (8 * i)));
  }
};

HeaderBytes started() { return HeaderBytes().token("HEADER_START"); }

}  // namespace

TEST(SigprocHeaderParser, ReadsEveryKeywordType) {
  HeaderBytes b = started();
  b.str("rawdatafile", "raw.dat").str("source_name", "J0534+2200").i32("telescope_id", 4)
      .i32("machine_id", 10).i32("data_type", 2).i32("barycentric", 1).i32("pulsarcentric", 1)
      .f64("az_start", 123.5).f64("za_start", 12.25).f64("src_raj", 53431.9)
      .f64("src_dej", -220052.5).f64("tstart", 58543.330387).f64("tsamp", 512e-6)
      .i32("nbits", 8).i32("nsamples", 99).f64("fch1", 4030.0).f64("foff", -4.0)
      .i32("nchans", 832).i32("nifs", 2).f64("refdm", 56.7).i32("nbeams", 13).i32("ibeam", 5)
      .i8("signed", -1).f64("period", 0.0333).i32("nbins", 128).i64("npuls", 5000000000LL)
      .token("HEADER_END");
  const size_t header_size = b.bytes.size();
  b.bytes.insert(b.bytes.end(), {1, 2, 3});  // samples after the header are not header
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h = b.parse(&warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(h.rawdatafile, "raw.dat");
  EXPECT_EQ(h.source_name, "J0534+2200");
  EXPECT_EQ(h.telescope_id, 4);
  EXPECT_EQ(h.machine_id, 10);
  EXPECT_EQ(h.data_type, 2);
  EXPECT_TRUE(h.barycentric);
  EXPECT_TRUE(h.pulsarcentric);
  EXPECT_EQ(h.az_start, 123.5);
  EXPECT_EQ(h.za_start, 12.25);
  EXPECT_EQ(h.src_raj, 53431.9);
  EXPECT_EQ(h.src_dej, -220052.5);
  EXPECT_EQ(h.tstart, 58543.330387);
  EXPECT_EQ(h.tsamp, 512e-6);
  EXPECT_EQ(h.nbits, 8);
  EXPECT_EQ(h.fch1, 4030.0);
  EXPECT_EQ(h.foff, -4.0);
  EXPECT_EQ(h.nchans, 832);
  EXPECT_EQ(h.nifs, 2);
  EXPECT_EQ(h.refdm, 56.7);
  EXPECT_EQ(h.nbeams, 13);
  EXPECT_EQ(h.ibeam, 5);
  EXPECT_EQ(h.signed_byte, int8_t(-1));
  EXPECT_TRUE(h.samples_signed());
  EXPECT_EQ(h.period, 0.0333);
  EXPECT_EQ(h.nbins, 128);
  EXPECT_EQ(h.npuls, 5000000000LL);
  EXPECT_EQ(h.header_bytes, header_size);
  EXPECT_EQ(h.bytes_per_spectrum(), 2u * 832u);
}

TEST(SigprocHeaderParser, LeavesAbsentKeywordsAtTheirDefaults) {
  const rapt::SigprocHeader h = started().minimal_body().parse();
  EXPECT_EQ(h.telescope_id, -1);
  EXPECT_EQ(h.machine_id, -1);
  EXPECT_EQ(h.nifs, 1);
  EXPECT_FALSE(h.refdm);
  EXPECT_FALSE(h.signed_byte);
  EXPECT_FALSE(h.samples_signed());
  EXPECT_FALSE(h.period);
  EXPECT_TRUE(h.channel_freqs.empty());
}

TEST(SigprocHeaderParser, TreatsOnlyMinusOneAsSignedBytes) {
  const rapt::SigprocHeader h = started().i8("signed", 1).minimal_body().parse();
  EXPECT_EQ(h.signed_byte, int8_t(1));
  EXPECT_FALSE(h.samples_signed());
}

TEST(SigprocHeaderParser, TakesChannelFrequenciesFromAFrequencyTable) {
  HeaderBytes b = started();
  b.i32("nchans", 4).i32("nbits", 8).f64("tsamp", 1e-3).f64("fch1", 0.0).f64("foff", 0.0)
      .token("FREQUENCY_START").f64("fchannel", 1500.0).f64("fchannel", 1499.5)
      .f64("fchannel", 1499.0).f64("fchannel", 1498.5).token("FREQUENCY_END")
      .token("HEADER_END");
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h = b.parse(&warnings);
  EXPECT_EQ(h.channel_freqs, (std::vector<double>{1500.0, 1499.5, 1499.0, 1498.5}));
  EXPECT_EQ(h.fch1, 1500.0);
  EXPECT_EQ(h.foff, -0.5);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "obs.fil: channel frequencies taken from the frequency table: fch1=1500 MHz, "
            "foff=-0.5 MHz");
}

TEST(SigprocHeaderParser, WarnsAboutAnUnevenFrequencyTable) {
  HeaderBytes b = started();
  b.i32("nchans", 3).i32("nbits", 8).f64("tsamp", 1e-3).token("FREQUENCY_START")
      .f64("fchannel", 1500.0).f64("fchannel", 1490.0).f64("fchannel", 1400.0)
      .token("FREQUENCY_END").token("HEADER_END");
  std::vector<std::string> warnings;
  b.parse(&warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[1],
            "obs.fil: frequency table is not evenly spaced; channels are treated as evenly "
            "spaced");
}

TEST(SigprocHeaderParser, RejectsThreeBitSamples) {
  HeaderBytes b = started();
  b.i32("nbits", 3).i32("nchans", 8).f64("tsamp", 1e-3).token("HEADER_END");
  EXPECT_EQ(b.error(), "obs.fil: header says nbits=3; supported: 1, 2, 4, 8, 16, 32");
}

TEST(SigprocHeaderParser, RejectsZeroChannels) {
  HeaderBytes b = started();
  b.i32("nbits", 8).i32("nchans", 0).f64("tsamp", 1e-3).token("HEADER_END");
  EXPECT_EQ(b.error(), "obs.fil: header says nchans=0; must be at least 1");
}

TEST(SigprocHeaderParser, RejectsZeroIfs) {
  HeaderBytes b = started();
  b.i32("nbits", 8).i32("nchans", 4).i32("nifs", 0).f64("tsamp", 1e-3).token("HEADER_END");
  EXPECT_EQ(b.error(), "obs.fil: header says nifs=0; must be at least 1");
}

TEST(SigprocHeaderParser, RejectsNonPositiveSampleTimes) {
  for (const double tsamp : {0.0, -0.5}) {
    HeaderBytes b = started();
    b.i32("nbits", 8).i32("nchans", 4).f64("tsamp", tsamp).token("HEADER_END");
    const std::string shown = tsamp == 0.0 ? "0" : "-0.5";
    EXPECT_EQ(b.error(), "obs.fil: header field tsamp = " + shown + " s; must be positive");
  }
}

TEST(SigprocHeaderParser, RejectsAMissingSampleTime) {
  HeaderBytes b = started();
  b.i32("nbits", 8).i32("nchans", 4).token("HEADER_END");
  EXPECT_EQ(b.error(), "obs.fil: header has no tsamp");
}

TEST(SigprocHeaderParser, RejectsChannelCountsThatSplitBytes) {
  HeaderBytes b = started();
  b.i32("nbits", 2).i32("nchans", 6).f64("tsamp", 1e-3).token("HEADER_END");
  EXPECT_EQ(b.error(),
            "obs.fil: header says nchans=6 with nbits=2; nchans*nbits must be a multiple of 8");
}

// nifs * nchans * nbits of these values is past 2^63: the size check must not overflow.
TEST(SigprocHeaderParser, RejectsSpectraOverAGibibyteWithoutOverflow) {
  HeaderBytes b = started();
  b.i32("nbits", 32).i32("nchans", 1000000000).i32("nifs", 970000000).f64("tsamp", 1e-3)
      .token("HEADER_END");
  EXPECT_EQ(b.error(),
            "obs.fil: header says nchans=1000000000, nifs=970000000, nbits=32; spectra over 1 "
            "GiB are not supported");
}

TEST(SigprocHeaderParser, AcceptsASpectrumOfExactlyOneGibibyte) {
  HeaderBytes b = started();
  b.i32("nbits", 8).i32("nchans", 1 << 30).i32("nifs", 1).f64("tsamp", 1e-3).f64("fch1", 1400.0)
      .f64("foff", -1e-9).token("HEADER_END");
  EXPECT_EQ(b.error(), "(no error)");
}

TEST(SigprocHeaderParser, ReportsEveryTruncationAsAMissingHeaderEnd) {
  const HeaderBytes whole = started().str("source_name", "B0329+54").i8("signed", -1)
                                .i64("npuls", 7).minimal_body();
  for (size_t n = 1; n < whole.bytes.size(); ++n) {
    HeaderBytes cut;
    cut.bytes.assign(whole.bytes.begin(), whole.bytes.begin() + long(n));
    ASSERT_EQ(cut.error(), "obs.fil: header is truncated (no HEADER_END)") << n << " bytes";
  }
  EXPECT_EQ(whole.error(), "(no error)");
}

TEST(SigprocHeaderParser, RejectsDataWithoutHeaderStart) {
  HeaderBytes garbage;
  garbage.bytes.assign(100, 'x');
  EXPECT_EQ(garbage.error(), "obs.fil: not a SIGPROC file (no HEADER_START)");
  HeaderBytes empty;
  EXPECT_EQ(empty.error(), "obs.fil: not a SIGPROC file (no HEADER_START)");
  HeaderBytes other_first_token = HeaderBytes().token("HEADER_BEGIN").minimal_body();
  EXPECT_EQ(other_first_token.error(), "obs.fil: not a SIGPROC file (no HEADER_START)");
}

TEST(SigprocHeaderParser, RejectsAKeywordTokenOfImpossibleLength) {
  HeaderBytes b = started();
  const size_t at = b.bytes.size();
  b.raw32(500).token("nbits");
  EXPECT_EQ(b.error(), "obs.fil: corrupt header at byte " + std::to_string(at) +
                           ": keyword length 500 (expected 1 to 80)");
}

TEST(SigprocHeaderParser, RejectsAKeywordThatIsNotText) {
  HeaderBytes b = started();
  b.token(std::string("nb\x01ts", 5)).raw32(8).minimal_body();
  EXPECT_EQ(b.error(), "obs.fil: corrupt header at byte 16: keyword is not text");
}

TEST(SigprocHeaderParser, RejectsAnAbsurdStringLength) {
  HeaderBytes b = started();
  b.token("source_name").raw32(1 << 20).minimal_body();
  EXPECT_EQ(b.error(), "obs.fil: corrupt header at byte 16: 'source_name' has length 1048576");
}

TEST(SigprocHeaderParser, SkipsAnUnknownKeywordWithoutValue) {
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h =
      started().token("EXTRA_FLAG").i32("nbits", 4).minimal_body().parse(&warnings);
  EXPECT_EQ(h.nbits, 8);  // minimal_body's nbits comes last and wins
  EXPECT_EQ(warnings, std::vector<std::string>{"obs.fil: ignored unknown keyword 'EXTRA_FLAG' "
                                               "(no value)"});
}

TEST(SigprocHeaderParser, SkipsAnUnknownKeywordWithAnIntValue) {
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h = started().i32("foo", 12).minimal_body().parse(&warnings);
  EXPECT_EQ(h.nchans, 16);
  EXPECT_EQ(warnings,
            std::vector<std::string>{"obs.fil: skipped unknown keyword 'foo' (4-byte value)"});
}

TEST(SigprocHeaderParser, SkipsAnUnknownKeywordWithADoubleValue) {
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h =
      started().f64("bar", 1234.5678).minimal_body().parse(&warnings);
  EXPECT_EQ(h.fch1, 1400.0);
  EXPECT_EQ(warnings,
            std::vector<std::string>{"obs.fil: skipped unknown keyword 'bar' (8-byte value)"});
}

TEST(SigprocHeaderParser, SkipsAnUnknownKeywordWithAByteValue) {
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h = started().i8("baz", 3).minimal_body().parse(&warnings);
  EXPECT_EQ(h.nchans, 16);
  EXPECT_EQ(warnings,
            std::vector<std::string>{"obs.fil: skipped unknown keyword 'baz' (1-byte value)"});
}

TEST(SigprocHeaderParser, StaysInStepAfterAnUnknownStringKeyword) {
  std::vector<std::string> warnings;
  const rapt::SigprocHeader h =
      started().str("observer", "somebody").minimal_body().parse(&warnings);
  EXPECT_EQ(h.nchans, 16);
  EXPECT_EQ(h.tsamp, 64e-6);
  EXPECT_EQ(warnings.size(), 2u);  // the keyword and its value, each taken for a flag
}

TEST(SigprocHeaderParser, RejectsAnUnknownKeywordItCannotSize) {
  HeaderBytes b = started();
  b.token("mystery").bytes.insert(b.bytes.end(), {1, 2, 3});
  b.minimal_body();
  EXPECT_EQ(b.error(),
            "obs.fil: unknown header keyword 'mystery' at byte 16; cannot tell the size of its "
            "value");
}

TEST(SigprocHeaderParser, PrefixParserAsksForMoreBytesInsteadOfFailing) {
  const HeaderBytes whole = started().f64("unknown_double", 2.5).minimal_body();
  for (size_t n = 1; n < whole.bytes.size(); ++n)
    ASSERT_FALSE(rapt::parse_sigproc_header_prefix(whole.bytes.data(), n, "x", nullptr)) << n;
  std::vector<std::string> warnings;
  const auto h =
      rapt::parse_sigproc_header_prefix(whole.bytes.data(), whole.bytes.size(), "x", &warnings);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->header_bytes, whole.bytes.size());
  EXPECT_EQ(warnings.size(), 1u);
}
