#include "fold/fold_engine.hpp"

#include <cmath>

#include "cli/errors.hpp"
#include "fold/fold_gpu_factory.hpp"
#include "gpu_device.hpp"

namespace rapt {

void FoldLayout::validate() const {
  if (npart < 1) throw UsageError("--npart must be at least 1");
  if (nsub < 1) throw UsageError("--nsub must be at least 1");
  if (nbins < 2) throw UsageError("-n (profile bins) must be at least 2");
  if (total_samples < 1) throw UsageError("nothing to fold: the input has no samples");
  if (npart > total_samples)
    throw UsageError("--npart " + std::to_string(npart) + " is more than the " +
                     std::to_string(total_samples) + " samples to fold");
  if (!(dt_s > 0.0)) throw UsageError("the sampling time must be positive");
  if (!(spin.f_hz > 0.0) || !std::isfinite(spin.f_hz))
    throw UsageError("the folding frequency must be positive");
}

int FoldLayout::part_of(int64_t sample) const {
  int part = int(sample * npart / total_samples);
  while (part + 1 < npart && part_start(part + 1) <= sample) ++part;
  while (part > 0 && part_start(part) > sample) --part;
  return part;
}

FoldEngine::FoldEngine(const FoldLayout& layout) : layout_(layout) { layout_.validate(); }

void FoldEngine::fold(const float* in, size_t stride, int64_t first_sample, size_t nsamples) {
  if (nsamples == 0) return;
  if (first_sample < 0 || first_sample + int64_t(nsamples) > layout_.total_samples)
    throw UsageError("fold: samples " + std::to_string(first_sample) + " to " +
                     std::to_string(first_sample + int64_t(nsamples)) +
                     " lie outside the observation's " +
                     std::to_string(layout_.total_samples));
  if (stride < nsamples && layout_.nsub > 1)
    throw UsageError("fold: subband stride is shorter than the block");
  do_fold(in, stride, first_sample, nsamples);
}

std::unique_ptr<FoldEngine> make_fold_engine(const FoldLayout& layout, const std::string& device) {
  if constexpr (!kGpuFoldEngineBuilt) {
    if (device == "cpu" || device == "auto") return make_cpu_fold_engine(layout);
    if (device != "gpu" && device.rfind("gpu:", 0) != 0)
      choose_device(device);  // a malformed value gets choose_device's own message
    throw UsageError("--device " + device +
                     ": fold has no GPU engine in this build; use --device cpu or auto");
  } else {
    const DeviceChoice choice = choose_device(device);
    if (!choice.use_gpu) return make_cpu_fold_engine(layout);
    return make_gpu_fold_engine(layout, choice.gpu_index);
  }
}

}  // namespace rapt
