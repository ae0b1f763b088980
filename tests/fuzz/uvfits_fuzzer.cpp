// libFuzzer target for the UVFITS reader's interpretation of headers, parameters and tables,
// on file images opened in memory by CFITSIO. Not part of the default build.
//
//   make fuzz
//   ASAN_OPTIONS=allocator_may_return_null=1 ./build/fuzz/uvfits_fuzzer -max_len=100000 corpus/
//   (seeds: the PAPER UVFITS file and small files from write_uvfits). CFITSIO callocs what a
//   corrupt table header asks for while it scans HDUs and reports a failed allocation as an
//   error; the option lets that path run instead of stopping at the sanitizer's size limit.
//
// Any input must either read or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What reads must hold together: every array sized by its rows, channels
// and products, and every antenna index inside the array.
#include <cstddef>
#include <cstdint>

#include "cli/errors.hpp"
#include "io/uvfits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapt::VisibilitySet vis;
  std::vector<std::string> warnings;
  try {
    vis = rapt::parse_uvfits(data, size, "fuzz", &warnings);
  } catch (const rapt::DataError&) {
    return 0;
  }
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
  return 0;
}
