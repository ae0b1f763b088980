// SigprocReader on hand-made files: sample decoding, IFs, bad input, trailing bytes, block sizes,
// seeking, pipes and stdin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"
#include "sigproc_test_support.hpp"
#include "test_data.hpp"

using rapt::testing::error_text;
using rapt::testing::file_bytes;
using rapt::testing::header_for;
using rapt::testing::make_file;
using rapt::testing::PipeFeeder;
using rapt::testing::read_all;
using rapt::testing::read_file;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::StdinReplacement;
using rapt::testing::write_whole_file;

TEST(SigprocReader, DecodesPackedSamplesLowestChannelFirst) {
  ScratchDir dir;
  EXPECT_EQ(read_file(make_file(dir, header_for(1, 8), {0x85})),
            (std::vector<float>{1, 0, 1, 0, 0, 0, 0, 1}));
  EXPECT_EQ(read_file(make_file(dir, header_for(2, 4), {0xE4})),
            (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(read_file(make_file(dir, header_for(4, 2), {0x21})), (std::vector<float>{1, 2}));
}

TEST(SigprocReader, DecodesEightBitSamplesByTheirSignedness) {
  ScratchDir dir;
  rapt::SigprocHeader h = header_for(8, 2);
  EXPECT_EQ(read_file(make_file(dir, h, {200, 7})), (std::vector<float>{200, 7}));
  h.signed_byte = -1;
  EXPECT_EQ(read_file(make_file(dir, h, {200, 7})), (std::vector<float>{-56, 7}));
  // SIGPROC's `signed=+1` marks unsigned data; hand-made since our writer omits it.
  std::string bytes = file_bytes(header_for(8, 2), {200, 7});
  const std::string end("\x0a\0\0\0HEADER_END", 14);
  bytes.insert(bytes.find(end), std::string("\x06\0\0\0signed\x01", 11));
  write_whole_file(dir.file("plus.fil"), bytes);
  EXPECT_EQ(read_file(dir.file("plus.fil")), (std::vector<float>{200, 7}));
}

TEST(SigprocReader, DecodesSixteenAndThirtyTwoBitSamples) {
  ScratchDir dir;
  EXPECT_EQ(read_file(make_file(dir, header_for(16, 2), {0x02, 0x01, 0xff, 0xff})),
            (std::vector<float>{258, 65535}));
  std::vector<uint8_t> floats(8);
  const float values[2] = {-1.5f, 1e20f};
  std::memcpy(floats.data(), values, 8);
  EXPECT_EQ(read_file(make_file(dir, header_for(32, 2), floats)),
            (std::vector<float>{-1.5f, 1e20f}));
}

TEST(SigprocReader, SumsIfsAndKeepsThemInRawReads) {
  ScratchDir dir;
  const std::vector<uint8_t> data{1, 2, 3, 4, 10, 20, 30, 40, 5, 5, 5, 5, 1, 1, 1, 1};
  const std::string path = make_file(dir, header_for(8, 4, 2), data);
  EXPECT_EQ(read_file(path), (std::vector<float>{11, 22, 33, 44, 6, 6, 6, 6}));
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.info().npol_summed, 2);
  EXPECT_EQ(reader.info().nspectra, 2);
  std::vector<uint8_t> raw(16);
  ASSERT_EQ(reader.read_raw(raw.data(), 5), 2u);
  EXPECT_EQ(raw, data);
  // Packed samples: each IF starts on a byte boundary.
  EXPECT_EQ(read_file(make_file(dir, header_for(2, 4, 2), {0xE4, 0x55})),
            (std::vector<float>{1, 2, 3, 4}));
}

TEST(SigprocReader, ReportsAscendingChannelsAsStored) {
  ScratchDir dir;
  rapt::SigprocHeader h = header_for(8, 3);
  h.fch1 = 1100.0;
  h.foff = 2.0;
  rapt::SigprocReader reader(make_file(dir, h, {1, 2, 3}));
  EXPECT_EQ(reader.info().fch1_mhz, 1100.0);
  EXPECT_EQ(reader.info().foff_mhz, 2.0);
  EXPECT_EQ(reader.info().lowest_freq_mhz(), 1100.0);
  EXPECT_EQ(reader.info().highest_freq_mhz(), 1104.0);
  EXPECT_EQ(read_all(reader, 1), (std::vector<float>{1, 2, 3}));
}

TEST(SigprocReader, IgnoresATrailingPartialSpectrumWithAWarning) {
  ScratchDir dir;
  std::vector<uint8_t> data(3 * 8 + 5, 9);
  const std::string path = make_file(dir, header_for(8, 8), data);
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.info().nspectra, 3);
  EXPECT_EQ(reader.warnings(), std::vector<std::string>{path + ": ignored 5 bytes at the end "
                                                              "(less than one spectrum of 8 bytes)"});
  EXPECT_EQ(read_all(reader, 2), std::vector<float>(24, 9.0f));
}

