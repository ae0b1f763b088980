// The checks every channeliser engine shares, and the GPU engine's dispatch.
#include <stdexcept>
#include <string>

#include "cli/errors.hpp"
#include "ppf/channeliser.hpp"
#include "ppf/ppf_gpu_factory.hpp"

namespace rapt {

void ChanneliserEngine::process(const float* input, int64_t nsamples, std::vector<float>& out) {
  const int frame = shape_.frame();
  if (nsamples < 0 || nsamples % frame != 0)
    throw std::invalid_argument("channeliser: " + std::to_string(nsamples) +
                                " samples is not a whole number of " + std::to_string(frame) +
                                "-sample frames");
  const int64_t nframes = nsamples / frame;
  out.resize(size_t(shape_.nchan_out()) * size_t(shape_.nant) * size_t(nframes) *
             size_t(shape_.npol) * 2);
  if (nframes == 0) return;
  channelise(input, nframes, out.data());
  samples_out_ += nframes;
}

std::unique_ptr<ChanneliserEngine> make_gpu_channeliser(const ChanneliserShape& shape,
                                                        const std::vector<float>& prototype,
                                                        const ChanneliserCorrections& corrections,
                                                        int gpu_index) {
#ifdef RAPT_WITH_CUDA
  return make_cuda_channeliser(shape, prototype, corrections, gpu_index);
#else
  (void)shape, (void)prototype, (void)corrections, (void)gpu_index;
  throw UsageError("the GPU channeliser needs a build with CUDA");
#endif
}

void check_channeliser_inputs(const ChanneliserShape& shape, const std::vector<float>& prototype,
                              const ChanneliserCorrections& corrections) {
  shape.validate();
  if (prototype.size() != size_t(shape.ntaps) * size_t(shape.frame()))
    throw std::invalid_argument("channeliser: the prototype has " +
                                std::to_string(prototype.size()) + " coefficients; the shape needs " +
                                std::to_string(size_t(shape.ntaps) * shape.frame()));
  const size_t nchan_out = size_t(shape.nchan_out());
  if (!corrections.delay_s.empty()) {
    if (corrections.delay_s.size() != size_t(shape.nant))
      throw std::invalid_argument("channeliser: delays for " +
                                  std::to_string(corrections.delay_s.size()) + " antennas, not " +
                                  std::to_string(shape.nant));
    if (corrections.fine_freq_hz.size() != nchan_out)
      throw std::invalid_argument("channeliser: delays need the sky frequency of each of the " +
                                  std::to_string(nchan_out) + " output channels");
  }
  if (!corrections.bandpass_gain.empty() && corrections.bandpass_gain.size() != nchan_out)
    throw std::invalid_argument("channeliser: " + std::to_string(corrections.bandpass_gain.size()) +
                                " bandpass gains for " + std::to_string(nchan_out) + " channels");
}

}  // namespace rapt
