// PSRFITS search-mode reader: header facts into ObservationInfo, SUBINT rows decoded one at a
// time. CFITSIO's error stack is cleared after every failure and its status turned into text
// for our one-line DataError; nothing is printed from here.
#include "io/psrfits.hpp"

#include <fitsio.h>

#include <algorithm>
#include <optional>

#include "cli/errors.hpp"
#include "io/non_finite_samples.hpp"
#include "io/psrfits_header.hpp"

namespace rapt {

struct PsrfitsReader::Impl {
  std::string path;
  fitsfile* fits = nullptr;
  PsrfitsHeaderFacts header;  // header.info is copied out to info_; the rest is used here
  std::vector<std::string> warnings;

  std::vector<uint8_t> cell_bytes;
  std::vector<float> cell_values;
  std::vector<float> column_buffer;  // DAT_OFFS / DAT_SCL as stored, before spreading over pols
  PsrfitsRowScaling scaling;
  std::vector<float> scratch;
  std::vector<float> row;       // the one decoded row, [nsblk][nchans]
  long long next_row = 1;       // 1-based number of the next row to decode
  size_t row_spectra = 0;       // spectra held in `row` (0 or nsblk)
  size_t row_position = 0;      // spectra of `row` already handed out
  // NaNs and infinities (float data, or bad DAT_SCL and DAT_OFFS) replaced row by row, the
  // first interval's levels from the first row decoded (NonFiniteSamples).
  bool replace_non_finite = true;
  std::optional<NonFiniteSamples> non_finite;

  ~Impl() {
    if (fits) {
      int status = 0;
      fits_close_file(fits, &status);
      fits_clear_errmsg();
    }
  }

  void load_row(long long row_number);
  void read_scaling_column(int column, long long repeat, long long row_number,
                           std::vector<float>& values, const char* name);
};

void PsrfitsReader::Impl::read_scaling_column(int column, long long repeat, long long row_number,
                                              std::vector<float>& values, const char* name) {
  if (column == 0) return;  // absent: the defaults set at open stay
  int status = 0;
  int any_null = 0;
  column_buffer.resize(size_t(repeat));
  fits_read_col(fits, TFLOAT, column, row_number, 1, repeat, nullptr, column_buffer.data(),
                &any_null, &status);
  if (status) {
    throw_cfitsio_error(path, "cannot read " + std::string(name) + " of SUBINT row " +
                                  std::to_string(row_number), status);
  }
  // One value per channel serves every polarisation when the file stores no more.
  const size_t stored = column_buffer.size();
  for (size_t i = 0; i < values.size(); ++i) values[i] = column_buffer[i % stored];
}

void PsrfitsReader::Impl::load_row(long long row_number) {
  read_scaling_column(header.weights_column, header.layout.nchans, row_number, scaling.weights,
                      "DAT_WTS");
  read_scaling_column(header.offsets_column, header.offsets_repeat, row_number, scaling.offsets,
                      "DAT_OFFS");
  read_scaling_column(header.scales_column, header.scales_repeat, row_number, scaling.scales,
                      "DAT_SCL");
  int status = 0;
  int any_null = 0;
  PsrfitsCell cell;
  if (header.data_as_values) {
    fits_read_col(fits, TFLOAT, header.data_column, row_number, 1, header.data_elements, nullptr,
                  cell_values.data(), &any_null, &status);
    cell.values = cell_values.data();
  } else {
    fits_read_col(fits, TBYTE, header.data_column, row_number, 1, header.data_elements, nullptr,
                  cell_bytes.data(), &any_null, &status);
    cell.bytes = cell_bytes.data();
  }
  if (status) {
    throw_cfitsio_error(path, "cannot read DATA of SUBINT row " + std::to_string(row_number),
                        status);
  }
  psrfits_row_intensity(cell, header.layout, scaling, scratch.data(), row.data());
  row_spectra = size_t(header.layout.nsblk);
  row_position = 0;
  if (!replace_non_finite) return;
  if (!non_finite) {
    non_finite.emplace(path, header.layout.nchans);
    non_finite->start_levels(row.data(), std::min(row_spectra, NonFiniteSamples::kLevelSpectra));
  }
  non_finite->replace(row.data(), row_spectra, (row_number - 1) * int64_t(row_spectra));
  non_finite->note_in(warnings);
}

PsrfitsReader::PsrfitsReader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = path;
  m.fits = open_fits_file(path);
  m.header = read_psrfits_header(m.fits, path, m.warnings);
  info_ = m.header.info;

  const PsrfitsSampleLayout& layout = m.header.layout;
  const size_t nchans = size_t(layout.nchans);
  const size_t per_pol = nchans * size_t(layout.npol);
  m.scaling.weights.assign(nchans, 1.0f);
  m.scaling.offsets.assign(per_pol, 0.0f);
  m.scaling.scales.assign(per_pol, 1.0f);
  m.scratch.resize(nchans);
  m.row.resize(size_t(layout.nsblk) * nchans);
  if (m.header.data_as_values) {
    m.cell_values.resize(size_t(m.header.data_elements));
  } else {
    m.cell_bytes.resize(size_t(m.header.data_elements));
  }
}

PsrfitsReader::~PsrfitsReader() = default;

const PsrfitsSampleLayout& PsrfitsReader::layout() const { return impl_->header.layout; }

const std::vector<std::string>& PsrfitsReader::warnings() const { return impl_->warnings; }

void PsrfitsReader::keep_non_finite_samples() { impl_->replace_non_finite = false; }

size_t PsrfitsReader::read(float* out, size_t max_spectra) {
  Impl& m = *impl_;
  const size_t nchans = size_t(m.header.layout.nchans);
  size_t done = 0;
  while (done < max_spectra) {
    if (m.row_position == m.row_spectra) {
      if (m.next_row > m.header.nrows) break;
      m.load_row(m.next_row++);
    }
    const size_t take = std::min(max_spectra - done, m.row_spectra - m.row_position);
    std::copy_n(m.row.data() + m.row_position * nchans, take * nchans, out + done * nchans);
    m.row_position += take;
    done += take;
  }
  return done;
}

size_t PsrfitsReader::skip(size_t spectra) {
  Impl& m = *impl_;
  const size_t nsblk = size_t(m.header.layout.nsblk);
  // First what is left of the decoded row, then whole rows untouched, then part of one row.
  size_t done = std::min(spectra, m.row_spectra - m.row_position);
  m.row_position += done;
  const long long rows_left = m.header.nrows - m.next_row + 1;
  const long long whole_rows = std::min<long long>(rows_left, (spectra - done) / nsblk);
  m.next_row += whole_rows;
  done += size_t(whole_rows) * nsblk;
  const size_t rest = spectra - done;
  if (rest > 0 && m.next_row <= m.header.nrows) {
    m.load_row(m.next_row++);
    m.row_position = rest;
    done += rest;
  }
  return done;
}

}  // namespace rapt
