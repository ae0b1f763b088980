// GUPPI RAW writer: one antenna, 8-bit complex, channel-major ('1SFA') blocks, no overlap.
// Blocks hold about 64 MiB (fewer samples when the header says the file is shorter); the last
// block holds what is left and says so in its own BLOCSIZE.
#include <algorithm>
#include <cmath>
#include <optional>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_stream.hpp"
#include "io/voltage_text.hpp"

namespace rapt {

namespace {

constexpr int64_t kTargetBlockBytes = int64_t(64) << 20;

std::string card(const std::string& key, const std::string& value) {
  std::string line = format_string("%-8.8s= %s", key.c_str(), value.c_str());
  line.resize(80, ' ');
  return line;
}

std::string string_card(const std::string& key, std::string value) {
  std::replace(value.begin(), value.end(), '\'', '"');
  value.resize(std::min<size_t>(std::max<size_t>(value.size(), 8), 66), ' ');
  return card(key, "'" + value + "'");
}

std::string number_card(const std::string& key, const std::string& value) {
  return card(key, format_string("%20s", value.c_str()));
}

std::string integer_card(const std::string& key, int64_t value) {
  return number_card(key, std::to_string(value));
}

std::string real_card(const std::string& key, double value) {
  return number_card(key, format_string("%.17g", value));
}

class GuppiWriter : public VoltageWriter {
 public:
  GuppiWriter(const std::string& path, const VoltageHeader& header, bool overwrite)
      : path_(path), header_(header) {
    if (header.nant != 1 || !header.complex_samples || header.nchan < 1 ||
        (header.npol != 1 && header.npol != 2))
      throw file_error(path, "GUPPI RAW output needs one antenna, 1 or 2 polarisations and "
                             "complex samples");
    if (!(header.tsamp_s > 0)) throw file_error(path, "GUPPI RAW output needs a positive TBIN");
    if (!mjd_in_range(header.start_mjd_day, header.start_mjd_seconds))
      throw file_error(path, "GUPPI RAW output start time is out of range");
    bytes_per_time_ = int64_t(header.nchan) * header.npol * 2;
    block_ntime_ = std::max<int64_t>(1, kTargetBlockBytes / bytes_per_time_);
    if (header.nsamples > 0) block_ntime_ = std::min(block_ntime_, header.nsamples);
    buffer_.resize(size_t(block_ntime_ * bytes_per_time_));
    out_.emplace(path, overwrite);
  }

  void write(const VoltageBlock& block) override {
    const int64_t per_time = int64_t(header_.npol) * 2;
    for (int64_t done = 0; done < block.nsamples;) {
      const int64_t n = std::min(block.nsamples - done, block_ntime_ - fill_);
      for (int64_t c = 0; c < header_.nchan; ++c)
        clipped_ += encode_voltage_values(
            block.data.data() + (c * block.nsamples + done) * per_time, size_t(n * per_time), 8,
            buffer_.data() + (c * block_ntime_ + fill_) * per_time);
      fill_ += n;
      done += n;
      if (fill_ == block_ntime_) flush();
    }
  }

  void commit() override {
    if (fill_ > 0) flush();
    out_->commit();
  }

  int64_t clipped_values() const override { return clipped_; }

 private:
  void flush() {
    const int64_t per_time = int64_t(header_.npol) * 2;
    if (fill_ < block_ntime_)  // channel rows of a short last block close up
      for (int64_t c = 1; c < header_.nchan; ++c)
        std::copy(buffer_.begin() + c * block_ntime_ * per_time,
                  buffer_.begin() + (c * block_ntime_ + fill_) * per_time,
                  buffer_.begin() + c * fill_ * per_time);
    out_->write(block_header(fill_ * bytes_per_time_));
    out_->write(buffer_.data(), size_t(fill_ * bytes_per_time_));
    samples_written_ += fill_;
    fill_ = 0;
  }

  std::string block_header(int64_t blocsize) const;

  std::string path_;
  VoltageHeader header_;
  std::optional<AtomicOutputFile> out_;
  int64_t bytes_per_time_ = 0;   // one time sample of all channels and polarisations
  int64_t block_ntime_ = 0;
  int64_t fill_ = 0;             // samples in buffer_
  int64_t samples_written_ = 0;
  int64_t clipped_ = 0;
  std::vector<uint8_t> buffer_;  // [chan][time][pol][re,im] int8
};

std::string GuppiWriter::block_header(int64_t blocsize) const {
  const VoltageHeader& h = header_;
  int mjd_day = h.start_mjd_day;
  double seconds = h.start_mjd_seconds;
  normalise_mjd(mjd_day, seconds);
  const double whole_seconds = std::floor(seconds);
  const double chan_bw_mhz = h.bandwidth_mhz / h.nchan;
  std::string text;
  text += string_card("BACKEND", "GUPPI");
  text += string_card("TELESCOP", h.telescope.empty() ? "unknown" : h.telescope);
  text += string_card("SRC_NAME", h.source.empty() ? "unknown" : h.source);
  if (h.pointing_known) {  // left out when not known, as in the PSRDADA writer
    text += real_card("RA", h.ra_deg);
    text += real_card("DEC", h.dec_deg);
    text += string_card("RA_STR", format_right_ascension(h.ra_deg, 4));
    text += string_card("DEC_STR", format_sexagesimal_value(h.dec_deg, 4));
  }
  text += real_card("OBSFREQ", h.centre_freq_mhz);
  text += real_card("OBSBW", h.bandwidth_mhz);
  text += real_card("CHAN_BW", chan_bw_mhz);
  text += integer_card("OBSNCHAN", h.nchan);
  text += integer_card("NPOL", h.npol * 2);
  text += integer_card("NBITS", 8);
  text += real_card("TBIN", h.tsamp_s);
  text += string_card("FD_POLN", h.pol_basis);
  text += integer_card("STT_IMJD", mjd_day);
  text += integer_card("STT_SMJD", int64_t(whole_seconds));
  text += real_card("STT_OFFS", seconds - whole_seconds);
  // One packet = one time sample of every channel, so PKTIDX counts samples.
  text += integer_card("PKTIDX", samples_written_);
  text += integer_card("PKTSIZE", bytes_per_time_);
  text += string_card("PKTFMT", "1SFA");
  text += integer_card("OVERLAP", 0);
  text += integer_card("DIRECTIO", 0);
  text += integer_card("BLOCSIZE", blocsize);
  text += std::string("END").append(77, ' ');
  return text;
}

}  // namespace

std::unique_ptr<VoltageWriter> make_guppi_writer(const std::string& path,
                                                 const VoltageHeader& header, bool overwrite) {
  return std::make_unique<GuppiWriter>(path, header, overwrite);
}

}  // namespace rapt
