#include "bf/beamformer_engine.hpp"

#include <stdexcept>

#include "cli/errors.hpp"
#ifdef RAPT_WITH_CUDA
#include "bf/bf_gpu_factory.hpp"
#endif

namespace rapt {

void BeamformerShape::validate() const {
  if (nchan < 1 || nant < 1 || nbeams < 1)
    throw UsageError("beam forming needs at least one channel, station and beam");
  if (npol != 1 && npol != 2) throw UsageError("beam forming takes 1 or 2 polarisations");
  if (tint < 1) throw UsageError("--tint must be at least 1 sample");
  if (fscrunch < 1 || nchan % fscrunch != 0)
    throw UsageError("--fscrunch " + std::to_string(fscrunch) + " does not divide the " +
                     std::to_string(nchan) + " channels");
  if (detection == BeamDetection::full_stokes && npol != 2)
    throw UsageError("full Stokes needs two polarisations; the voltages have one");
  if (detection == BeamDetection::none && !coherent && !incoherent)
    throw UsageError("nothing to write: no detected, coherent or incoherent beams asked for");
}

BeamformerEngine::BeamformerEngine(BeamformerShape shape) : shape_(shape) { shape_.validate(); }

void BeamformerEngine::set_weights(const BeamWeights& weights) {
  const size_t expected = size_t(shape_.nchan) * shape_.nbeams * shape_.nant;
  if (weights.weights.size() != expected || weights.station_scale.size() != size_t(shape_.nant))
    throw std::invalid_argument("set_weights: weights are not nchan x nbeams x nant");
  load_weights(weights);
  have_weights_ = true;
}

void BeamformerEngine::form(const float* voltages, int64_t nsamples, const uint8_t* flags,
                            BeamBlockOutput& out) {
  if (!have_weights_) throw std::invalid_argument("form: no weights set");
  if (nsamples < 0 || nsamples % shape_.tint != 0)
    throw std::invalid_argument("form: nsamples is not a multiple of tint");
  size_beam_outputs(shape_, nsamples / shape_.tint, out);
  if (nsamples == 0) return;
  compute(voltages, nsamples, flags, out);
}

void size_beam_outputs(const BeamformerShape& shape, int64_t nsamples_out, BeamBlockOutput& out) {
  out.nsamples_out = nsamples_out;
  const size_t per_time = size_t(shape.nchan_out());
  out.detected.resize(shape.detection == BeamDetection::none
                          ? 0
                          : size_t(shape.nbeams) * nsamples_out * shape.nstokes() * per_time);
  out.coherent.resize(shape.coherent ? size_t(shape.nbeams) * shape.nchan * nsamples_out *
                                           shape.tint * shape.npol * 2
                                     : 0);
  out.incoherent.resize(shape.incoherent ? size_t(nsamples_out) * per_time : 0);
}

std::unique_ptr<BeamformerEngine> make_gpu_beamformer(const BeamformerShape& shape,
                                                      int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_beamformer(shape, gpu_index);
#else
  (void)shape, (void)gpu_index;
  throw UsageError("the GPU engine needs a build with CUDA");
#endif
}

}  // namespace rapt
