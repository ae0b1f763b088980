// SigprocReader and open_spectra_source: sample decoding on hand-made files, real Parkes and
// SIGPROC `fake` files, bad input, pipes and stdin, block-size independence.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"
#include "test_data.hpp"

using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::write_whole_file;

namespace {

rapt::SigprocHeader header_for(int nbits, int nchans, int nifs = 1) {
  rapt::SigprocHeader h;
  h.source_name = "TEST";
  h.telescope_id = 6;
  h.tsamp = 1e-3;
  h.nbits = nbits;
  h.nchans = nchans;
  h.nifs = nifs;
  h.fch1 = 1500.0;
  h.foff = -1.0;
  return h;
}

std::string file_bytes(const rapt::SigprocHeader& h, const std::vector<uint8_t>& data) {
  const std::vector<uint8_t> header = rapt::encode_sigproc_header(h);
  return std::string(header.begin(), header.end()) + std::string(data.begin(), data.end());
}

std::string make_file(const ScratchDir& dir, const rapt::SigprocHeader& h,
                      const std::vector<uint8_t>& data) {
  const std::string path = dir.file("made.fil");
  write_whole_file(path, file_bytes(h, data));
  return path;
}

// Every spectrum of `source`, read `block` spectra at a time.
std::vector<float> read_all(rapt::SpectraSource& source, size_t block) {
  const size_t nchans = size_t(source.info().nchans);
  std::vector<float> all;
  std::vector<float> buffer(block * nchans);
  for (;;) {
    const size_t got = source.read(buffer.data(), block);
    if (got == 0) break;
    all.insert(all.end(), buffer.begin(), buffer.begin() + long(got * nchans));
  }
  return all;
}

std::vector<float> read_file(const std::string& path, size_t block = 4096) {
  rapt::SigprocReader reader(path);
  return read_all(reader, block);
}

std::string error_text(const std::function<void()>& action) {
  try {
    action();
  } catch (const rapt::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

double correlation(const std::vector<float>& a, const std::vector<float>& b) {
  double mean_a = 0, mean_b = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    mean_a += a[i];
    mean_b += b[i];
  }
  mean_a /= double(a.size());
  mean_b /= double(b.size());
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ab += (a[i] - mean_a) * (b[i] - mean_b);
    aa += (a[i] - mean_a) * (a[i] - mean_a);
    bb += (b[i] - mean_b) * (b[i] - mean_b);
  }
  return ab / std::sqrt(aa * bb);
}

// Feeds bytes into a pipe from a thread; path() names the read end as a file.
class PipeFeeder {
 public:
  explicit PipeFeeder(std::string bytes) {
    ::signal(SIGPIPE, SIG_IGN);  // a reader that stops early must not kill the test run
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    read_fd_ = fds[0];
    writer_ = std::thread([fd = fds[1], bytes = std::move(bytes)] {
      size_t done = 0;
      while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += size_t(n);
      }
      ::close(fd);
    });
  }
  ~PipeFeeder() {
    ::close(read_fd_);
    writer_.join();
  }
  int fd() const { return read_fd_; }
  std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

 private:
  int read_fd_ = -1;
  std::thread writer_;
};

// Puts `fd` in place of the process's stdin for the object's lifetime.
class StdinReplacement {
 public:
  explicit StdinReplacement(int fd) : saved_(::dup(0)) {
    ::dup2(fd, 0);
    std::clearerr(stdin);
  }
  ~StdinReplacement() {
    ::dup2(saved_, 0);
    ::close(saved_);
    std::clearerr(stdin);
  }

 private:
  int saved_;
};

struct ParkesFile {
  const char* name;
  int nbits;
  double reference_correlation;  // with the 8-bit data (README-sources.md)
};
constexpr ParkesFile kParkesFiles[] = {{"sigpyproc3/parkes_8bit_1.fil", 8, 1.0},
                                       {"sigpyproc3/parkes_4bit.fil", 4, 0.977},
                                       {"sigpyproc3/parkes_2bit.fil", 2, 0.926},
                                       {"sigpyproc3/parkes_1bit.fil", 1, 0.784}};

}  // namespace

