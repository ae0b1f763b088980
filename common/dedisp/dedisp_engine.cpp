#include "dedisp/dedisp_engine.hpp"

#include "cli/errors.hpp"

namespace rapt {
namespace {

std::string engine_error(const std::string& problem) { return "dedispersion engine: " + problem; }

}  // namespace

DedispEngine::DedispEngine(const DedispPlan& plan) : plan_(plan) {
  plan_.validate();
  max_delay_ = plan_.max_delay_samples();
}

// Shape checks live here, once, so no engine can accept a block another would refuse.
void DedispEngine::execute(const SpectraBlock& in, float* out, size_t out_stride) {
  check_block(in, out, out_stride);
  do_execute(in, out, out_stride);
}

void DedispEngine::check_block(const SpectraBlock& in, const void* out, size_t out_stride) const {
  const int nbits = in.nbits;
  if (nbits != 1 && nbits != 2 && nbits != 4 && nbits != 8 && nbits != 32)
    throw UsageError(engine_error(std::to_string(nbits) +
                                  "-bit samples; supported: 1, 2, 4, 8 (unsigned) and 32 (float)"));
  if (nbits < 8 && (size_t(plan_.nchans) * nbits) % 8 != 0)
    throw UsageError(engine_error(std::to_string(plan_.nchans) + " channels of " +
                                  std::to_string(nbits) + " bits do not fill whole bytes"));
  if (in.data == nullptr || out == nullptr) throw UsageError(engine_error("null buffer"));
  if (in.nspectra <= size_t(max_delay_))
    throw UsageError(engine_error("a block of " + std::to_string(in.nspectra) +
                                  " spectra is not longer than the maximum delay (" +
                                  std::to_string(max_delay_) + " spectra)"));
  const size_t valid = in.nspectra - size_t(max_delay_);
  if (valid % size_t(plan_.downsamp) != 0)
    throw UsageError(engine_error(std::to_string(valid) +
                                  " output samples per block is not a multiple of the "
                                  "downsampling factor " + std::to_string(plan_.downsamp)));
  if (out_stride < valid / size_t(plan_.downsamp))
    throw UsageError(engine_error("output stride " + std::to_string(out_stride) +
                                  " is shorter than the " +
                                  std::to_string(valid / plan_.downsamp) + " samples per DM"));
}

}  // namespace rapt
