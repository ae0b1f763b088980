// The array voltage simulator: makes any stretch of an array's station voltages in the
// canonical block order of voltage_stream.hpp, [channel][antenna][time][pol][re, im] (real
// samples: [antenna][time][pol]), in output units (plan.gain per sqrt(Jy)), ready for a
// VoltageWriter to quantise.
//
// Signal model, per channel c of sky frequency nu_c and per polarisation:
//   v_a(k) = n_a(k) + sum_e x_e(k tsamp - tau_a,e(t_k)) exp(-2 pi i nu_c tau_a,e(t_k))
// with n_a independent receiver noise of power SEFD, x_e the band-limited signal of emitter e
// (a point source: complex Gaussian noise of power S(nu_c), the same for every antenna; a
// pulsar or burst: the same noise modulated by its dispersed intensity), and tau_a,e the
// geometric delay of antenna a towards e (geometric_delays_s: tau > 0 arrives later). The two
// polarisations of an emitter are independent (unpolarised).
//   * The phase factor uses the full delay at every sample (exact to the delay track's
//     interpolation, ArrayDelayTrack), computed exactly at the start of each 256-sample tile and
//     advanced by its rate within it.
//   * The envelope delay x(t - tau): whole samples by indexing, the fraction by the
//     FractionalDelayFilter (windowed sinc, plan.delay_taps long); the delay is held constant
//     over a tile (it moves by < 1e-6 samples across one at any Earth rotation rate).
//   * Real samples (plan.real_samples): the complex baseband of the whole band, made as above
//     at half-sample positions, is mixed up by |bw|/2: r[k] = sqrt(2) Re(z(k/2) i^k), the band's
//     lower edge at 0 Hz (for bw < 0 the spectrum is flipped: conj(z)).
// Every random value is a pure function of (seed, what, sample, channel, antenna, pol) through
// the counter-based generator, so blocks of any size, in any order, with any number of
// threads, give identical values.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/array_delay_track.hpp"
#include "sim/array_voltage_plan.hpp"
#include "sim/fractional_delay.hpp"
#include "sim/signal_component.hpp"

namespace rapt {

class ArrayVoltageSimulator {
 public:
  // Validates the plan (UsageError) and computes every emitter's delay track. threads >= 1.
  ArrayVoltageSimulator(const ArrayVoltagePlan& plan, int threads);
  ~ArrayVoltageSimulator();
  ArrayVoltageSimulator(const ArrayVoltageSimulator&) = delete;
  ArrayVoltageSimulator& operator=(const ArrayVoltageSimulator&) = delete;

  // Writes samples first_sample .. first_sample + nsamples - 1 to `out`, which holds
  // plan().header("").block_values(nsamples) floats. One call at a time.
  void generate_block(int64_t first_sample, int64_t nsamples, float* out);

  const ArrayVoltagePlan& plan() const { return plan_; }
  // One line per source, pulsar and burst: where, how bright, expected S/N.
  std::vector<std::string> describe_signals() const;

  struct Emitter;       // a point source, pulsar or burst with its delay track (in the .cpp)
  struct Work;          // one thread's scratch space
  struct TileGeometry;  // how one antenna sees one emitter over one tile

 private:
  void compute_intensities(int64_t q_first, int64_t q_count);
  // Delays, rates and filter taps of every (tile, emitter, antenna) of a block: the same for
  // every channel, so made once before the channels are shared out.
  void prepare_tiles(int64_t first, int64_t n);
  const TileGeometry& tile_geometry(int64_t tile, size_t emitter, int antenna) const;
  void run_item(int channel, int antenna_begin, int antenna_end, int64_t first, int64_t n,
                float* out, Work& work) const;
  void add_emitter_tile(const Emitter& e, int channel, int antenna_begin, int antenna_end,
                        int64_t tile_first, int64_t first, int64_t n, float* out,
                        Work& work) const;
  void add_antenna_tile(const TileGeometry& g, int channel, int antenna, int64_t tile_first,
                        int64_t k_lo, int64_t k_hi, int64_t first, int64_t n, float* out,
                        const Work& work) const;
  void fill_signal(const Emitter& e, int channel, int64_t lo, int64_t hi, Work& work) const;

  ArrayVoltagePlan plan_;
  int threads_;
  int nchan_;        // channels in the output (1 for real samples)
  int values_per_sample_;
  double max_delay_samples_;  // largest |geometric delay| of any antenna, baseband samples
  FractionalDelayFilter filter_;
  std::vector<std::unique_ptr<Emitter>> emitters_;
  std::vector<std::unique_ptr<SignalComponent>> transients_;
  std::vector<SignalCache> transient_caches_;
  // Intensity of each transient (noise sigma of detected power) over the baseband samples
  // intensity_first_ .. + intensity_count_, [transient][sample][filterbank channel].
  std::vector<std::vector<float>> intensities_;
  int64_t intensity_first_ = 0;
  int64_t intensity_count_ = 0;
  std::vector<TileGeometry> tiles_;  // [tile - first_tile_][emitter][antenna]
  int64_t first_tile_ = 0;
};

}  // namespace rapt
