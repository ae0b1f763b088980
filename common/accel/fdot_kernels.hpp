// The spectra of the f-fdot response kernels, one per plane row, ready to multiply with a
// segment's spectrum: convolving the (half-bin spread) Fourier amplitudes with kernel z gives
// the amplitudes a signal drifting by z bins would have, at every half bin.
//
// Layout of each kernel before its FFT: point n (n = -2t .. 2t-1, t = the kernel's own
// half-width) holds fdot_response_coefficient(n / 2, z) at index n mod fftlen, so the product
// of spectra is a circular convolution whose output index j holds r = first_bin + j / 2.
#pragma once
#include <complex>
#include <vector>

#include "accel/accel_plan.hpp"

namespace rapt {

struct FdotKernelBank {
  int fftlen = 0;
  int numz = 0;
  std::vector<std::complex<float>> spectra;  // [row][fftlen], forward FFT, unnormalised

  const std::complex<float>* row(int r) const { return spectra.data() + size_t(r) * fftlen; }
};

// Built in double precision (coefficients and FFT), stored as float. Plans FFTs, so call it
// from one thread at a time (FFTW's planner is not thread-safe).
FdotKernelBank make_fdot_kernel_bank(const AccelPlan& plan);

}  // namespace rapt
