// Voltage formats told apart by a file's first bytes, for open_voltage_file and inspect alike.
// VDIF has no magic number: its frame header is believed only when it is self-consistent and
// the file is a whole number of such frames, or the next frame's header agrees with it (the
// one test a pipe can have).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace rapt {

// Bytes worth reading from the start of a file for these tests.
inline constexpr size_t kVoltageProbeBytes = 65536;

// A GUPPI RAW card: an upper-case keyword in bytes 0-7 and '=' in byte 8.
bool looks_like_guppi(std::string_view head);
// PSRDADA header text: printable ASCII up to the first NUL, with an HDR_SIZE key in it.
bool looks_like_dada(std::string_view head);
// A self-consistent VDIF frame header at the start of `head` (the first of the tests below).
bool vdif_header_plausible(std::string_view head);
// A VDIF frame header, for a file of `file_size` bytes (none: a pipe, whose length is unknown).
bool looks_like_vdif(std::string_view head, std::optional<uint64_t> file_size);
// Bytes of a pipe that test wants: the first frame (its length from the header at the start of
// `head`) and the next frame's header; 0 where `head` holds no frame header.
uint64_t vdif_probe_bytes(std::string_view head);

}  // namespace rapt