TEST(SigprocReader, RejectsAFileShorterThanOneSpectrum) {
  ScratchDir dir;
  for (const size_t data_bytes : {size_t(0), size_t(7)}) {
    const std::string path = make_file(dir, header_for(8, 8), std::vector<uint8_t>(data_bytes));
    EXPECT_EQ(error_text([&] { rapt::SigprocReader reader(path); }),
              path + ": no complete spectrum after the header");
  }
}

TEST(SigprocReader, RejectsATruncatedHeader) {
  ScratchDir dir;
  const std::string path = dir.file("obs.fil");
  write_whole_file(path, file_bytes(header_for(8, 8), {}).substr(0, 100));
  EXPECT_EQ(error_text([&] { rapt::SigprocReader reader(path); }),
            path + ": header is truncated (no HEADER_END)");
}

TEST(SigprocReader, RejectsAFileThatIsNotSigproc) {
  ScratchDir dir;
  const std::string path = dir.file("garbage.fil");
  write_whole_file(path, std::string(5000, '\x17'));
  EXPECT_EQ(error_text([&] { rapt::SigprocReader reader(path); }),
            path + ": not a SIGPROC file (no HEADER_START)");
}

TEST(SigprocReader, RejectsUnsupportedSampleSizesNamingTheFile) {
  ScratchDir dir;
  std::string bytes = file_bytes(header_for(8, 8), std::vector<uint8_t>(64));
  const std::string nbits("\x05\0\0\0nbits\x08\0\0\0", 13);
  bytes.replace(bytes.find(nbits), nbits.size(), std::string("\x05\0\0\0nbits\x03\0\0\0", 13));
  const std::string path = dir.file("three.fil");
  write_whole_file(path, bytes);
  EXPECT_EQ(error_text([&] { rapt::SigprocReader reader(path); }),
            path + ": header says nbits=3; supported: 1, 2, 4, 8, 16, 32");
}

TEST(SigprocReader, NamesAMissingFile) {
  EXPECT_EQ(error_text([] { rapt::SigprocReader reader("/nonexistent/obs.fil"); }),
            "/nonexistent/obs.fil: cannot open: No such file or directory");
}

TEST(SigprocReader, GivesTheSameDataWhateverTheBlockSize) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_2bit.fil");
  const std::vector<float> whole = read_file(path, 4096);
  ASSERT_EQ(whole.size(), 4096u * 832u);
  for (const size_t block : {size_t(1), size_t(7), size_t(1000)})
    EXPECT_EQ(read_file(path, block), whole) << "block " << block;
  // Raw reads in odd blocks give back the file's bytes after the header.
  rapt::SigprocReader reader(path);
  std::string raw;
  std::vector<uint8_t> buffer(7 * reader.header().bytes_per_spectrum());
  while (const size_t got = reader.read_raw(buffer.data(), 7))
    raw.append(buffer.begin(), buffer.begin() + long(got * reader.header().bytes_per_spectrum()));
  EXPECT_EQ(raw, read_whole_file(path).substr(351));
}

TEST(SigprocReader, SkipsBySeekingAndStopsAtTheEnd) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_8bit_1.fil");
  const std::vector<float> whole = read_file(path);
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.skip(1000), 1000u);
  std::vector<float> ten(10 * 832);
  ASSERT_EQ(reader.read(ten.data(), 10), 10u);
  EXPECT_TRUE(std::equal(ten.begin(), ten.end(), whole.begin() + 1000 * 832));
  EXPECT_EQ(reader.skip(100000), 4096u - 1010u);
  EXPECT_EQ(reader.read(ten.data(), 10), 0u);
}

