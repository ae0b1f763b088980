// The .singlepulse files of a survey split into parts, read back for one clustering over all
// of them (sift): every file's events and DM, so that the candidates equal those of one snr
// run over the whole set of series (snr/candidate_clustering.hpp).
//
// A .singlepulse file rounds the DM to 2 decimals, snr clusters and prints the DM of the
// series. So each file's DM is taken, in this order, from <root>.inf (the DM snr read), from
// <root>.tim's header (refdm), from "_DM<dm>" in the name, or from its events' DM column.
#pragma once
#include <string>
#include <vector>

#include "io/singlepulse.hpp"

namespace rapt {

struct SinglePulseFile {
  std::string path;
  double dm = 0.0;
  std::string dm_source;                 // "<root>.inf", "<root>.tim", "name", "events"
  // The series' sampling time: from its .inf or .tim, else estimated from the events (time
  // over sample, as the file rounds them: dt_tolerance says how well); 0 unknown (no events).
  double dt_s = 0.0;
  double dt_tolerance = 0.0;             // relative
  double start_mjd = 0.0;                // the series' first sample (.inf, .tim); 0 unknown
  double duration_s = 0.0;               // the series' length (.inf, .tim); 0 unknown
  std::vector<SinglePulseEvent> events;  // their DM replaced by `dm`
};

// Throws DataError "path: ..." for an unreadable file, a line that is not an event, events at
// a DM more than 0.005 from the file's DM, or a file whose DM cannot be told.
SinglePulseFile read_singlepulse_file(const std::string& path);

// A series' sampling time told by its events: the latest event's time over its sample, and how
// well that is known (relative: the file writes times to 1e-6 s); false if no event tells it.
bool sampling_time_from_events(const std::vector<SinglePulseEvent>& events, double* dt_s,
                               double* tolerance);

// The DM in a "..._DM<dm>..." name (the last "_DM" followed by a number); false if none.
bool dm_from_name(const std::string& path, double& dm);

struct SinglePulseSet {
  std::vector<SinglePulseEvent> events;  // of every file
  std::vector<double> dms;               // every file's DM, with or without events
  std::vector<int> scales;  // per event: its series' sampling time in samples of the finest
  double duration_s = 0.0;  // the longest series known, or the latest event if later
  // Files whose sampling time nothing tells (no .inf or .tim, no event past sample 0), among
  // files of several, at DMs below every file of the finest told sampling time: as a DM plan
  // samples its lowest DMs finest, they may be finer, and the clustering then counted coarser
  // samples than snr's.
  size_t untold_files = 0;
};

// The set without the events below `threshold` S/N (as their files keep it, to 2 decimals).
SinglePulseSet events_at_least(const SinglePulseSet& set, double threshold);

// Files of series of several sampling times (a DM plan's downsampled ranges) are clustered on
// the finest one's samples, as snr clusters them. Throws DataError naming a file whose sampling
// time is not a whole multiple of the finest, or whose series starts apart from the others'
// (where their .inf or .tim says when they start).
SinglePulseSet merge_singlepulse_files(const std::vector<SinglePulseFile>& files);

}  // namespace rapt
