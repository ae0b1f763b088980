// open_voltage_file: which reader a file needs, from its first bytes.
#include "io/voltage_stream.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "io/guppi_raw.hpp"
#include "io/psrdada.hpp"
#include "io/vdif.hpp"
#include "io/voltage_sniff.hpp"

namespace rapt {

std::string voltage_format_of(ByteStream& in) {
  std::string_view head = in.peek(kVoltageProbeBytes);
  if (looks_like_guppi(head)) return "GUPPI RAW";
  if (looks_like_dada(head)) return "PSRDADA";
  std::optional<uint64_t> size;
  if (in.seekable()) {
    size = uint64_t(in.size());
  } else if (head.size() < kVoltageProbeBytes) {
    size = head.size();  // the whole stream
  }
  const uint64_t wanted = vdif_probe_bytes(head);
  if (!looks_like_vdif(head, size) && vdif_header_plausible(head) && wanted > head.size()) {
    // A VDIF frame longer than the probe, in a pipe (whose length is unknown) or a file whose
    // length is no whole number of frames (cut short): believed when the next frame's header
    // agrees, or a pipe ends after whole frames.
    head = in.peek(wanted);
    if (!in.seekable() && head.size() < wanted) size = head.size();
  }
  return looks_like_vdif(head, size) ? "VDIF" : "";
}

std::unique_ptr<VoltageReader> open_voltage_stream(std::unique_ptr<ByteStream> in,
                                                   const VdifReadOptions& vdif) {
  const std::string name = in->name();
  const bool file = in->seekable();
  const std::string_view head = in->peek(kVoltageProbeBytes);
  if (head.empty()) throw file_error(name, file ? "empty file" : "is empty (no voltages)");
  // SIGPROC files, which any header of 16 bytes could pass for VDIF, and FITS files (images,
  // UVFITS, PSRFITS), whose 80-byte cards GUPPI RAW shares.
  const bool sigproc = head.size() >= 16 && head.substr(4, 12) == "HEADER_START";
  if (sigproc || head.substr(0, 9) == "SIMPLE  =")
    throw file_error(name, std::string("is a ") + (sigproc ? "SIGPROC" : "FITS") +
                               " file, not voltages (GUPPI RAW, PSRDADA or VDIF)");
  const std::string format = voltage_format_of(*in);
  if (format == "GUPPI RAW") return std::make_unique<GuppiRawReader>(std::move(in));
  if (format == "PSRDADA") return std::make_unique<PsrdadaReader>(std::move(in));
  if (format == "VDIF") return std::make_unique<VdifReader>(std::move(in), vdif);
  throw file_error(name, std::string("not a GUPPI RAW, PSRDADA or VDIF ") + (file ? "file" : "stream"));
}

std::unique_ptr<VoltageReader> open_voltage_file(const std::string& path,
                                                 const VdifReadOptions& vdif) {
  if (path == "-")
    return open_voltage_stream(std::make_unique<ByteStream>("-", stdin, std::vector<uint8_t>()), vdif);
  refuse_directory(path);
  return open_voltage_stream(std::make_unique<ByteStream>(path), vdif);
}

void require_sky_frequency(const VoltageHeader& header, const std::string& path,
                           const char* needed_by) {
  if (header.centre_freq_mhz > 0 && header.bandwidth_mhz != 0) return;
  if (header.format == "VDIF")
    throw UsageError(path + ": VDIF carries no sky frequency, which " + needed_by +
                     ": give --vdif-freq (MHz)");
  const char* keys = header.format == "GUPPI RAW" ? "OBSFREQ and CHAN_BW" : "FREQ and BW";
  throw DataError(path + ": the " + header.format + " header gives no sky frequency (" + keys +
                  "), which " + needed_by);
}

void require_pointing(const VoltageHeader& header, const std::string& path, const char* remedy) {
  if (header.pointing_known) return;
  const std::string what = header.format == "VDIF" ? "VDIF carries no pointing"
                                                   : header.format + " header names no RA and DEC";
  throw UsageError(path + ": " + what + "; give " + remedy);
}

const char* start_time_keys(const VoltageHeader& header) {
  return header.format == "GUPPI RAW" ? "STT_IMJD" : "UTC_START or MJD_START";
}

void require_start_time(const VoltageHeader& header, const std::string& path,
                        const std::string& needed) {
  if (header.start_known()) return;
  throw DataError(path + ": carries no start time (" + start_time_keys(header) + "); " + needed);
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
