// The CPU channeliser: the readable reference, and fast enough to use (threads over streams
// and stretches of time, FFTW's batched transforms).
//
// Per stream (input channel, antenna, polarisation) the engine keeps the last (ntaps - 1)
// frames of input. A work item is one (channel, antenna) pair and a run of output frames; it
// copies the input those frames need (the history before the block, then the block) into a
// contiguous scratch row, sums the FIR into a batch of frames, transforms the batch and writes
// each fine channel, corrected, into the canonical output. The history moves on once every item
// of a call is done, so items never see each other's changes.
#include <fftw3.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "dedisp/parallel_for.hpp"
#include "ppf/channeliser.hpp"
#include "ppf/ppf_gpu_factory.hpp"

namespace rapt {
namespace {

// fftwf_malloc'd floats: FFTW's new-array execute needs the alignment its plan was made with,
// and every buffer from fftwf_malloc has the same one.
class FftwFloats {
 public:
  explicit FftwFloats(size_t count)
      : data_(static_cast<float*>(fftwf_malloc(std::max<size_t>(count, 1) * sizeof(float)))) {
    if (!data_) throw std::bad_alloc();
    std::memset(data_, 0, std::max<size_t>(count, 1) * sizeof(float));
  }
  ~FftwFloats() { fftwf_free(data_); }
  FftwFloats(const FftwFloats&) = delete;
  FftwFloats& operator=(const FftwFloats&) = delete;
  float* get() const { return data_; }
  fftwf_complex* complex() const { return reinterpret_cast<fftwf_complex*>(data_); }

 private:
  float* data_;
};

class FftwPlan {
 public:
  explicit FftwPlan(fftwf_plan plan) : plan_(plan) {
    if (!plan_) throw std::runtime_error("channeliser: FFTW could not make a plan");
  }
  ~FftwPlan() { fftwf_destroy_plan(plan_); }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  fftwf_plan get() const { return plan_; }

 private:
  fftwf_plan plan_;
};

// One worker's scratch: the input row of an item, a batch of FIR outputs and their spectra.
struct Scratch {
  Scratch(size_t row_floats, size_t frame_floats, size_t spectrum_floats)
      : row(row_floats), frames(frame_floats), spectra(spectrum_floats) {}
  std::vector<float> row;
  FftwFloats frames;
  FftwFloats spectra;
};

class CpuChanneliser final : public ChanneliserEngine {
 public:
  CpuChanneliser(const ChanneliserShape& shape, const std::vector<float>& prototype,
                 const ChanneliserCorrections& corrections, int threads)
      : ChanneliserEngine(shape), h_(prototype), threads_(std::max(threads, 1)) {
    const ChanneliserShape& s = this->shape();
    values_ = s.real_input ? 1 : 2;
    frame_ = s.frame();
    history_samples_ = int64_t(s.ntaps - 1) * frame_;
    history_.assign(size_t(s.nstreams()) * size_t(history_samples_) * values_, 0.0f);
    for (int j = 0; j < s.nfine; ++j) bins_.push_back(pfb_fine_channel_bin(s, j));
    bins_in_spectrum_ = s.real_input ? s.nfine + 1 : s.nfine;
    make_factors(corrections);
    // Transforms per FFTW call: up to 16, fewer for long frames (at most 64 Ki samples).
    batch_ = int(std::clamp<int64_t>(65536 / frame_, 1, 16));
    scratch_.reserve(size_t(threads_));
    for (int w = 0; w < threads_; ++w)
      scratch_.push_back(std::make_unique<Scratch>(0, size_t(batch_) * frame_ * values_,
                                                   size_t(batch_) * bins_in_spectrum_ * 2));
    make_plan();
  }

  std::string name() const override { return "cpu (" + std::to_string(threads_) + " threads)"; }

