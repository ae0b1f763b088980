// A cheap check of every GPU result: a few outputs recomputed on the CPU from the caller's
// input (first and last sample of the lowest and highest DM), so that a wrong kernel, a stale
// tuning cache or a faulty device shows up as an error, not as quietly wrong data. No CUDA.
#pragma once
#include <cstddef>
#include <string>

#include "dedisp/dedisp_engine.hpp"
#include "dedisp_gpu_layout.hpp"

namespace rapt::gpu {

// "" when the outputs agree: for integer input, exactly with the exact sum rounded once to
// float (equal to the float sum below 2^24); for float input, within 1e-6 of the sum of the
// absolute values added (a bound for any summation order). Otherwise the first
// disagreement: "DM 12.5, sample 0: GPU 1234, CPU 1230".
std::string check_output_samples(const DedispPlan& plan, const DedispDelays& delays,
                                 const SpectraBlock& in, const float* out, size_t out_stride);

}  // namespace rapt::gpu
