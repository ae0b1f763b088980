// libFuzzer target for the GUPPI RAW block-header parser. Not part of the default build.
//
//   make fuzz
//   ./build/fuzz/guppi_header_fuzzer -max_len=8192 corpus/   (seed: the PUPPI sample's header)
//
// Any input must either parse or throw DataError; a crash, a sanitizer report or another
// exception is a bug. What parses must describe a usable block: at least one sample, the
// payload offset past the cards, and a VoltageHeader with positive sizes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "io/guppi_raw.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rapt::GuppiBlockHeader block;
  try {
    block = rapt::parse_guppi_header(text, "fuzz");
  } catch (const rapt::DataError&) {
    return 0;
  }
  std::vector<std::string> warnings;
  const rapt::VoltageHeader h = rapt::guppi_voltage_header(block, warnings);
  if (block.ntime() < 1 || block.overlap >= block.ntime() || block.header_bytes < 80 ||
      (block.header_bytes % 80 != 0 && block.header_bytes % 512 != 0))
    __builtin_trap();
  if (h.nchan < 1 || h.nant < 1 || h.npol < 1 || !(h.tsamp_s > 0) ||
      int64_t(h.block_values(block.ntime())) * block.nbits / 8 != block.blocsize)
    __builtin_trap();
  return 0;
}
