// Replays the fuzz corpora kept in tests/fuzz/corpus/<target>/ through the parser each fuzz
// target calls, so `make test` rechecks, without clang, every input the fuzzers found
// interesting: each must parse or throw DataError, never crash or throw anything else.
#include <fitsio.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "bf/beam_directions.hpp"
#include "bf/beam_weights.hpp"
#include "bf/station_flags.hpp"
#include "cli/errors.hpp"
#include "fold/fold_candidate.hpp"
#include "fuzz/psrdada_stream_check.hpp"
#include "fuzz/sigproc_stream_check.hpp"
#include "fuzz/voltage_file_check.hpp"
#include "geometry/array_layout.hpp"
#include "imaging/aterm_cube.hpp"
#include "io/accel_files.hpp"
#include "io/bestprof.hpp"
#include "io/fits_image.hpp"
#include "io/guppi_raw.hpp"
#include "io/pfd.hpp"
#include "io/presto_inf.hpp"
#include "io/psrdada.hpp"
#include "io/psrfits_header.hpp"
#include "io/rfifind_mask.hpp"
#include "io/sigproc.hpp"
#include "io/singlepulse.hpp"
#include "io/uvfits.hpp"
#include "io/vdif.hpp"
#include "power/power_report.hpp"
#include "power/power_trace.hpp"
#include "ppf/channeliser.hpp"
#include "ppf/pfb_options.hpp"
#include "sift/singlepulse_inputs.hpp"
#include "snr/candidate_clustering.hpp"
#include "test_data.hpp"

