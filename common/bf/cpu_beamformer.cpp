// The CPU beamformer: the reference engine. Threads take groups of `fscrunch` channels (one
// output channel each, so no two threads add into the same output); within a group the block is
// walked in tiles of whole integration windows, each tile's complex beams formed in a scratch
// buffer (stations outer, beams and samples inner: each station's samples are read once per beam
// from cache), then detected, integrated and written.
#include <algorithm>
#include <complex>
#include <thread>
#include <vector>

#include "bf/beamformer_engine.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

constexpr int64_t kTileSamples = 256;  // about: rounded to whole integration windows

// Stokes parameters of one beam sample (header's formulas), added to acc[0..nstokes).
inline void add_stokes(const float* y, int npol, int nstokes, bool circular, float* acc) {
  const float aa = y[0] * y[0] + y[1] * y[1];
  if (npol == 1) {
    acc[0] += aa;
    return;
  }
  const float bb = y[2] * y[2] + y[3] * y[3];
  acc[0] += aa + bb;
  if (nstokes == 1) return;
  const float cr = y[0] * y[2] + y[1] * y[3];  // Re(conj(Y0) Y1)
  const float ci = y[0] * y[3] - y[1] * y[2];  // Im(conj(Y0) Y1)
  if (circular) {
    acc[1] += 2 * cr;
    acc[2] += 2 * ci;
    acc[3] += aa - bb;
  } else {
    acc[1] += aa - bb;
    acc[2] += 2 * cr;
    acc[3] += 2 * ci;
  }
}

class CpuBeamformer final : public BeamformerEngine {
 public:
  CpuBeamformer(const BeamformerShape& shape, int threads)
      : BeamformerEngine(shape), threads_(std::max(threads, 1)) {}
  std::string name() const override { return "cpu"; }

 private:
  void load_weights(const BeamWeights& weights) override {
    weights_ = weights.weights;
    station_scale_ = weights.station_scale;
  }

  void compute(const float* x, int64_t nsamples, const uint8_t* flags,
               BeamBlockOutput& out) override {
    const BeamformerShape& s = shape();
    // Unflagged samples per integration window.
    const int64_t nout = nsamples / s.tint;
    window_ok_.assign(size_t(nout), 0);
    for (int64_t t = 0; t < nsamples; ++t)
      if (!flags || !flags[t]) ++window_ok_[size_t(t / s.tint)];
    const int64_t tile = std::max<int64_t>(1, kTileSamples / s.tint) * s.tint;
    scratch_.resize(size_t(threads_));
    parallel_for(threads_, size_t(s.nchan_out()), [&](size_t group, int worker) {
      for (int64_t t0 = 0; t0 < nsamples; t0 += tile)
        form_tile(x, nsamples, flags, int(group), t0, std::min(tile, nsamples - t0),
                  scratch_[size_t(worker)], out);
    });
  }

  struct Scratch {
    std::vector<float> beams;       // [beam][time][pol][re, im] of one channel and tile
    std::vector<float> detected;    // [beam][window][stokes] of the group and tile
    std::vector<float> incoherent;  // [window]
  };

  void form_tile(const float* x, int64_t nsamples, const uint8_t* flags, int group, int64_t t0,
                 int64_t nt, Scratch& scratch, BeamBlockOutput& out) const {
    const BeamformerShape& s = shape();
    const int64_t nwin = nt / s.tint;
    const int nst = s.nstokes();
    const size_t row = size_t(nt) * s.npol * 2;  // floats of one beam or station in the tile
    scratch.beams.resize(size_t(s.nbeams) * row);
    scratch.detected.assign(size_t(s.nbeams) * nwin * nst, 0.0f);
    scratch.incoherent.assign(size_t(nwin), 0.0f);
    for (int c = group * s.fscrunch; c < (group + 1) * s.fscrunch; ++c) {
      std::fill(scratch.beams.begin(), scratch.beams.end(), 0.0f);
      for (int a = 0; a < s.nant; ++a) {
        const float* xa = x + (size_t(c) * s.nant + a) * size_t(nsamples) * s.npol * 2 +
                          size_t(t0) * s.npol * 2;
        for (int b = 0; b < s.nbeams; ++b) {
          const std::complex<float> w = weights_[(size_t(c) * s.nbeams + b) * s.nant + a];
          if (w == std::complex<float>(0, 0)) continue;
          const float wr = w.real(), wi = w.imag();
          float* y = scratch.beams.data() + size_t(b) * row;
          for (size_t k = 0; k < row; k += 2) {
            y[k] += wr * xa[k] - wi * xa[k + 1];
            y[k + 1] += wr * xa[k + 1] + wi * xa[k];
          }
        }
        if (s.incoherent && station_scale_[size_t(a)] != 0.0f)
          add_incoherent(xa, nt, flags, t0, station_scale_[size_t(a)], scratch.incoherent);
      }
      if (s.coherent) copy_coherent(scratch.beams, c, nsamples, t0, nt, flags, out);
      if (s.detection != BeamDetection::none) detect(scratch.beams, nt, t0, flags, scratch.detected);
    }
    write_windows(scratch, group, t0, nwin, out);
  }

