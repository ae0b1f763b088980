// SIGPROC header writing (formats.md 1.1-1.2): only keywords PRESTO's C reader accepts, in the
// order SIGPROC's own writer uses, so that every common reader takes our files.
#include <cstring>

#include "io/sigproc.hpp"

namespace rapt {

namespace {

// PRESTO keeps strings in an 80-byte buffer with a terminating NUL.
constexpr size_t kMaxWrittenStringBytes = 79;

class HeaderEncoder {
 public:
  void token(const std::string& text) {
    const std::string clipped = text.substr(0, kMaxWrittenStringBytes);
    little_endian(uint64_t(clipped.size()), 4);
    bytes_.insert(bytes_.end(), clipped.begin(), clipped.end());
  }
  void string_value(const char* keyword, const std::string& value) {
    if (value.empty()) return;  // a zero-length token is an error to SIGPROC and PRESTO
    token(keyword);
    token(value);
  }
  void int_value(const char* keyword, int value) {
    token(keyword);
    little_endian(uint64_t(uint32_t(value)), 4);
  }
  void double_value(const char* keyword, double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    token(keyword);
    little_endian(bits, 8);
  }
  void byte_value(const char* keyword, int8_t value) {
    token(keyword);
    bytes_.push_back(uint8_t(value));
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  void little_endian(uint64_t v, int nbytes) {
    for (int i = 0; i < nbytes; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  std::vector<uint8_t> bytes_;
};

}  // namespace

std::vector<uint8_t> encode_sigproc_header(const SigprocHeader& h) {
  HeaderEncoder e;
  e.token("HEADER_START");
  e.string_value("rawdatafile", h.rawdatafile);
  e.string_value("source_name", h.source_name);
  if (h.machine_id >= 0) e.int_value("machine_id", h.machine_id);
  if (h.telescope_id >= 0) e.int_value("telescope_id", h.telescope_id);
  e.double_value("src_raj", h.src_raj);
  e.double_value("src_dej", h.src_dej);
  e.double_value("az_start", h.az_start);
  e.double_value("za_start", h.za_start);
  e.int_value("data_type", h.data_type);
  if (h.refdm) e.double_value("refdm", *h.refdm);
  e.double_value("fch1", h.fch1);
  e.double_value("foff", h.foff);
  e.int_value("nchans", h.nchans);
  if (h.nbeams > 0) {
    e.int_value("nbeams", h.nbeams);
    e.int_value("ibeam", h.ibeam);
  }
  e.int_value("nbits", h.nbits);
  // Only -1 means int8 to both SIGPROC and PRESTO; unsigned data carries no `signed` at all.
  if (h.samples_signed()) e.byte_value("signed", -1);
  if (h.barycentric) e.int_value("barycentric", 1);
  if (h.pulsarcentric) e.int_value("pulsarcentric", 1);
  e.double_value("tstart", h.tstart);
  e.double_value("tsamp", h.tsamp);
  e.int_value("nifs", h.nifs);
  e.token("HEADER_END");
  return e.take();
}

}  // namespace rapt
