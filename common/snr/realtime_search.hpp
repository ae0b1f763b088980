// snr's real-time mode: a filterbank read as it arrives (stdin, a pipe from a recorder, a
// FIFO, or `tail -c +1 -f` of a growing file), dedispersed and searched chunk by chunk, with
// candidates handed out as soon as no later data can change them.
//
// Each chunk of `chunk` new spectra is dedispersed (the spectra overlap by the largest delay),
// normalised per detrend block, and searched with the previous chunk's last samples in front,
// so boxcars across a chunk boundary see both sides. The normalisation and boxcars are the file
// search's; what differs is that the bad-block test judges each chunk's blocks among themselves
// (the whole series is not known yet) and that the search ends at the last whole detrend block
// (of each downsampling) that every DM has data for. Events and candidates within a few boxcar widths of a chunk's end
// wait for the next chunk. With a DM plan (dedisp --plan), each downsampling is dedispersed and
// searched on its own engine, with its own widths, and the events of all are clustered on the
// finest series' samples, as the file search clusters a plan's series.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dedisp/dedisp_options.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "dedisp/dm_plan_options.hpp"
#include "io/singlepulse.hpp"
#include "snr/candidate_clustering.hpp"
#include "snr/series_input.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {

struct RealtimePlan {
  std::string input;           // path, or "-" for stdin
  SpectraCleaning cleaning;    // --mask, --ignorechan, --zerodm as dedisp takes them
  std::vector<double> dms;     // one DM grid, or
  DmPlanSettings dm_plan;      // a plan of downsampled ranges from lodm, made for the input
  double lodm = 0.0;
  SnrSettings settings;
  double max_width_s = 0.0;    // > 0: widths up to this many seconds (from the header's sampling)
  ClusterSettings cluster;
  int64_t chunk = 0;           // new spectra per chunk; 0 = about 2^16, whole detrend blocks
  std::string device = "auto";
  int threads = 0;             // 0 = all cores
  // Given what the input's reader let pass (SpectraSource::warnings) at the end of the data.
  std::function<void(const std::string&)> reader_warning = {};
  // Given the plan's table (dm_plan), once the input's header is read.
  std::function<void(const std::string&)> plan_table = {};
  // Given the series to be searched (names, DMs, sampling times) before any data are read past
  // the header: outputs that would be refused at the end are refused then.
  std::function<void(const std::vector<SeriesInput>&)> on_start = {};
};

struct RealtimeProgress {
  int64_t chunks = 0;
  double data_s = 0.0;         // seconds of data searched so far
  double busy_s = 0.0;         // time spent processing them (not waiting for input)
  double read_s = 0.0;         // time spent reading (including waiting for input)
};

struct RealtimeResult {
  std::vector<SeriesInput> series;                    // one per DM (names, DM, sampling)
  std::vector<double> dms;                            // every DM searched, in series order
  std::vector<std::vector<SinglePulseEvent>> events;  // per DM, by sample
  size_t candidates = 0;
  RealtimeProgress progress;
  // A plan's ranges the data were too short to search (a whole detrend block of their
  // downsampled samples): left out of series, events and dms, and said here.
  std::vector<std::string> warnings;
  std::string engine;
  // What ended the data early (cli/stop_request's stop_signal(): SIGINT, SIGTERM, SIGHUP, or
  // SIGPIPE for standard output closed), or 0.
  int stopped_by_signal = 0;
};

// Chunk length in spectra for `requested` (0 = default): a multiple of the detrend length and
// of 4, times the largest downsampling. Throws UsageError for a requested length that is not.
int64_t realtime_chunk_length(int64_t requested, int64_t detrend_len, int max_downsamp = 1);

// How many of a chunk's clusters (in time order; each by its earliest and latest member, in
// samples of the finest range) go out now: in order, those whose members all lie before `line`
// (no event still to come can join them), or that have been open over more than `open_longest`
// samples, up to the first that is neither.
size_t clusters_to_hand_out(const std::vector<int64_t>& earliest,
                            const std::vector<int64_t>& latest, int64_t line, int64_t open_longest);

// What the series of `input` are named after: its path without the suffix, "stdin" for "-".
std::string realtime_root(const std::string& input);

// Runs to the end of the input. `on_candidates` gets each chunk's final candidates (in time
// order, also from call to call): a candidate goes out once no event still to come could join
// it. `on_chunk` the running totals after each chunk. Throws DataError for unreadable input or
// data shorter than the largest delay plus one detrend block (of the finest downsampling).
RealtimeResult run_realtime_search(
    const RealtimePlan& plan,
    const std::function<void(const std::vector<PulseCandidate>&)>& on_candidates,
    const std::function<void(const RealtimeProgress&)>& on_chunk);

}  // namespace rapt
