// The CUDA beam former with its internal choices made by the caller, for tests and comparisons:
// the channel-group size and the FP16 path (BfPipelineOptions, bf_gpu_pipeline.hpp). No CUDA
// headers: tests include it. Defined in bf_gpu_engine.cpp, linked only in builds with
// RAPT_WITH_CUDA (see bf/bf_gpu_factory.hpp for the ordinary factories).
#pragma once
#include <cstddef>
#include <memory>

#include "bf/beamformer_engine.hpp"

namespace rapt {

struct CudaBeamformerChoice {
  size_t group_bytes = 0;   // beam scratch per channel group; 0: the default (1 GiB)
  bool fused_fp16 = false;  // FP16 detected output through the fused kernel (bf_fused_detect.cu)
};

std::unique_ptr<BeamformerEngine> make_cuda_beamformer(const BeamformerShape& shape,
                                                       int gpu_index,
                                                       const CudaBeamformerChoice& choice);

}  // namespace rapt