TEST(SigprocReaderRealData, ParkesFilesHaveTheDocumentedHeader) {
  for (const ParkesFile& file : kParkesFiles) {
    RAPT_REQUIRE_SHARED_FILE(path, file.name);
    rapt::SigprocReader reader(path);
    const rapt::ObservationInfo& info = reader.info();
    EXPECT_EQ(reader.header().header_bytes, 351u) << file.name;
    EXPECT_EQ(info.nbits, file.nbits) << file.name;
    EXPECT_EQ(info.nchans, 832) << file.name;
    EXPECT_EQ(info.fch1_mhz, 4030.0) << file.name;
    EXPECT_EQ(info.foff_mhz, -4.0) << file.name;
    EXPECT_NEAR(info.tsamp_s, 512e-6, 1e-15) << file.name;
    EXPECT_EQ(info.nspectra, 4096) << file.name;
    EXPECT_NEAR(info.tstart_mjd, 58543.330387, 1e-6) << file.name;
    EXPECT_EQ(info.source_name, "J0534+2200") << file.name;
    EXPECT_EQ(info.telescope, "Parkes") << file.name;
    EXPECT_NEAR(info.ra_deg, 15.0 * (5 + 34 / 60.0 + 31.9 / 3600.0), 1e-6) << file.name;
    EXPECT_NEAR(info.dec_deg, 22 + 0 / 60.0 + 52.0 / 3600.0, 1e-6) << file.name;
    EXPECT_TRUE(reader.warnings().empty()) << file.name;
  }
}

TEST(SigprocReaderRealData, RequantisedParkesFilesAgreeWithTheEightBitData) {
  RAPT_REQUIRE_SHARED_FILE(eight_bit_path, kParkesFiles[0].name);
  const std::vector<float> eight_bit = read_file(eight_bit_path);
  ASSERT_EQ(eight_bit.size(), 4096u * 832u);
  for (const ParkesFile& file : kParkesFiles) {
    RAPT_REQUIRE_SHARED_FILE(path, file.name);
    const std::vector<float> data = read_file(path);
    ASSERT_EQ(data.size(), eight_bit.size()) << file.name;
    const float max_level = float((1 << file.nbits) - 1);
    for (const float v : data) ASSERT_TRUE(v >= 0.0f && v <= max_level) << file.name;
    // Mis-ordered bits or channels would drop these far below the published values.
    EXPECT_GT(correlation(data, eight_bit), file.reference_correlation - 0.005) << file.name;
  }
}

