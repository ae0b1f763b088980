// PSRFITS search-mode files through CFITSIO: 1/2/4/8/16/32-bit samples, DAT_SCL, DAT_OFFS,
// DAT_WTS and ZERO_OFF applied, polarisation products summed to total intensity, rows streamed.
// Layout facts: shared reference formats.md section 7.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/spectra_source.hpp"

namespace rapt {

// How the stored samples of every SUBINT row become total intensity; fixed for a whole file.
// A row's DATA cell holds [nsblk][npol][nchans] samples, channels fastest.
struct PsrfitsSampleLayout {
  int nchans = 0;
  int npol = 1;
  int nsblk = 0;              // spectra per row
  int nbits = 8;              // 1, 2, 4, 8, 16 or 32
  bool int8_samples = false;  // 8-bit samples are two's complement (SIGNINT = 1)
  float zero_offset = 0.0f;   // |ZERO_OFF|, subtracted from every stored sample
  int first_pol = 0;          // products first_pol .. first_pol + pols_summed - 1 are summed
  int pols_summed = 1;

  size_t samples_per_row() const { return size_t(nsblk) * size_t(npol) * size_t(nchans); }
};

// One row's calibration columns: weights [nchans] (DAT_WTS), offsets and scales
// [npol][nchans] (DAT_OFFS, DAT_SCL).
struct PsrfitsRowScaling {
  std::vector<float> weights;
  std::vector<float> offsets;
  std::vector<float> scales;
};

// Unpacks `count` stored samples, starting at sample index `first`, from a DATA cell kept as
// bytes: 1/2/4-bit unsigned packed first-sample-in-the-high-bits, 8-bit unsigned (or int8),
// 16-bit big-endian int16 (byte-pair storage). Raw numbers; nothing applied.
void unpack_psrfits_samples(const uint8_t* cell, int nbits, bool int8_samples, size_t first,
                            size_t count, float* out);

// One row's DATA cell: bytes for nbits <= 8 (and 16-bit stored as byte pairs), or the sample
// values already converted to float (16-bit 'I' and 32-bit 'E' columns).
struct PsrfitsCell {
  const uint8_t* bytes = nullptr;
  const float* values = nullptr;
};

// Total intensity of one row, time-major out[s * nchans + c]:
//   sum over the summed products p of ((raw - zero_offset) * scales[p][c] + offsets[p][c])
//   * weights[c].  `scratch` holds nchans floats.
void psrfits_row_intensity(const PsrfitsCell& cell, const PsrfitsSampleLayout& layout,
                           const PsrfitsRowScaling& scaling, float* scratch, float* out);

class PsrfitsReader : public SpectraSource {
 public:
  explicit PsrfitsReader(const std::string& path);  // throws DataError naming the file
  ~PsrfitsReader() override;
  PsrfitsReader(const PsrfitsReader&) = delete;
  PsrfitsReader& operator=(const PsrfitsReader&) = delete;

  const ObservationInfo& info() const override { return info_; }
  const PsrfitsSampleLayout& layout() const;
  // Lines about header values that were unusable and replaced (RA, DEC, NCHNOFFS).
  const std::vector<std::string>& warnings() const override;
  [[nodiscard]] size_t read(float* out, size_t max_spectra) override;
  size_t skip(size_t spectra) override;  // whole rows are passed over without reading them
  void keep_non_finite_samples() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ObservationInfo info_;
};

}  // namespace rapt
