// From plane hits to the candidate list accelsearch optimises: PRESTO's de-duplicating list
// (one candidate per 15 bins, the higher sigma wins, offered in search order), the sort by
// sigma, the removal of harmonically related candidates, and the notes column.
#pragma once
#include <string>
#include <vector>

#include "accel/accel_plan.hpp"
#include "accel/ffdot_plane.hpp"
#include "io/accel_files.hpp"

namespace rapt {

struct RawCandidate {
  float power = 0.0f;  // grid summed power (float, as PRESTO keeps it)
  float sigma = 0.0f;  // candidate_sigma with the stage's trials factor
  int numharm = 1;
  double r = 0.0;      // fundamental: highest-harmonic grid point / numharm
  double z = 0.0;
  double w = 0.0;
};

// Replays `hits` in search order into the de-duplicating list and returns it sorted by
// decreasing sigma (ties: higher power first). When `txtcand` is given, appends one .txtcand
// line per accepted offer, as accelsearch logs them.
std::vector<RawCandidate> collect_candidates(std::vector<PlaneHit> hits, const AccelPlan& plan,
                                             std::string* txtcand);

// accelsearch's eliminate_harmonics: walking the sigma-sorted list, drops every later candidate
// within 1.5 bins of r*i or r/i (i <= 16) or of r times a few common ratios.
void eliminate_harmonics(std::vector<RawCandidate>& candidates);

// The Notes column: "SL? of Cand n" for a weaker neighbour within 15 bins at another z, and
// "H k of Cand n" for a harmonic. `props` are the .cand records in table order.
std::vector<std::string> candidate_notes(const std::vector<FourierProps>& props);

}  // namespace rapt
