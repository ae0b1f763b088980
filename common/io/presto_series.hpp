// PRESTO's raw series files, all headerless and native little-endian (formats.md 2.1, 3):
//   .dat   float32 samples (N of them, N in the .inf beside it)
//   .sdat  int16 samples (read only; accelsearch and prepfold accept them)
//   .fft   N/2 complex64 values of the unnormalised forward FFT of an N-sample .dat, with the
//          real DC value in element 0's real part and the real Nyquist value in its imaginary part
// Readers read blocks or everything; writers append blocks through an AtomicOutputFile, so a
// file appears under its name only when commit() succeeds.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"

namespace rapt {

using Complex64 = std::complex<float>;

// Reads a file of fixed-size elements (T = float, int16_t or Complex64) in blocks.
template <typename T>
class RawSeriesReader {
 public:
  // Throws DataError naming `path` if it cannot be opened or its size is not a whole number of
  // elements.
  explicit RawSeriesReader(std::string path);
  ~RawSeriesReader();
  RawSeriesReader(const RawSeriesReader&) = delete;
  RawSeriesReader& operator=(const RawSeriesReader&) = delete;
  RawSeriesReader(RawSeriesReader&& other) noexcept;
  RawSeriesReader& operator=(RawSeriesReader&&) = delete;

  int64_t size() const { return size_; }          // elements in the file
  int64_t position() const { return position_; }  // next element read() returns
  const std::string& path() const { return path_; }

  // Reads up to `max_count` elements; returns how many (0 only at the end). A file that ends
  // early (shrank while open) or fails to read throws DataError.
  [[nodiscard]] size_t read(T* out, size_t max_count);
  // Moves to element `index` (0..size()); throws DataError outside that range.
  void seek(int64_t index);
  // Everything from position() to the end.
  std::vector<T> read_rest();

 private:
  std::string path_;
  FILE* file_ = nullptr;
  int64_t size_ = 0;
  int64_t position_ = 0;
};

// Appends elements to a new file; nothing appears under `path` until commit().
template <typename T>
class RawSeriesWriter {
 public:
  RawSeriesWriter(const std::string& path, bool overwrite) : out_(path, overwrite) {}
  void append(const T* data, size_t count);
  void append(const std::vector<T>& data) { append(data.data(), data.size()); }
  int64_t count_written() const { return written_; }
  void commit() { out_.commit(); }
  const std::string& path() const { return out_.path(); }

 private:
  AtomicOutputFile out_;
  int64_t written_ = 0;
};

using DatReader = RawSeriesReader<float>;
using SdatReader = RawSeriesReader<int16_t>;
using FftReader = RawSeriesReader<Complex64>;
using DatWriter = RawSeriesWriter<float>;
using FftWriter = RawSeriesWriter<Complex64>;

extern template class RawSeriesReader<float>;
extern template class RawSeriesReader<int16_t>;
extern template class RawSeriesReader<Complex64>;
extern template class RawSeriesWriter<float>;
extern template class RawSeriesWriter<int16_t>;
extern template class RawSeriesWriter<Complex64>;

// Whole-file conveniences.
std::vector<float> read_dat(const std::string& path);
std::vector<float> read_sdat_as_float(const std::string& path);
std::vector<Complex64> read_fft(const std::string& path);
void write_dat(const std::string& path, const std::vector<float>& samples, bool overwrite);
void write_fft(const std::string& path, const std::vector<Complex64>& packed, bool overwrite);

// Conversions between a real FFT's half spectrum (bins 0..N/2, N/2+1 values, as FFTW's r2c
// and numpy.fft.rfft give) and PRESTO's packed N/2 values.
// In place: `bins` holds num_packed + 1 values; afterwards the first num_packed hold PRESTO's
// layout (bins[0] = (DC, Nyquist)); bins[num_packed] is left as it was.
void pack_half_spectrum(Complex64* bins, size_t num_packed);
// In place: `bins` has room for num_packed + 1 values, the first num_packed in PRESTO's layout;
// afterwards they hold the half spectrum with real DC and Nyquist bins.
void unpack_half_spectrum(Complex64* bins, size_t num_packed);
// Copying versions; throw std::invalid_argument on an empty input.
std::vector<Complex64> packed_from_half_spectrum(const std::vector<Complex64>& half_spectrum);
std::vector<Complex64> half_spectrum_from_packed(const std::vector<Complex64>& packed);

}  // namespace rapt