TEST(SigprocReaderRealData, ReadsTheSigprocTutorialFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/tutorial.fil");
  rapt::SigprocReader reader(path);
  const rapt::ObservationInfo& info = reader.info();
  EXPECT_EQ(info.nbits, 2);
  EXPECT_EQ(info.nchans, 64);
  EXPECT_EQ(info.nspectra, 187520);
  EXPECT_EQ(info.fch1_mhz, 1510.0);
  EXPECT_NEAR(info.foff_mhz, -1.09, 1e-12);
  EXPECT_NEAR(info.tsamp_s, 320e-6, 1e-15);
  EXPECT_EQ(info.source_name.rfind("P: 250", 0), 0u);
  const std::vector<float> data = read_all(reader, 10000);
  ASSERT_EQ(data.size(), 187520u * 64u);
  for (const float v : data) ASSERT_TRUE(v >= 0.0f && v <= 3.0f);
  // The fake pulsar (P = 250 ms; DM 30 smears it by only ~5 ms over this band) must stand out
  // in the channel-summed series folded at its period.
  const int nbins = 100;
  const double period_samples = 0.25 / info.tsamp_s;
  std::vector<double> profile(nbins), hits(nbins);
  for (size_t s = 0; s < 187520; ++s) {
    double sum = 0;
    for (size_t c = 0; c < 64; ++c) sum += data[s * 64 + c];
    const int bin = int(std::fmod(double(s), period_samples) / period_samples * nbins);
    profile[bin] += sum;
    hits[bin] += 1;
  }
  for (int b = 0; b < nbins; ++b) profile[b] /= hits[b];
  const int peak = int(std::max_element(profile.begin(), profile.end()) - profile.begin());
  double off_sum = 0, off_squares = 0, off_bins = 0;
  for (int b = 0; b < nbins; ++b) {
    const int distance = std::min(std::abs(b - peak), nbins - std::abs(b - peak));
    if (distance <= 15) continue;  // the pulse and its wings
    off_sum += profile[b];
    off_squares += profile[b] * profile[b];
    off_bins += 1;
  }
  const double off_mean = off_sum / off_bins;
  const double off_rms = std::sqrt(off_squares / off_bins - off_mean * off_mean);
  EXPECT_GT((profile[peak] - off_mean) / off_rms, 20.0);
}

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
  const std::vector<uint8_t> header = rapt::encode_sigproc_header(h);
  // A 4096-entry frequency table (80 KiB) spliced in before HEADER_END.
  std::string table("\x0f\0\0\0FREQUENCY_START", 19);
  for (int c = 0; c < 4096; ++c) {
    const double f = 1500.0 - c;
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

TEST(OpenSpectraSource, RecognisesSigprocByContent) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_4bit.fil");
  ScratchDir dir;
  const std::string renamed = dir.file("no_suffix");
  write_whole_file(renamed, read_whole_file(path));
  const std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source(renamed);
  EXPECT_EQ(source->info().format, "SIGPROC filterbank");
  EXPECT_EQ(source->info().nspectra, 4096);
  EXPECT_EQ(read_all(*source, 500), read_file(path));
}

TEST(OpenSpectraSource, LosesNoBytesFromAPipedStandardInput) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_8bit_1.fil");
  const std::vector<float> from_file = read_file(path);
  PipeFeeder pipe(read_whole_file(path));
  StdinReplacement replaced(pipe.fd());
  const std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source("-");
  EXPECT_EQ(source->info().nspectra, -1);
  EXPECT_EQ(read_all(*source, 777), from_file);
}

TEST(OpenSpectraSource, ReadsStandardInputRedirectedFromAFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_1bit.fil");
  FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  {
    StdinReplacement replaced(fileno(file));
    const std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source("-");
    EXPECT_EQ(source->info().nspectra, 4096);  // a regular file: its size is known
    EXPECT_EQ(source->skip(96), 96u);
    EXPECT_EQ(read_all(*source, 1000).size(), 4000u * 832u);
  }
  std::fclose(file);
}

TEST(OpenSpectraSource, RejectsOtherFormatsNamingTheFile) {
  ScratchDir dir;
  const std::string path = dir.file("x.fits");
  write_whole_file(path, "SIMPLE = T / not quite a FITS card\n" + std::string(3000, ' '));
  EXPECT_EQ(error_text([&] { rapt::open_spectra_source(path); }),
            path + ": not a SIGPROC filterbank or PSRFITS file");
  write_whole_file(path, "");
  EXPECT_EQ(error_text([&] { rapt::open_spectra_source(path); }), path + ": file is empty");
  EXPECT_EQ(error_text([] { rapt::open_spectra_source("/nonexistent/x.fil"); }),
            "/nonexistent/x.fil: cannot open: No such file or directory");
}

TEST(OpenSpectraSource, PassesSigprocErrorsThrough) {
  ScratchDir dir;
  const std::string path = dir.file("cut.fil");
  write_whole_file(path, file_bytes(header_for(8, 8), {}).substr(0, 40));
  EXPECT_EQ(error_text([&] { rapt::open_spectra_source(path); }),
            path + ": header is truncated (no HEADER_END)");
}
