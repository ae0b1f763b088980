#include "corr/correlator_engine.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "cli/errors.hpp"
#ifdef RAPT_WITH_CUDA
#include "corr/corr_gpu_factory.hpp"
#endif

namespace rapt {

void CorrelatorShape::validate() const {
  if (nchan < 1 || nant < 1) throw UsageError("correlation needs at least one channel and station");
  if (npol != 1 && npol != 2)
    throw UsageError("correlation takes 1 or 2 polarisations, not " + std::to_string(npol));
}

double correlator_useful_ops(const CorrelatorShape& shape, int64_t nsamples) {
  return 8.0 * shape.nproducts() * double(shape.nbaselines()) * shape.nchan * double(nsamples);
}

CorrelatorEngine::CorrelatorEngine(CorrelatorShape shape) : shape_(shape) { shape_.validate(); }

void CorrelatorEngine::accumulate(const float* voltages, int64_t nsamples) {
  if (nsamples < 0) throw std::invalid_argument("accumulate: negative number of samples");
  if (nsamples == 0) return;
  add(voltages, nsamples);
  samples_ += nsamples;
}

void CorrelatorEngine::take(std::vector<std::complex<double>>& visibilities) {
  visibilities.assign(shape_.nvis(), {0.0, 0.0});
  read_and_reset(visibilities.data());
  samples_ = 0;
}

std::unique_ptr<CorrelatorEngine> make_gpu_correlator(const CorrelatorShape& shape, int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_correlator(shape, gpu_index);
#else
  (void)shape, (void)gpu_index;
  throw UsageError("the GPU engine needs a build with CUDA");
#endif
}

// IEEE binary16 keeps 11 significant bits down to 2^-14 and a fixed quantum of 2^-24 below it.
// Normal range: round the float's 23-bit fraction to 10 bits, to nearest with ties to even, on
// the bits (a carry into the exponent is the right answer). Below 2^-14: adding 0.5, whose ulp
// is 2^-24, rounds to that quantum in the FPU's default mode (to nearest, ties to even), and
// subtracting it again is exact.
float round_to_half(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t sign = bits & 0x80000000u;
  const uint32_t magnitude = bits ^ sign;
  if (magnitude >= 0x7f800000u) return value;  // infinity, NaN
  float rounded;
  if (magnitude < 0x38800000u) {  // below 2^-14
    volatile float shifted = std::fabs(value) + 0.5f;  // volatile: the rounding must happen
    rounded = shifted - 0.5f;
  } else {
    const uint32_t r = (magnitude + 0xfffu + ((magnitude >> 13) & 1u)) & ~0x1fffu;
    std::memcpy(&rounded, &r, sizeof rounded);
  }
  if (rounded > 65504.0f) rounded = std::numeric_limits<float>::infinity();
  return sign ? -rounded : rounded;
}

int8_t round_to_int8(float value, bool* clamped) {
  const float r = std::nearbyint(value);
  if (!(r >= -127.0f && r <= 127.0f)) {  // NaN lands here too
    if (clamped) *clamped = true;
    return std::isnan(r) ? 0 : r < 0 ? -127 : 127;
  }
  if (clamped) *clamped = false;
  return static_cast<int8_t>(r);
}

}  // namespace rapt
