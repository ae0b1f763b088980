// The engines that build the f-fdot plane of a normalised spectrum and search its harmonic
// sums: the threaded CPU engine here (also the reference) and the CUDA engine in gpu/. Both
// return every plane point above its stage threshold; what happens next (de-duplication,
// optimisation, files) is shared host code.
#pragma once
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "accel/accel_plan.hpp"
#include "accel/ffdot_plane.hpp"

namespace rapt {

// Timings of the last search, in seconds (0 where an engine does not measure a step).
struct AccelEngineTimings {
  double plane_s = 0.0;    // normalisation, correlations and powers
  double harmsum_s = 0.0;  // harmonic summing, thresholding and compaction
  double total_s = 0.0;    // including transfers
};

class AccelEngine {
 public:
  virtual ~AccelEngine() = default;
  // `spectrum` is the packed spectrum as read (bin i of the array = Fourier bin
  // plan.options.lobin + i), before normalisation. Hits come back in search order, and the
  // search's timings in `timings`.
  virtual std::vector<PlaneHit> search(const std::vector<std::complex<float>>& spectrum,
                                       const AccelPlan& plan, AccelEngineTimings& timings) = 0;
  virtual std::string name() const = 0;
  // How many searches may usefully run at once, each called from its own thread (the GPU
  // engine overlaps one trial's transfers and host work with another's kernels). 1 means
  // search must not be called concurrently.
  virtual int concurrent_searches() const { return 1; }
};

// `device`: auto | cpu | gpu[:N] (see gpu_device.hpp). `threads` for the CPU engine (0 = all).
std::unique_ptr<AccelEngine> make_accel_engine(const std::string& device, int threads);
std::unique_ptr<AccelEngine> make_cpu_accel_engine(int threads);

}  // namespace rapt
