// SigprocReader on hand-made files: sample decoding, IFs, bad input, trailing bytes, block sizes,
// seeking, pipes and stdin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

namespace {

// `joined` (a file holding `bytes`) and the same bytes through a pipe, read in blocks of `block`
// spectra, both stop with `want` after their path.
void expect_joined_refused(const std::string& joined, const std::string& bytes, size_t block,
                           const std::string& want) {
  EXPECT_EQ(error_text([&] {
              rapt::SigprocReader reader(joined);
              read_all(reader, block);
            }),
            joined + ": " + want);
  PipeFeeder pipe(bytes);
  EXPECT_EQ(error_text([&] {
              rapt::SigprocReader reader(pipe.path());
              read_all(reader, block);
            }),
            pipe.path() + ": " + want);
}

}  // namespace

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
    expect_joined_refused(joined, one + one, block, want);
  }
  // Skipped over on a file, the spectra still count: the header is named at the same byte.
  rapt::SigprocReader reader(joined);
  EXPECT_EQ(reader.skip(4), 4u);
  EXPECT_EQ(error_text([&] { read_all(reader, 100); }), joined + ": " + want);
}

TEST(SigprocReader, RefusesASecondHeaderCutBetweenReads) {
  // Spectra shorter than the header's first 16 bytes: the key is spread over several reads, or
  // cut between two, whatever the blocks.
  ScratchDir dir;
  for (const int nchans : {2, 4, 12}) {
    const rapt::SigprocHeader h = header_for(8, nchans);
    std::vector<uint8_t> data(size_t(10 * nchans));
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
    const std::string one = file_bytes(h, data);
    const std::string joined = dir.file("joined.fil");
    write_whole_file(joined, one + one);
    const std::string want = "another SIGPROC header starts at byte " +
                             std::to_string(10 * nchans) +
                             " of the data (files joined end to end?): read them one by one";
    for (const size_t block : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(1000)}) {
      SCOPED_TRACE(std::to_string(nchans) + " channels, blocks of " + std::to_string(block));
      expect_joined_refused(joined, one + one, block, want);
    }
  }
  // A skip of nothing between two reads keeps what the first read saw of the key.
  {
    const rapt::SigprocHeader h2 = header_for(8, 2);
    const std::string one = file_bytes(h2, std::vector<uint8_t>(20, 5));
    const std::string joined = dir.file("joined2.fil");
    write_whole_file(joined, one + one);
    rapt::SigprocReader reader(joined);
    std::vector<float> out(2 * 11);
    ASSERT_EQ(reader.read(out.data(), 11), 11u);  // the key's first 2 bytes
    EXPECT_EQ(reader.skip(0), 0u);
    EXPECT_EQ(error_text([&] { read_all(reader, 3); }),
              joined + ": another SIGPROC header starts at byte 20 of the data (files joined "
                       "end to end?): read them one by one");
  }
  // The key's bytes in the samples, but not at a spectrum's start: samples, not a header.
  const rapt::SigprocHeader h = header_for(8, 4);
  const std::vector<uint8_t> key = {12, 0, 0, 0, 'H', 'E', 'A', 'D',
                                    'E', 'R', '_', 'S', 'T', 'A', 'R', 'T'};
  std::vector<uint8_t> data(40, 1);
  std::copy(key.begin(), key.end(), data.begin() + 6);
  const std::string path = make_file(dir, h, data);
  for (const size_t block : {size_t(1), size_t(3), size_t(100)}) {
    rapt::SigprocReader reader(path);
    EXPECT_EQ(read_all(reader, block).size(), 40u);
  }
}

namespace {

// The replacement NonFiniteSamples makes, computed here in double precision: a value that is
// not finite takes its channel's mean over the finite values of the previous 4096 spectra (in
// the first 4096, of those), or the level before where there were none (0 at first).
std::vector<float> levels_for(const std::vector<float>& stored, size_t nchans) {
  const size_t nspectra = stored.size() / nchans;
  std::vector<float> out = stored;
  for (size_t c = 0; c < nchans; ++c) {
    double level = 0.0;
    for (size_t first = 0; first < nspectra; first += 4096) {
      const size_t from = first == 0 ? 0 : first - 4096, to = first == 0 ? 4096 : first;
      double sum = 0.0, n = 0.0;
      for (size_t s = from; s < std::min(to, nspectra); ++s)
        if (std::isfinite(stored[s * nchans + c])) sum += stored[s * nchans + c], n += 1.0;
      if (n > 0) level = sum / n;
      for (size_t s = first; s < std::min(first + 4096, nspectra); ++s)
        if (!std::isfinite(stored[s * nchans + c])) out[s * nchans + c] = float(level);
    }
  }
  return out;
}

void expect_close(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  // float sums against double ones, over thousands of steps
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-5 * std::max(1.0f, std::fabs(want[i]))) << "value " << i;
}

}  // namespace

