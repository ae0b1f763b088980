// The CUDA boxcar engine's factory and the GPU fused search. Defined in gpu/ and linked only in
// builds with RAPT_WITH_CUDA; host code reaches them through make_gpu_boxcar_engine() and
// search_fused_on_gpu() alone.
#pragma once
#include <memory>
#include <vector>

#include "snr/boxcar_engine.hpp"
#include "snr/fused_search.hpp"
#include "snr/realtime_engine.hpp"

namespace rapt {

std::unique_ptr<BoxcarEngine> make_cuda_boxcar_engine(std::vector<int> widths, float threshold,
                                                      int gpu_index);

// search_fused_on_gpu()'s body.
std::vector<std::vector<SinglePulseEvent>> run_fused_search_cuda(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, int gpu_index, FusedSearchTiming& timing);

std::unique_ptr<RealtimeEngine> make_cuda_realtime_engine(const RealtimeShape& shape, int gpu);

}  // namespace rapt
