// Opens filterbank input by content, never by suffix: SIGPROC files start with the token
// HEADER_START, FITS files with the card "SIMPLE  =". The bytes read to decide are handed to
// the SIGPROC reader, so a SIGPROC stream on stdin or another pipe loses nothing.

#include <cstdio>
#include <cstring>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/psrfits.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

namespace {

constexpr uint8_t kSigprocStart[] = {12, 0, 0, 0, 'H', 'E', 'A', 'D', 'E', 'R',
                                     '_', 'S', 'T', 'A', 'R', 'T'};
constexpr char kFitsStart[] = "SIMPLE  =";

bool starts_with(const std::vector<uint8_t>& bytes, const void* prefix, size_t n) {
  return bytes.size() >= n && std::memcmp(bytes.data(), prefix, n) == 0;
}

std::vector<uint8_t> read_first_bytes(FILE* file, const std::string& path) {
  try {
    return read_up_to(file, sizeof kSigprocStart, path);
  } catch (const DataError&) {
    if (file != stdin) std::fclose(file);
    throw;
  }
}

// CFITSIO opens files by name. Stdin redirected from a file is reopened through /dev/stdin
// (from its start, so nothing is lost); a pipe cannot be reopened.
std::unique_ptr<SpectraSource> open_psrfits(const std::string& path, FILE* file) {
  if (file != stdin) {
    std::fclose(file);
    return std::make_unique<PsrfitsReader>(path);
  }
  if (!standard_input_is_file())
    throw file_error(path, "FITS input (PSRFITS, UVFITS, an image) cannot be read from a pipe; "
                           "give the file name");
  return std::make_unique<PsrfitsReader>("/dev/stdin");
}

}  // namespace

std::unique_ptr<SpectraSource> open_spectra_source(const std::string& path) {
  FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  return open_spectra_source(path, file, read_first_bytes(file, path));
}

std::unique_ptr<SpectraSource> open_spectra_source(const std::string& path, FILE* file,
                                                   std::vector<uint8_t> first) {
  if (starts_with(first, kSigprocStart, sizeof kSigprocStart))
    return std::make_unique<SigprocReader>(path, file, std::move(first));
  if (starts_with(first, kFitsStart, sizeof kFitsStart - 1))
    return open_psrfits(path, file);
  if (file != stdin) std::fclose(file);
  if (first.empty()) throw file_error(path, "file is empty");
  throw file_error(path, "not a SIGPROC filterbank or PSRFITS file");
}

}  // namespace rapt
