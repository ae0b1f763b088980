// Friends-of-friends clustering of single-pulse events over DM, time and width: one bright
// pulse is seen at many DM trials and widths; it should come out as one candidate. Two events
// are friends when their DM trials are at most `dm_trials` apart (in the sorted list of DMs
// searched), their windows [sample - width/2, sample + width/2] lie at most `gap_samples`
// apart, and (when width_ratio > 0) the wider is at most width_ratio times the narrower.
// Friends of friends join one cluster; the cluster reports its strongest member.
//
// Everything here depends only on what sift can read back from the .singlepulse files (the
// series' DM, from the .inf beside each; S/N to 2 decimals; sample; width), so clustering the
// events read back (sift) gives the list clustering them in memory (snr) gives: "strongest"
// compares the S/N rounded as the file writes it, and equal ones go to the lowest DM, then the
// earliest sample, then the narrowest.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/singlepulse.hpp"

namespace rapt {

struct ClusterSettings {
  int dm_trials = 2;
  int64_t gap_samples = 2;
  double width_ratio = 0.0;  // 0 = any widths
};

struct PulseCandidate {
  SinglePulseEvent best;  // the strongest member: DM, time, sample, width, S/N
  int64_t members = 0;
};

// `dms_searched`: every DM searched (events' DMs must be among them). Candidates come back
// sorted by time, then DM, then width.
// Series of several sampling times (the downsampled ranges of a DM plan) are clustered on the
// finest one's samples: `scales`, when given, holds each event's sampling time in those
// samples (1 for the finest), by which its sample and width are multiplied for the
// comparisons (gap_samples counts the finest samples too). A candidate's sample and width stay
// those of its own series, as its .singlepulse file has them.
// `cluster_of`, when given, gets each event's candidate (an index into the result).
std::vector<PulseCandidate> cluster_events(const std::vector<SinglePulseEvent>& events,
                                           const std::vector<double>& dms_searched,
                                           const ClusterSettings& settings,
                                           const std::vector<int>& scales = {},
                                           std::vector<size_t>* cluster_of = nullptr);

// Each sampling time in samples of the finest: 1, 2, 4, ... for a DM plan's downsampled
// ranges. Throws DataError naming the first of `names` whose sampling time is not a whole
// multiple of the finest, as their samples have no common time base, or more than a million
// times it. `tolerances` (relative, one per entry; empty: 1e-6 each): how well each sampling
// time is known (one estimated from a file's events less well than a header's).
std::vector<int> finest_sample_scales(const std::vector<double>& dts,
                                      const std::vector<std::string>& names,
                                      const std::vector<double>& tolerances = {});

// Events are clustered by their times since their series' start, so the series clustered
// together must start together: throws DataError naming the one that starts last when the
// starts (MJD; 0 = not known, left out) spread over more than half of `finest_dt`.
void check_common_start(const std::vector<double>& start_mjds,
                        const std::vector<std::string>& names, double finest_dt);

// S/N as a .singlepulse file keeps it: the value of its "%.2f" text.
double singlepulse_kept_sigma(double sigma);

// "# DM  Time(s)  Sample  Width  S/N  Members" then one line per candidate.
std::string format_candidates(const std::vector<PulseCandidate>& candidates);

}  // namespace rapt
