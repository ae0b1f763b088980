// Automatic DM trial plan, in the spirit of PRESTO's DDplan.py: from the channel layout, the
// sampling time and the largest DM it picks, range by range, a DM step and a downsampling
// factor, so that no smearing term dominates needlessly:
//   channel smearing  t_chan(DM) = 2 k DM chan_bw / f_ctr^3          (within one channel)
//   sampling          t_samp     = downsamp * tsamp
//   step smearing     t_step     = k (step/2) (f_lo^-2 - f_hi^-2)   (half a step off, whole band)
// The step of a range is the largest "nice" value (1, 2, 3, 5 x 10^n) whose step smearing stays
// within tolerance * sqrt(t_samp^2 + t_chan(DM_lo)^2 + width^2); the downsampling doubles once
// the channel smearing exceeds two of its own samples, as DDplan does.
#pragma once
#include <string>
#include <vector>

#include "dedisp/dedisp_plan.hpp"

namespace rapt {

struct DmPlannerInput {
  int nchans = 0;
  double fch1_mhz = 0.0;
  double foff_mhz = 0.0;
  double tsamp_s = 0.0;
  double lo_dm = 0.0;
  double hi_dm = 0.0;
  double dm_const = kDispersionConstantPresto;
  double tolerance = 1.0;       // step smearing allowed, as a fraction of the other smearing
  double pulse_width_s = 0.0;   // intrinsic width added to the smearing floor
  int max_downsamp = 64;        // a power of two

  // Throws UsageError for hi_dm < lo_dm, negative DMs, tolerance <= 0, a max_downsamp that is
  // not a power of two, or a layout DedispPlan would refuse.
  void validate() const;
};

struct DmRange {
  double lo_dm = 0.0;
  double dm_step = 0.0;
  int ndms = 0;
  int downsamp = 1;
  double smearing_s = 0.0;  // total smearing at lo_dm (quadrature sum of the terms above)

  double hi_dm() const { return lo_dm + dm_step * ndms; }  // first DM of the next range
  std::vector<double> dms() const;
};

// Ranges in increasing DM, contiguous (each starts where the previous one ends), covering
// [lo_dm, hi_dm]. Throws UsageError via validate().
std::vector<DmRange> plan_dm_ranges(const DmPlannerInput& input);

// The smearing terms at `dm` (seconds).
double channel_smearing_s(const DmPlannerInput& input, double dm);
double step_smearing_s(const DmPlannerInput& input, double dm_step);

// The plan as a table, one line per range, with a header and a total line.
std::string format_dm_plan(const DmPlannerInput& input, const std::vector<DmRange>& ranges);

}  // namespace rapt
