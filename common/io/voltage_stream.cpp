// open_voltage_file: which reader a file needs, from its first bytes.
#include "io/voltage_stream.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "cli/file_contents.hpp"
#include "io/guppi_raw.hpp"
#include "io/psrdada.hpp"
#include "io/vdif.hpp"
#include "io/voltage_sniff.hpp"

namespace rapt {

namespace {

// Standard input: a PSRDADA stream from a pipe (the bytes read to tell it go on to the reader),
// or any voltage file redirected from a file, read again from its start.
std::unique_ptr<VoltageReader> open_standard_input(const VdifReadOptions& vdif) {
  std::vector<uint8_t> head = read_up_to(stdin, kVoltageProbeBytes, "-");
  if (head.empty()) throw file_error("-", "is empty (no voltages)");
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  if (looks_like_dada(text)) return std::make_unique<PsrdadaReader>("-", stdin, std::move(head));
  if (standard_input_is_file()) return open_voltage_file("/dev/stdin", vdif);
  throw file_error("-", "not a PSRDADA stream; GUPPI RAW and VDIF are read from a file (give its "
                        "name, or redirect it with <)");
}

}  // namespace

std::unique_ptr<VoltageReader> open_voltage_file(const std::string& path,
                                                 const VdifReadOptions& vdif) {
  if (path == "-") return open_standard_input(vdif);
  refuse_directory(path);
  FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw file_error(path, "cannot open: " + errno_text());
  std::string head(kVoltageProbeBytes, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file));
  struct stat st {};
  const uint64_t file_size = ::fstat(fileno(file), &st) == 0 ? uint64_t(st.st_size) : head.size();
  std::fclose(file);
  if (head.empty()) throw file_error(path, "empty file");
  // SIGPROC files, which any header of 16 bytes could pass for VDIF, and FITS files (images,
  // UVFITS, PSRFITS), whose 80-byte cards GUPPI RAW shares.
  const bool sigproc = head.size() >= 16 && head.compare(4, 12, "HEADER_START") == 0;
  if (sigproc || head.compare(0, 9, "SIMPLE  =") == 0)
    throw file_error(path, std::string("is a ") + (sigproc ? "SIGPROC" : "FITS") +
                               " file, not voltages (GUPPI RAW, PSRDADA or VDIF)");
  if (looks_like_guppi(head)) return std::make_unique<GuppiRawReader>(path);
  if (looks_like_dada(head)) return std::make_unique<PsrdadaReader>(path);
  if (looks_like_vdif(head, file_size)) return std::make_unique<VdifReader>(path, vdif);
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
