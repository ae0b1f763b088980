#include "dedisp/dm_plan_options.hpp"

#include "cli/errors.hpp"
#include "dedisp/dm_planner.hpp"

namespace rapt {

void add_dm_plan_options(cxxopts::Options& options, const std::string& group,
                         const std::string& help_prefix) {
  options.add_options(group)
      ("plan", help_prefix + "plan DM steps and downsampling automatically up to --dm-max (as "
       "DDplan.py)")
      ("dm-max", help_prefix + "largest DM of an automatic plan", cxxopts::value<double>())
      ("plan-tolerance", help_prefix + "DM-step smearing allowed, as a fraction of the other "
       "smearing", cxxopts::value<double>()->default_value("1"))
      ("max-downsamp", help_prefix + "largest downsampling an automatic plan may use (a power "
       "of two)", cxxopts::value<int>()->default_value("64"))
      ("pulse-width-ms", help_prefix + "intrinsic pulse width the plan may assume (ms)",
       cxxopts::value<double>()->default_value("0"));
}

DmPlanSettings read_dm_plan_options(const cxxopts::ParseResult& result) {
  DmPlanSettings s;
  s.enabled = result.count("plan") > 0;
  if (!s.enabled) {
    // Plan settings without --plan would be ignored in silence.
    for (const char* name : {"dm-max", "plan-tolerance", "max-downsamp", "pulse-width-ms"})
      if (result.count(name)) throw UsageError(std::string("--") + name + " needs --plan");
    return s;
  }
  if (!result.count("dm-max")) throw UsageError("--plan needs --dm-max");
  if (result.count("dmstep") || result.count("numdms"))
    throw UsageError("--plan chooses the DM steps: --dmstep and --numdms do not apply");
  s.dm_max = result["dm-max"].as<double>();
  s.tolerance = result["plan-tolerance"].as<double>();
  s.max_downsamp = result["max-downsamp"].as<int>();
  s.pulse_width_ms = result["pulse-width-ms"].as<double>();
  return s;
}

std::vector<DmTrialGroup> plan_trial_groups(const DmPlanSettings& settings,
                                            const ObservationInfo& info, double lo_dm,
                                            double dm_const, int base_downsamp,
                                            std::string* table) {
  DmPlannerInput in;
  in.nchans = info.nchans, in.fch1_mhz = info.fch1_mhz, in.foff_mhz = info.foff_mhz;
  in.tsamp_s = info.tsamp_s * base_downsamp, in.dm_const = dm_const;
  in.lo_dm = lo_dm, in.hi_dm = settings.dm_max;
  in.tolerance = settings.tolerance;
  in.max_downsamp = settings.max_downsamp;
  in.pulse_width_s = settings.pulse_width_ms * 1e-3;
  const std::vector<DmRange> ranges = plan_dm_ranges(in);
  if (table) *table = format_dm_plan(in, ranges);
  std::vector<DmTrialGroup> groups;
  for (const DmRange& range : ranges) groups.push_back({range.dms(), range.downsamp * base_downsamp});
  return groups;
}

}  // namespace rapt
