// Launchers of the channeliser's kernels (gpu/ppf/ppf_kernels.cu); the FFT between them is
// cuFFT's (gpu/ppf/ppf_gpu_pipeline.cpp).
//
// Layouts on the device, for a chunk of F output frames (T = F L input samples), with
// pairs = nchan_in x nant and W = npol x (2 complex, 1 real) floats per (pair, time):
//   input     [pair][T][W] floats: the canonical block
//   history   [pair][H][W] floats, H = (ntaps - 1) L: the input samples just before the chunk
//   FIR out   [pair][pol][F][L] complex (float2) or real (float): one FFT input per row
//   spectra   [pair][pol][F][bins] float2, bins = L (complex) or L/2 + 1 (real, R2C)
//   output    [chan_out][ant][F][pol] float2: the canonical channelised block
//   factors   [rows][chan_out] float2: rows 0 (none), 1 (gains) or nant (delays and gains)
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace rapt::gpu {

struct PfbFirParams {
  int64_t pairs = 0;
  int npol = 2;
  bool complex_input = true;
  int frame = 0;           // L
  int ntaps = 0;           // M
  int64_t nframes = 0;     // F
};

// The FIR of every stream: `fir` receives F frames per (pair, pol) row. `coefficients` on the
// device (ntaps x L floats). Streams are read from `history` before the chunk's first sample.
void launch_pfb_fir(const float* input, const float* history, const float* coefficients,
                    float* fir, const PfbFirParams& params, cudaStream_t stream);

// The history after the chunk: the last H samples of (history, input) into `next_history`.
void launch_pfb_history(const float* input, const float* history, float* next_history,
                        const PfbFirParams& params, cudaStream_t stream);

struct PfbPostParams {
  int nchan_in = 1;
  int nant = 1;
  int npol = 2;
  int nfine = 0;           // P
  int bins = 0;            // complex values per spectrum row
  int64_t nframes = 0;     // F
  int bin_mode = 0;        // 0: bin j (real); 1: (j - P/2) mod P; 2: (P/2 - j) mod P
  bool conjugate = false;  // real input of an inverted band
  int factor_rows = 0;     // 0, 1 or nant
};

// Spectra into the canonical output: each fine channel's bin, conjugated and corrected.
void launch_pfb_post(const float2* spectra, const float2* factors, float2* out,
                     const PfbPostParams& params, cudaStream_t stream);

}  // namespace rapt::gpu