 private:
  // Per-antenna factors (delays: a table [ant][chan_out]) or per-channel gains, or nothing.
  void make_factors(const ChanneliserCorrections& c) {
    const ChanneliserShape& s = shape();
    bool delays = false;
    for (double d : c.delay_s) delays = delays || d != 0;
    if (!delays && c.bandpass_gain.empty()) return;
    factor_rows_ = delays ? s.nant : 1;
    factors_.resize(size_t(factor_rows_) * size_t(s.nchan_out()));
    for (int a = 0; a < factor_rows_; ++a)
      for (int ch = 0; ch < s.nchan_out(); ++ch)
        factors_[size_t(a) * s.nchan_out() + ch] = std::complex<float>(correction_factor(c, a, ch));
  }

  void make_plan() {
    const ChanneliserShape& s = shape();
    const Scratch& w = *scratch_[0];
    int n = frame_;
    if (s.real_input)
      plan_ = std::make_unique<FftwPlan>(fftwf_plan_many_dft_r2c(
          1, &n, batch_, w.frames.get(), nullptr, 1, frame_, w.spectra.complex(), nullptr, 1,
          bins_in_spectrum_, FFTW_ESTIMATE));
    else
      plan_ = std::make_unique<FftwPlan>(fftwf_plan_many_dft(
          1, &n, batch_, w.frames.complex(), nullptr, 1, frame_, w.spectra.complex(), nullptr, 1,
          frame_, FFTW_FORWARD, FFTW_ESTIMATE));
  }

  void channelise(const float* input, int64_t nframes, float* out) override {
    const ChanneliserShape& s = shape();
    const int64_t pairs = int64_t(s.nchan_in) * s.nant;
    // Runs of output frames: enough items to keep every thread busy, none so long that its row
    // is large, none so short that copying the history in dominates.
    const int64_t longest = std::max<int64_t>(64, 8 * int64_t(s.ntaps - 1));
    const int64_t wanted_runs = std::max<int64_t>(1, (4 * int64_t(threads_) + pairs - 1) / pairs);
    const int64_t run = std::clamp<int64_t>((nframes + wanted_runs - 1) / wanted_runs, 1, longest);
    const int64_t runs = (nframes + run - 1) / run;
    parallel_for(threads_, size_t(pairs * runs), [&](size_t item, int worker) {
      const int64_t pair = int64_t(item) / runs;
      const int64_t t0 = (int64_t(item) % runs) * run;
      filter_run(input, nframes, out, pair, t0, std::min(nframes, t0 + run), *scratch_[size_t(worker)]);
    });
    parallel_for(threads_, size_t(pairs), [&](size_t pair, int) {
      keep_history(input, nframes * frame_, int64_t(pair));
    });
  }

  // Output frames [t0, t1) of both polarisations of one (channel, antenna) pair.
  void filter_run(const float* input, int64_t nframes, float* out, int64_t pair, int64_t t0,
                  int64_t t1, Scratch& w) const {
    const ChanneliserShape& s = shape();
    const int64_t nsamples = nframes * frame_;
    const int64_t first = t0 * frame_ - history_samples_;  // input time of the row's start
    const int64_t row_samples = t1 * frame_ - first;
    w.row.resize(size_t(row_samples) * values_);
    for (int p = 0; p < s.npol; ++p) {
      const int64_t stream = pair * s.npol + p;
      const float* history = history_.data() + size_t(stream) * history_samples_ * values_;
      const float* block = input + size_t(pair) * nsamples * s.npol * values_;
      for (int64_t n = first; n < t1 * frame_; ++n) {
        const float* from = n < 0 ? history + (n + history_samples_) * values_
                                  : block + (n * s.npol + p) * values_;
        for (int v = 0; v < values_; ++v) w.row[size_t(n - first) * values_ + v] = from[v];
      }
      for (int64_t t = t0; t < t1; t += batch_) {
        const int count = int(std::min<int64_t>(batch_, t1 - t));
        fir(w.row.data() + size_t(t - t0) * frame_ * values_, count, w.frames.get());
        if (s.real_input)
          fftwf_execute_dft_r2c(plan_->get(), w.frames.get(), w.spectra.complex());
        else
          fftwf_execute_dft(plan_->get(), w.frames.complex(), w.spectra.complex());
        write_channels(w.spectra.get(), count, pair, p, t, nframes, out);
      }
    }
  }

