#include "dedisp/dm_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr long kMaxTrials = 10'000'000;  // a plan this large is a mistake, not a plan

struct Band {
  double lo_mhz, hi_mhz, centre_mhz, chan_bw_mhz;
};

Band band_of(const DmPlannerInput& in) {
  const double a = in.fch1_mhz, b = in.fch1_mhz + (in.nchans - 1) * in.foff_mhz;
  return {std::min(a, b), std::max(a, b), 0.5 * (a + b), std::fabs(in.foff_mhz)};
}

// The largest of 1, 2, 3, 5 x 10^n not above `limit`.
double nice_step_below(double limit) {
  double decade = std::pow(10.0, std::floor(std::log10(limit)));
  for (;; decade /= 10.0)
    for (double mantissa : {5.0, 3.0, 2.0, 1.0})
      if (mantissa * decade <= limit * (1.0 + 1e-9)) return mantissa * decade;
}

double smearing_floor_s(const DmPlannerInput& in, double dm, int downsamp) {
  const double sampling = downsamp * in.tsamp_s, channel = channel_smearing_s(in, dm);
  return std::sqrt(sampling * sampling + channel * channel + in.pulse_width_s * in.pulse_width_s);
}

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

void DmPlannerInput::validate() const {
  DedispPlan layout;
  layout.nchans = nchans, layout.fch1_mhz = fch1_mhz, layout.foff_mhz = foff_mhz;
  layout.tsamp_s = tsamp_s, layout.dm_const = dm_const, layout.dms = {lo_dm, hi_dm};
  layout.validate();
  if (hi_dm < lo_dm)
    throw UsageError("DM plan: the largest DM (" + number_text(hi_dm) +
                     ") is below the smallest (" + number_text(lo_dm) + ")");
  if (!(tolerance > 0.0)) throw UsageError("DM plan: the smearing tolerance must be > 0");
  if (!(pulse_width_s >= 0.0)) throw UsageError("DM plan: the pulse width must be >= 0");
  if (max_downsamp < 1 || (max_downsamp & (max_downsamp - 1)) != 0)
    throw UsageError("DM plan: the largest downsampling factor must be a power of two (got " +
                     std::to_string(max_downsamp) + ")");
}

std::vector<double> DmRange::dms() const {
  std::vector<double> out(ndms);
  for (int i = 0; i < ndms; ++i) out[i] = lo_dm + i * dm_step;
  return out;
}

double channel_smearing_s(const DmPlannerInput& in, double dm) {
  const Band band = band_of(in);
  return 2.0 * in.dm_const * dm * band.chan_bw_mhz / std::pow(band.centre_mhz, 3);
}

double step_smearing_s(const DmPlannerInput& in, double dm_step) {
  const Band band = band_of(in);
  return in.dm_const * 0.5 * dm_step *
         (1.0 / (band.lo_mhz * band.lo_mhz) - 1.0 / (band.hi_mhz * band.hi_mhz));
}

std::vector<DmRange> plan_dm_ranges(const DmPlannerInput& in) {
  in.validate();
  std::vector<DmRange> ranges;
  const double smearing_per_dm = channel_smearing_s(in, 1.0);
  const double step_smearing_per_dm = step_smearing_s(in, 1.0);
  long total = 0;
  double dm = in.lo_dm;
  int downsamp = 1;
  for (;;) {
    while (downsamp < in.max_downsamp && channel_smearing_s(in, dm) > 2.0 * downsamp * in.tsamp_s)
      downsamp *= 2;
    DmRange range;
    range.lo_dm = dm;
    range.downsamp = downsamp;
    range.smearing_s = smearing_floor_s(in, dm, downsamp);
    // One channel, or no spread over the band: any step is as good as another; take 1.
    range.dm_step = step_smearing_per_dm > 0.0
                        ? nice_step_below(in.tolerance * range.smearing_s / step_smearing_per_dm)
                        : 1.0;
    const double switch_dm = (downsamp < in.max_downsamp && smearing_per_dm > 0.0)
                                 ? 2.0 * downsamp * in.tsamp_s / smearing_per_dm
                                 : std::numeric_limits<double>::infinity();
    const bool last = switch_dm >= in.hi_dm;
    const double span = (last ? in.hi_dm : switch_dm) - dm;
    const double steps = std::ceil(span / range.dm_step - 1e-9);
    if (total + steps + 1 > kMaxTrials)
      throw UsageError("DM plan: more than " + std::to_string(kMaxTrials) +
                       " DM trials; raise the tolerance or lower the largest DM");
    range.ndms = std::max(1, int(steps) + (last ? 1 : 0));
    total += range.ndms;
    ranges.push_back(range);
    if (last) break;
    // Round away the binary fraction left by repeated additions of decimal steps.
    dm = std::round(range.hi_dm() * 1e9) / 1e9;
    downsamp *= 2;
  }
  return ranges;
}

std::string format_dm_plan(const DmPlannerInput& in, const std::vector<DmRange>& ranges) {
  const Band band = band_of(in);
  std::ostringstream text;
  char line[200];
  std::snprintf(line, sizeof line,
                "DM plan: %d channels of %.6g MHz, %.6g-%.6g MHz, tsamp %.6g us, DM %.6g to %.6g, "
                "k = %.7g s MHz^2 cm^3/pc, tolerance %.3g\n",
                in.nchans, band.chan_bw_mhz, band.lo_mhz, band.hi_mhz, in.tsamp_s * 1e6,
                in.lo_dm, in.hi_dm, in.dm_const, in.tolerance);
  text << line;
  text << "  First DM     Last DM      dDM  DownSamp     #DMs  Smearing (ms)\n";
  long total = 0;
  double work = 0.0;
  for (const DmRange& r : ranges) {
    std::snprintf(line, sizeof line, "%10.3f  %10.3f  %7.4g  %8d  %7d  %13.4f\n", r.lo_dm,
                  r.lo_dm + r.dm_step * (r.ndms - 1), r.dm_step, r.downsamp, r.ndms,
                  r.smearing_s * 1e3);
    text << line;
    total += r.ndms;
    work += double(r.ndms) / r.downsamp;
  }
  std::snprintf(line, sizeof line,
                "Total: %ld DM trials; work %.4g full-resolution trials (%.3g%% of %ld)\n", total,
                work, total > 0 ? 100.0 * work / total : 0.0, total);
  text << line;
  return text.str();
}

}  // namespace rapt
