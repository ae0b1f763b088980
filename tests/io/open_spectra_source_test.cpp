// open_spectra_source: format recognition by content, stdin without lost bytes, errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "cli/errors.hpp"
#include "io/spectra_source.hpp"
#include "sigproc_test_support.hpp"
#include "test_data.hpp"

using rapt::testing::error_text;
using rapt::testing::file_bytes;
using rapt::testing::header_for;
using rapt::testing::PipeFeeder;
using rapt::testing::read_all;
using rapt::testing::read_file;
using rapt::testing::read_whole_file;
using rapt::testing::ScratchDir;
using rapt::testing::StdinReplacement;
using rapt::testing::write_whole_file;

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

TEST(OpenSpectraSource, HandsFitsFilesToThePsrfitsReader) {
  ScratchDir dir;
  const std::string path = dir.file("broken.sf");
  std::string card = "SIMPLE  =                    T / a FITS header with nothing after it";
  card.resize(2880, ' ');
  write_whole_file(path, card);
  const std::string message = error_text([&] { rapt::open_spectra_source(path); });
  // Whatever the PSRFITS reader says about this file, the sniffer must not have refused it.
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_EQ(message.find("not a SIGPROC filterbank or PSRFITS file"), std::string::npos);
}

TEST(OpenSpectraSource, RecognisesPsrfitsByContent) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_4bit.sf");
  ScratchDir dir;
  const std::string renamed = dir.file("no_suffix.fil");
  write_whole_file(renamed, read_whole_file(path));
  const std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source(renamed);
  EXPECT_EQ(source->info().format, "PSRFITS search");
  EXPECT_EQ(source->info().nchans, 416);
  EXPECT_EQ(read_all(*source, 1000).size(), 4096u * 416u);
}

TEST(OpenSpectraSource, ReadsPsrfitsFromStandardInputRedirectedFromAFile) {
  RAPT_REQUIRE_SHARED_FILE(path, "sigpyproc3/parkes_4bit.sf");
  FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  {
    StdinReplacement replaced(fileno(file));
    const std::unique_ptr<rapt::SpectraSource> source = rapt::open_spectra_source("-");
    EXPECT_EQ(source->info().format, "PSRFITS search");
    EXPECT_EQ(source->info().nspectra, 4096);
  }
  std::fclose(file);
}

TEST(OpenSpectraSource, RefusesPsrfitsFromAPipe) {
  PipeFeeder pipe("SIMPLE  =                    T" + std::string(2850, ' '));
  StdinReplacement replaced(pipe.fd());
  EXPECT_EQ(error_text([] { rapt::open_spectra_source("-"); }),
            "-: FITS input (PSRFITS, UVFITS, an image) cannot be read from a pipe; give the file "
            "name");
}
