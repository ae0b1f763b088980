// Streams an observation through dedispersion engines, gulp by gulp, and hands each DM trial's
// series to a sink.
//
// Gulps overlap by the largest delay, so the output never depends on the gulp size. The end of
// the data is padded with each channel's mean, so every input sample reaches the output: a trial
// at downsampling d gets ceil(N/d) computed samples, of which the first
// floor((N - delay(DM)) / d) saw real data in every channel ("real"). A downsampled sample is
// the mean of d spectra's sums, as prepsubband's. Then, as PRESTO does, the series is padded
// with its mean value (the sum of the channel means) up to the chosen length, or cut there. Sinks learn where the real data end, for .inf on/off pairs.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/work_part.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

class SigprocReader;

// DM trials that share one downsampling factor (one engine, or one subband pass).
struct DmTrialGroup {
  std::vector<double> dms;
  int downsamp = 1;
};

// How many samples each output series gets.
enum class OutputLength {
  kComputed,  // ceil(N / downsamp): every input sample, nothing added
  kGoodN,     // as prepsubband: padded up to a highly factorable even length >= ceil(N/downsamp)
  kNumout,    // exactly `numout` samples (PRESTO's -numout): padded or cut
};

struct DedispRunConfig {
  std::vector<DmTrialGroup> groups;
  double dm_const = kDispersionConstantPresto;
  std::vector<bool> zapped;      // per channel, file order; empty = none
  int nsub = 0;                  // > 1: two-stage subband dedispersion with nsub subbands
  double subband_tolerance = 1.0;  // DM spread within a subband group, in output samples of smear
  OutputLength length = OutputLength::kGoodN;
  int64_t numout = 0;            // for OutputLength::kNumout
  size_t gulp = 0;               // new spectra per step (0 = a default); rounded to downsamp
  std::string device = "cpu";    // --device: one device, or several GPUs (gpu:0,1, gpu:all)
                                 // that each take a share of every group's trials
  int cpu_threads = 0;           // CPU engine threads (0 = all cores); for device "cpu"
  // Called after each gulp with the number of input spectra dedispersed so far.
  std::function<void(int64_t)> on_progress;
};

struct DedispTrial {
  double dm = 0.0;
  int downsamp = 1;
  double tsamp_s = 0.0;          // output sampling time
};

struct TrialSummary {
  int64_t nsamples = 0;          // samples written
  int64_t real_samples = 0;      // leading samples computed from real data in every channel
  float pad_value = 0.0f;        // value of the padding (the series' expected mean)
};

// Receives the output. begin() once, append() per gulp per trial (in time order), finish()
// once when all samples are written; throwing from any of them stops the run.
class DedispSink {
 public:
  virtual ~DedispSink() = default;
  virtual void begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) = 0;
  virtual void append(size_t trial, const float* samples, size_t count) = 0;
  virtual void finish(const std::vector<TrialSummary>& summaries) = 0;
};

// Smallest even number >= n whose prime factors are all 2, 3, 5 or 7 (FFT-friendly).
int64_t good_series_length(int64_t n);

// What a run did, for messages.
struct DedispRunReport {
  int64_t spectra_read = 0;
  size_t ntrials = 0;
  std::string engine;            // engine name(s)
  bool packed_input = false;     // samples went to the engine without conversion to float
  std::vector<std::string> notes;  // e.g. subband groups
  // Where the time went, in seconds of wall time.
  double setup_s = 0.0;          // the engines: tables, buffers, tuning
  double read_s = 0.0;           // reading (and cleaning) the input
  double compute_s = 0.0;        // dedispersing, series back to the host (GPUs at once)
  double output_s = 0.0;         // handing the series to the sink (writing the files)
};

// Runs everything. `source` is read to its end. If `raw` is given (the same object as `source`,
// as a SIGPROC reader with 1/2/4/8-bit unsigned samples and one IF), samples go to the engines
// packed; otherwise as float32. Throws DataError for input that ends before any trial's delay
// is covered, UsageError for a bad configuration.
DedispRunReport run_dedispersion(SpectraSource& source, SigprocReader* raw,
                                 const DedispRunConfig& config, DedispSink& sink);

// The trials that part K of N of the run computes (--part): the run's trials, in output order,
// cut into N shares of whole units (single trials, or whole subband DM groups when config.nsub
// > 1), so each trial comes out as the whole run makes it. Groups left empty are dropped.
std::vector<DmTrialGroup> part_of_trials(const DedispRunConfig& config,
                                         const ObservationInfo& info, const WorkPart& part);

// Trials in output order (groups in order, DMs in order within a group).
std::vector<DedispTrial> dedisp_trials(const DedispRunConfig& config, double tsamp_s);

}  // namespace rapt
