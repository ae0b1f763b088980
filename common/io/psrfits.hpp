// PSRFITS search-mode files through CFITSIO: 1/2/4/8/16/32-bit samples, DAT_SCL, DAT_OFFS,
// DAT_WTS and ZERO_OFF applied, polarisation products summed to total intensity, rows streamed.
// Layout facts: shared reference formats.md section 7.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/spectra_source.hpp"

namespace rapt {

class PsrfitsReader : public SpectraSource {
 public:
  explicit PsrfitsReader(const std::string& path);  // throws DataError naming the file
  ~PsrfitsReader() override;
  PsrfitsReader(const PsrfitsReader&) = delete;
  PsrfitsReader& operator=(const PsrfitsReader&) = delete;

  const ObservationInfo& info() const override { return info_; }
  [[nodiscard]] size_t read(float* out, size_t max_spectra) override;
  size_t skip(size_t spectra) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ObservationInfo info_;
};

}  // namespace rapt
