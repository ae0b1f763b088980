#include "ppf/channelize_outputs.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/sigproc.hpp"

namespace rapt {
namespace {

constexpr double kRadToDeg = 57.295779513082320876798154814105;
// Noise rms per real or imaginary part of automatically scaled integer voltages: 8 sigma of
// headroom in 8 bits (127 / 16) and in 16 bits (32767 / 4096).
constexpr double kEightBitVoltageRms = 16.0;
constexpr double kSixteenBitVoltageRms = 4096.0;
// 8-bit filterbanks as bf writes them: stored = 64 + 16 (x - mean) / rms.
constexpr float kFilterbankOffset = 64.0f;
constexpr float kFilterbankPerRms = 16.0f;

// Automatic integer scales are measured on the first blocks until they hold this many samples
// past the filter's warm-up (or this many bytes, or the run ends), the blocks held until then, so
// that the scale does not depend on --gulp (as bf's 8-bit beams).
constexpr int64_t kScalingSamples = 4096;
constexpr size_t kScalingHeldBytes = size_t(256) << 20;

// Whether the first blocks, held, now hold enough to measure an automatic scale on.
bool enough_to_scale(int64_t held_samples, int64_t warmup_samples, size_t held_bytes) {
  return held_samples - warmup_samples >= kScalingSamples || held_bytes >= kScalingHeldBytes;
}

// The first sample a level is measured from: past the filter's warm-up when the data have more.
int64_t measured_from(int warmup, int64_t nsamples) {
  return nsamples > warmup ? warmup : 0;
}

class VoltageOutput final : public ChannelizedOutput {
 public:
  VoltageOutput(const VoltageHeader& header, const ChannelizedOutputSettings& s)
      : header_(header), settings_(s), scale_(s.scale) {
    header_.nbits = s.nbits;
    header_.float_samples = s.nbits == 32;
    if (scale_ == 0 && s.nbits == 32) scale_ = 1;
    writer_ = make_psrdada_writer(s.path, header_, s.overwrite);
  }

  void write(std::vector<float>& samples, int64_t nsamples) override {
    if (nsamples == 0) return;
    if (scale_ == 0) {  // held until the scale is measured
      held_.push_back({samples, nsamples});
      held_samples_ += nsamples;
      held_bytes_ += samples.size() * sizeof(float);
      if (enough_to_scale(held_samples_, settings_.warmup_samples, held_bytes_)) release_held();
      return;
    }
    write_scaled(samples, nsamples);
  }

  void commit() override {
    release_held();  // a run too short for kScalingSamples: the scale from all of it
    writer_->commit();
  }

  std::string scaling_note() const override {
    if (settings_.nbits == 32 || measured_samples_ == 0) return "";
    return format_string("%d-bit voltages: stored = %.6g x, the scale that gives the noise an rms "
                         "of %g in the first %lld samples", settings_.nbits, scale_,
                         settings_.nbits == 8 ? kEightBitVoltageRms : kSixteenBitVoltageRms,
                         (long long)measured_samples_);
  }

  int64_t clipped_values() const override { return writer_->clipped_values(); }

 private:
  struct HeldBlock {
    std::vector<float> samples;
    int64_t nsamples;
  };

  void release_held() {
    if (held_.empty()) return;
    measure_scale();
    for (HeldBlock& h : held_) write_scaled(h.samples, h.nsamples);
    held_.clear();
  }

  void write_scaled(std::vector<float>& samples, int64_t nsamples) {
    if (scale_ != 1)
      for (float& v : samples) v = float(v * scale_);
    block_.first_sample = written_;
    block_.nsamples = nsamples;
    block_.data.swap(samples);  // the writer reads the block; the samples come back after
    try {
      writer_->write(block_);
    } catch (...) {
      block_.data.swap(samples);
      throw;
    }
    block_.data.swap(samples);
    written_ += nsamples;
  }

  // rms over every real and imaginary part of the held samples past the warm-up.
  void measure_scale() {
    const int64_t from = measured_from(settings_.warmup_samples, held_samples_);
    const size_t rows = size_t(header_.nchan) * header_.nant;
    const size_t per_sample = size_t(header_.npol) * 2;
    double sum2 = 0;
    int64_t first = 0;  // of the block, since the start
    for (const HeldBlock& h : held_) {
      const int64_t skip = std::clamp<int64_t>(from - first, 0, h.nsamples);
      for (size_t r = 0; r < rows; ++r)
        for (size_t i = size_t(skip) * per_sample; i < size_t(h.nsamples) * per_sample; ++i) {
          const double v = h.samples[r * size_t(h.nsamples) * per_sample + i];
          if (std::isfinite(v)) sum2 += v * v;
        }
      first += h.nsamples;
    }
    const double count = double(rows) * double(held_samples_ - from) * double(per_sample);
    const double rms = count > 0 ? std::sqrt(sum2 / count) : 0.0;
    const double target = settings_.nbits == 8 ? kEightBitVoltageRms : kSixteenBitVoltageRms;
    scale_ = rms > 0 ? target / rms : 1.0;
    measured_samples_ = held_samples_ - from;
  }

