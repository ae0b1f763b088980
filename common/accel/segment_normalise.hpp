// Normalisation of one segment's Fourier amplitudes before correlation, as accelsearch does it
// per segment: so that noise powers have mean 1.
#pragma once
#include <complex>
#include <cstddef>

#include "accel/accel_plan.hpp"

namespace rapt {

// The factor a segment's amplitudes are multiplied by. BlockMedian: 1/sqrt(median power / ln 2)
// over the `count` amplitudes, the median being PRESTO's (element (count-1)/2 of the sorted
// powers). Photon: 1/sqrt(photon_count).
double segment_amplitude_scale(const std::complex<float>* amplitudes, size_t count,
                               SpectrumNormalisation kind, float photon_count);

}  // namespace rapt
