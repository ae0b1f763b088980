// libFuzzer target for the A-term cube reader (idg-grid --aterms). Not part of the default
// build.
//
//   make fuzz
//   ASAN_OPTIONS=allocator_may_return_null=1 ./build/fuzz/aterm_cube_fuzzer -max_len=16384 \
//       tests/fuzz/corpus/aterm_cube_fuzzer/
//   (seeds: small cubes of one gain, diagonal and full matrices, with and without FREQ and
//   TIME axes, as tests/hardening/make_bad_inputs.py writes them.)
//
// Each input goes through read_aterm_cube() on a temporary file, the path idg-grid takes. Any
// input must either read or throw DataError; a crash, a sanitizer report or another exception
// is a bug. What reads holds every matrix its axes promise, finite, with a slot time and a
// plane frequency each.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cli/errors.hpp"
#include "fuzz_temp_file.hpp"
#include "imaging/aterm_cube.hpp"

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapt::fuzzing::with_temp_file(data, size, [](const std::string& path) {
    try {
      const rapt::ATermCube cube = rapt::read_aterm_cube(path);
      const size_t matrices = size_t(cube.nr_times) * size_t(cube.nr_freqs) *
                              size_t(cube.nr_antennas) * size_t(cube.ny) * size_t(cube.nx);
      if (cube.nx < 1 || cube.ny < 1 || cube.nr_antennas < 1 || cube.jones.size() != 4 * matrices ||
          cube.freq_hz.size() != size_t(cube.nr_freqs) ||
          cube.time_mjd.size() != size_t(cube.nr_times))
        __builtin_trap();
      for (const auto& j : cube.jones)
        if (!std::isfinite(j.real()) || !std::isfinite(j.imag())) __builtin_trap();
    } catch (const rapt::DataError&) {
    }
  });
  return 0;
}
