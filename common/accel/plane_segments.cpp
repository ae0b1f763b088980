#include "accel/plane_segments.hpp"

#include <cmath>
#include <vector>

#include "accel/segment_normalise.hpp"

namespace rapt {

PlaneSegment plane_segment(const AccelPlan& plan, double start_r) {
  PlaneSegment segment;
  const int64_t first_r = static_cast<int64_t>(std::floor(start_r));
  segment.first_bin = first_r - plan.kernel_halfwidth;
  segment.first_column = first_r * kAccelNumBetween;
  return segment;
}

std::vector<PlaneSegment> plane_build_segments(const AccelPlan& plan) {
  std::vector<PlaneSegment> segments;
  for (double r : plan.warmup_segment_starts()) segments.push_back(plane_segment(plan, r));
  for (double r : plan.search_segment_starts()) segments.push_back(plane_segment(plan, r));
  return segments;
}

void load_segment_amplitudes(const std::vector<std::complex<float>>& spectrum,
                             const AccelPlan& plan, const PlaneSegment& segment,
                             std::complex<float>* out) {
  const int64_t count = plan.fftlen / kAccelNumBetween;
  const int64_t offset = segment.first_bin - plan.options.lobin;
  const int64_t size = static_cast<int64_t>(spectrum.size());
  auto amplitude = [&](int64_t i) {
    const int64_t index = offset + i;
    return (index >= 0 && index < size) ? spectrum[size_t(index)] : std::complex<float>();
  };
  std::vector<std::complex<float>> block(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) block[size_t(i)] = amplitude(i);
  const double scale = segment_amplitude_scale(block.data(), block.size(),
                                               plan.options.normalisation,
                                               spectrum.empty() ? 0.0f : spectrum[0].real());
  for (int64_t i = 0; i < count; ++i) {
    out[i] = std::complex<float>(float(block[size_t(i)].real() * scale),
                                 float(block[size_t(i)].imag() * scale));
  }
}

}  // namespace rapt
