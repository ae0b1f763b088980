// The padded grid idg-grid images on (--padding): the image is made on a grid larger than the
// one written, and its centre cut out, so that the edge of the written image lies where the
// gridding's taper is still well above zero and its correction exact.
#pragma once
#include <complex>
#include <vector>

namespace rapt {

// The padded size of an n-pixel image: ceil(n x padding), rounded up to a multiple of 4
// (WSClean's rule, so that both weight on the same uv cells). For even n the border,
// (padded - n) / 2 on each side, is whole.
int padded_size(int n, double padding);

// The central n x n pixels of a p x p plane (p - n even, p >= n).
std::vector<float> central_part(const std::vector<float>& plane, int p, int n);
std::vector<std::complex<float>> central_part(const std::complex<float>* plane, int p, int n);

// An n x n image in the centre of a p x p one of zeros (p - n even, p >= n).
std::vector<float> padded_plane(const std::vector<float>& image, int n, int p);

}  // namespace rapt
