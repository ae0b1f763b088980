// Writes small synthetic PSRFITS search-mode files with CFITSIO, for reader tests only.
// Header-only so the test build needs no extra source list.
#pragma once
#include <fitsio.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rapt::testing {

// What to write. Stored samples are given as numbers and packed as NBITS and the DATA column
// type say; per-row calibration vectors hold all rows one after another.
struct PsrfitsFixture {
  std::optional<std::string> fitstype = "PSRFITS";  // nullopt: keyword left out
  std::string obs_mode = "SEARCH";
  std::string telescope = "GBT";
  std::string backend = "GUPPI";
  std::string source = "J1234-5678";
  std::string ra = "12:34:30.0";
  std::string dec = "-56:46:30.0";
  long long stt_imjd = 55000;
  long long stt_smjd = 3600;
  double stt_offs = 0.25;
  std::optional<double> be_delay;

  bool write_subint = true;  // false: the binary table is called HISTORY instead
  int nchans = 4;
  int npol = 1;
  int nsblk = 3;
  int nbits = 8;
  int nrows = 2;
  char data_type = 'B';  // TFORM letter of DATA: 'B', 'X', 'I' or 'E'
  std::string pol_type = "AA+BB";
  double tbin_s = 0.001;
  std::optional<double> zero_off;
  std::optional<int> signint;
  std::optional<long long> nsuboffs;
  std::vector<double> freqs_mhz;   // DAT_FREQ; empty: 1400 + c
  std::vector<double> offs_sub_s;  // per row; empty: (row + 0.5) * nsblk * tbin
  std::vector<float> weights;      // [nrows][nchans]; empty: 1
  std::vector<float> offsets;      // [nrows][npol][nchans]; empty: 0
  std::vector<float> scales;       // [nrows][npol][nchans]; empty: 1
  std::vector<double> samples;     // [nrows][nsblk][npol][nchans]

  size_t samples_per_row() const { return size_t(nsblk) * npol * nchans; }
};

// Packs unsigned samples of 1, 2 or 4 bits, first sample in the high bits of each byte.
inline std::vector<uint8_t> pack_msb_first(const double* samples, size_t count, int nbits) {
  std::vector<uint8_t> bytes((count * size_t(nbits) + 7) / 8, 0);
  const size_t per_byte = 8 / size_t(nbits);
  for (size_t i = 0; i < count; ++i) {
    const unsigned shift = unsigned(8 - nbits * int(i % per_byte + 1));
    bytes[i / per_byte] |= uint8_t(unsigned(samples[i]) << shift);
  }
  return bytes;
}

namespace detail {

inline void check(int status, const char* what) {
  if (status == 0) return;
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  fits_clear_errmsg();
  throw std::runtime_error(std::string("psrfits fixture: ") + what + ": " + text);
}

// The stored bytes of one row for 'B' and 'X' columns.
inline std::vector<uint8_t> row_bytes(const PsrfitsFixture& f, const double* samples) {
  const size_t n = f.samples_per_row();
  if (f.nbits < 8) return pack_msb_first(samples, n, f.nbits);
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < n; ++i) {
    const long value = long(samples[i]);
    if (f.nbits == 16) {
      bytes.push_back(uint8_t((value >> 8) & 0xff));  // big-endian pairs
      bytes.push_back(uint8_t(value & 0xff));
    } else {
      bytes.push_back(uint8_t(value & 0xff));  // int8 values keep their bit pattern
    }
  }
  return bytes;
}

inline std::string data_tform(const PsrfitsFixture& f) {
  const size_t n = f.samples_per_row();
  const size_t bytes = (n * size_t(f.nbits) + 7) / 8;
  if (f.data_type == 'X') return std::to_string(bytes * 8) + "X";
  if (f.data_type == 'B') return std::to_string(bytes) + "B";
  return std::to_string(n) + f.data_type;
}

inline void write_primary(fitsfile* fits, const PsrfitsFixture& f) {
  int status = 0;
  fits_create_img(fits, BYTE_IMG, 0, nullptr, &status);
  auto text = [&](const char* key, const std::string& value) {
    fits_update_key(fits, TSTRING, key, const_cast<char*>(value.c_str()), nullptr, &status);
  };
  if (f.fitstype) text("FITSTYPE", *f.fitstype);
  text("OBS_MODE", f.obs_mode);
  text("TELESCOP", f.telescope);
  text("BACKEND", f.backend);
  text("SRC_NAME", f.source);
  text("RA", f.ra);
  text("DEC", f.dec);
  long long imjd = f.stt_imjd, smjd = f.stt_smjd;
  double offs = f.stt_offs;
  fits_update_key(fits, TLONGLONG, "STT_IMJD", &imjd, nullptr, &status);
  fits_update_key(fits, TLONGLONG, "STT_SMJD", &smjd, nullptr, &status);
  fits_update_key(fits, TDOUBLE, "STT_OFFS", &offs, nullptr, &status);
  if (f.be_delay) {
    double delay = *f.be_delay;
    fits_update_key(fits, TDOUBLE, "BE_DELAY", &delay, nullptr, &status);
  }
  check(status, "primary header");
}

