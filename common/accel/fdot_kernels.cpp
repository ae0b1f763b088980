#include "accel/fdot_kernels.hpp"

#include <fftw3.h>

#include "accel/fourier_response.hpp"

namespace rapt {
FdotKernelBank make_fdot_kernel_bank(const AccelPlan& plan) {
  FdotKernelBank bank;
  bank.fftlen = plan.fftlen;
  bank.numz = plan.numz;
  bank.spectra.resize(size_t(plan.numz) * plan.fftlen);
  const int n = plan.fftlen;
  fftw_complex* buffer = fftw_alloc_complex(n);
  fftw_plan forward = fftw_plan_dft_1d(n, buffer, buffer, FFTW_FORWARD, FFTW_ESTIMATE);
  for (int row = 0; row < plan.numz; ++row) {
    const double z = plan.row_z(row);
    const int halfwidth = z_response_halfwidth(z, ResponseAccuracy::Low);
    for (int i = 0; i < n; ++i) buffer[i][0] = buffer[i][1] = 0.0;
    for (int point = -kAccelNumBetween * halfwidth; point < kAccelNumBetween * halfwidth;
         ++point) {
      const std::complex<double> c =
          fdot_response_coefficient(static_cast<double>(point) / kAccelNumBetween, z);
      const int index = (point % n + n) % n;
      buffer[index][0] = c.real();
      buffer[index][1] = c.imag();
    }
    fftw_execute(forward);
    std::complex<float>* out = bank.spectra.data() + size_t(row) * n;
    for (int i = 0; i < n; ++i) {
      out[i] = std::complex<float>(float(buffer[i][0]), float(buffer[i][1]));
    }
  }
  fftw_destroy_plan(forward);
  fftw_free(buffer);
  return bank;
}

}  // namespace rapt
