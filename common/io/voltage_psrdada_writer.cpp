// rapt's native PSRDADA writer: header of section 4 of the format notes, ORDER TFATP blocks of
// dada_inner_t samples, a short last block for what is left (see psrdada.hpp).
#include <algorithm>
#include <cmath>
#include <optional>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/psrdada.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_text.hpp"

namespace rapt {

namespace {

constexpr size_t kHeaderPage = 4096;  // HDR_SIZE is a whole number of these (PSRDADA's page)

// Header values end at white space; an empty one would shift the next token into its place.
std::string token(std::string text) {
  std::replace_if(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0'; }, '_');
  return text.empty() ? "unknown" : text;
}

void check_writable(const VoltageHeader& h, const std::string& name) {
  const bool ints = (h.nbits == 8 || h.nbits == 16) && !h.float_samples;
  const bool floats = h.nbits == 32 && h.float_samples;
  if (!ints && !floats)
    throw file_error(name, "PSRDADA output takes 8- or 16-bit integers or 32-bit floats, not nbits " +
                               std::to_string(h.nbits) + (h.float_samples ? " float" : ""));
  if (h.nant < 1 || h.nchan < 1 || (h.npol != 1 && h.npol != 2))
    throw file_error(name, "PSRDADA output needs nant >= 1, nchan >= 1 and npol 1 or 2");
  if (!(h.tsamp_s > 0)) throw file_error(name, "PSRDADA output needs a positive TSAMP");
  if (h.pointing_known && (!std::isfinite(h.ra_deg) || !(std::fabs(h.dec_deg) <= 90)))
    throw file_error(name, "PSRDADA output needs a finite RA and |DEC| <= 90 degrees");
  if (h.start_known() && !mjd_in_range(h.start_mjd_day, h.start_mjd_seconds))
    throw file_error(name, "PSRDADA output start time is out of range");
  if (h.array.size() != 0 && h.array.size() != h.nant)
    throw file_error(name, "antenna list has " + std::to_string(h.array.size()) +
                               " antennas, header says nant " + std::to_string(h.nant));
}

std::string mjd_text(int day, double seconds) {
  normalise_mjd(day, seconds);
  // 15 decimals of a day: 86 ps, finer than any sample.
  long long units = std::llround(seconds / 86400.0 * 1e15);
  if (units >= 1000000000000000LL) {
    units -= 1000000000000000LL;
    ++day;
  }
  return format_string("%d.%015lld", day, units);
}

std::string utc_text(int day, double seconds) {
  normalise_mjd(day, seconds);
  int year, month, mday;
  calendar_from_mjd(day, year, month, mday);
  // Whole seconds, which every DADA reader parses; MJD_START carries the fraction.
  const long whole = long(std::floor(seconds));
  return format_string("%04d-%02d-%02d-%02ld:%02ld:%02ld", year, month, mday, whole / 3600,
                       whole / 60 % 60, whole % 60);
}

// ANT_NAMES and ANT_ITRF, with ANT_DIAMETER where a dish size is known and ARRAY_ITRF (the
// array's reference position), so that a program reading the file has the layout's geometry.
std::string antenna_lines(const ArrayLayout& array) {
  if (array.size() == 0) return "";
  std::string names, itrf, diameters, reference;
  bool any_diameter = false;
  for (const Antenna& a : array.antennas) {
    names += (names.empty() ? "" : ",") + token(a.name);
    for (double x : a.itrf_m) itrf += (itrf.empty() ? "" : ",") + format_string("%.17g", x);
    diameters += (diameters.empty() ? "" : ",") + format_string("%.17g", a.dish_diameter_m);
    any_diameter |= a.dish_diameter_m > 0;
  }
  for (double x : array.reference_itrf_m)
    reference += (reference.empty() ? "" : ",") + format_string("%.17g", x);
  std::string text = format_string("%-12s%s\n%-12s%s\n", "ANT_NAMES", names.c_str(), "ANT_ITRF",
                                   itrf.c_str());
  if (any_diameter) text += format_string("%-13s%s\n", "ANT_DIAMETER", diameters.c_str());
  const ItrfPosition& r = array.reference_itrf_m;
  if (r[0] != 0 || r[1] != 0 || r[2] != 0)
    text += format_string("%-12s%s\n", "ARRAY_ITRF", reference.c_str());
  return text;
}

}  // namespace

std::string format_dada_header(const VoltageHeader& h, int64_t inner_t, const std::string& name) {
  check_writable(h, name);
  const int ndim = h.values_per_sample();
  const int64_t block_bytes = int64_t(h.nchan) * h.nant * inner_t * h.npol * ndim * h.nbits / 8;
  std::string text;
  auto add = [&](const char* key, const std::string& value) {
    text += format_string("%-12s%s\n", key, value.c_str());
  };
  add("HEADER", "DADA");
  add("HDR_VERSION", "1.0");
  add("HDR_SIZE", "@HDR_SIZE@");
  add("INSTRUMENT", "RAPT");
  add("TELESCOPE", token(h.telescope));
  add("SOURCE", token(h.source));
  // A pointing not known (VDIF, a header without RA and DEC) is left out, so that a program
  // reading this file refuses to steer towards RA 0, Dec 0 as the first one did.
  if (h.pointing_known) {
    add("RA", format_right_ascension(h.ra_deg, 4));
    add("DEC", (h.dec_deg >= 0 ? "+" : "") + format_sexagesimal_value(h.dec_deg, 3));
  }
  // A band not known (centre 0: VDIF without --vdif-freq, a header without FREQ) is left out,
  // so that the reader notes it again rather than refusing channels at negative frequencies.
  if (h.centre_freq_mhz > 0) add("FREQ", format_string("%.17g", h.centre_freq_mhz));
  if (h.bandwidth_mhz != 0) add("BW", format_string("%.17g", h.bandwidth_mhz));
  if (h.centre_freq_mhz > 0 && h.bandwidth_mhz != 0)
    add("CHAN_FREQ0", format_string("%.17g", h.channel_freq_mhz(0)));
  add("NCHAN", std::to_string(h.nchan));
  add("NPOL", std::to_string(h.npol));
  add("NDIM", std::to_string(ndim));
  add("NBIT", std::to_string(h.nbits));
  add("NANT", std::to_string(h.nant));
  add("INNER_T", std::to_string(inner_t));
  add("ORDER", "TFATP");
  add("TSAMP", format_string("%.17g", h.tsamp_s * 1e6));
  // A start time not known (a header without UTC_START or MJD_START) is left out too, so that
  // a program that needs one refuses this file as it would the first.
  if (h.start_known()) {
    add("UTC_START", utc_text(h.start_mjd_day, h.start_mjd_seconds));
    add("MJD_START", mjd_text(h.start_mjd_day, h.start_mjd_seconds));
  }
  add("OBS_OFFSET", "0");
  add("POL_BASIS", h.pol_basis == "CIRC" ? "CIRC" : "LIN");
  add("RESOLUTION", std::to_string(block_bytes));
  text += antenna_lines(h.array);
  text += "# end of header\n";
  // One page for most arrays; more for long antenna lists (64 MeerKAT dishes need 4.5 kB).
  // The placeholder is replaced by at most 10 digits; one NUL at least ends the text.
  const size_t pages = (text.size() + 10 + kHeaderPage) / kHeaderPage;
  const std::string hdr_size = std::to_string(pages * kHeaderPage);
  text.replace(text.find("@HDR_SIZE@"), 10, hdr_size);
  text.resize(pages * kHeaderPage, '\0');
  return text;
}

int64_t dada_inner_t(const VoltageHeader& h) {
  const int64_t sample_bytes =
      std::max<int64_t>(1, int64_t(h.nchan) * h.nant * h.npol * h.values_per_sample() * h.nbits / 8);
  int64_t inner_t = kDadaInnerT;
  while (inner_t > 1 && inner_t * sample_bytes > kDadaMostBlockBytes) inner_t /= 2;
  return inner_t;
}

namespace {

class PsrdadaWriter : public VoltageWriter {
 public:
  PsrdadaWriter(const std::string& path, const VoltageHeader& header, bool overwrite)
      : path_(path), header_(header), inner_t_(dada_inner_t(header)) {
    const std::string text = format_dada_header(header, inner_t_, path);
    per_time_ = int64_t(header.npol) * header.values_per_sample();
    nrows_ = int64_t(header.nchan) * header.nant;
    buffer_.resize(size_t(nrows_ * inner_t_ * per_time_) * size_t(header.nbits / 8));
    if (path != "-") out_.emplace(path, overwrite);
    write_bytes(text.data(), text.size());
  }

