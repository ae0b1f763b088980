#include "accel/plane_segments.hpp"

#include <cmath>

#include "accel/spectrum_normalise.hpp"

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

NormalisationKind normalisation_kind(SpectrumNormalisation normalisation) {
  switch (normalisation) {
    case SpectrumNormalisation::LocalPower:
      return NormalisationKind::LocalPower;
    case SpectrumNormalisation::Photon:
      return NormalisationKind::Photon;
    case SpectrumNormalisation::BlockMedian:
      break;
  }
  return NormalisationKind::BlockMedian;
}

void load_segment_amplitudes(const std::vector<std::complex<float>>& spectrum,
                             const AccelPlan& plan, const PlaneSegment& segment,
                             std::complex<float>* out) {
  const int64_t count = plan.fftlen / kAccelNumBetween;
  const int64_t offset = segment.first_bin - plan.options.lobin;
  const int64_t size = static_cast<int64_t>(spectrum.size());
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = offset + i;
    out[i] = (index >= 0 && index < size) ? spectrum[size_t(index)] : std::complex<float>();
  }
  normalise_block(out, size_t(count), normalisation_kind(plan.options.normalisation),
                  photon_count(spectrum));
}

}  // namespace rapt
