// Voltage files read through a pipe (a FIFO fed by a thread), as bf, corr, channelize and inspect
// read standard input: every format gives the samples, header and warnings it gives by name
// (its length aside: unknown in a pipe), whatever part of it was read to tell the format;
// VDIF's sample rate and threads are found from the frames read ahead.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/vdif.hpp"
#include "io/voltage_sniff.hpp"
#include "io/voltage_stream.hpp"
#include "test_data.hpp"
#include "voltage_test_support.hpp"

using rapt::testing::data_error_text;
using rapt::testing::guppi_card;
using rapt::testing::guppi_end_card;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

struct ReadBack {
  rapt::VoltageHeader header;
  std::vector<float> values;
  std::vector<std::string> warnings;
};

ReadBack read_all(rapt::VoltageReader& reader, int64_t chunk) {
  ReadBack r;
  r.header = reader.header();
  rapt::VoltageBlock block;
  int64_t next = 0;
  while (reader.read(chunk, block) > 0) {
    EXPECT_EQ(block.first_sample, next);
    next += block.nsamples;
    r.values.insert(r.values.end(), block.data.begin(), block.data.end());
  }
  // In the order met: a file's end is known when it is opened, a pipe's when reading reaches it.
  r.warnings = reader.warnings();
  std::sort(r.warnings.begin(), r.warnings.end());
  return r;
}

// Writes `bytes` into the FIFO, stopping where the reader has gone (an error seen early).
void feed(const std::string& fifo, const std::string& bytes) {
  std::signal(SIGPIPE, SIG_IGN);
  const int fd = ::open(fifo.c_str(), O_WRONLY);
  for (size_t done = 0; fd >= 0 && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += size_t(n);
  }
  if (fd >= 0) ::close(fd);
}

// `bytes` through a FIFO, of which the first `consumed` were read before the reader was made
// (as a program reads them to tell the format); the reader opened by content, named "-".
ReadBack read_through_pipe(const std::string& bytes, size_t consumed, int64_t chunk,
                           const rapt::VdifReadOptions& vdif = {}) {
  ScratchDir dir;
  const std::string fifo = dir.file("pipe");
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread feeder([&] { feed(fifo, bytes); });
  ReadBack r;
  try {
    std::FILE* file = std::fopen(fifo.c_str(), "rb");
    std::vector<uint8_t> first(consumed);
    first.resize(std::fread(first.data(), 1, first.size(), file));
    auto reader = rapt::open_voltage_stream(
        std::make_unique<rapt::ByteStream>("-", file, std::move(first)), vdif);
    r = read_all(*reader, chunk);
  } catch (...) {
    feeder.join();
    throw;
  }
  feeder.join();
  return r;
}

// The pipe gives what the file gives, for several amounts read ahead and reading chunks.
void expect_pipe_reads_as_file(const std::string& path, const rapt::VdifReadOptions& vdif = {}) {
  const std::string bytes = read_whole_file(path);
  for (const int64_t chunk : {int64_t(1), int64_t(77), int64_t(100000)}) {
    auto by_name = rapt::open_voltage_file(path, vdif);
    const ReadBack file = read_all(*by_name, chunk);  // blocks in canonical order, one by one
    ASSERT_FALSE(file.values.empty());
    for (const size_t consumed : {size_t(0), size_t(7), size_t(100), size_t(65536), bytes.size()}) {
      SCOPED_TRACE(path + ": " + std::to_string(consumed) + " bytes read ahead, chunks of " +
                   std::to_string(chunk));
      const ReadBack pipe = read_through_pipe(bytes, consumed, chunk, vdif);
      EXPECT_EQ(pipe.header.nsamples, -1);
      EXPECT_EQ(pipe.header.format, file.header.format);
      EXPECT_EQ(pipe.header.nchan, file.header.nchan);
      EXPECT_EQ(pipe.header.nant, file.header.nant);
      EXPECT_EQ(pipe.header.npol, file.header.npol);
      EXPECT_EQ(pipe.header.tsamp_s, file.header.tsamp_s);
      EXPECT_EQ(pipe.header.start_mjd_seconds, file.header.start_mjd_seconds);
      EXPECT_EQ(pipe.header.centre_freq_mhz, file.header.centre_freq_mhz);
      EXPECT_EQ(pipe.values, file.values);
      EXPECT_EQ(pipe.warnings, file.warnings);
    }
  }
}

