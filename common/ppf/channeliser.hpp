// The F engine: a critically sampled polyphase filterbank that splits each input channel of
// each antenna and polarisation into `nfine` channels. Real-sampled input (one wide band)
// becomes nfine complex channels through a 2*nfine-point real FFT; complex input (coarse
// channels) becomes nfine fine channels per coarse channel through an nfine-point complex FFT,
// fftshifted so the fine channels run in frequency order.
//
// Contract (rapt(7), CHANNELISATION):
//   * The prototype filter has ntaps * L coefficients (L = 2 nfine for real input, nfine for
//     complex), h[k] = window[k] sinc((k - (ntaps L - 1) / 2) / L), normalised to unit sum, or
//     comes from a coefficients file.
//   * Output sample t of a stream is the FFT of the FIR over input samples
//     (t - ntaps + 1) L ... (t + 1) L - 1; samples before the start of the data are zero and the
//     filter keeps its history across calls, so cutting the input into blocks never changes the
//     output.
//   * The output header (channelised_header) describes the output exactly: its channels obey
//     VoltageHeader::channel_freq_mhz (fine channel centres), tsamp = L * input tsamp, and the
//     fine channels of an inverted band (bandwidth < 0) run downwards in frequency like the
//     band itself.
//   * Optional, per antenna: a delay correction (a phase exp(+2 pi i nu tau_a) at each fine
//     channel's sky frequency) and a real bandpass gain per output channel.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/voltage_stream.hpp"

namespace rapt {

struct PfbDesign {
  int nfine = 256;                  // --nchan: output channels per input channel
  int ntaps = 16;                   // --ntaps
  std::string window = "hamming";   // hamming | blackman-harris | kaiser:BETA
  std::string coeffs_path;          // --coeffs FILE: overrides ntaps/window (ntaps = count / L)
};

struct ChanneliserShape {
  int nchan_in = 1;
  int nant = 1;
  int npol = 2;
  bool real_input = false;
  int nfine = 256;
  int ntaps = 16;
  int frame() const { return real_input ? 2 * nfine : nfine; }  // input samples per output sample
  int nchan_out() const { return nchan_in * nfine; }
};

// Per-antenna corrections applied after the FFT; empty vectors = none.
struct ChanneliserCorrections {
  std::vector<double> delay_s;      // [ant] delay to remove, seconds
  std::vector<float> bandpass_gain; // [chan_out] real gain
  std::vector<double> fine_freq_hz; // [chan_out] sky frequency of each output channel (for delays)
};

class ChanneliserEngine {
 public:
  virtual ~ChanneliserEngine() = default;
  virtual std::string name() const = 0;
  virtual const ChanneliserShape& shape() const = 0;
  // Channelises `nsamples` input samples (a multiple of shape().frame()) in canonical order
  // (io/voltage_stream.hpp) into `out`, canonical order with nchan_out channels and
  // nsamples / frame complex samples.
  virtual void process(const float* input, int64_t nsamples, std::vector<float>& out) = 0;
};

// The prototype filter for `shape` (ntaps * frame coefficients). Throws UsageError for an
// unknown window or a bad coefficients file (naming it).
std::vector<float> pfb_prototype(const PfbDesign& design, const ChanneliserShape& shape);

// The header of the channelised stream.
VoltageHeader channelised_header(const VoltageHeader& input, const ChanneliserShape& shape);

std::unique_ptr<ChanneliserEngine> make_cpu_channeliser(const ChanneliserShape& shape,
                                                        const std::vector<float>& prototype,
                                                        const ChanneliserCorrections& corrections,
                                                        int threads);
// Throws UsageError in a build without CUDA.
std::unique_ptr<ChanneliserEngine> make_gpu_channeliser(const ChanneliserShape& shape,
                                                        const std::vector<float>& prototype,
                                                        const ChanneliserCorrections& corrections,
                                                        int gpu_index);

}  // namespace rapt