TEST(SigprocReaderPipes, ReadsAPipeLikeTheFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_4bit.fil");
  const std::vector<float> from_file = read_file(path);
  PipeFeeder pipe(read_whole_file(path));
  rapt::SigprocReader reader(pipe.path());
  EXPECT_EQ(reader.info().nspectra, -1);
  EXPECT_EQ(reader.info().nchans, 832);
  EXPECT_EQ(read_all(reader, 333), from_file);
}

TEST(SigprocReaderPipes, SkipsInAPipeByReading) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_1bit.fil");
  const std::vector<float> from_file = read_file(path);
  PipeFeeder pipe(read_whole_file(path));
  rapt::SigprocReader reader(pipe.path());
  EXPECT_EQ(reader.skip(4000), 4000u);
  const std::vector<float> rest = read_all(reader, 50);
  EXPECT_TRUE(std::equal(rest.begin(), rest.end(), from_file.begin() + 4000 * 832));
  EXPECT_EQ(rest.size(), 96u * 832u);
}

TEST(SigprocReaderPipes, WarnsAboutAPartialSpectrumAtTheEndOfAPipe) {
  std::vector<uint8_t> data(2 * 4 + 3, 1);
  PipeFeeder pipe(file_bytes(header_for(8, 4), data));
  rapt::SigprocReader reader(pipe.path());
  EXPECT_TRUE(reader.warnings().empty());
  EXPECT_EQ(read_all(reader, 10).size(), 8u);
  EXPECT_EQ(reader.warnings(),
            std::vector<std::string>{pipe.path() + ": ignored 3 bytes at the end (less than one "
                                                   "spectrum of 4 bytes)"});
}

TEST(SigprocReaderPipes, RejectsAPipeWithoutACompleteSpectrum) {
  PipeFeeder pipe(file_bytes(header_for(8, 4), {1, 2}));
  EXPECT_EQ(error_text([&] { rapt::SigprocReader reader(pipe.path()); }),
            pipe.path() + ": no complete spectrum after the header");
}

TEST(SigprocReaderPipes, ReadsAHeaderLongerThanTheFirstRead) {
  rapt::SigprocHeader h = header_for(8, 4096);
  h.foff = -0.25;  // 4096 channels of 1 MHz would reach below 0 MHz
  const std::vector<uint8_t> header = rapt::encode_sigproc_header(h);
  // A 4096-entry frequency table (80 KiB) spliced in before HEADER_END.
  std::string table("\x0f\0\0\0FREQUENCY_START", 19);
  for (int c = 0; c < 4096; ++c) {
    const double f = 1500.0 - 0.25 * c;
    table += std::string("\x08\0\0\0fchannel", 12) +
             std::string(reinterpret_cast<const char*>(&f), 8);
  }
  table += std::string("\x0d\0\0\0FREQUENCY_END", 17);
  std::string bytes(header.begin(), header.end() - 14);
  bytes += table + std::string("\x0a\0\0\0HEADER_END", 14);
  const size_t header_bytes = bytes.size();
  std::vector<uint8_t> data(3 * 4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
  bytes += std::string(data.begin(), data.end());

  PipeFeeder pipe(bytes);
  rapt::SigprocReader reader(pipe.path());
  EXPECT_EQ(reader.header().header_bytes, header_bytes);
  EXPECT_EQ(reader.header().channel_freqs.size(), 4096u);
  const std::vector<float> samples = read_all(reader, 2);
  ASSERT_EQ(samples.size(), data.size());
  for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(samples[i], float(data[i])) << i;
}

TEST(SigprocReaderPipes, ReadsStandardInput) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_2bit.fil");
  const std::vector<float> from_file = read_file(path);
  PipeFeeder pipe(read_whole_file(path));
  StdinReplacement replaced(pipe.fd());
  rapt::SigprocReader reader("-");
  EXPECT_EQ(reader.info().path, "-");
  EXPECT_EQ(reader.info().nspectra, -1);
  EXPECT_EQ(read_all(reader, 1000), from_file);
}