// One VDIF frame: 32-byte header (EDV 0), `spf` real 8-bit samples of one channel.
std::string vdif_frame(uint32_t seconds, uint32_t frame_nr, int thread, int spf, int fill) {
  std::string f(32 + size_t(spf), '\0');
  auto word = [&](int index, uint32_t value) {
    for (int b = 0; b < 4; ++b) f[size_t(4 * index + b)] = char(value >> (8 * b));
  };
  word(0, seconds);
  word(1, (uint32_t(30) << 24) | frame_nr);  // epoch 30: 2015-01-01
  word(2, uint32_t(f.size() / 8));
  word(3, (uint32_t(7) << 26) | (uint32_t(thread) << 16) | 0x4142);
  for (int i = 0; i < spf; ++i) f[size_t(32 + i)] = char((fill * 31 + i * 7) & 0xff);
  return f;
}

// Two threads, `fps` frames a second of 64 samples, from frame `first` of second 100 for
// `count` time steps.
std::string vdif_stream(int fps, int first, int count) {
  std::string s;
  for (int k = 0; k < count; ++k) {
    const int n = first + k;
    for (int thread : {3, 5}) s += vdif_frame(100 + uint32_t(n / fps), uint32_t(n % fps), thread, 64, 2 * k + thread);
  }
  return s;
}

}  // namespace

TEST(VoltagePipe, ReadsTheSharedSamplesAsTheirFiles) {
  RAPT_REQUIRE_SHARED_FILE(puppi, "baseband/sample_puppi.raw");
  RAPT_REQUIRE_SHARED_FILE(vlba, "baseband/sample.vdif");
  RAPT_REQUIRE_SHARED_FILE(mwa, "baseband/sample_mwa.vdif");
  RAPT_REQUIRE_SHARED_FILE(meerkat, "baseband/sample_meerkat.dada");
  expect_pipe_reads_as_file(puppi);
  expect_pipe_reads_as_file(vlba);  // EDV 3 gives the rate
  rapt::VdifReadOptions mwa_options;
  mwa_options.sample_rate_hz = 1.28e6;
  mwa_options.twos_complement = true;
  expect_pipe_reads_as_file(mwa, mwa_options);
  expect_pipe_reads_as_file(meerkat);
}

TEST(VoltagePipe, ReadsGuppiBlocksWithOverlapAndDirectIo) {
  // Three blocks of 2 channels x 8 samples, 2 of which repeat the last block's end, each header
  // padded to a multiple of 512 bytes.
  ScratchDir dir;
  std::string bytes;
  for (int b = 0; b < 3; ++b) {
    std::string header = guppi_card("BLOCSIZE", "64") + guppi_card("OBSNCHAN", "2") +
                         guppi_card("NPOL", "4") + guppi_card("NBITS", "8") +
                         guppi_card("TBIN", "1E-6") + guppi_card("OVERLAP", "2") +
                         guppi_card("DIRECTIO", "1") + guppi_card("PKTIDX", std::to_string(b * 6)) +
                         guppi_end_card();
    header.resize((header.size() + 511) / 512 * 512, '\0');
    bytes += header;
    for (int i = 0; i < 64; ++i) bytes += char((b * 64 + i * 5) % 200 - 100);
  }
  const std::string path = dir.file("b.raw");
  write_whole_file(path, bytes);
  expect_pipe_reads_as_file(path);
  // Cut inside the last block's payload: the first two blocks, and the same note.
  write_whole_file(path, bytes.substr(0, bytes.size() - 10));
  expect_pipe_reads_as_file(path);
  // Cut inside the last block's header padding, or right after its END card: the same, noted.
  for (const size_t cut : {size_t(2 * 1088 + 800), size_t(2 * 1088 + 720)}) {
    write_whole_file(path, bytes.substr(0, cut));
    expect_pipe_reads_as_file(path);
    const ReadBack file = read_all(*rapt::open_voltage_file(path), 100);
    EXPECT_EQ(file.values.size(), size_t((8 + 6) * 2 * 2 * 2));
    EXPECT_NE(std::find(file.warnings.begin(), file.warnings.end(),
                        "block 2: header's DIRECTIO padding cut short; stopped there"),
              file.warnings.end());
  }
  // Block 0's: refused.
  write_whole_file(path, bytes.substr(0, 800));
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(path); }),
            path + ": GUPPI header's DIRECTIO padding cut short");
}

