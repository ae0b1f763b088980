// --plan and its settings (an automatic DM plan, as DDplan.py makes), declared once for the
// programs that dedisperse: dedisp, and snr on a filterbank.
#pragma once
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "dedisp/dedisp_runner.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

struct DmPlanSettings {
  bool enabled = false;         // --plan
  double dm_max = 0.0;          // --dm-max
  double tolerance = 1.0;       // --plan-tolerance
  int max_downsamp = 64;        // --max-downsamp
  double pulse_width_ms = 0.0;  // --pulse-width-ms
};

// Adds --plan, --dm-max, --plan-tolerance, --max-downsamp and --pulse-width-ms to `group`,
// each help line led by `help_prefix`.
void add_dm_plan_options(cxxopts::Options& options, const std::string& group,
                         const std::string& help_prefix);

// Reads them. Throws UsageError for --plan without --dm-max, --plan with --dmstep or
// --numdms (the plan chooses the steps), and a plan setting without --plan.
DmPlanSettings read_dm_plan_options(const cxxopts::ParseResult& result);

// The plan for an input of `info` from `lo_dm` to settings.dm_max: one trial group a range,
// its downsampling times `base_downsamp` (the sampling time planned with is info's times it),
// and the plan as a table in `table`. Throws UsageError for a plan the planner refuses.
std::vector<DmTrialGroup> plan_trial_groups(const DmPlanSettings& settings,
                                            const ObservationInfo& info, double lo_dm,
                                            double dm_const, int base_downsamp,
                                            std::string* table);

}  // namespace rapt
