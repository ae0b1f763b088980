// snr's fused mode: a filterbank (or PSRFITS file) and a DM plan in, the dedispersed series
// kept in memory (never written) and searched as if dedisp had written them: the same engine,
// the same lengths and padding, the same on/off pairs, so the same events as
// `dedisp ... && snr <root>_DM*.dat`.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dedisp/dedisp_options.hpp"
#include "dedisp/dedisp_plan.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "io/singlepulse.hpp"
#include "io/spectra_source.hpp"
#include "snr/series_input.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {

struct FusedDedispPlan {
  std::string input;          // .fil or .fits
  double lodm = 0.0;
  double dmstep = 1.0;
  int numdms = 0;
  std::string device = "auto";
  int threads = 0;            // CPU dedispersion threads (0 = all cores)
  // A DM plan's ranges (snr --plan), each with its downsampling, instead of lodm + i x dmstep.
  std::vector<DmTrialGroup> groups = {};
  size_t gpu_batch_dms = 0;   // GPU-resident search: DMs per batch (0 = what fits in memory)
  SpectraCleaning cleaning = {};  // --mask, --ignorechan, --zerodm as dedisp takes them
  // A slice of the DM list (--part, or one GPU's share): trials [first_trial, first_trial +
  // trial_count) of the groups' DMs in order, or of lodm + i x dmstep, i < numdms;
  // trial_count 0 = to the end.
  size_t first_trial = 0;
  size_t trial_count = 0;
  double gpu_memory_share = 0.5;  // GPU-resident search: of the free GPU memory, for the series
  // Given what the input's reader let pass (SpectraSource::warnings) once the data are read;
  // from every reading of the input (one a GPU, one a batch of DMs) and from several threads.
  std::function<void(const std::string&)> reader_warning = {};
};

class PreparedSpectra;
class SigprocReader;

// The input of a fused or real-time search: the file (or stdin), cleaned as dedisp cleans it,
// and the channels it leaves out.
class FusedInput {
 public:
  // Throws DataError for an unreadable file or mask, UsageError for a bad channel list.
  FusedInput(const std::string& path, const SpectraCleaning& cleaning);
  ~FusedInput();
  SpectraSource& source();
  // The file's reader when its packed samples can go to the engine as they are (no cleaning).
  SigprocReader* raw();
  const ObservationInfo& info() const { return file_->info(); }
  const std::vector<bool>& zapped() const { return zapped_; }
  // Hands the reader's warnings to `to` (if set): once the data are read, when they are all in.
  void report_warnings(const std::function<void(const std::string&)>& to) const;

 private:
  std::unique_ptr<SpectraSource> file_;
  std::unique_ptr<PreparedSpectra> prepared_;
  std::vector<bool> zapped_;
};

// Dedisperses `plan.input` and returns one series per DM, with samples loaded, named
// "<dir>/<stem>_DM<dm>" as dedisp -o <dir>/<stem> would name them. Throws UsageError for a bad
// plan, DataError for unreadable input.
std::vector<SeriesInput> dedisperse_in_memory(const FusedDedispPlan& plan);

// The series a fused run makes, from the input's header alone (no samples read): names, DMs,
// lengths and on/off pairs exactly as dedisperse_in_memory() gives them. Throws as it does for
// a bad plan or a DM whose delay exceeds the data.
std::vector<SeriesInput> describe_fused_series(const FusedDedispPlan& plan);

// The fused search with every series kept on one GPU: the filterbank goes up block by block,
// is dedispersed into device memory, each detrend block is normalised there, the boxcars run
// there, and only the hits come back (DM batches when the series do not fit in GPU memory,
// reading the input once per batch). The same events as dedisperse_in_memory() followed by
// search_batch(). `series` from describe_fused_series(); `settings` with the widths to search.
// Throws UsageError in a build without CUDA.
struct FusedSearchTiming;
std::vector<std::vector<SinglePulseEvent>> search_fused_on_gpu(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, int gpu_index, FusedSearchTiming* timing = nullptr);

// The same search shared among several GPUs (`gpus`, one entry per share; a GPU may be named
// twice): each takes a contiguous share of the series, reads the input itself and searches its
// share on its own thread, and the events come back in series order, as one GPU gives them.
// `timing`, when given, gets one entry per share.
std::vector<std::vector<SinglePulseEvent>> search_fused_on_gpus(
    const FusedDedispPlan& plan, const std::vector<SeriesInput>& series,
    const SnrSettings& settings, const std::vector<int>& gpus,
    std::vector<FusedSearchTiming>* timing = nullptr);

// Where the GPU fused search's time went, in seconds of wall time.
struct FusedSearchTiming {
  double dedisperse_s = 0.0;  // reading the input and dedispersing it (the two overlap), of which
  double setup_s = 0.0;       //   opening the input, making the engine (tables, buffers)
  double read_s = 0.0;        //   reading (the GPU works meanwhile)
  double normalise_s = 0.0;   // detrending, sigmas, the bad-block test, scaling
  double search_s = 0.0;      // boxcars, hits to the host
  double events_s = 0.0;      // events from the hits
  int batches = 0;            // DM batches (the input is read once per batch)
};

// One DM trial's series as dedisp describes it in its .inf: `nsamples` long, real data in the
// first `real_samples`, then padding.
SeriesInput fused_series(const std::string& root, double dm, double tsamp_s, int64_t nsamples,
                         int64_t real_samples);

// The plan's trials before slicing (UsageError for a bad plan).
size_t fused_trial_count(const FusedDedispPlan& plan);
// The plan's DM list, its slice only, as groups of one downsampling each (UsageError for a bad
// plan); the slice's DMs alone; and the dedispersion plan for one group's DMs.
std::vector<DmTrialGroup> fused_groups(const FusedDedispPlan& plan);
std::vector<double> fused_dms(const FusedDedispPlan& plan);
DedispPlan fused_dedisp_plan(const ObservationInfo& info, const std::vector<double>& dms,
                             const std::vector<bool>& zapped, int downsamp = 1);

// "dir/obs.fil" -> "dir/obs": the root dedisp -o would be given to write beside the input.
std::string fused_input_root(const std::string& path);

// True for the inputs fused mode takes (filterbank and PSRFITS suffixes).
bool is_filterbank_path(const std::string& path);

}  // namespace rapt