  void add_incoherent(const float* xa, int64_t nt, const uint8_t* flags, int64_t t0, float scale,
                      std::vector<float>& acc) const {
    const BeamformerShape& s = shape();
    for (int64_t t = 0; t < nt; ++t) {
      if (flags && flags[t0 + t]) continue;
      float power = 0;
      for (int p = 0; p < s.npol; ++p) {
        const float* v = xa + (size_t(t) * s.npol + p) * 2;
        power += v[0] * v[0] + v[1] * v[1];
      }
      acc[size_t(t / s.tint)] += scale * power;
    }
  }

  void copy_coherent(const std::vector<float>& beams, int c, int64_t nsamples, int64_t t0,
                     int64_t nt, const uint8_t* flags, BeamBlockOutput& out) const {
    const BeamformerShape& s = shape();
    const size_t per_time = size_t(s.npol) * 2;
    for (int b = 0; b < s.nbeams; ++b) {
      const float* y = beams.data() + size_t(b) * nt * per_time;
      float* dst = out.coherent.data() + ((size_t(b) * s.nchan + c) * nsamples + t0) * per_time;
      for (int64_t t = 0; t < nt; ++t)
        for (size_t k = 0; k < per_time; ++k)
          dst[size_t(t) * per_time + k] = flags && flags[t0 + t] ? 0.0f : y[size_t(t) * per_time + k];
    }
  }

  void detect(const std::vector<float>& beams, int64_t nt, int64_t t0, const uint8_t* flags,
              std::vector<float>& acc) const {
    const BeamformerShape& s = shape();
    const int nst = s.nstokes();
    const int64_t nwin = nt / s.tint;
    for (int b = 0; b < s.nbeams; ++b) {
      const float* y = beams.data() + size_t(b) * nt * s.npol * 2;
      for (int64_t t = 0; t < nt; ++t) {
        if (flags && flags[t0 + t]) continue;
        add_stokes(y + size_t(t) * s.npol * 2, s.npol, nst, s.circular,
                   acc.data() + (size_t(b) * nwin + size_t(t / s.tint)) * nst);
      }
    }
  }

  // Integrated sums -> outputs, rescaled by tint / unflagged samples of each window.
  void write_windows(const Scratch& scratch, int group, int64_t t0, int64_t nwin,
                     BeamBlockOutput& out) const {
    const BeamformerShape& s = shape();
    const int nst = s.nstokes();
    const int nco = s.nchan_out();
    for (int64_t w = 0; w < nwin; ++w) {
      const int64_t window = t0 / s.tint + w;
      const int ok = window_ok_[size_t(window)];
      const float rescale = ok ? float(s.tint) / float(ok) : 0.0f;
      if (s.detection != BeamDetection::none)
        for (int b = 0; b < s.nbeams; ++b)
          for (int k = 0; k < nst; ++k)
            out.detected[((size_t(b) * out.nsamples_out + window) * nst + k) * nco + group] =
                rescale * scratch.detected[(size_t(b) * nwin + w) * nst + k];
      if (s.incoherent)
        out.incoherent[size_t(window) * nco + group] = rescale * scratch.incoherent[size_t(w)];
    }
  }

  int threads_;
  std::vector<std::complex<float>> weights_;
  std::vector<float> station_scale_;
  std::vector<int> window_ok_;
  std::vector<Scratch> scratch_;
};

}  // namespace

std::unique_ptr<BeamformerEngine> make_cpu_beamformer(const BeamformerShape& shape, int threads) {
  return std::make_unique<CpuBeamformer>(shape, threads);
}

}  // namespace rapt
