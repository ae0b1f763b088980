// How the engine tests compare two engines' images: the difference times taper(x) taper(y)
// against the peak, since dividing by the taper multiplies the outermost pixels by up to 1e6,
// where any two FP32 FFT implementations then differ by about 1e-2 of the peak (measured,
// cuFFT against FFTW): an amplified rounding error rather than a difference of method. Likewise
// a model that is degridded holds an image only where 1 / taper <= 100.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/errors.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_taper.hpp"

namespace rapt::testing {

struct ImageDifference {
  double diff = 0, peak = 0;  // max |a - b| taper(x) taper(y); max |a|
  std::string where;          // the pixel of the largest difference, for failure messages
};

// Over every pixel and polarisation.
inline ImageDifference tapered_difference(const IdgSettings& s, const IdgImage& a, const IdgImage& b) {
  const std::vector<double> taper = idg_image_taper(s.subgrid_size, s.grid_size);
  const int n = s.grid_size;
  ImageDifference d;
  for (int p = 0; p < a.npol; ++p)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const size_t i = (size_t(p) * n + y) * n + x;
        const double t = taper[size_t(x)] * taper[size_t(y)];
        d.peak = std::max(d.peak, double(std::abs(a.pixels[i])));
        const double e = double(std::abs(a.pixels[i] - b.pixels[i])) * t;
        if (e > d.diff) {
          d.diff = e;
          d.where = "pol " + std::to_string(p) + " x " + std::to_string(x) + " y " + std::to_string(y) +
                    " taper " + std::to_string(t);
        }
      }
  return d;
}

// `image` where 1 / (taper(x) taper(y)) <= 100, 0 elsewhere.
inline IdgImage trusted_part(const IdgSettings& s, IdgImage image) {
  const std::vector<double> taper = idg_image_taper(s.subgrid_size, s.grid_size);
  const int n = s.grid_size;
  for (int p = 0; p < image.npol; ++p)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        if (taper[size_t(x)] * taper[size_t(y)] < 0.01) image.plane(p)[size_t(y) * n + x] = 0;
  return image;
}

// max |a - b| and max |a| over two engines' predicted visibilities.
inline std::pair<double, double> prediction_difference(const std::vector<std::complex<float>>& a,
                                                       const std::vector<std::complex<float>>& b) {
  double error = 0, largest = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    largest = std::max(largest, double(std::abs(a[i])));
    error = std::max(error, double(std::abs(a[i] - b[i])));
  }
  return {error, largest};
}

// The GPU engine on device 0, or null where none can be made (no CUDA build, no device, too
// little memory): the GPU tests then skip.
inline std::unique_ptr<IdgEngine> gpu_engine_or_null(const IdgSettings& s) {
  try {
    return make_gpu_idg_engine(s, 0);
  } catch (const UsageError&) {
    return nullptr;
  } catch (const DataError&) {
    return nullptr;
  }
}

}  // namespace rapt::testing
