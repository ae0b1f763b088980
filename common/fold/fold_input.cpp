#include "fold/fold_input.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "io/header_validation.hpp"
#include "io/non_finite_samples.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "io/spectra_source.hpp"

namespace rapt {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void name_paths(FoldObservation& obs, const std::string& path) {
  obs.path = path;
  const size_t slash = path.find_last_of('/');
  obs.filenm = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = path.find_last_of('.');
  obs.root = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                 ? path : path.substr(0, dot);
}

// A .dat or .sdat series and its .inf.
template <typename Sample>
class SeriesInput final : public FoldInput {
 public:
  explicit SeriesInput(const std::string& path) : path_(path), reader_(path) {
    name_paths(observation_, path);
    const std::string inf_path = observation_.root + ".inf";
    const InfFile inf = read_inf(inf_path);
    validate_series_length(inf_path, "N", inf.n, path, reader_.size());
    observation_.nsamples = reader_.size();
    observation_.dt_s = inf.dt_s;
    observation_.telescope = inf.telescope;
    observation_.epoch_mjd = inf.epoch_mjd();
    observation_.barycentric = inf.barycentered;
    observation_.ra_deg = inf.ra_deg;
    observation_.dec_deg = inf.dec_deg;
    observation_.numchan = 1;
    observation_.lofreq_mhz = inf.lofreq_mhz;
    observation_.chan_wid_mhz = inf.chan_bw_mhz;
    observation_.dm = inf.dm;
  }
  void set_subbands(int nsub, double) override {
    if (nsub != 1) throw UsageError("--nsub: a time series is folded as one band (nsub 1)");
  }
  int nsub() const override { return 1; }
  size_t read(float* out, size_t, size_t max_samples) override {
    if constexpr (std::is_same_v<Sample, float>) {
      // Float samples: NaNs and infinities take the series' mean (NonFiniteSamples), its
      // first interval's from the first samples, read ahead by a reader of their own.
      if (!non_finite_) {
        non_finite_.emplace(path_, 1, "sample");
        RawSeriesReader<float> ahead(path_);
        std::vector<float> first(NonFiniteSamples::kLevelSpectra);
        first.resize(ahead.read(first.data(), first.size()));
        non_finite_->start_levels(first.data(), first.size());
      }
      const int64_t at = reader_.position();
      const size_t n = reader_.read(out, max_samples);
      non_finite_->replace(out, n, at);
      return n;
    }
    scratch_.resize(max_samples);
    const size_t n = reader_.read(scratch_.data(), max_samples);
    std::copy_n(scratch_.begin(), n, out);
    return n;
  }
  std::vector<std::string> warnings() const override {
    if (!non_finite_ || non_finite_->count() == 0) return {};
    return {non_finite_->warning()};
  }

 private:
  std::string path_;
  RawSeriesReader<Sample> reader_;
  std::vector<Sample> scratch_;
  std::optional<NonFiniteSamples> non_finite_;
};

// Raw spectra, dedispersed into subbands.
class SubbandInput final : public FoldInput {
 public:
  explicit SubbandInput(const std::string& path) : source_(open_spectra_source(path)) {
    const ObservationInfo& info = source_->info();
    name_paths(observation_, path);
    observation_.raw = true;
    if (info.nspectra < 0) throw file_error(path, "fold needs a file of known length, not a pipe");
    if (info.nspectra == 0) throw file_error(path, "holds no spectra");
    observation_.nsamples = info.nspectra;
    observation_.dt_s = info.tsamp_s;
    observation_.telescope = info.telescope;
    observation_.epoch_mjd = info.tstart_mjd;
    observation_.barycentric = info.barycentric;
    observation_.ra_deg = info.ra_deg;
    observation_.dec_deg = info.dec_deg;
    observation_.numchan = info.nchans;
    observation_.lofreq_mhz = info.lowest_freq_mhz();
    observation_.chan_wid_mhz = std::fabs(info.foff_mhz);
    // The readers refuse such headers; dedispersion below divides by these frequencies.
    if (!(observation_.lofreq_mhz > 0.0) || !(observation_.dt_s > 0.0))
      throw file_error(path, "lowest channel frequency and sampling time must be positive");
  }

  void set_subbands(int nsub, double dm) override;
  int nsub() const override { return nsub_; }
  std::vector<std::string> warnings() const override { return source_->warnings(); }
  size_t read(float* out, size_t stride, size_t max_samples) override;

 private:
  size_t fill(size_t wanted);
  int file_channel(int ascending) const {
    return source_->info().foff_mhz < 0.0 ? observation_.numchan - 1 - ascending : ascending;
  }

