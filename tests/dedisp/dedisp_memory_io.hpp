// An observation held in memory, its header, and a sink that keeps every series: the dedispersion runner's
// tests feed and read it through these.
#pragma once
#include <algorithm>
#include <vector>

#include "dedisp/dedisp_runner.hpp"
#include "io/spectra_source.hpp"

namespace rapt::testing {

// An observation of `nchans` float channels from 1500 MHz down (foff_mhz < 0) or up, 256 us.
inline ObservationInfo observation(int nchans, double foff_mhz = -2.0) {
  ObservationInfo info;
  info.path = "memory.fil";
  info.nchans = nchans;
  info.fch1_mhz = 1500.0;
  info.foff_mhz = foff_mhz;
  info.tsamp_s = 256e-6;
  info.nbits = 32;
  return info;
}

// Spectra held in memory; nspectra is hidden (-1) when `pipe` is set, as for stdin.
class MemorySpectra : public SpectraSource {
 public:
  MemorySpectra(ObservationInfo info, std::vector<float> data, bool pipe = false)
      : info_(std::move(info)), data_(std::move(data)) {
    total_ = data_.size() / info_.nchans;
    info_.nspectra = pipe ? -1 : int64_t(total_);
  }
  const ObservationInfo& info() const override { return info_; }
  size_t read(float* out, size_t max_spectra) override {
    // Short reads on purpose: the runner must not care how the source splits the data.
    const size_t n = std::min({max_spectra, total_ - next_, size_t(777)});
    std::copy_n(data_.data() + next_ * info_.nchans, n * info_.nchans, out);
    next_ += n;
    return n;
  }

 private:
  ObservationInfo info_;
  std::vector<float> data_;
  size_t total_ = 0, next_ = 0;
};

class MemorySink : public DedispSink {
 public:
  void begin(const ObservationInfo&, const std::vector<DedispTrial>& trials) override {
    this->trials = trials;
    series.assign(trials.size(), {});
  }
  void append(size_t trial, const float* samples, size_t count) override {
    series[trial].insert(series[trial].end(), samples, samples + count);
  }
  void finish(const std::vector<TrialSummary>& s) override { summaries = s; }

  std::vector<DedispTrial> trials;
  std::vector<std::vector<float>> series;
  std::vector<TrialSummary> summaries;
};

}  // namespace rapt::testing
