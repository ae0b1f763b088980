// open_voltage_file: which reader a file needs, from its first bytes.
#include "io/voltage_stream.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <string_view>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "cli/file_contents.hpp"
#include "io/guppi_raw.hpp"
#include "io/psrdada.hpp"
#include "io/vdif.hpp"

namespace rapt {

namespace {

// A GUPPI card: an upper-case keyword in bytes 0-7 and '=' in byte 8.
bool looks_like_guppi(std::string_view head) {
  if (head.size() < 80 || head[8] != '=') return false;
  for (size_t i = 0; i < 8; ++i) {
    const char c = head[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == ' '))
      return false;
  }
  return head[0] != ' ';
}

// DADA header text: printable ASCII up to the first NUL, with an HDR_SIZE key in it.
bool looks_like_dada(std::string_view head) {
  const std::string_view text = head.substr(0, head.find('\0'));
  for (const char c : text)
    if ((c < 32 || c > 126) && c != '\n' && c != '\r' && c != '\t') return false;
  return text.find("HDR_SIZE") != std::string_view::npos;
}

}  // namespace

std::unique_ptr<VoltageReader> open_voltage_file(const std::string& path,
                                                 const VdifReadOptions& vdif) {
  if (path == "-") return std::make_unique<PsrdadaReader>(path);
  refuse_directory(path);
  FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  char bytes[4096];
  const size_t got = std::fread(bytes, 1, sizeof bytes, file);
  std::fclose(file);
  const std::string_view head(bytes, got);
  if (got == 0) throw file_error(path, "empty file");
  // SIGPROC files, which any header of 16 bytes could pass for VDIF, and FITS files (images,
  // UVFITS, PSRFITS), whose 80-byte cards GUPPI RAW shares.
  const bool sigproc = head.size() >= 16 && head.substr(4, 12) == "HEADER_START";
  if (sigproc || head.substr(0, 9) == "SIMPLE  =")
    throw file_error(path, std::string("is a ") + (sigproc ? "SIGPROC" : "FITS") +
                               " file, not voltages (GUPPI RAW, PSRDADA or VDIF)");
  if (looks_like_guppi(head)) return std::make_unique<GuppiRawReader>(path);
  if (looks_like_dada(head)) return std::make_unique<PsrdadaReader>(path);
  if (got >= 16) {
    // Any 16 bytes decode as a VDIF header: a file that does not hold the one whole frame it
    // announces is none (a headerless dump, say).
    bool vdif_frame = false;
    try {
      const VdifFrameHeader frame =
          parse_vdif_frame_header(reinterpret_cast<const uint8_t*>(bytes), got, path);
      struct stat st;
      vdif_frame = ::stat(path.c_str(), &st) != 0 || frame.frame_bytes <= int64_t(st.st_size);
    } catch (const DataError&) {
    }
    if (!vdif_frame) throw file_error(path, "not a GUPPI RAW, PSRDADA or VDIF file");
    return std::make_unique<VdifReader>(path, vdif);
  }
  throw file_error(path, "not a GUPPI RAW, PSRDADA or VDIF file");
}

void require_vdif_sky_frequency(const VoltageHeader& header, const std::string& path,
                                const char* needed_by) {
  if (header.format == "VDIF" && !(header.centre_freq_mhz > 0))
    throw UsageError(path + ": VDIF carries no sky frequency, which " + needed_by +
                     ": give --vdif-freq (MHz)");
}

void require_pointing(const VoltageHeader& header, const std::string& path, const char* remedy) {
  if (header.pointing_known) return;
  const std::string what = header.format == "VDIF" ? "VDIF carries no pointing"
                                                   : header.format + " header names no RA and DEC";
  throw UsageError(path + ": " + what + "; give " + remedy);
}

std::vector<std::string> voltage_warnings(const VoltageReader& reader, const std::string& path,
                                          size_t from) {
  std::vector<std::string> named;
  const std::vector<std::string>& notes = reader.warnings();
  for (size_t k = from; k < notes.size(); ++k)
    named.push_back(notes[k].rfind(path + ": ", 0) == 0 ? notes[k] : path + ": " + notes[k]);
  return named;
}

size_t show_voltage_warnings(const VoltageReader& reader, const std::string& path,
                             const Messages& messages, size_t from) {
  for (const std::string& note : voltage_warnings(reader, path, from)) messages.warning(note);
  return reader.warnings().size();
}

}  // namespace rapt
