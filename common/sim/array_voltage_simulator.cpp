#include "sim/array_voltage_simulator.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

#include "cli/errors.hpp"
#include "sim/burst_signal.hpp"
#include "sim/counter_rng.hpp"
#include "sim/noise.hpp"
#include "sim/pulsar_signal.hpp"

namespace rapt {

namespace {

// Delays, phases and signal segments are set up once per tile of output samples; tiles are
// aligned to sample 0, so the split of the work never changes a value.
constexpr int64_t kTileSamples = 256;
// Random streams: receiver noise per (channel, antenna), emitter signal per (emitter, channel).
constexpr uint64_t kNoiseStreams = 1;
constexpr uint64_t kEmitterStreams = 2;
// Emitter signals are read before sample 0 (delays, filter taps): counters start far below.
constexpr int64_t kCounterOffset = int64_t{1} << 40;

uint64_t noise_key(uint64_t seed, int channel, int antenna) {
  return stream_key(seed, (kNoiseStreams << 56) | (static_cast<uint64_t>(antenna) << 24) |
                              static_cast<uint64_t>(channel));
}

uint64_t emitter_key(uint64_t seed, int emitter, int channel) {
  return stream_key(seed, (kEmitterStreams << 56) | (static_cast<uint64_t>(emitter) << 24) |
                              static_cast<uint64_t>(channel));
}

const ArrayVoltagePlan& validated(const ArrayVoltagePlan& plan) {
  plan.validate();
  return plan;
}

std::string direction_text(const SkyDirection& d) {
  char text[64];
  std::snprintf(text, sizeof text, "RA %.6f deg, Dec %+.6f deg", d.ra_rad * 180 / M_PI,
                d.dec_rad * 180 / M_PI);
  return text;
}

}  // namespace

struct ArrayVoltageSimulator::Emitter {
  int index;                      // selects its random stream
  std::string label;
  ArrayDelayTrack track;
  int transient = -1;             // index into transients_, or -1 for a point source
  std::vector<double> amplitude;  // per output channel: rms per component, sqrt(Jy)
};

struct ArrayVoltageSimulator::TileGeometry {
  double delay_samples = 0;  // at the tile's middle, baseband samples
  double tau0_s = 0;         // at the tile's start
  double rate = 0;           // d tau / dt there
  int odd_carry = 0;         // real samples: odd output samples read one baseband sample on
  float taps[2][64];         // for even and odd output samples
};

struct ArrayVoltageSimulator::Work {
  std::vector<float> signal;  // emitter signal, [q - lo][pol][re, im]
  int64_t lo = 0;
  int64_t hi = 0;
  bool valid = false;
};

ArrayVoltageSimulator::ArrayVoltageSimulator(const ArrayVoltagePlan& plan, int threads)
    : plan_(validated(plan)),
      threads_(std::max(1, threads)),
      nchan_(plan.nchan_out()),
      values_per_sample_(plan.real_samples ? 1 : 2),
      filter_(plan.delay_taps) {
  double farthest_m = 0.0;
  for (const Antenna& a : plan_.layout.antennas) {
    double squares = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double d = a.itrf_m[i] - plan_.layout.reference_itrf_m[i];
      squares += d * d;
    }
    farthest_m = std::max(farthest_m, std::sqrt(squares));
  }
  max_delay_samples_ = farthest_m / kSpeedOfLight_m_s / plan_.baseband_tsamp_s() + 1.0;
  const double duration_s = plan_.duration_s();
  for (const PointSourceSpec& s : plan_.sources) {
    auto e = std::make_unique<Emitter>(Emitter{
        static_cast<int>(emitters_.size()), "--source \"" + s.text + "\"",
        ArrayDelayTrack(plan_.layout, s.direction, plan_.start, duration_s, plan_.delay_interval_s),
        -1, {}});
    for (int c = 0; c < nchan_; ++c)
      e->amplitude.push_back(std::sqrt(s.flux_at(plan_.channel_freq_mhz(c), plan_.centre_freq_mhz) / 2));
    emitters_.push_back(std::move(e));
  }
  const ObservationSpec obs = plan_.transient_observation();
  RadiometerSpec radiometer;  // one polarisation's detected power: sigma = SEFD
  radiometer.sefd_jy = plan_.sefd_jy;
  radiometer.npol = 1;
  std::vector<SkyDirection> directions;
  for (const DirectedPulsar& p : plan_.pulsars) {
    transients_.push_back(std::make_unique<PulsarSignal>(p.spec, obs));
    directions.push_back(p.direction);
  }
  for (const DirectedBurst& b : plan_.bursts) {
    transients_.push_back(std::make_unique<BurstSignal>(b.spec, obs, radiometer));
    directions.push_back(b.direction);
  }
  for (size_t t = 0; t < transients_.size(); ++t) {
    auto e = std::make_unique<Emitter>(Emitter{
        static_cast<int>(emitters_.size()), transients_[t]->describe(),
        ArrayDelayTrack(plan_.layout, directions[t], plan_.start, duration_s, plan_.delay_interval_s),
        static_cast<int>(t), std::vector<double>(static_cast<size_t>(nchan_), std::sqrt(plan_.sefd_jy / 2))});
    e->label += " at " + direction_text(directions[t]);
    emitters_.push_back(std::move(e));
  }
  transient_caches_.resize(transients_.size());
  intensities_.resize(transients_.size());
}