inline void write_subint_header(fitsfile* fits, const PsrfitsFixture& f) {
  const std::string nchan = std::to_string(f.nchans);
  const std::string nscale = std::to_string(f.nchans * f.npol);
  std::vector<std::string> names{"TSUBINT", "OFFS_SUB", "TEL_AZ", "TEL_ZEN", "DAT_FREQ",
                                  "DAT_WTS", "DAT_OFFS", "DAT_SCL", "DATA"};
  std::vector<std::string> forms{"1D", "1D", "1D", "1D", nchan + "D", nchan + "E",
                                 nscale + "E", nscale + "E", data_tform(f)};
  std::vector<char*> ttype, tform;
  for (size_t i = 0; i < names.size(); ++i) {
    ttype.push_back(names[i].data());
    tform.push_back(forms[i].data());
  }
  int status = 0;
  const char* extname = f.write_subint ? "SUBINT" : "HISTORY";
  fits_create_tbl(fits, BINARY_TBL, 0, int(names.size()), ttype.data(), tform.data(), nullptr,
                  extname, &status);
  auto integer = [&](const char* key, long long value) {
    fits_update_key(fits, TLONGLONG, key, &value, nullptr, &status);
  };
  integer("NBITS", f.nbits);
  integer("NCHAN", f.nchans);
  integer("NPOL", f.npol);
  integer("NSBLK", f.nsblk);
  double tbin = f.tbin_s;
  fits_update_key(fits, TDOUBLE, "TBIN", &tbin, nullptr, &status);
  fits_update_key(fits, TSTRING, "POL_TYPE", const_cast<char*>(f.pol_type.c_str()), nullptr,
                  &status);
  if (f.zero_off) {
    double zero = *f.zero_off;
    fits_update_key(fits, TDOUBLE, "ZERO_OFF", &zero, nullptr, &status);
  }
  if (f.signint) integer("SIGNINT", *f.signint);
  if (f.nsuboffs) integer("NSUBOFFS", *f.nsuboffs);
  check(status, "SUBINT header");
}

inline void write_row(fitsfile* fits, const PsrfitsFixture& f, int row) {
  const size_t nchans = size_t(f.nchans), nscale = nchans * size_t(f.npol);
  const long long r = row + 1;
  int status = 0;
  double tsubint = f.nsblk * f.tbin_s;
  double offs_sub = f.offs_sub_s.empty() ? (row + 0.5) * tsubint : f.offs_sub_s[size_t(row)];
  double az = 123.5, zen = 12.25;
  fits_write_col(fits, TDOUBLE, 1, r, 1, 1, &tsubint, &status);
  fits_write_col(fits, TDOUBLE, 2, r, 1, 1, &offs_sub, &status);
  fits_write_col(fits, TDOUBLE, 3, r, 1, 1, &az, &status);
  fits_write_col(fits, TDOUBLE, 4, r, 1, 1, &zen, &status);
  std::vector<double> freqs = f.freqs_mhz;
  for (size_t c = freqs.size(); c < nchans; ++c) freqs.push_back(1400.0 + double(c));
  fits_write_col(fits, TDOUBLE, 5, r, 1, nchans, freqs.data(), &status);
  auto row_of = [&](const std::vector<float>& all, size_t n, float fallback) {
    if (all.empty()) return std::vector<float>(n, fallback);
    return std::vector<float>(all.begin() + long(n) * row, all.begin() + long(n) * (row + 1));
  };
  std::vector<float> weights = row_of(f.weights, nchans, 1.0f);
  std::vector<float> offsets = row_of(f.offsets, nscale, 0.0f);
  std::vector<float> scales = row_of(f.scales, nscale, 1.0f);
  fits_write_col(fits, TFLOAT, 6, r, 1, nchans, weights.data(), &status);
  fits_write_col(fits, TFLOAT, 7, r, 1, nscale, offsets.data(), &status);
  fits_write_col(fits, TFLOAT, 8, r, 1, nscale, scales.data(), &status);
  const double* samples = f.samples.data() + f.samples_per_row() * size_t(row);
  if (f.data_type == 'I' || f.data_type == 'E') {
    std::vector<double> values(samples, samples + f.samples_per_row());
    fits_write_col(fits, TDOUBLE, 9, r, 1, values.size(), values.data(), &status);
  } else if (f.data_type == 'X') {
    const std::vector<uint8_t> bytes = row_bytes(f, samples);
    std::vector<char> bits;
    for (size_t k = 0; k < bytes.size() * 8; ++k) {
      bits.push_back(char((bytes[k / 8] >> (7 - k % 8)) & 1));  // FITS bits: MSB first
    }
    fits_write_col_bit(fits, 9, r, 1, long(bits.size()), bits.data(), &status);
  } else {
    std::vector<uint8_t> bytes = row_bytes(f, samples);
    fits_write_col(fits, TBYTE, 9, r, 1, bytes.size(), bytes.data(), &status);
  }
  check(status, "SUBINT row");
}

}  // namespace detail

// Writes `fixture` to `path` (which must not exist yet).
inline void write_psrfits(const std::string& path, const PsrfitsFixture& fixture) {
  if (fixture.samples.size() != fixture.samples_per_row() * size_t(fixture.nrows)) {
    throw std::runtime_error("psrfits fixture: samples do not fill nrows rows");
  }
  fitsfile* fits = nullptr;
  int status = 0;
  fits_create_diskfile(&fits, path.c_str(), &status);
  detail::check(status, "create");
  detail::write_primary(fits, fixture);
  detail::write_subint_header(fits, fixture);
  for (int row = 0; row < fixture.nrows; ++row) detail::write_row(fits, fixture, row);
  fits_close_file(fits, &status);
  detail::check(status, "close");
}

}  // namespace rapt::testing