  VoltageHeader header_;
  ChannelizedOutputSettings settings_;
  double scale_;
  int64_t measured_samples_ = 0;
  int64_t written_ = 0;
  VoltageBlock block_;
  std::unique_ptr<VoltageWriter> writer_;
  std::vector<HeldBlock> held_;  // the first blocks, until the scale is measured
  int64_t held_samples_ = 0;
  size_t held_bytes_ = 0;
};

class DetectedOutput final : public ChannelizedOutput {
 public:
  DetectedOutput(const VoltageHeader& header, int antenna, int tavg,
                 const ChannelizedOutputSettings& s)
      : header_(header), antenna_(antenna), tavg_(tavg), settings_(s) {
    const double bw = header.bandwidth_mhz;
    reversed_ = bw > 0;  // filterbanks run from the top down
    SigprocHeader h;
    h.rawdatafile = s.input_name;
    h.source_name = header.source.empty() ? "CHANNELISED" : header.source;
    h.telescope_id = sigproc_telescope_id(header.telescope);
    h.data_type = 1;
    h.src_raj = deg_to_sigproc_ra(header.ra_deg);
    h.src_dej = deg_to_sigproc_dec(header.dec_deg);
    h.tstart = header.start_mjd();
    h.tsamp = header.tsamp_s * tavg;
    h.nbits = s.nbits;
    h.nchans = header.nchan;
    h.nifs = 1;
    h.foff = -std::fabs(bw) / header.nchan;
    h.fch1 = std::max(header.channel_freq_mhz(0), header.channel_freq_mhz(header.nchan - 1));
    writer_.emplace(s.path, h, s.overwrite);
  }

  void write(std::vector<float>& samples, int64_t nsamples) override {
    const int64_t nout = nsamples / tavg_;
    if (nout == 0) return;
    const int nchan = header_.nchan, nant = header_.nant, npol = header_.npol;
    spectra_.assign(size_t(nout) * nchan, 0.0f);
    const int a0 = antenna_ >= 0 ? antenna_ : 0, a1 = antenna_ >= 0 ? antenna_ + 1 : nant;
    const float per_sample = 1.0f / float(tavg_);
    for (int c = 0; c < nchan; ++c) {
      const int column = reversed_ ? nchan - 1 - c : c;
      for (int a = a0; a < a1; ++a) {
        const float* x = samples.data() + (size_t(c) * nant + a) * size_t(nsamples) * npol * 2;
        for (int64_t t = 0; t < nout * tavg_; ++t) {
          float power = 0;
          for (int v = 0; v < npol * 2; ++v) power += x[t * npol * 2 + v] * x[t * npol * 2 + v];
          spectra_[size_t(t / tavg_) * nchan + column] += power * per_sample;
        }
      }
    }
    if (settings_.nbits == 8 && mean_.empty()) {  // held until the levels are measured
      held_.insert(held_.end(), spectra_.begin(), spectra_.end());
      if (enough_to_scale(int64_t(held_.size()) / nchan, warmup_spectra(),
                          held_.size() * sizeof(float)))
        release_held();
      return;
    }
    write_spectra(spectra_, nout);
  }

  void commit() override {
    release_held();  // a run too short for kScalingSamples: the levels from all of it
    writer_->commit();
  }

  std::string scaling_note() const override {
    if (settings_.nbits != 8 || measured_samples_ == 0) return "";
    return format_string("8-bit filterbank: stored = 64 + 16 (x - mean) / rms, clipped to 0..255, "
                         "mean and rms per channel from the first %lld samples",
                         (long long)measured_samples_);
  }

  int64_t clipped_values() const override { return 0; }

 private:
  int64_t warmup_spectra() const { return (settings_.warmup_samples + tavg_ - 1) / tavg_; }

  void release_held() {
    if (held_.empty()) return;
    const int64_t nout = int64_t(held_.size()) / header_.nchan;
    measure_levels(nout);
    write_spectra(held_, nout);
    held_.clear();
    held_.shrink_to_fit();
  }

  void write_spectra(std::vector<float>& spectra, int64_t nout) {
    const int nchan = header_.nchan;
    if (settings_.nbits == 8)
      for (int64_t t = 0; t < nout; ++t)
        for (int c = 0; c < nchan; ++c) {
          float& v = spectra[size_t(t) * nchan + c];
          v = kFilterbankOffset + (v - mean_[size_t(c)]) * scale_[size_t(c)];
        }
    writer_->write(spectra.data(), size_t(nout));
  }

  // Mean and rms of every channel over the held (the first) spectra past the warm-up.
  void measure_levels(int64_t nout) {
    const int nchan = header_.nchan;
    const int64_t from = measured_from(int(warmup_spectra()), nout);
    mean_.assign(size_t(nchan), 0.0f);
    scale_.assign(size_t(nchan), 1.0f);
    for (int c = 0; c < nchan; ++c) {
      double sum = 0, sum2 = 0;
      for (int64_t t = from; t < nout; ++t) {
        const double v = held_[size_t(t) * nchan + c];
        sum += v;
        sum2 += v * v;
      }
      const double n = double(nout - from);
      const double mean = sum / n;
      const double rms = std::sqrt(std::max(0.0, sum2 / n - mean * mean));
      mean_[size_t(c)] = float(mean);
      scale_[size_t(c)] = rms > 0 ? float(kFilterbankPerRms / rms) : 1.0f;
    }
    measured_samples_ = nout - from;
  }

  VoltageHeader header_;
  int antenna_;
  int tavg_;
  ChannelizedOutputSettings settings_;
  bool reversed_ = false;
  std::optional<SigprocWriter> writer_;
  std::vector<float> spectra_;  // [t][channel], filterbank order
  std::vector<float> held_;     // the first spectra, until the levels are measured
  std::vector<float> mean_, scale_;
  int64_t measured_samples_ = 0;
};

}  // namespace

std::unique_ptr<ChannelizedOutput> make_voltage_output(const VoltageHeader& header,
                                                       const ChannelizedOutputSettings& settings) {
  return std::make_unique<VoltageOutput>(header, settings);
}

std::unique_ptr<ChannelizedOutput> make_detected_output(const VoltageHeader& header, int antenna,
                                                        int tavg,
                                                        const ChannelizedOutputSettings& settings) {
  return std::make_unique<DetectedOutput>(header, antenna, tavg, settings);
}

}  // namespace rapt
