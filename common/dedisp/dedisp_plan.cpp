#include "dedisp/dedisp_plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {
namespace {

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace

void DedispPlan::validate() const {
  if (nchans <= 0) throw UsageError("dedispersion plan: " + std::to_string(nchans) + " channels");
  if (!(tsamp_s > 0.0) || !std::isfinite(tsamp_s))
    throw UsageError("dedispersion plan: sampling time must be > 0 s (got " +
                     number_text(tsamp_s) + ")");
  if (nchans > 1 && (foff_mhz == 0.0 || !std::isfinite(foff_mhz)))
    throw UsageError("dedispersion plan: channel width is 0 MHz");
  const double lowest = std::min(fch1_mhz, fch1_mhz + (nchans - 1) * foff_mhz);
  if (!(lowest > 0.0) || !std::isfinite(fch1_mhz))
    throw UsageError("dedispersion plan: channel frequencies must be > 0 MHz (lowest is " +
                     number_text(lowest) + " MHz)");
  if (!(dm_const > 0.0) || !std::isfinite(dm_const))
    throw UsageError("dedispersion plan: dispersion constant must be > 0 (got " +
                     number_text(dm_const) + ")");
  if (downsamp < 1)
    throw UsageError("dedispersion plan: downsampling factor must be >= 1 (got " +
                     std::to_string(downsamp) + ")");
  if (dms.empty()) throw UsageError("no DM trials: the DM list is empty");
  for (double dm : dms) {
    if (!std::isfinite(dm)) throw UsageError("DM trial " + number_text(dm) + " is not a number");
    if (dm < 0.0)
      throw UsageError("DM trial " + number_text(dm) + " is negative; DMs must be >= 0");
  }
  if (!zapped.empty() && zapped.size() != size_t(nchans))
    throw UsageError("channel mask has " + std::to_string(zapped.size()) +
                     " entries but the data have " + std::to_string(nchans) + " channels");
}

double DedispPlan::top_freq_mhz() const {
  return std::max(fch1_mhz, fch1_mhz + (nchans - 1) * foff_mhz);
}

double DedispPlan::delay_s(int channel, double dm) const {
  const double f = fch1_mhz + channel * foff_mhz;
  const double top = top_freq_mhz();
  return dm_const * dm * (1.0 / (f * f) - 1.0 / (top * top));
}

int32_t DedispPlan::delay_samples(int channel, double dm) const {
  // PRESTO rounds to the nearest sample: (int)(delay / dt + 0.5).
  return static_cast<int32_t>(std::floor(delay_s(channel, dm) / tsamp_s + 0.5));
}

std::vector<int32_t> DedispPlan::delay_table() const {
  std::vector<int32_t> table(dms.size() * size_t(nchans));
  for (size_t d = 0; d < dms.size(); ++d)
    for (int c = 0; c < nchans; ++c) table[d * nchans + c] = delay_samples(c, dms[d]);
  return table;
}

int32_t DedispPlan::max_delay_samples() const {
  int32_t largest = 0;
  for (double dm : dms) largest = std::max(largest, trial_delay_samples(dm));
  return largest;
}

int32_t DedispPlan::trial_delay_samples(double dm) const {
  int32_t largest = 0;
  for (int c = 0; c < nchans; ++c)
    if (zapped.empty() || !zapped[c]) largest = std::max(largest, delay_samples(c, dm));
  return largest;
}

}  // namespace rapt
