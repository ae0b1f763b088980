// libFuzzer target for the PSRFITS search-mode header interpretation: the input is opened as
// a FITS file in memory and read as PsrfitsReader reads a file's headers. Not part of the
// default build.
//
//   make fuzz                      (builds every tests/fuzz/*_fuzzer.cpp with clang++)
//   ./build/fuzz/psrfits_header_fuzzer -max_len=16384 tests/fuzz/corpus/psrfits_header_fuzzer/
//
// AddressSanitizer runs with allocator_may_return_null (set below): CFITSIO sizes some allocations from header values (TFIELDS) and
// reports a failed calloc as an error; without the option AddressSanitizer stops on the
// request itself instead of letting it fail as it would in a program.
//
// Inputs CFITSIO cannot open are skipped (that is CFITSIO's parser, not ours). Every other
// input must either give header facts or throw DataError; a crash, a sanitizer report or
// another exception is a bug. Facts that come back describe a usable layout.
#include <fitsio.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/psrfits_header.hpp"

// open_fits_file refuses a primary header holding bytes that are not printable ASCII before
// CFITSIO reads it (CFITSIO overruns fixed buffers on such values); inputs it would refuse are
// skipped here in the same way.
static bool primary_header_is_ascii(const uint8_t* data, size_t size) {
  for (size_t card = 0; card + 80 <= size; card += 80) {
    for (size_t i = card; i < card + 80; ++i)
      if (data[i] < 0x20 || data[i] > 0x7e) return false;
    if (std::memcmp(data + card, "END     ", 8) == 0) return true;
  }
  return true;
}

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!primary_header_is_ascii(data, size)) return 0;
  std::vector<uint8_t> copy(data, data + size);  // CFITSIO takes a non-const buffer
  void* buffer = copy.data();
  size_t buffer_size = copy.size();
  fitsfile* fits = nullptr;
  int status = 0;
  if (fits_open_memfile(&fits, "fuzz.fits", READONLY, &buffer, &buffer_size, 0, nullptr,
                        &status) != 0) {
    fits_clear_errmsg();
    return 0;
  }
  std::vector<std::string> warnings;
  try {
    const rapt::PsrfitsHeaderFacts facts = rapt::read_psrfits_header(fits, "fuzz.fits", warnings);
    if (facts.info.nchans <= 0 || facts.layout.nsblk <= 0 || !(facts.info.tsamp_s > 0.0))
      __builtin_trap();
  } catch (const rapt::DataError&) {
  }
  status = 0;
  fits_close_file(fits, &status);
  fits_clear_errmsg();
  return 0;
}
