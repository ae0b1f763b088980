// prepfold's ".pfd.bestprof": the folded profile with its header of fit results.
// Written byte-for-byte in PRESTO's layout (N/A forms and the "w (rad)" label quirk included);
// read by label. Layout facts: shared reference formats.md section 6.2.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace rapt {

// Period, its first and second derivatives, at the start of the fold, with 1-sigma errors.
struct BestprofPeriods {
  double p_ms = 0.0, p_ms_err = 0.0;
  double pdot = 0.0, pdot_err = 0.0;      // s/s
  double pddot = 0.0, pddot_err = 0.0;    // s/s^2
};

struct BestprofOrbit {
  double p_orb_s = 0.0;
  double asini_c_s = 0.0;                 // projected semi-major axis, light seconds
  double eccentricity = 0.0;
  double w_deg = 0.0;                     // longitude of periastron
  double t_peri_mjd = 0.0;
};

struct Bestprof {
  std::string input_file;
  std::string candidate;                  // "ACCEL_Cand_2", "87.30ms_Cand", "PSR_..."
  std::string telescope;
  std::optional<double> epoch_topo_mjd;   // absent: "N/A"
  std::optional<double> epoch_bary_mjd;
  double t_sample_s = 0.0;
  double data_folded = 0.0;               // samples actually folded
  double data_avg = 0.0;
  double data_stddev = 0.0;
  double profile_avg = 0.0;
  double profile_stddev = 0.0;
  double reduced_chi_sqr = 0.0;
  double prob_noise = 0.0;                // shown as "< p"
  double prob_noise_sigma = 0.0;          // the equivalent Gaussian sigma, "(~s sigma)"
  std::optional<double> best_dm;          // only folds of several subbands show it
  std::optional<BestprofPeriods> topo;    // absent: three "N/A" lines
  std::optional<BestprofPeriods> bary;
  std::optional<BestprofOrbit> orbit;     // absent: five "N/A" lines
  std::vector<double> profile;            // "Profile Bins" = profile.size()
};

std::string format_bestprof(const Bestprof& bestprof);
void write_bestprof(const std::string& path, const Bestprof& bestprof, bool overwrite);

// Lenient: lines are found by label, spacing is free, unknown lines are skipped. Throws
// DataError naming `name` if the text has no header or fewer profile rows than it announces.
Bestprof parse_bestprof(const std::string& text, const std::string& name);
Bestprof read_bestprof(const std::string& path);

}  // namespace rapt