TEST(SigprocReader, ReplacesFloatsThatAreNotFiniteByTheirChannelsMean) {
  // A NaN or infinity would spread to every dedispersed series through it: each takes its
  // channel's mean (here, of the first spectra: all there are), the same whatever the block
  // size, from a file or a pipe, counted in one warning.
  ScratchDir dir;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // 6 spectra of 4 channels: a constant channel with NaNs (they read as the constant), one
  // with infinities, one that changes, and one that is NaN throughout (0).
  const std::vector<float> stored = {nan, 7, 2,  nan, 5, inf, 12, nan, 5, 7,  nan, nan,
                                     5,  -inf, 32, nan, nan, 7, nan, nan, 5, 7,  52, nan};
  std::vector<uint8_t> bytes(stored.size() * sizeof(float));
  std::memcpy(bytes.data(), stored.data(), bytes.size());
  const std::string path = make_file(dir, header_for(32, 4), bytes);
  const std::vector<float> want = levels_for(stored, 4);
  EXPECT_EQ(want[0], 5.0f);
  EXPECT_EQ(want[5], 7.0f);
  EXPECT_EQ(want[3], 0.0f);
  const std::string warning = ": 12 samples are NaN or infinite (the first at spectrum 0, channel "
                              "0 (in file order)); each was replaced by its channel's mean";
  std::vector<float> first;
  for (const size_t block : {size_t(1), size_t(2), size_t(100)}) {
    SCOPED_TRACE("blocks of " + std::to_string(block) + " spectra");
    rapt::SigprocReader reader(path);
    const std::vector<float> got = read_all(reader, block);
    expect_close(got, want);
    if (first.empty()) first = got;
    EXPECT_EQ(got, first) << "the block size changed the values";
    EXPECT_EQ(reader.warnings(), std::vector<std::string>{path + warning});
    PipeFeeder pipe(read_whole_file(path));
    rapt::SigprocReader piped(pipe.path());
    EXPECT_EQ(read_all(piped, block), first);
    EXPECT_EQ(piped.warnings(), std::vector<std::string>{pipe.path() + warning});
  }
  // After a skip, the levels start from the spectra read (and the position counts the skip).
  rapt::SigprocReader reader(path);
  EXPECT_EQ(reader.skip(2), 2u);
  const std::vector<float> rest(stored.begin() + 8, stored.end());
  expect_close(read_all(reader, 1), levels_for(rest, 4));
  EXPECT_EQ(reader.warnings(),
            std::vector<std::string>{path + ": 8 samples are NaN or infinite (the first at "
                                            "spectrum 2, channel 2 (in file order)); each was "
                                            "replaced by its channel's mean"});
  // Read as they are where asked (inspect counts them).
  rapt::SigprocReader kept(path);
  kept.keep_non_finite_samples();
  const std::vector<float> as_stored = read_all(kept, 100);
  ASSERT_EQ(as_stored.size(), stored.size());
  EXPECT_TRUE(std::isnan(as_stored[0]) && std::isinf(as_stored[13]));
  EXPECT_TRUE(kept.warnings().empty());
}