ArrayVoltageSimulator::~ArrayVoltageSimulator() = default;

void ArrayVoltageSimulator::compute_intensities(int64_t q_first, int64_t q_count) {
  const size_t nfb = static_cast<size_t>(nchan_);
  intensity_first_ = q_first;
  intensity_count_ = q_count;
  const int64_t from = std::max<int64_t>(q_first, 0);  // nothing arrives before the start
  for (size_t t = 0; t < transients_.size(); ++t) {
    intensities_[t].assign(static_cast<size_t>(q_count) * nfb, 0.0f);
    if (from >= q_first + q_count) continue;
    transients_[t]->add(from, static_cast<int>(q_first + q_count - from),
                        intensities_[t].data() + (from - q_first) * nfb, transient_caches_[t]);
  }
}

void ArrayVoltageSimulator::generate_block(int64_t first_sample, int64_t nsamples, float* out) {
  if (first_sample < 0 || nsamples < 0) throw UsageError("generate_block: negative sample range");
  if (nsamples == 0) return;
  if (!transients_.empty()) {
    const int64_t margin = static_cast<int64_t>(std::ceil(max_delay_samples_)) + plan_.delay_taps + 2;
    const int64_t q0 = plan_.real_samples ? first_sample / 2 : first_sample;
    const int64_t q1 = plan_.real_samples ? (first_sample + nsamples + 1) / 2 : first_sample + nsamples;
    compute_intensities(q0 - margin, q1 - q0 + 2 * margin);
  }
  if (!emitters_.empty()) prepare_tiles(first_sample, nsamples);
  // Work items: a channel and a run of antennas; enough of them to keep every thread busy.
  const int nant = plan_.layout.size();
  const int groups = std::clamp((4 * threads_ + nchan_ - 1) / nchan_, 1, nant);
  struct Item { int channel, begin, end; };
  std::vector<Item> items;
  for (int c = 0; c < nchan_; ++c)
    for (int g = 0; g < groups; ++g)
      items.push_back({c, nant * g / groups, nant * (g + 1) / groups});
  const int workers = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads_), items.size()));
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(static_cast<size_t>(workers));
  auto run = [&](int w) {
    try {
      Work work;
      for (size_t i = next++; i < items.size(); i = next++)
        run_item(items[i].channel, items[i].begin, items[i].end, first_sample, nsamples, out, work);
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

void ArrayVoltageSimulator::prepare_tiles(int64_t first, int64_t n) {
  const int nant = plan_.layout.size();
  const double tsamp_s = plan_.tsamp_s();
  const double bb_tsamp_s = plan_.baseband_tsamp_s();
  first_tile_ = first / kTileSamples;
  const int64_t ntiles = (first + n - 1) / kTileSamples + 1 - first_tile_;
  tiles_.resize(static_cast<size_t>(ntiles) * emitters_.size() * nant);
  TileGeometry* g = tiles_.data();
  for (int64_t t = 0; t < ntiles; ++t) {
    const double start_s = static_cast<double>((first_tile_ + t) * kTileSamples) * tsamp_s;
    const double middle_s = start_s + 0.5 * kTileSamples * tsamp_s;
    for (const auto& e : emitters_)
      for (int a = 0; a < nant; ++a, ++g) {
        g->delay_samples = e->track.delay_s(a, middle_s) / bb_tsamp_s;
        g->tau0_s = e->track.delay_s(a, start_s);
        g->rate = e->track.rate(a, start_s);
        // Output sample k reads the signal at baseband position k step - d = m + fraction.
        const double fraction = -g->delay_samples - std::floor(-g->delay_samples);
        g->odd_carry = fraction + 0.5 >= 1.0 ? 1 : 0;
        filter_.taps_for(fraction, g->taps[0]);
        filter_.taps_for(fraction + 0.5 - g->odd_carry, g->taps[1]);
      }
  }
}

const ArrayVoltageSimulator::TileGeometry& ArrayVoltageSimulator::tile_geometry(
    int64_t tile, size_t emitter, int antenna) const {
  const size_t index = (static_cast<size_t>(tile - first_tile_) * emitters_.size() + emitter) *
                           plan_.layout.size() + antenna;
  return tiles_[index];
}

void ArrayVoltageSimulator::run_item(int channel, int antenna_begin, int antenna_end,
                                     int64_t first, int64_t n, float* out, Work& work) const {
  const int nant = plan_.layout.size();
  const size_t per_sample = static_cast<size_t>(plan_.npol) * values_per_sample_;
  const size_t count = static_cast<size_t>(n) * per_sample;
  const float noise_scale = static_cast<float>(noise_rms_for_gain(plan_, plan_.gain));
  for (int a = antenna_begin; a < antenna_end; ++a) {
    float* slice = out + (static_cast<size_t>(channel) * nant + a) * count;
    if (plan_.noise) {
      fill_standard_normal(noise_key(plan_.seed, channel, a),
                           static_cast<uint64_t>(first) * per_sample, count, slice);
      for (size_t i = 0; i < count; ++i) slice[i] *= noise_scale;
    } else {
      std::memset(slice, 0, count * sizeof(float));
    }
  }
  if (emitters_.empty()) return;
  for (int64_t tile = first / kTileSamples * kTileSamples; tile < first + n; tile += kTileSamples)
    for (const auto& e : emitters_)
      add_emitter_tile(*e, channel, antenna_begin, antenna_end, tile, first, n, out, work);
}

// One tile of one emitter in one channel, for a run of antennas: the emitter's signal is made
// once for all of them when their delays lie close together, else antenna by antenna.
void ArrayVoltageSimulator::add_emitter_tile(const Emitter& e, int channel, int antenna_begin,
                                             int antenna_end, int64_t tile, int64_t first,
                                             int64_t n, float* out, Work& work) const {
  const double step_q = plan_.real_samples ? 0.5 : 1.0;  // baseband samples per output sample
  const int64_t k_lo = std::max(tile, first);
  const int64_t k_hi = std::min(tile + kTileSamples, first + n);
  const int64_t tile_index = tile / kTileSamples;
  double d_min = INFINITY, d_max = -INFINITY;
  for (int a = antenna_begin; a < antenna_end; ++a) {
    const double d = tile_geometry(tile_index, e.index, a).delay_samples;
    d_min = std::min(d_min, d);
    d_max = std::max(d_max, d);
  }
  // One sample of slack at each end: floor() of a rounded position may land one lower.
  const int64_t reach = filter_.taps() / 2 + 2;
  const auto lowest = [&](double d) {
    return static_cast<int64_t>(std::floor(k_lo * step_q - d)) + filter_.first_offset() - 1;
  };
  const auto highest = [&](double d) {
    return static_cast<int64_t>(std::floor((k_hi - 1) * step_q - d)) + reach;
  };
  work.valid = false;
  if (highest(d_min) - lowest(d_max) <= 3 * (highest(0.0) - lowest(0.0)))
    fill_signal(e, channel, lowest(d_max), highest(d_min), work);
  for (int a = antenna_begin; a < antenna_end; ++a) {
    const TileGeometry& g = tile_geometry(tile_index, e.index, a);
    const double d = g.delay_samples;
    if (!(work.valid && work.lo <= lowest(d) && highest(d) <= work.hi))
      fill_signal(e, channel, lowest(d), highest(d), work);
    add_antenna_tile(g, channel, a, tile, k_lo, k_hi, first, n, out, work);
  }
}

// The emitter's signal over baseband samples [lo, hi), both polarisations, in output units.
void ArrayVoltageSimulator::fill_signal(const Emitter& e, int channel, int64_t lo, int64_t hi,
                                        Work& work) const {
  const size_t per = static_cast<size_t>(plan_.npol) * 2;
  const size_t count = static_cast<size_t>(hi - lo) * per;
  work.signal.resize(count);
  fill_standard_normal(emitter_key(plan_.seed, e.index, channel),
                       static_cast<uint64_t>(lo + kCounterOffset) * per, count, work.signal.data());
  const double scale = plan_.gain * e.amplitude[channel];
  if (e.transient < 0) {
    const float s = static_cast<float>(scale);
    for (float& v : work.signal) v *= s;
  } else {
    // Filterbank channels run from the top frequency down.
    const int f = plan_.bandwidth_mhz > 0 ? nchan_ - 1 - channel : channel;
    const std::vector<float>& intensity = intensities_[e.transient];
    for (int64_t q = lo; q < hi; ++q) {
      const int64_t row = q - intensity_first_;
      const float power = (row >= 0 && row < intensity_count_)
                              ? intensity[static_cast<size_t>(row) * nchan_ + f] : 0.0f;
      const float s = static_cast<float>(scale * std::sqrt(std::max(0.0f, power)));
      float* v = work.signal.data() + static_cast<size_t>(q - lo) * per;
      for (size_t i = 0; i < per; ++i) v[i] *= s;
    }
  }
  work.lo = lo;
  work.hi = hi;
  work.valid = true;
}

namespace {

// The filter over the taps for every value of one sample: x holds `taps` samples of kValues
// floats each (polarisations x re, im); acc gets kValues sums.
template <int kValues>
inline void filter_sample(const float* h, const float* x, int taps, float* acc) {
  float sum[kValues] = {};
  for (int j = 0; j < taps; ++j)
    for (int v = 0; v < kValues; ++v) sum[v] += h[j] * x[j * kValues + v];
  for (int v = 0; v < kValues; ++v) acc[v] = sum[v];
}

}  // namespace

// Adds one antenna's delayed, phase-rotated copy of the emitter's signal over output samples
// [k_lo, k_hi) of the tile that starts at `tile`.
void ArrayVoltageSimulator::add_antenna_tile(const TileGeometry& g, int channel, int antenna,
                                             int64_t tile, int64_t k_lo, int64_t k_hi,
                                             int64_t first, int64_t n, float* out,
                                             const Work& work) const {
  const int npol = plan_.npol;
  const int taps = filter_.taps();
  // Phase factor exp(-2 pi i nu tau(t)): exact at the tile's start, advanced by its rate.
  const double tsamp_s = plan_.tsamp_s();
  const double nu_hz = plan_.channel_freq_mhz(channel) * 1e6;
  double cycles = nu_hz * g.tau0_s;
  cycles -= std::floor(cycles);
  std::complex<double> phasor = std::polar(1.0, -2 * M_PI * cycles);
  const std::complex<double> step = std::polar(1.0, -2 * M_PI * nu_hz * g.rate * tsamp_s);
  for (int64_t k = tile; k < k_lo; ++k) phasor *= step;
  const int64_t base_index = static_cast<int64_t>(std::floor(-g.delay_samples)) +
                             filter_.first_offset() - work.lo;
  const size_t slice = (static_cast<size_t>(channel) * plan_.layout.size() + antenna) *
                       static_cast<size_t>(n) * npol * values_per_sample_;
  const bool lower_sideband = plan_.bandwidth_mhz < 0;
  float acc[4];
  for (int64_t k = k_lo; k < k_hi; ++k, phasor *= step) {
    const bool odd = plan_.real_samples && (k & 1);
    const int64_t m = plan_.real_samples ? (k >> 1) + (odd ? g.odd_carry : 0) : k;
    const float* x = work.signal.data() + static_cast<size_t>(m + base_index) * npol * 2;
    if (npol == 2)
      filter_sample<4>(g.taps[odd], x, taps, acc);
    else
      filter_sample<2>(g.taps[odd], x, taps, acc);
    const float pr = static_cast<float>(phasor.real()), pi = static_cast<float>(phasor.imag());
    for (int p = 0; p < npol; ++p) {
      const float re = acc[2 * p] * pr - acc[2 * p + 1] * pi;
      const float im = acc[2 * p] * pi + acc[2 * p + 1] * pr;
      if (!plan_.real_samples) {
        float* o = out + slice + (static_cast<size_t>(k - first) * npol + p) * 2;
        o[0] += re;
        o[1] += im;
      } else {
        // sqrt(2) Re(w i^k), or of conj(w) for an inverted band.
        const float im_part = lower_sideband ? -im : im;
        const int quarter = static_cast<int>(k & 3);
        const float r = quarter == 0 ? re : quarter == 1 ? -im_part : quarter == 2 ? -re : im_part;
        out[slice + static_cast<size_t>(k - first) * npol + p] += static_cast<float>(M_SQRT2) * r;
      }
    }
  }
}

std::vector<std::string> ArrayVoltageSimulator::describe_signals() const {
  std::vector<std::string> lines;
  const int centre = nchan_ / 2;
  for (const auto& e : emitters_) {
    char text[512];
    if (e->transient < 0) {
      const double flux = 2 * e->amplitude[centre] * e->amplitude[centre];
      std::snprintf(text, sizeof text,
                    "%s: %.4g Jy at %.6g MHz, correlation coefficient %.4g on every baseline",
                    e->label.c_str(), flux, plan_.channel_freq_mhz(centre),
                    flux / (flux + (plan_.noise ? plan_.sefd_jy : 0.0)));
    } else {
      std::snprintf(text, sizeof text, "%s (S/N in one polarisation of one antenna)",
                    e->label.c_str());
    }
    lines.push_back(text);
  }
  return lines;
}

}  // namespace rapt