TEST(VoltagePipe, FindsTheVdifRateFromTheFirstSecondOfAPipe) {
  // 10 frames a second of 64 samples (640 Hz), two threads; starting at frame 7 of a second
  // and ending inside one, as a recorder's stream would.
  ScratchDir dir;
  const std::string path = dir.file("s.vdif");
  write_whole_file(path, vdif_stream(10, 7, 25));
  expect_pipe_reads_as_file(path);
  const ReadBack pipe = read_through_pipe(read_whole_file(path), 100, 64);
  EXPECT_DOUBLE_EQ(pipe.header.tsamp_s, 1.0 / 640);
  EXPECT_EQ(pipe.header.nchan, 2);
  EXPECT_EQ(pipe.values.size(), size_t(25 * 64 * 2));
  EXPECT_DOUBLE_EQ(pipe.header.start_mjd_seconds, 100 + 7 * 64 / 640.0);
}

TEST(VoltagePipe, TakesTheVdifRateFromTwoSecondsAndRefusesFramesPastIt) {
  // The first second lacks its last three frames (lost, or the recording started late): the
  // second whole second gives 10 frames a second, as the file's seconds before its last do.
  ScratchDir dir;
  const std::string path = dir.file("lost.vdif");
  std::string bytes = vdif_stream(10, 0, 7) + vdif_stream(10, 10, 25);
  write_whole_file(path, bytes);
  expect_pipe_reads_as_file(path);
  EXPECT_DOUBLE_EQ(read_through_pipe(bytes, 0, 64).header.tsamp_s, 1.0 / 640);
  // Both of the first two seconds short: 7 frames a second, which a later frame 7 belies.
  bytes = vdif_stream(10, 0, 7) + vdif_stream(10, 10, 7) + vdif_stream(10, 20, 10);
  EXPECT_EQ(data_error_text([&] { read_through_pipe(bytes, 0, 64); }),
            "-: VDIF frame 42 is number 7 of its second, past the 7 frames a second the stream's "
            "first seconds gave: frames were lost there; give the sample rate (--vdif-rate)");
}

// Frames lost in the middle (the frame numbers jump from 4 to 8): their time steps are read as
// zeros, the mark of lost data, in a file and a pipe alike, and counted; a time step repeated
// (or out of order) is refused.
TEST(VoltagePipe, ReadsLostVdifFramesAsZerosAndRefusesRepeatedOnes) {
  ScratchDir dir;
  const std::string path = dir.file("gap.vdif");
  write_whole_file(path, vdif_stream(10, 0, 5) + vdif_stream(10, 8, 12));
  expect_pipe_reads_as_file(path);
  auto reader = rapt::open_voltage_file(path);
  EXPECT_EQ(reader->header().nsamples, 20 * 64);  // the lost steps included
  const ReadBack file = read_all(*reader, 100000);  // one block: [channel][sample]
  ASSERT_EQ(file.values.size(), size_t(2 * 20 * 64));
  for (int c = 0; c < 2; ++c)
    for (int t = 0; t < 20 * 64; ++t) {
      const float v = file.values[size_t(c * 20 * 64 + t)];
      if (t >= 5 * 64 && t < 8 * 64)
        ASSERT_EQ(v, 0.0f) << "channel " << c << " sample " << t;
      else
        ASSERT_NE(v, 0.0f) << "channel " << c << " sample " << t;
    }
  EXPECT_NE(std::find(file.warnings.begin(), file.warnings.end(),
                      "3 time steps of frames missing (lost: the frame numbers jump) read as "
                      "zeros, 0.3 s"),
            file.warnings.end());
  rapt::VdifReadOptions rate;
  rate.sample_rate_hz = 640;
  const std::string repeated = vdif_stream(10, 0, 5) + vdif_stream(10, 4, 5);
  write_whole_file(path, repeated);
  // A file's last frame (step 8) leaves no room for its 10 steps; a pipe meets the repeat.
  EXPECT_EQ(data_error_text([&] { read_all(*rapt::open_voltage_file(path, rate), 64); }),
            path + ": VDIF frame 0 (second 100, frame 0) leaves no room for the 9 time steps "
                   "after it before the file's last: frames out of order, or a damaged header");
  EXPECT_EQ(data_error_text([&] { read_through_pipe(repeated, 0, 64, rate); }),
            "-: VDIF frame 10 (second 100, frame 4) is not later than the time step before it: "
            "frames repeated or out of order");
  // More than a minute of frames missing: a damaged header rather than lost frames.
  const std::string jump = vdif_stream(10, 0, 5) + vdif_stream(10, 700, 5);
  write_whole_file(path, jump);
  EXPECT_EQ(data_error_text([&] { rapt::open_voltage_file(path, rate); }),
            path + ": VDIF frames run from second 100 to second 170, 69.5 s more than they "
                   "hold: more than 60 s of frames lost, or a damaged header");
  EXPECT_EQ(data_error_text([&] { read_through_pipe(jump, 0, 64, rate); }),
            "-: VDIF frame 10 (second 170, frame 0) comes 69.6 s after the time step before it: "
            "more than 60 s of frames lost in all, or a damaged header");
}

