// Launchers for the acceleration-search kernels (gpu/accel/accel_kernels.cu). All work on one
// stream; pointers are device pointers. Complex values are float2 (re, im). The plane's
// powers are float or __half (accelgpu --fp16); each launcher that touches the plane exists
// for both.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::cuda {

// Per segment: bin of its first amplitude, first plane column it writes, and the column it
// must not reach (warm-up segments stop where the searched plane begins).
struct AccelSegmentGeometry {
  int64_t first_bin;
  int64_t first_column;
  int64_t column_limit;
};

// One hit of the harmonic-sum search, as the device writes it.
struct AccelDeviceHit {
  int64_t column;
  float power;
  int16_t stage;
  int16_t row;
};

// Copies each segment's `half` amplitudes from the spectrum (zero outside it; spectrum[i] is
// Fourier bin lobin + i), scales them by 1/sqrt(median power / ln 2) when `block_median`
// (PRESTO's median: the mean of the middle two sorted powers, as half is even), and writes them to
// amplitudes[segment][half].
void launch_load_segments(const float2* spectrum, int64_t numbins, int64_t lobin,
                          const AccelSegmentGeometry* segments, int nsegments, int half,
                          bool block_median, float2* amplitudes, cudaStream_t stream);

// The correlation for fftlen 2048, 4096 and 10240 (every zmax up to 1200): for each segment and
// group of rows one block multiplies the segment's spectrum by each row's kernel spectrum, runs
// the inverse FFT in registers and shared memory and stores the good powers, so no complex
// intermediate goes through device memory.
bool fused_correlation_supported(int fftlen);
template <typename Power>
void launch_correlate_fused(const float2* segment_spectra, const float2* kernels,
                            const AccelSegmentGeometry* segments, int nsegments, int numz,
                            int fftlen, int offset, int uselen, float scale, Power* plane,
                            int64_t plane_columns, cudaStream_t stream);

// harmsum's fast path: plane row 0 from the normalised amplitudes without correlation: whole
// bins |A_k|^2 and interbins |A_k - A_k+1|^2 / 2, for amplitude k = first_amplitude + i/2.
template <typename Power>
void launch_interbin_powers(const float2* amplitudes, const AccelSegmentGeometry* segments,
                            int nsegments, int half, int first_amplitude, int uselen,
                            Power* plane, int64_t plane_columns, cudaStream_t stream);

// Staged harmonic sums over the searched columns [first_column, first_column + ncolumns) of
// every row; each sum above its stage's cut is appended to hits (count in *hit_count; hits past
// max_hits are counted but not written). sub_rows is the table of sub-harmonic rows: entry
// [stage][harm / 2][row] at ((stage * 16 + harm / 2) * numz + row).
template <typename Power>
void launch_harmonic_search(const Power* plane, int64_t plane_columns, int numz,
                            int64_t first_column, int64_t ncolumns, int nstages,
                            const float* powcut, const int* sub_rows, AccelDeviceHit* hits,
                            unsigned long long* hit_count, unsigned long long max_hits,
                            cudaStream_t stream);

}  // namespace rapt::cuda
