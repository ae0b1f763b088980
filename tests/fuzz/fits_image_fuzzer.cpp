// libFuzzer target for the FITS image reader (idg-grid's model image). Not part of the
// default build.
//
//   make fuzz
//   ASAN_OPTIONS=allocator_may_return_null=1 ./build/fuzz/fits_image_fuzzer -max_len=16384 \
//       tests/fuzz/corpus/fits_image_fuzzer/
//   (seeds: small images from write_fits_image; the writer's header takes two records, so a
//   smallest image is 8640 bytes and max_len must exceed that.)
//
// Each input goes through read_fits_image() on a temporary file, the path idg-grid takes:
// CFITSIO's memory-file driver reads whole records past the end of a short buffer (see
// uvfits_fuzzer.cpp), which the disk driver reports as an error. Any input must either read
// or throw DataError; a crash, a sanitizer report or another exception is a bug. What reads
// holds nx x ny pixels, both sizes at least 1.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "fuzz_temp_file.hpp"
#include "io/fits_image.hpp"

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rapt::fuzzing::with_temp_file(data, size, [](const std::string& path) {
    try {
      std::vector<std::string> warnings;
      const rapt::FitsImage image = rapt::read_fits_image(path, &warnings);
      if (image.nx < 1 || image.ny < 1 ||
          image.pixels.size() != size_t(image.nx) * size_t(image.ny))
        __builtin_trap();
    } catch (const rapt::DataError&) {
    }
  });
  return 0;
}