TEST(VoltagePipe, SaysWhenAPipeEndsBeforeItsFirstSecondDoes) {
  const std::string bytes = vdif_stream(10, 2, 5);
  const std::string error = data_error_text([&] { read_through_pipe(bytes, 0, 64); });
  EXPECT_EQ(error, "-: VDIF sample rate unknown: the headers (EDV 0) do not give it and the "
                   "stream holds no whole second; give it (--vdif-rate)");
  rapt::VdifReadOptions rate;
  rate.sample_rate_hz = 640;
  EXPECT_EQ(read_through_pipe(bytes, 0, 64, rate).values.size(), size_t(5 * 64 * 2));
}

TEST(VoltagePipe, ReadsTheWholeTimeStepsOfAVdifPipeCutShortAndSaysSo) {
  // The last time step has one of its two threads, and 40 bytes of the next frame.
  std::string bytes = vdif_stream(10, 0, 14);
  bytes.resize(bytes.size() - 96 + 40);
  ScratchDir dir;
  const std::string path = dir.file("cut.vdif");
  write_whole_file(path, bytes);
  expect_pipe_reads_as_file(path);
  const ReadBack pipe = read_through_pipe(bytes, 0, 1000);
  EXPECT_EQ(pipe.values.size(), size_t(13 * 64 * 2));
  EXPECT_EQ(pipe.warnings.size(), 3u);  // no sky frequency, the part frame, the lone thread
  EXPECT_NE(std::find(pipe.warnings.begin(), pipe.warnings.end(),
                      "1 frames at the end do not make a whole time step of 2 threads; ignored"),
            pipe.warnings.end());
}

TEST(VoltagePipe, TellsVdifFramesLongerThanTheProbeFromAPipe) {
  // 100,000-byte frames: the 64 KiB read to tell the format holds no second header.
  std::string bytes;
  for (int k = 0; k < 3; ++k) bytes += vdif_frame(50, uint32_t(k), 0, 100000 - 32, k);
  ScratchDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread feeder([&] { feed(fifo, bytes); });
  std::string format;
  {
    rapt::ByteStream in("-", std::fopen(fifo.c_str(), "rb"), {});
    format = rapt::voltage_format_of(in);
    std::vector<uint8_t> all(bytes.size() + 1);
    all.resize(in.read(all.data(), all.size()));  // peeking consumed nothing
    EXPECT_EQ(std::string(all.begin(), all.end()), bytes);
  }
  feeder.join();
  EXPECT_EQ(format, "VDIF");
}

TEST(VoltagePipe, TellsVdifFramesLongerThanTheProbeInAFileCutShortAndInAOneFramePipe) {
  std::string bytes;
  for (int k = 0; k < 3; ++k) bytes += vdif_frame(50, uint32_t(k), 0, 100000 - 32, k);
  ScratchDir dir;
  const std::string cut = dir.file("cut.vdif");
  write_whole_file(cut, bytes.substr(0, 250000));  // two frames and part of a third
  rapt::VdifReadOptions rate;
  rate.sample_rate_hz = 1e6;
  expect_pipe_reads_as_file(cut, rate);
  EXPECT_EQ(rapt::open_voltage_file(cut, rate)->header().nsamples, 2 * 99968);
  const std::string one = dir.file("one.vdif");
  write_whole_file(one, bytes.substr(0, 100000));
  expect_pipe_reads_as_file(one, rate);
}

TEST(VoltagePipe, NamesAPipeThatIsNoVoltages) {
  const std::string text(1000, 'x');
  EXPECT_EQ(data_error_text([&] { read_through_pipe(text, 0, 1); }),
            "-: not a GUPPI RAW, PSRDADA or VDIF stream");
  EXPECT_EQ(data_error_text([&] { read_through_pipe("", 0, 1); }), "-: is empty (no voltages)");
  std::string fits = "SIMPLE  =                    T";
  fits.resize(2880, ' ');
  EXPECT_EQ(data_error_text([&] { read_through_pipe(fits, 100, 1); }),
            "-: is a FITS file, not voltages (GUPPI RAW, PSRDADA or VDIF)");
}