  std::unique_ptr<SpectraSource> source_;
  int nsub_ = 1;
  std::vector<int> delays_;       // per file channel, samples
  int max_delay_ = 0;
  std::vector<float> buffer_;     // spectra from next_ on, time-major, file channel order
  size_t buffered_ = 0;
  int64_t next_ = 0;              // absolute index of the first buffered spectrum
  bool source_done_ = false;
  std::vector<double> channel_sums_;
  int64_t spectra_read_ = 0;
};

void SubbandInput::set_subbands(int nsub, double dm) {
  const int nchans = observation_.numchan;
  if (nsub < 1 || nchans % nsub != 0)
    throw UsageError("--nsub " + std::to_string(nsub) + " does not divide the " +
                     std::to_string(nchans) + " channels of " + observation_.path);
  nsub_ = nsub;
  delays_.assign(size_t(nchans), 0);
  const int per_sub = nchans / nsub;
  for (int a = 0; a < nchans; ++a) {
    const int top = (a / per_sub) * per_sub + per_sub - 1;
    const double f = observation_.lofreq_mhz + a * observation_.chan_wid_mhz;
    const double f_top = observation_.lofreq_mhz + top * observation_.chan_wid_mhz;
    const double delay_s = dm * kDispersionConstantPresto * (1.0 / (f * f) - 1.0 / (f_top * f_top));
    delays_[size_t(file_channel(a))] = int(delay_s / observation_.dt_s + 0.5);
  }
  max_delay_ = *std::max_element(delays_.begin(), delays_.end());
  channel_sums_.assign(size_t(nchans), 0.0);
}

// Makes the buffer hold `wanted` spectra, padding with channel means past the end of the data.
size_t SubbandInput::fill(size_t wanted) {
  const size_t nchans = size_t(observation_.numchan);
  if (buffer_.size() < wanted * nchans) buffer_.resize(wanted * nchans);
  while (buffered_ < wanted && !source_done_) {
    const size_t got = source_->read(&buffer_[buffered_ * nchans], wanted - buffered_);
    if (got == 0) {
      source_done_ = true;
      break;
    }
    for (size_t s = 0; s < got; ++s)
      for (size_t c = 0; c < nchans; ++c) channel_sums_[c] += buffer_[(buffered_ + s) * nchans + c];
    buffered_ += got;
    spectra_read_ += int64_t(got);
  }
  for (; buffered_ < wanted; ++buffered_)
    for (size_t c = 0; c < nchans; ++c)
      buffer_[buffered_ * nchans + c] =
          spectra_read_ > 0 ? float(channel_sums_[c] / double(spectra_read_)) : 0.0f;
  return buffered_;
}

size_t SubbandInput::read(float* out, size_t stride, size_t max_samples) {
  if (delays_.empty()) set_subbands(nsub_, 0.0);
  const size_t n = size_t(std::min<int64_t>(int64_t(max_samples), observation_.nsamples - next_));
  if (n == 0) return 0;
  fill(n + size_t(max_delay_));
  const size_t nchans = size_t(observation_.numchan);
  const int per_sub = observation_.numchan / nsub_;
  for (int sub = 0; sub < nsub_; ++sub) {
    float* dst = out + size_t(sub) * stride;
    std::fill(dst, dst + n, 0.0f);
    for (int a = sub * per_sub; a < (sub + 1) * per_sub; ++a) {
      const size_t c = size_t(file_channel(a));
      const float* src = &buffer_[size_t(delays_[c]) * nchans + c];
      for (size_t k = 0; k < n; ++k) dst[k] += src[k * nchans];
    }
  }
  std::copy(buffer_.begin() + std::ptrdiff_t(n * nchans),
            buffer_.begin() + std::ptrdiff_t(buffered_ * nchans), buffer_.begin());
  buffered_ -= n;
  next_ += int64_t(n);
  return n;
}

}  // namespace

int default_subbands(int nchans) {
  if (nchans <= 256) {
    for (int nsub : {32, 30, 25, 20})
      if (nchans % nsub == 0) return nsub;
  } else if (nchans <= 1024) {
    if (nchans % 8 == 0) return nchans / 8;
    if (nchans % 10 == 0) return nchans / 10;
  } else {
    if (nchans % 128 == 0) return 128;
    if (nchans % 100 == 0) return 100;
  }
  return 0;
}

std::unique_ptr<FoldInput> open_fold_input(const std::string& path) {
  if (ends_with(path, ".dat")) return std::make_unique<SeriesInput<float>>(path);
  if (ends_with(path, ".sdat")) return std::make_unique<SeriesInput<int16_t>>(path);
  return std::make_unique<SubbandInput>(path);
}

}  // namespace rapt
