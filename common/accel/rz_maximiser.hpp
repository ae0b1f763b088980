// Batched (r, z) maximisation for candidate optimisation: every start runs the two simplex
// passes of rz_optimise.hpp (maximise_rz_point). The CPU maximiser runs the starts on threads;
// the GPU one (rz_maximiser_gpu_factory.hpp) gives each start a thread block. Host code measures
// the maxima afterwards (rz_maximum_at, harmonic_rz_maximum_at).
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "accel/rz_optimise.hpp"

namespace rapt {

struct RzStart {
  double r = 0.0;  // fundamental start, in the spectrum's own bins
  double z = 0.0;
  // Harmonic n's raw power is divided by power_norms[n-1], n = 1 .. power_norms.size(): the
  // start's local powers for harmonic polishing (max_rz_arr_harmonics), {1} for one harmonic's
  // raw power (max_rz_arr).
  std::vector<double> power_norms;
};

// Polishing start (local powers at n r, n z) and single-harmonic start.
RzStart harmonic_rz_start(const std::complex<float>* spectrum, int64_t numbins, int numharm,
                          double r, double z);
RzStart single_rz_start(double r, double z);

class RzMaximiser {
 public:
  virtual ~RzMaximiser() = default;
  // One maximum per start, in order. Throws UsageError for a start without harmonics.
  std::vector<RzPoint> maximise(const std::complex<float>* spectrum, int64_t numbins,
                                const std::vector<RzStart>& starts);
  virtual std::string name() const = 0;

 private:
  virtual std::vector<RzPoint> compute(const std::complex<float>* spectrum, int64_t numbins,
                                       const std::vector<RzStart>& starts) = 0;
};

// maximise_rz_point for each start, on up to `threads` threads.
std::unique_ptr<RzMaximiser> make_cpu_rz_maximiser(int threads);

// By --device (auto|cpu|gpu|gpu:N), as make_accel_engine chooses the engine.
std::unique_ptr<RzMaximiser> make_rz_maximiser(const std::string& device, int threads);

}  // namespace rapt
