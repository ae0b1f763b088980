// What to fold: a candidate's name (as prepfold names it) and its spin at the first sample.
// Sources, as prepfold's options:
//   -p/-pd/-pdd  period (s) and derivatives    name "<P ms %.2f>ms_Cand"
//   -f/-fd/-fdd  frequency (Hz) and derivatives name "<f %.2f>Hz_Cand"
//   -accelcand N -accelfile X_ACCEL_z.cand     name "ACCEL_Cand_N" ("JERK_Cand_N" for _JERK files)
//   -par file (F0 F1 F2 PEPOCH DM PSRJ)        name "PSR_<name>"
// accelsearch's r, z, w are averages over its observation (mid-point values); prepfold turns
// them into start values: z0 = z - w/2, r0 = r - z0/2 - w/6, f = r0/T, f' = z0/T^2, f'' = w/T^3.
// Par files are used topocentrically: the spin is moved from PEPOCH to the fold's start
// epoch with the Taylor series, and no barycentric correction is made; binary orbits are not
// applied (the caller warns).
#pragma once
#include <string>
#include <vector>

#include "fold/fold_engine.hpp"

namespace rapt {

struct FoldCandidate {
  std::string name;        // prepfold's candnm
  FoldSpin spin;           // at the first sample folded
  double par_dm = -1.0;    // DM from a par file; < 0: none given
  bool par_orbit = false;  // the par file describes a binary orbit (not applied)
  bool barycentric = false;  // the spin refers to barycentric time (ACCEL search of bary data)
};

// prepfold's conversions between (P, P', P'') and (f, f', f''): P'' and f'' stay 0 when the
// other one is 0.
FoldSpin spin_from_period(double p_s, double pdot, double pddot);
double period_pddot(const FoldSpin& spin);

FoldCandidate period_candidate(double p_s, double pdot, double pddot);
FoldCandidate frequency_candidate(double f_hz, double fdot, double fddot);

// Candidate numbers "2", "1,2,5", "3-6", "1,4-6" (1-based). Throws UsageError otherwise.
std::vector<int> parse_candidate_numbers(const std::string& text);

// Reads the .cand records and the search's .inf ("<accelfile up to _ACCEL>.inf", whose N dt is
// the T of r, z, w). Throws DataError naming the file for a missing .inf or a number past the
// end of the file.
std::vector<FoldCandidate> accel_candidates(const std::string& accelfile,
                                            const std::vector<int>& numbers);

// Reads a TEMPO-style par file; `epoch_mjd` is the fold's start (0 = unknown: use PEPOCH).
// Throws DataError naming the file when it has no F0 (or P0), or a number does not parse.
FoldCandidate par_candidate(const std::string& path, double epoch_mjd);
// The same from the par file's text; `name` is used in error messages.
FoldCandidate parse_par_candidate(const std::string& text, const std::string& name,
                                  double epoch_mjd);

}  // namespace rapt
