// Voltage formats told apart by a file's first bytes, for open_voltage_file and inspect alike.
// VDIF has no magic number: its frame header is believed only when it is self-consistent and
// the file is a whole number of such frames, or the next frame's header agrees with it.
#pragma once
#include <cstdint>
#include <string_view>

namespace rapt {

// Bytes worth reading from the start of a file for these tests.
inline constexpr size_t kVoltageProbeBytes = 65536;

// A GUPPI RAW card: an upper-case keyword in bytes 0-7 and '=' in byte 8.
bool looks_like_guppi(std::string_view head);
// PSRDADA header text: printable ASCII up to the first NUL, with an HDR_SIZE key in it.
bool looks_like_dada(std::string_view head);
// A VDIF frame header, for a file of `file_size` bytes.
bool looks_like_vdif(std::string_view head, uint64_t file_size);

}  // namespace rapt
