// Dedispersion engines. One interface; the CPU engine is the readable reference, the CUDA engine
// (gpu/) must produce the same numbers: bit-identical for integer input whose sums stay below
// 2^24, within 1e-6 relative otherwise.
//
// Input blocks hold `nspectra` spectra, time-major, channel order as in the plan, either packed
// unsigned integers (nbits 1, 2, 4 packed LSB-first as in SIGPROC, or 8) or float32 (nbits 32).
// A block of n spectra yields n - max_delay output samples per DM (before downsampling); the
// caller streams gulps that overlap by max_delay spectra, so results never depend on gulp size.
// Output: out[dm_index * out_stride + t] float32, `(n - max_delay) / downsamp` samples per DM.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "dedisp/dedisp_plan.hpp"

namespace rapt {

struct SpectraBlock {
  const void* data = nullptr;
  int nbits = 32;          // 1, 2, 4, 8 (unsigned, packed) or 32 (float)
  size_t nspectra = 0;
};

class DedispEngine {
 public:
  virtual ~DedispEngine() = default;

  // Checks the block against the plan (nbits supported, nspectra > max delay, stride large
  // enough, (nspectra - max_delay) divisible by downsamp) and then computes.
  void execute(const SpectraBlock& in, float* out, size_t out_stride);

  const DedispPlan& plan() const { return plan_; }
  int32_t max_delay() const { return max_delay_; }
  virtual std::string name() const = 0;

 protected:
  explicit DedispEngine(const DedispPlan& plan);
  // The shape checks of execute(), for engines with other entry points.
  void check_block(const SpectraBlock& in, const void* out, size_t out_stride) const;

 private:
  virtual void do_execute(const SpectraBlock& in, float* out, size_t out_stride) = 0;
  DedispPlan plan_;
  int32_t max_delay_ = 0;
};

// `device`: "cpu", "gpu", "gpu:N" or "auto" (GPU when the build has CUDA and a device exists).
// Throws UsageError for "gpu" in a build without CUDA or on a machine without a device.
std::unique_ptr<DedispEngine> make_dedisp_engine(const DedispPlan& plan, const std::string& device);

std::unique_ptr<DedispEngine> make_cpu_dedisp_engine(const DedispPlan& plan, int nthreads = 0);

}  // namespace rapt
