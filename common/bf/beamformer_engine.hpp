// Tied-array beam forming of one block of channelised station voltages: the coherent sum of the
// stations towards each beam, and what is made of it (detected Stokes parameters integrated in
// time and summed over channels, the complex beams themselves, the incoherent beam).
// One interface, two engines: the CPU engine (threads over channels, plain loops: the
// reference) and the GPU engine (gpu/bf/: a batched matrix product per channel through cuBLAS,
// FP32 or FP16 tensor cores, with detection and integration in one kernel after it).
//
// What every engine computes (rapt(7), BEAM FORMING):
//   beam      Y[b][c][t][p] = sum_a W[c][b][a] X[c][a][t][p]       (W already holds 1/N_valid)
//   products  aa = |Y_0|^2, bb = |Y_1|^2, cr + i ci = conj(Y_0) Y_1
//   Stokes    linear feeds (X, Y):   I = aa + bb, Q = aa - bb, U = 2 cr, V = 2 ci
//             circular feeds (R, L): I = aa + bb, Q = 2 cr,  U = 2 ci, V = aa - bb
//             (the PSR/IEEE convention of van Straten et al. 2010); one polarisation: I = aa.
//   output    D[b][to][s][co] = (tint / n_ok) sum over the tint samples t of window `to` that
//             are not flagged, and the fscrunch channels c of group `co`, of Stokes s;
//             n_ok = unflagged samples in the window; a window with none is 0.
//   coherent  Y itself, with flagged samples set to 0.
//   incoherent  sum_a station_scale[a] sum_p |X[c][a][t][p]|^2, integrated as the output.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

enum class BeamDetection { none, stokes_i, full_stokes };
enum class BeamPrecision { fp32, fp16 };

struct BeamformerShape {
  int nchan = 1;
  int nant = 1;
  int npol = 2;
  int nbeams = 1;
  int tint = 1;            // input samples summed into one output sample (detected outputs)
  int fscrunch = 1;        // adjacent channels summed into one output channel
  BeamDetection detection = BeamDetection::stokes_i;
  bool circular = false;   // feeds are R, L (else X, Y): which Stokes formulas apply
  bool coherent = false;   // also return the complex beams
  bool incoherent = false; // also return the incoherent beam
  BeamPrecision precision = BeamPrecision::fp32;

  int nstokes() const { return detection == BeamDetection::full_stokes ? 4 : 1; }
  int nchan_out() const { return nchan / fscrunch; }
  // Throws UsageError naming the problem: sizes < 1, nchan not a multiple of fscrunch, full
  // Stokes from one polarisation, nothing asked for.
  void validate() const;
};

// Per-block beam weights, host side.
struct BeamWeights {
  // [chan][beam][ant]: the complex weight, already divided by the number of valid stations;
  // 0 for a station left out.
  std::vector<std::complex<float>> weights;
  // [ant]: 1 / N_valid for a valid station, 0 for one left out (the incoherent beam).
  std::vector<float> station_scale;
};

// What one block gives. Sizes follow the shape; vectors not asked for stay empty.
struct BeamBlockOutput {
  int64_t nsamples_out = 0;       // nsamples / tint
  std::vector<float> detected;    // [beam][t_out][stokes][chan_out]: a SIGPROC block per beam
  std::vector<float> coherent;    // [beam][chan][time][pol][re, im]
  std::vector<float> incoherent;  // [t_out][chan_out]
};

class BeamformerEngine {
 public:
  virtual ~BeamformerEngine() = default;
  const BeamformerShape& shape() const { return shape_; }
  virtual std::string name() const = 0;

  // Takes the weights for the blocks that follow. Throws std::invalid_argument on a size
  // mismatch.
  void set_weights(const BeamWeights& weights);
  // Forms the beams of one block. `voltages`: canonical order [chan][ant][time][pol][re, im]
  // (io/voltage_stream.hpp), `nsamples` time samples, a multiple of tint. `flags`: nsamples
  // bytes, non-zero = that sample is flagged in every beam; nullptr = none. Throws
  // std::invalid_argument on a bad size or when no weights were set.
  void form(const float* voltages, int64_t nsamples, const uint8_t* flags, BeamBlockOutput& out);

 protected:
  explicit BeamformerEngine(BeamformerShape shape);

 private:
  virtual void load_weights(const BeamWeights& weights) = 0;
  virtual void compute(const float* voltages, int64_t nsamples, const uint8_t* flags,
                       BeamBlockOutput& out) = 0;
  BeamformerShape shape_;
  bool have_weights_ = false;
};

// Sizes the outputs of one block of `nsamples_out` output samples for `shape`.
void size_beam_outputs(const BeamformerShape& shape, int64_t nsamples_out, BeamBlockOutput& out);

std::unique_ptr<BeamformerEngine> make_cpu_beamformer(const BeamformerShape& shape, int threads);
// Throws UsageError in a build without CUDA.
std::unique_ptr<BeamformerEngine> make_gpu_beamformer(const BeamformerShape& shape,
                                                      int gpu_index);

}  // namespace rapt