TEST(SigprocReader, RefusesASecondHeaderInTheData) {
  // Two files joined end to end (cat a.fil b.fil): the second header is not read as samples,
  // from a file or a pipe; the first file's spectra before it are read.
  ScratchDir dir;
  const rapt::SigprocHeader h = header_for(8, 16);
  std::vector<uint8_t> data(10 * 16);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
  const std::string one = file_bytes(h, data);
  const std::string joined = dir.file("joined.fil");
  write_whole_file(joined, one + one);
  const std::string want = "another SIGPROC header starts at byte 160 of the data (files joined "
                           "end to end?): read them one by one";
  for (const size_t block : {size_t(1), size_t(3), size_t(1000)}) {
    SCOPED_TRACE("blocks of " + std::to_string(block) + " spectra");
    EXPECT_EQ(error_text([&] {
                rapt::SigprocReader reader(joined);
                read_all(reader, block);
              }),
              joined + ": " + want);
    PipeFeeder pipe(one + one);
    EXPECT_EQ(error_text([&] {
                rapt::SigprocReader reader(pipe.path());
                read_all(reader, block);
              }),
              pipe.path() + ": " + want);
  }
  // Skipped over on a file, the spectra still count: the header is named at the same byte.
  rapt::SigprocReader reader(joined);
  EXPECT_EQ(reader.skip(4), 4u);
  EXPECT_EQ(error_text([&] { read_all(reader, 100); }), joined + ": " + want);
}

TEST(SigprocReader, ReplacesFloatsThatAreNotFiniteByTheirChannelsLastFiniteValue) {
  // A NaN or infinity would spread to every dedispersed series through it: each is replaced by
  // the last finite value of its channel (0 before any), whatever the block size, from a file,
  // a pipe or after a skip, and counted in one warning naming the first.
  ScratchDir dir;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // 6 spectra of 3 channels.
  const std::vector<float> stored = {nan, 1, 2,    10, inf, 12, 20, 21, nan,
                                     30, -inf, 32, nan, 41, nan, 50, 51, 52};
  const std::vector<float> want = {0, 1, 2,   10, 1, 12,  20, 21, 12,
                                   30, 21, 32, 30, 41, 32, 50, 51, 52};
  std::vector<uint8_t> bytes(stored.size() * sizeof(float));
  std::memcpy(bytes.data(), stored.data(), bytes.size());
  const std::string path = make_file(dir, header_for(32, 3), bytes);
  const std::string warning = ": 6 samples are NaN or infinite (the first at spectrum 0, channel "
                              "0); each was replaced by its channel's last finite value";
  for (const size_t block : {size_t(1), size_t(2), size_t(100)}) {
    SCOPED_TRACE("blocks of " + std::to_string(block) + " spectra");
    rapt::SigprocReader reader(path);
    EXPECT_EQ(read_all(reader, block), want);
    EXPECT_EQ(reader.warnings(), std::vector<std::string>{path + warning});
    PipeFeeder pipe(read_whole_file(path));
    rapt::SigprocReader piped(pipe.path());
    EXPECT_EQ(read_all(piped, block), want);
    EXPECT_EQ(piped.warnings(), std::vector<std::string>{pipe.path() + warning});
  }
  // Spectra skipped count in the position and hold no last value.
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.skip(2), 2u);
  EXPECT_EQ(read_all(reader, 1),
            (std::vector<float>{20, 21, 0, 30, 21, 32, 30, 41, 32, 50, 51, 52}));
  EXPECT_EQ(reader.warnings(),
            std::vector<std::string>{path + ": 4 samples are NaN or infinite (the first at "
                                            "spectrum 2, channel 2); each was replaced by its "
                                            "channel's last finite value"});
  // One such sample is told in the singular; finite data give no warning.
  const std::vector<float> one = {1, nan};
  std::memcpy(bytes.data(), one.data(), 8);
  const std::string one_path = make_file(dir, header_for(32, 2), {bytes.begin(), bytes.begin() + 8});
  rapt::SigprocReader one_reader(one_path);
  EXPECT_EQ(read_all(one_reader, 10), (std::vector<float>{1, 0}));
  EXPECT_EQ(one_reader.warnings(),
            std::vector<std::string>{one_path + ": 1 sample is NaN or infinite (the first at "
                                                "spectrum 0, channel 1); each was replaced by "
                                                "its channel's last finite value"});
  rapt::SigprocReader finite(make_file(dir, header_for(32, 2), std::vector<uint8_t>(16)));
  EXPECT_EQ(read_all(finite, 10), std::vector<float>(4, 0.0f));
  EXPECT_TRUE(finite.warnings().empty());
}
