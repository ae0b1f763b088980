// libFuzzer target for the UVFITS reader's interpretation of headers, parameters and tables.
// Not part of the default build.
//
//   make fuzz
//   ASAN_OPTIONS=allocator_may_return_null=1 ./build/fuzz/uvfits_fuzzer -max_len=100000 corpus/
//   (seeds: the PAPER UVFITS file and small files from write_uvfits). CFITSIO callocs what a
//   corrupt table header asks for while it scans HDUs and reports a failed allocation as an
//   error; the option lets that path run instead of stopping at the sanitizer's size limit.
//
// Each input goes through read_uvfits() on a temporary file, the path every program takes:
// CFITSIO's memory-file driver (parse_uvfits) reads whole records past the end of a buffer
// whose tables claim more rows than it holds, which the disk driver reports as an error.
// Known finding: CFITSIO 4.2.0 (Debian) overflows a buffer in ffgtbp, while fits_movnam_hdu
// scans extensions, when a TTYPEn card's value is unquoted binary; glibc's fortify aborts.
// Any input must either read or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What reads must hold together: every array sized by its rows, channels
// and products, every antenna index inside the array, no negative weight.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/errors.hpp"
#include "fuzz_temp_file.hpp"
#include "io/uvfits.hpp"

namespace {

void check(const rapt::VisibilitySet& vis) {
  const size_t rows = vis.nrows();
  const size_t cells = rows * vis.nchan() * vis.nstokes();
  if (vis.antenna2.size() != rows || vis.time_mjd.size() != rows || vis.uvw_m.size() != rows ||
      vis.integration_s.size() != rows || vis.vis.size() != cells ||
      vis.weight.size() != cells || vis.flag.size() != cells)
    __builtin_trap();
  for (size_t r = 0; r < rows; ++r)
    if (vis.antenna1[r] < 0 || vis.antenna1[r] >= vis.array.size() || vis.antenna2[r] < 0 ||
        vis.antenna2[r] >= vis.array.size())
      __builtin_trap();
  for (float w : vis.weight)
    if (w < 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapt::fuzzing::with_temp_file(data, size, [](const std::string& path) {
    try {
      std::vector<std::string> warnings;
      check(rapt::read_uvfits(path, &warnings));
    } catch (const rapt::DataError&) {
    }
  });
  return 0;
}
