// The CUDA IDG engine (IdgEngine on one GPU). Declared here, not only behind the factory, so
// the benchmark can read how long the last call kept the device busy. No CUDA headers.
#pragma once
#include <memory>

#include "idg/idg_engine.hpp"

namespace rapt::gpu {

// Device time of the last grid/psf/degrid call, from CUDA events around the device work of
// each batch and each w-layer (host packing, uploads and downloads between them excluded).
struct IdgGpuCallTimes {
  double subgrid_s = 0;  // gridder + subgrid FFT + adder (or splitter + FFT + degridder)
  double grid_s = 0;     // grid FFTs, w-term and taper passes
  double kernel_s = 0;   // the gridder or degridder kernel alone
  double call_s = 0;     // wall clock of the engine's own part of the call (packing, uploads,
                         // device work, downloads); the rest is the common IdgEngine's
  double host_s = 0;     // host work inside call_s: gathering uvw, packing and unpacking batches
                         // (waits for the device excluded; mostly overlapped with it)
  double image_s = 0;    // the part of host_s spent copying whole images between the caller's
                         // memory and page-locked buffers (not overlapped with device work)
};

class IdgGpuTimed {
 public:
  virtual ~IdgGpuTimed() = default;
  virtual IdgGpuCallTimes last_call_times() const = 0;
};

}  // namespace rapt::gpu