  // `count` frames of FIR output from `row`, whose first ntaps - 1 frames are their history.
  void fir(const float* row, int count, float* frames) const {
    const int n = frame_ * values_;  // floats in a frame
    const int ntaps = shape().ntaps;
    for (int f = 0; f < count; ++f) {
      float* acc = frames + size_t(f) * n;
      std::fill(acc, acc + n, 0.0f);
      for (int m = 0; m < ntaps; ++m) {
        const float* h = h_.data() + size_t(m) * frame_;
        const float* x = row + size_t(f + m) * n;
        if (values_ == 1) {
          for (int k = 0; k < frame_; ++k) acc[k] += h[k] * x[k];
        } else {
          for (int k = 0; k < frame_; ++k) {
            acc[2 * k] += h[k] * x[2 * k];
            acc[2 * k + 1] += h[k] * x[2 * k + 1];
          }
        }
      }
    }
  }

  // Spectra of `count` frames from output frame t on, into the canonical output.
  void write_channels(const float* spectra, int count, int64_t pair, int p, int64_t t,
                      int64_t nframes, float* out) const {
    const ChanneliserShape& s = shape();
    const int c = int(pair / s.nant), a = int(pair % s.nant);
    const bool conjugate = pfb_conjugates(s);
    const std::complex<float>* factors =
        factors_.empty() ? nullptr
                         : factors_.data() + size_t(factor_rows_ > 1 ? a : 0) * s.nchan_out();
    for (int j = 0; j < s.nfine; ++j) {
      const int ch = c * s.nfine + j;
      float* row = out + ((size_t(ch) * s.nant + a) * nframes) * s.npol * 2;
      for (int f = 0; f < count; ++f) {
        const float* bin = spectra + (size_t(f) * bins_in_spectrum_ + bins_[size_t(j)]) * 2;
        std::complex<float> v(bin[0], conjugate ? -bin[1] : bin[1]);
        if (factors) v *= factors[ch];
        float* to = row + (size_t(t + f) * s.npol + p) * 2;
        to[0] = v.real();
        to[1] = v.imag();
      }
    }
  }

  // The last ntaps - 1 frames of (history, block) become the history.
  void keep_history(const float* input, int64_t nsamples, int64_t pair) {
    const ChanneliserShape& s = shape();
    const int64_t hs = history_samples_;
    if (hs == 0) return;
    for (int p = 0; p < s.npol; ++p) {
      float* history = history_.data() + size_t(pair * s.npol + p) * hs * values_;
      const float* block = input + size_t(pair) * nsamples * s.npol * values_;
      const int64_t kept = std::max<int64_t>(0, hs - nsamples);  // old samples that stay
      std::memmove(history, history + (hs - kept) * values_, size_t(kept) * values_ * sizeof(float));
      for (int64_t n = nsamples - (hs - kept); n < nsamples; ++n)
        for (int v = 0; v < values_; ++v)
          history[size_t(kept + n - (nsamples - (hs - kept))) * values_ + v] =
              block[(n * s.npol + p) * values_ + v];
    }
  }

  std::vector<float> h_;
  int threads_;
  int values_ = 2;            // floats per input sample
  int frame_ = 0;
  int64_t history_samples_ = 0;
  std::vector<float> history_;  // [stream][history_samples_][values_]
  std::vector<int> bins_;       // [nfine] FFT bin of each fine channel
  int bins_in_spectrum_ = 0;    // complex values per transform's output
  int factor_rows_ = 0;         // rows of factors_: nant (delays) or 1 (gains only)
  std::vector<std::complex<float>> factors_;  // [factor_rows_][chan_out]
  int batch_ = 1;
  std::vector<std::unique_ptr<Scratch>> scratch_;
  std::unique_ptr<FftwPlan> plan_;
};

}  // namespace

std::unique_ptr<ChanneliserEngine> make_cpu_channeliser(const ChanneliserShape& shape,
                                                        const std::vector<float>& prototype,
                                                        const ChanneliserCorrections& corrections,
                                                        int threads) {
  check_channeliser_inputs(shape, prototype, corrections);
  return std::make_unique<CpuChanneliser>(shape, prototype, corrections, threads);
}

}  // namespace rapt