TEST(SigprocReader, FillsAGapAndALeadingRunAtTheChannelsLevel) {
  // A run of NaN spectra (dropped packets) reads as the channel's level, not as one sample
  // held, a run at the start as the level of the spectra after it, and a run after the level
  // changed as the previous 4096 spectra's (spectra 4096-8191: 182.93); whatever the blocks. One such
  // sample is told in the singular; a .tim names samples.
  ScratchDir dir;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> stored(10000 * 2);
  for (size_t s = 0; s < 10000; ++s) {
    stored[2 * s] = float((s < 5000 ? 100 : 200) + (s * 37) % 11);  // mean 105, then 205
    stored[2 * s + 1] = float(20 + (s * 13) % 5);                   // mean 22
  }
  for (size_t s = 0; s < 300; ++s) stored[2 * s] = stored[2 * s + 1] = nan;
  for (size_t s = 1500; s < 1700; ++s) stored[2 * s] = stored[2 * s + 1] = nan;
  for (size_t s = 9000; s < 9100; ++s) stored[2 * s] = nan;
  std::vector<uint8_t> bytes(stored.size() * sizeof(float));
  std::memcpy(bytes.data(), stored.data(), bytes.size());
  const std::string path = make_file(dir, header_for(32, 2), bytes);
  rapt::SigprocReader reader(path);
  const std::vector<float> got = read_all(reader, 1000);
  expect_close(got, levels_for(stored, 2));
  EXPECT_NEAR(got[0], 105.0f, 0.1);
  EXPECT_NEAR(got[2 * 1600], 105.0f, 0.1);
  EXPECT_NEAR(got[2 * 1600 + 1], 22.0f, 0.1);
  EXPECT_NEAR(got[2 * 9050], 182.93f, 0.01);
  rapt::SigprocReader odd_blocks(path);
  EXPECT_EQ(read_all(odd_blocks, 777), got);

  rapt::SigprocHeader tim = header_for(32, 1);
  const std::vector<float> one = {1, nan, 3};
  std::memcpy(bytes.data(), one.data(), 12);
  const std::string tim_path = make_file(dir, tim, {bytes.begin(), bytes.begin() + 12});
  rapt::SigprocReader tim_reader(tim_path);
  EXPECT_EQ(read_all(tim_reader, 10).size(), 3u);
  EXPECT_EQ(tim_reader.warnings(),
            std::vector<std::string>{tim_path + ": 1 sample is NaN or infinite (the first at "
                                                "sample 1); each was replaced by the series' "
                                                "mean"});
  rapt::SigprocReader finite(make_file(dir, header_for(32, 2), std::vector<uint8_t>(16)));
  EXPECT_EQ(read_all(finite, 10), std::vector<float>(4, 0.0f));
  EXPECT_TRUE(finite.warnings().empty());
}

TEST(SigprocReader, ReplacesEachIfsFloatsBeforeSummingThem) {
  // Two IFs (polarisations) summed: a NaN in one IF takes that IF's level, and the other IF's
  // sample is kept, instead of the summed channel's level standing for both. From a file and
  // a pipe, in blocks of any size.
  ScratchDir dir;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const size_t nchans = 3, nifs = 2, nspectra = 5000;  // past the first interval
  std::vector<float> stored(nspectra * nifs * nchans);
  for (size_t s = 0; s < nspectra; ++s)
    for (size_t i = 0; i < nifs; ++i)
      for (size_t c = 0; c < nchans; ++c)
        stored[(s * nifs + i) * nchans + c] =
            float(i == 0 ? 10 + c + 3 * (s % 5) : 1000 + 100 * c + (s % 7));
  stored[(10 * nifs + 1) * nchans + 2] = nan;  // IF 1, channel 2: the first
  stored[(11 * nifs + 0) * nchans + 0] = inf;  // IF 0, channel 0
  for (size_t s = 4500; s < 4600; ++s) stored[(s * nifs + 1) * nchans + 1] = nan;  // a gap
  std::vector<uint8_t> bytes(stored.size() * sizeof(float));
  std::memcpy(bytes.data(), stored.data(), bytes.size());
  const std::string path = make_file(dir, header_for(32, int(nchans), int(nifs)), bytes);

  // The model: each IF's channels as channels of their own, then the IFs summed.
  const std::vector<float> per_if = levels_for(stored, nifs * nchans);
  std::vector<float> want(nspectra * nchans);
  for (size_t s = 0; s < nspectra; ++s)
    for (size_t c = 0; c < nchans; ++c)
      want[s * nchans + c] = per_if[(s * nifs) * nchans + c] + per_if[(s * nifs + 1) * nchans + c];
  // IF 0's own sample (12) and IF 1's mean (1203); the summed channel's mean would be 1221.
  EXPECT_NEAR(want[10 * nchans + 2], 12.0f + 1203.0f, 0.01f);
  EXPECT_NEAR(want[11 * nchans + 0], 16.0f + 1004.0f, 0.01f);
  const std::string warning = ": 102 samples are NaN or infinite (the first at spectrum 10, "
                              "channel 2 of IF 1 (in file order)); each was replaced by its "
                              "channel's mean in its IF";
  for (const size_t block : {size_t(1), size_t(333), size_t(10000)}) {
    SCOPED_TRACE("blocks of " + std::to_string(block) + " spectra");
    rapt::SigprocReader reader(path);
    expect_close(read_all(reader, block), want);
    EXPECT_EQ(reader.warnings(), std::vector<std::string>{path + warning});
    PipeFeeder pipe(read_whole_file(path));
    rapt::SigprocReader piped(pipe.path());
    expect_close(read_all(piped, block), want);
    EXPECT_EQ(piped.warnings(), std::vector<std::string>{pipe.path() + warning});
  }
}
