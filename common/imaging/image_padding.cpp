#include "imaging/image_padding.hpp"

#include <cmath>
#include <cstddef>

namespace rapt {

int padded_size(int n, double padding) {
  const int p = static_cast<int>(std::ceil(n * padding));
  return p + (4 - p % 4) % 4;
}

namespace {

template <class T>
std::vector<T> centre_of(const T* plane, int p, int n) {
  const size_t border = size_t(p - n) / 2;
  std::vector<T> out(size_t(n) * size_t(n));
  for (size_t y = 0; y < size_t(n); ++y)
    for (size_t x = 0; x < size_t(n); ++x)
      out[y * size_t(n) + x] = plane[(y + border) * size_t(p) + x + border];
  return out;
}

}  // namespace

std::vector<float> central_part(const std::vector<float>& plane, int p, int n) {
  return centre_of(plane.data(), p, n);
}

std::vector<std::complex<float>> central_part(const std::complex<float>* plane, int p, int n) {
  return centre_of(plane, p, n);
}

std::vector<float> padded_plane(const std::vector<float>& image, int n, int p) {
  const size_t border = size_t(p - n) / 2;
  std::vector<float> out(size_t(p) * size_t(p), 0.0f);
  for (size_t y = 0; y < size_t(n); ++y)
    for (size_t x = 0; x < size_t(n); ++x)
      out[(y + border) * size_t(p) + x + border] = image[y * size_t(n) + x];
  return out;
}

}  // namespace rapt