  void write(const VoltageBlock& block) override {
    const int64_t bytes = header_.nbits / 8;
    if (block.data.size() < header_.block_values(block.nsamples))
      throw file_error(path_, "block of " + std::to_string(block.nsamples) + " samples holds only " +
                                  std::to_string(block.data.size()) + " values");
    for (int64_t done = 0; done < block.nsamples;) {
      const int64_t n = std::min(block.nsamples - done, inner_t_ - fill_);
      for (int64_t r = 0; r < nrows_; ++r)
        clipped_ += encode_voltage_values(
            block.data.data() + (r * block.nsamples + done) * per_time_, size_t(n * per_time_),
            header_.nbits, buffer_.data() + (r * inner_t_ + fill_) * per_time_ * bytes);
      fill_ += n;
      done += n;
      if (fill_ == inner_t_) flush();
    }
  }

  void commit() override {
    if (fill_ > 0) flush();
    if (out_) {
      out_->commit();
    } else if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      throw file_error(path_, "write failed: " + errno_text());
    }
  }

  int64_t clipped_values() const override { return clipped_; }

 private:
  void flush() {
    const size_t row_bytes = size_t(per_time_ * header_.nbits / 8);
    // A short last block: rows close up so its time axis is fill_ samples long.
    for (int64_t r = 1; r < nrows_ && fill_ < inner_t_; ++r)
      std::copy_n(buffer_.begin() + long(r * inner_t_ * row_bytes), fill_ * row_bytes,
                  buffer_.begin() + long(r * fill_ * row_bytes));
    write_bytes(buffer_.data(), size_t(nrows_ * fill_) * row_bytes);
    fill_ = 0;
  }

  void write_bytes(const void* data, size_t nbytes) {
    if (out_) {
      out_->write(data, nbytes);
    } else if (nbytes > 0 && std::fwrite(data, 1, nbytes, stdout) != nbytes) {
      throw file_error(path_, "write failed: " + errno_text());
    }
  }

  std::string path_;
  VoltageHeader header_;
  int64_t inner_t_;                      // samples per block (dada_inner_t)
  std::optional<AtomicOutputFile> out_;  // empty when writing to stdout
  int64_t per_time_ = 0;                 // values per time sample of one row
  int64_t nrows_ = 0;                    // channels x antennas
  int64_t fill_ = 0;                     // samples in buffer_
  int64_t clipped_ = 0;
  std::vector<uint8_t> buffer_;          // one block [chan][ant][time][pol][re,im], encoded
};

}  // namespace

std::unique_ptr<VoltageWriter> make_psrdada_writer(const std::string& path,
                                                   const VoltageHeader& header, bool overwrite) {
  return std::make_unique<PsrdadaWriter>(path, header, overwrite);
}

}  // namespace rapt