namespace {

namespace fs = std::filesystem;
using Parser = std::function<void(const std::string& bytes)>;

// tests/fuzz/corpus from the repository root (make test) or from inside the build tree.
std::string corpus_root() {
  for (const char* candidate : {"tests/fuzz/corpus", "../tests/fuzz/corpus",
                                "../../tests/fuzz/corpus"}) {
    if (fs::is_directory(candidate)) return candidate;
  }
  return "";
}

std::vector<std::string> corpus_files(const std::string& target) {
  std::vector<std::string> files;
  const std::string root = corpus_root();
  if (root.empty() || !fs::is_directory(root + "/" + target)) return files;
  for (const auto& entry : fs::directory_iterator(root + "/" + target)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every file must parse or be refused with DataError. Returns the number of files replayed.
size_t replay(const std::string& target, const Parser& parse) {
  const std::vector<std::string> files = corpus_files(target);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    try {
      parse(rapt::testing::read_whole_file(file));
    } catch (const rapt::DataError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << file << ": exception other than DataError: " << e.what();
    }
  }
  return files.size();
}

#define RAPT_REPLAY_CORPUS(target, parse)                                               \
  if (replay(target, parse) == 0) GTEST_SKIP() << "no corpus in tests/fuzz/corpus/" target

// open_fits_file refuses a primary header holding bytes that are not printable ASCII before
// CFITSIO reads it (CFITSIO overruns fixed buffers on such values); inputs it would refuse are
// skipped here in the same way.
bool primary_header_is_ascii(const uint8_t* data, size_t size) {
  for (size_t card = 0; card + 80 <= size; card += 80) {
    for (size_t i = card; i < card + 80; ++i)
      if (data[i] < 0x20 || data[i] > 0x7e) return false;
    if (std::memcmp(data + card, "END     ", 8) == 0) return true;
  }
  return true;
}

// The PSRFITS target opens its input as a FITS file in memory first; inputs CFITSIO cannot
// open are not ours to judge.
void parse_psrfits_header_bytes(const std::string& bytes) {
  if (!primary_header_is_ascii(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()))
    return;
  std::vector<char> copy(bytes.begin(), bytes.end());
  void* buffer = copy.data();
  size_t buffer_size = copy.size();
  fitsfile* fits = nullptr;
  int status = 0;
  if (fits_open_memfile(&fits, "fuzz.fits", READONLY, &buffer, &buffer_size, 0, nullptr,
                        &status) != 0) {
    fits_clear_errmsg();
    return;
  }
  std::vector<std::string> warnings;
  try {
    rapt::read_psrfits_header(fits, "fuzz.fits", warnings);
  } catch (...) {
    status = 0;
    fits_close_file(fits, &status);
    fits_clear_errmsg();
    throw;
  }
  status = 0;
  fits_close_file(fits, &status);
}

TEST(FuzzCorpusReplay, AccelTextCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("accel_text_fuzzer", [](const std::string& text) {
    try {
      rapt::parse_accel_text(text, "corpus");
    } catch (const rapt::DataError&) {
    }
    rapt::parse_txtcand(text, "corpus");
  });
}

TEST(FuzzCorpusReplay, AccelCandCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("accel_cand_fuzzer", [](const std::string& bytes) {
    rapt::format_cand_records(rapt::parse_cand_records(bytes, "corpus"));
  });
}

TEST(FuzzCorpusReplay, PfdCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("pfd_fuzzer", [](const std::string& bytes) {
    rapt::format_pfd(rapt::parse_pfd(bytes, "corpus"));
  });
}

TEST(FuzzCorpusReplay, BestprofCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("bestprof_fuzzer", [](const std::string& text) {
    rapt::parse_bestprof(rapt::format_bestprof(rapt::parse_bestprof(text, "corpus")), "corpus");
  });
}

// As the fuzz target: parsed, written and parsed again, then merged and clustered as sift does
// with two files of no .inf (the first half of the events, the rest).
TEST(FuzzCorpusReplay, SinglepulseCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("singlepulse_fuzzer", [](const std::string& text) {
    const auto events = rapt::parse_singlepulse(text, "corpus");
    rapt::parse_singlepulse(rapt::format_singlepulse(events), "corpus");
    std::vector<rapt::SinglePulseFile> files(2);
    for (size_t i = 0; i < events.size(); ++i)
      files[i < events.size() / 2 ? 0 : 1].events.push_back(events[i]);
    for (size_t f = 0; f < files.size(); ++f) {
      files[f].path = "corpus" + std::to_string(f);
      files[f].dm = double(f);
      for (auto& e : files[f].events) e.dm = double(f);
      rapt::sampling_time_from_events(files[f].events, &files[f].dt_s, &files[f].dt_tolerance);
    }
    const rapt::SinglePulseSet set = rapt::merge_singlepulse_files(files);
    int64_t members = 0;
    for (const auto& c : rapt::cluster_events(set.events, set.dms, {}, set.scales))
      members += c.members;
    EXPECT_EQ(members, int64_t(set.events.size()));
  });
}

TEST(FuzzCorpusReplay, PowerTraceCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("power_trace_fuzzer", [](const std::string& text) {
    const rapt::RecordedTrace trace = rapt::parse_recorded_trace(text, "corpus");
    rapt::EnergyIntegrator integrator(trace.sensors);
    rapt::replay_trace(trace, integrator);
    EXPECT_TRUE(std::isfinite(integrator.total_energy_j()));
  });
}

TEST(FuzzCorpusReplay, ParFileCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("par_file_fuzzer", [](const std::string& text) {
    rapt::parse_par_candidate(text, "corpus", 0.0);
    rapt::parse_par_candidate(text, "corpus", 55000.0);
  });
}

TEST(FuzzCorpusReplay, PsrfitsHeaderCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("psrfits_header_fuzzer", parse_psrfits_header_bytes);
}

TEST(FuzzCorpusReplay, PrestoInfCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("presto_inf_fuzzer", [](const std::string& text) {
    rapt::format_inf(rapt::parse_inf(text, "corpus"));
  });
}

TEST(FuzzCorpusReplay, SigprocHeaderCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("sigproc_header_fuzzer", [](const std::string& bytes) {
    std::vector<std::string> warnings;
    rapt::parse_sigproc_header(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                               "corpus", &warnings);
  });
}

TEST(FuzzCorpusReplay, RfifindMaskCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("rfifind_mask_fuzzer", [](const std::string& bytes) {
    rapt::parse_rfifind_mask(bytes, "corpus");
  });
}

TEST(FuzzCorpusReplay, BeamsFileCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("beams_file_fuzzer", [](const std::string& text) {
    try {
      rapt::parse_beams_text(text, "corpus", rapt::SkyDirection{1.2, -0.5});
    } catch (const rapt::DataError&) {
    }
    rapt::parse_beams_text(text, "corpus", rapt::SkyDirection{6.28, -1.5707});
  });
}

TEST(FuzzCorpusReplay, StationFlagsCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("station_flags_fuzzer", [](const std::string& text) {
    const rapt::StationFlags flags =
        rapt::parse_station_flags(text, "corpus", {"m000", "m001", "2", "m003"});
    for (const int64_t first_sample : {int64_t{0}, int64_t{37}, int64_t{1} << 40}) {
      rapt::block_flags(flags, 4, first_sample, 256, 0.01, 0.25);
    }
  });
}

TEST(FuzzCorpusReplay, WeightsFileCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("weights_file_fuzzer", [](const std::string& text) {
    rapt::parse_weights_text(text, "corpus");
  });
}

TEST(FuzzCorpusReplay, VdifFrameCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("vdif_frame_fuzzer", [](const std::string& bytes) {
    const rapt::VdifFrameHeader h = rapt::parse_vdif_frame_header(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "corpus");
    EXPECT_GT(h.payload_bytes(), 0);
    EXPECT_GE(h.nchan, 1);
  });
}

TEST(FuzzCorpusReplay, GuppiHeaderCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("guppi_header_fuzzer", [](const std::string& text) {
    const rapt::GuppiBlockHeader block = rapt::parse_guppi_header(text, "corpus");
    std::vector<std::string> warnings;
    const rapt::VoltageHeader h = rapt::guppi_voltage_header(block, warnings);
    EXPECT_GE(h.nchan, 1);
    EXPECT_GT(h.tsamp_s, 0);
  });
}

TEST(FuzzCorpusReplay, PsrdadaHeaderCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("psrdada_header_fuzzer", [](const std::string& text) {
    const rapt::DadaHeader header = rapt::parse_dada_header(text, "corpus");
    EXPECT_GE(header.voltage.nchan, 1);
    EXPECT_GE(header.voltage.nant, 1);
  });
}

TEST(FuzzCorpusReplay, LayoutFileCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("layout_file_fuzzer", [](const std::string& text) {
    const rapt::ArrayLayout layout = rapt::parse_layout_text(text, "corpus");
    EXPECT_GE(layout.size(), 1u);
  });
}

// The channeliser_files_fuzzer's input: a selector byte (parser and table size), then the text.
void parse_channeliser_file_bytes(const std::string& bytes) {
  if (bytes.empty()) return;
  const int selector = static_cast<unsigned char>(bytes[0]);
  const int count = 1 + (selector >> 1) % 64;
  if (selector & 1) {
    EXPECT_EQ(rapt::parse_bandpass_text(bytes.substr(1), "corpus", count).size(), size_t(count));
  } else {
    const std::vector<std::string> names = {"s0", "s1", "m002", "3"};
    EXPECT_EQ(rapt::parse_delays_text(bytes.substr(1), "corpus", count, names).size(),
              size_t(count));
  }
}

TEST(FuzzCorpusReplay, ChanneliserFilesCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("channeliser_files_fuzzer", parse_channeliser_file_bytes);
}

// A corpus input as a file on disk, removed when the object dies (the FITS targets read
// through CFITSIO's disk driver, as the programs do).
class CorpusFile {
 public:
  explicit CorpusFile(const std::string& bytes) {
    const int fd = ::mkstemp(path_);
    if (fd < 0) return;
    written_ = ::write(fd, bytes.data(), bytes.size()) == ssize_t(bytes.size());
    ::close(fd);
  }
  ~CorpusFile() { ::unlink(path_); }
  CorpusFile(const CorpusFile&) = delete;
  CorpusFile& operator=(const CorpusFile&) = delete;
  bool written() const { return written_; }
  const char* path() const { return path_; }

 private:
  char path_[32] = "/tmp/rapt_fuzz_corpus_XXXXXX";
  bool written_ = false;
};

// The uvfits_fuzzer's path: the bytes as a file on disk, through read_uvfits.
void read_uvfits_bytes(const std::string& bytes) {
  const CorpusFile file(bytes);
  ASSERT_TRUE(file.written());
  std::vector<std::string> warnings;
  const rapt::VisibilitySet vis = rapt::read_uvfits(file.path(), &warnings);
  EXPECT_EQ(vis.vis.size(), vis.nrows() * vis.nchan() * vis.nstokes());
}

// The psrdada_stream_fuzzer's check: byte 0, then the stream as a file, opened by its path and
// with its first bytes handed over; both ways must read the same samples or both refuse.
void read_psrdada_stream_bytes(const std::string& bytes) {
  if (bytes.empty()) return;
  const CorpusFile file(bytes.substr(1));
  ASSERT_TRUE(file.written());
  EXPECT_TRUE(rapt::fuzzing::psrdada_stream_agrees(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                   bytes.size(), file.path()));
}

TEST(FuzzCorpusReplay, PsrdadaStreamCorpusReadsAlikeOrIsRefused) {
  RAPT_REPLAY_CORPUS("psrdada_stream_fuzzer", read_psrdada_stream_bytes);
}

// The sigproc_stream_fuzzer's check: byte 0, then the file, read in blocks of several sizes,
// by its path and with its first bytes handed over; every read must agree, or all refuse.
void read_sigproc_stream_bytes(const std::string& bytes) {
  if (bytes.empty()) return;
  const CorpusFile file(bytes.substr(1));
  ASSERT_TRUE(file.written());
  EXPECT_TRUE(rapt::fuzzing::sigproc_stream_agrees(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                   bytes.size(), file.path()));
}

TEST(FuzzCorpusReplay, SigprocStreamCorpusReadsAlikeOrIsRefused) {
  RAPT_REPLAY_CORPUS("sigproc_stream_fuzzer", read_sigproc_stream_bytes);
}

// The voltage_file_fuzzer's check: byte 0 (VDIF's rate and code options), then the file, opened
// by content and read in blocks that must hold what their headers say, or refused.
void read_voltage_file_bytes(const std::string& bytes) {
  if (bytes.empty()) return;
  const CorpusFile file(bytes.substr(1));
  ASSERT_TRUE(file.written());
  EXPECT_TRUE(rapt::fuzzing::voltage_file_reads_consistently(uint8_t(bytes[0]), file.path()));
}

TEST(FuzzCorpusReplay, VoltageFileCorpusReadsConsistentlyOrIsRefused) {
  RAPT_REPLAY_CORPUS("voltage_file_fuzzer", read_voltage_file_bytes);
}

TEST(FuzzCorpusReplay, UvfitsCorpusReadsOrIsRefused) {
  RAPT_REPLAY_CORPUS("uvfits_fuzzer", read_uvfits_bytes);
}

// The pfb_coeffs_fuzzer's input: a selector byte (real or complex input, fine channels), then
// the coefficients file's text.
void parse_pfb_coeffs_bytes(const std::string& bytes) {
  if (bytes.empty()) return;
  const int selector = static_cast<unsigned char>(bytes[0]);
  rapt::ChanneliserShape shape;
  shape.real_input = (selector & 1) != 0;
  shape.nfine = 1 + (selector >> 1) % 64;
  const std::vector<float> h = rapt::parse_pfb_coefficients(bytes.substr(1), "corpus", shape);
  EXPECT_EQ(h.size() % size_t(shape.frame()), 0u);
  double sum2 = 0;
  for (float v : h) sum2 += double(v) * v;
  EXPECT_NEAR(sum2, 1.0, 1e-3);
}

TEST(FuzzCorpusReplay, PfbCoeffsCorpusParsesOrIsRefused) {
  RAPT_REPLAY_CORPUS("pfb_coeffs_fuzzer", parse_pfb_coeffs_bytes);
}

// The fits_image_fuzzer's path: the bytes as a file on disk, through read_fits_image.
void read_fits_image_bytes(const std::string& bytes) {
  const CorpusFile file(bytes);
  ASSERT_TRUE(file.written());
  std::vector<std::string> warnings;
  const rapt::FitsImage image = rapt::read_fits_image(file.path(), &warnings);
  EXPECT_EQ(image.pixels.size(), size_t(image.nx) * size_t(image.ny));
}

TEST(FuzzCorpusReplay, FitsImageCorpusReadsOrIsRefused) {
  RAPT_REPLAY_CORPUS("fits_image_fuzzer", read_fits_image_bytes);
}

// The aterm_cube_fuzzer's path: the bytes as a file on disk, through read_aterm_cube.
void read_aterm_cube_bytes(const std::string& bytes) {
  const CorpusFile file(bytes);
  ASSERT_TRUE(file.written());
  const rapt::ATermCube cube = rapt::read_aterm_cube(file.path());
  EXPECT_EQ(cube.jones.size(), 4 * size_t(cube.nr_times) * size_t(cube.nr_freqs) *
                                   size_t(cube.nr_antennas) * size_t(cube.ny) * size_t(cube.nx));
}

TEST(FuzzCorpusReplay, ATermCubeCorpusReadsOrIsRefused) {
  RAPT_REPLAY_CORPUS("aterm_cube_fuzzer", read_aterm_cube_bytes);
}

}  // namespace
