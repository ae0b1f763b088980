#include "io/presto_series.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>

#include "cli/errors.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "PRESTO series files are little-endian; this reader assumes a little-endian host"
#endif

namespace rapt {

namespace {

// How error messages name one element of each file kind.
template <typename T>
const char* element_description();
template <>
const char* element_description<float>() {
  return "float32 samples (4 bytes each)";
}
template <>
const char* element_description<int16_t>() {
  return "int16 samples (2 bytes each)";
}
template <>
const char* element_description<Complex64>() {
  return "complex64 values (8 bytes each)";
}

}  // namespace

template <typename T>
RawSeriesReader<T>::RawSeriesReader(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "rb");
  if (!file_) throw file_error(path_, "cannot open: " + errno_text());
  struct stat st;
  if (::fstat(::fileno(file_), &st) != 0 || !S_ISREG(st.st_mode)) {
    std::fclose(file_);
    file_ = nullptr;
    throw file_error(path_, "not a regular file");
  }
  const int64_t bytes = static_cast<int64_t>(st.st_size);
  if (bytes % static_cast<int64_t>(sizeof(T)) != 0) {
    std::fclose(file_);
    file_ = nullptr;
    throw file_error(path_, "size " + std::to_string(bytes) + " bytes is not a whole number of " +
                                element_description<T>());
  }
  size_ = bytes / static_cast<int64_t>(sizeof(T));
}

template <typename T>
RawSeriesReader<T>::~RawSeriesReader() {
  if (file_) std::fclose(file_);
}

template <typename T>
RawSeriesReader<T>::RawSeriesReader(RawSeriesReader&& other) noexcept
    : path_(std::move(other.path_)),
      file_(other.file_),
      size_(other.size_),
      position_(other.position_) {
  other.file_ = nullptr;
}

template <typename T>
size_t RawSeriesReader<T>::read(T* out, size_t max_count) {
  const int64_t left = size_ - position_;
  const size_t wanted =
      left < static_cast<int64_t>(max_count) ? static_cast<size_t>(left) : max_count;
  if (wanted == 0) return 0;
  const size_t got = std::fread(out, sizeof(T), wanted, file_);
  if (got != wanted) {
    if (std::ferror(file_)) throw file_error(path_, "read failed: " + errno_text());
    throw file_error(path_, "file ended after " + std::to_string(position_ + got) + " of " +
                                std::to_string(size_) + " " + element_description<T>() +
                                " (it shrank while being read)");
  }
  position_ += static_cast<int64_t>(got);
  return got;
}

template <typename T>
void RawSeriesReader<T>::seek(int64_t index) {
  if (index < 0 || index > size_)
    throw file_error(
        path_, "cannot seek to element " + std::to_string(index) + " of " + std::to_string(size_));
  if (::fseeko(file_, static_cast<off_t>(index) * static_cast<off_t>(sizeof(T)), SEEK_SET) != 0)
    throw file_error(path_, "seek failed: " + errno_text());
  position_ = index;
}

template <typename T>
std::vector<T> RawSeriesReader<T>::read_rest() {
  std::vector<T> all(static_cast<size_t>(size_ - position_));
  size_t done = 0;
  while (done < all.size()) done += read(all.data() + done, all.size() - done);
  return all;
}

template <typename T>
void RawSeriesWriter<T>::append(const T* data, size_t count) {
  out_.write(data, count * sizeof(T));
  written_ += static_cast<int64_t>(count);
}

template class RawSeriesReader<float>;
template class RawSeriesReader<int16_t>;
template class RawSeriesReader<Complex64>;
template class RawSeriesWriter<float>;
template class RawSeriesWriter<int16_t>;
template class RawSeriesWriter<Complex64>;

std::vector<float> read_dat(const std::string& path) { return DatReader(path).read_rest(); }

std::vector<Complex64> read_fft(const std::string& path) { return FftReader(path).read_rest(); }

std::vector<float> read_sdat_as_float(const std::string& path) {
  const std::vector<int16_t> samples = SdatReader(path).read_rest();
  return std::vector<float>(samples.begin(), samples.end());
}

void write_dat(const std::string& path, const std::vector<float>& samples, bool overwrite) {
  DatWriter out(path, overwrite);
  out.append(samples);
  out.commit();
}

void write_fft(const std::string& path, const std::vector<Complex64>& packed, bool overwrite) {
  FftWriter out(path, overwrite);
  out.append(packed);
  out.commit();
}

void pack_half_spectrum(Complex64* bins, size_t num_packed) {
  bins[0] = Complex64(bins[0].real(), bins[num_packed].real());
}

void unpack_half_spectrum(Complex64* bins, size_t num_packed) {
  const float nyquist = bins[0].imag();
  bins[num_packed] = Complex64(nyquist, 0.0f);
  bins[0] = Complex64(bins[0].real(), 0.0f);
}

std::vector<Complex64> packed_from_half_spectrum(const std::vector<Complex64>& half_spectrum) {
  if (half_spectrum.size() < 2)
    throw std::invalid_argument("a half spectrum needs at least DC and Nyquist bins");
  std::vector<Complex64> packed(half_spectrum.begin(), half_spectrum.end() - 1);
  packed[0] = Complex64(half_spectrum.front().real(), half_spectrum.back().real());
  return packed;
}

std::vector<Complex64> half_spectrum_from_packed(const std::vector<Complex64>& packed) {
  if (packed.empty()) throw std::invalid_argument("a packed spectrum needs at least one value");
  std::vector<Complex64> half(packed.size() + 1);
  std::copy(packed.begin(), packed.end(), half.begin());
  unpack_half_spectrum(half.data(), packed.size());
  return half;
}

}  // namespace rapt
