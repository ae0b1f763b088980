// The F engine: a critically sampled polyphase filterbank that splits each input channel of
// each antenna and polarisation into `nfine` channels. Real-sampled input (one wide band)
// becomes nfine complex channels through a 2*nfine-point real FFT; complex input (coarse
// channels) becomes nfine fine channels per coarse channel through an nfine-point complex FFT,
// fftshifted so the fine channels run in frequency order.
//
// Contract (rapt(7), CHANNELISATION):
//   * The prototype filter has ntaps * L coefficients (L = 2 nfine for real input, nfine for
//     complex), h[k] = window[k] sinc((k - (ntaps L - 1) / 2) / L), or comes from a
//     coefficients file; either way it is scaled to unit noise gain, sum of h[k]^2 = 1, so white
//     noise keeps its power per sample in every fine channel (voltages in sqrt(Jy) stay so).
//   * Output sample t of a stream is the FFT of the FIR over input samples
//     (t - ntaps + 1) L ... (t + 1) L - 1, coefficient k weighting the k-th of them:
//       v_t[p] = sum over m < ntaps of h[m L + p] x[(t - ntaps + 1 + m) L + p],
//       X_t[k] = sum over p < L of v_t[p] exp(-2 pi i p k / L).
//     Samples before the start of the data are zero and the filter keeps its history across
//     calls, so cutting the input into blocks never changes the output.
//   * Complex voltages are in sky sense (rapt(7)): within a channel, baseband frequency +f is
//     sky frequency nu_c + f whatever the sign of the bandwidth, which orders the channels
//     only. Real samples of an inverted band (bandwidth < 0) hold the band reversed (real
//     frequency f is sky frequency top - f, as `simulate --real-voltages` makes them): their
//     bins are conjugated, so the output is in sky sense too.
//   * Fine channel j of input channel c is output channel c nfine + j; the channels run in the
//     input's direction (downwards for bandwidth < 0). Real input: j is bin j (0 .. nfine - 1;
//     bin 0 straddles the band's edge). Complex input: j is bin (j - nfine/2) mod nfine for
//     bandwidth > 0 and (nfine/2 - j) mod nfine for bandwidth < 0 (nfine/2 rounded down).
//   * The output header (channelised_header) describes the output exactly: its channels obey
//     VoltageHeader::channel_freq_mhz (fine channel centres), tsamp = L * input tsamp, and its
//     start is the time of output sample 0, the middle of that sample's filter span
//     ((ntaps L - 1) / 2 input samples after its first).
//   * Optional, per antenna and output channel: a delay correction (the phase
//     exp(+2 pi i nu tau_a) at the fine channel's sky frequency nu, undoing the phase a signal
//     delayed by tau_a carries) and a real bandpass gain per output channel.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/voltage_stream.hpp"

namespace rapt {

// Limits every engine takes: fine channels per input channel, taps, and coefficients in all.
inline constexpr int kMaxPfbChannels = 1 << 20;
inline constexpr int kMaxPfbTaps = 1024;
inline constexpr int64_t kMaxPfbCoefficients = int64_t(1) << 26;

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
  bool inverted = false;            // the band's bandwidth is negative (see the contract)
  int nfine = 256;
  int ntaps = 16;
  int frame() const { return real_input ? 2 * nfine : nfine; }  // input samples per output sample
  int nchan_out() const { return nchan_in * nfine; }
  // Input streams (channel, antenna, polarisation), each filtered on its own.
  int64_t nstreams() const { return int64_t(nchan_in) * nant * npol; }
  // Throws UsageError naming the problem: sizes < 1 or past the limits above, npol other than
  // 1 or 2.
  void validate() const;
};

// The shape that channelises `input` (VoltageHeader) with `nfine` channels and `ntaps` taps.
ChanneliserShape channeliser_shape(const VoltageHeader& input, int nfine, int ntaps);

// The FFT bin that output fine channel j (0 .. nfine - 1) of an input channel takes, and
// whether the engines conjugate it (real input of an inverted band). See the contract.
int pfb_fine_channel_bin(const ChanneliserShape& shape, int j);
inline bool pfb_conjugates(const ChanneliserShape& shape) {
  return shape.real_input && shape.inverted;
}

// Per-antenna corrections applied after the FFT; empty vectors = none.
struct ChanneliserCorrections {
  std::vector<double> delay_s;      // [ant] delay to remove, seconds
  std::vector<float> bandpass_gain; // [chan_out] real gain
  std::vector<double> fine_freq_hz; // [chan_out] sky frequency of each output channel (for delays)
};

// The complex factor the corrections give antenna a's output channel c,
// gain[c] exp(+2 pi i fine_freq_hz[c] delay_s[a]), computed in double; 1 with no corrections.
std::complex<double> correction_factor(const ChanneliserCorrections& corrections, int ant,
                                       int chan_out);

class ChanneliserEngine {
 public:
  virtual ~ChanneliserEngine() = default;
  virtual std::string name() const = 0;
  const ChanneliserShape& shape() const { return shape_; }
  // Channelises `nsamples` input samples (a multiple of shape().frame()) in canonical order
  // (io/voltage_stream.hpp) into `out`, canonical order with nchan_out channels and
  // nsamples / frame complex samples (resized to fit). The filter's history carries over
  // from the previous call. Throws std::invalid_argument for a bad nsamples.
  void process(const float* input, int64_t nsamples, std::vector<float>& out);
  // Output samples produced since construction.
  int64_t samples_out() const { return samples_out_; }

 protected:
  explicit ChanneliserEngine(ChanneliserShape shape) : shape_(shape) {}

 private:
  // `out` already holds nchan_out x nant x nframes x npol complex values.
  virtual void channelise(const float* input, int64_t nframes, float* out) = 0;
  ChanneliserShape shape_;
  int64_t samples_out_ = 0;
};

// The prototype filter for `shape` (ntaps * frame coefficients, unit noise gain). Throws
// UsageError for an unknown window or bad sizes, DataError "path: problem" for a bad
// coefficients file (unreadable, not numbers, a count that is not a multiple of the frame).
std::vector<float> pfb_prototype(const PfbDesign& design, const ChanneliserShape& shape);

// The same for a coefficients file's text (`path` names it in messages): one finite number a
// line, '#' comments and blank lines skipped, a whole number of frames of `shape` and at most
// kMaxPfbTaps of them. Throws DataError "path: problem" for a bad file.
std::vector<float> parse_pfb_coefficients(const std::string& text, const std::string& path,
                                          const ChanneliserShape& shape);

// Throws UsageError unless `window` names a window pfb_prototype knows.
void check_pfb_window(const std::string& window);

// The header of the channelised stream: PSRDADA, complex float32 samples, nchan_out channels.
VoltageHeader channelised_header(const VoltageHeader& input, const ChanneliserShape& shape);

// Throws std::invalid_argument when `prototype` or `corrections` do not fit `shape`. Makes its
// FFTW plans: make CPU engines from one thread at a time (FFTW's planner is not thread-safe).
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
