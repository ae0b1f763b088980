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

namespace {

// 1 / f^2 - 1 / top^2 of channel c: a delay is dm_const dm times it.
double channel_delay_factor(const DedispPlan& plan, int c, double top) {
  const double f = plan.fch1_mhz + c * plan.foff_mhz;
  return 1.0 / (f * f) - 1.0 / (top * top);
}

std::vector<double> channel_delay_factors(const DedispPlan& plan) {
  const double top = plan.top_freq_mhz();
  std::vector<double> factors(size_t(std::max(plan.nchans, 0)));
  for (int c = 0; c < plan.nchans; ++c) factors[size_t(c)] = channel_delay_factor(plan, c, top);
  return factors;
}

// PRESTO rounds to the nearest sample: (int)(delay / dt + 0.5). `scaled_dm` = dm_const dm.
// The floor as a truncation, corrected below zero: std::floor is a library call on x86-64's
// base instruction set, and the tables call this millions of times.
int32_t rounded_delay(double scaled_dm, double factor, double tsamp_s) {
  const double v = scaled_dm * factor / tsamp_s + 0.5;
  const int32_t toward_zero = static_cast<int32_t>(v);
  return v < double(toward_zero) ? toward_zero - 1 : toward_zero;
}

// The largest delay at `dm` over the unzapped channels.
int32_t largest_delay(const DedispPlan& plan, const std::vector<double>& factors, double dm) {
  int32_t largest = 0;
  for (int c = 0; c < plan.nchans; ++c)
    if (plan.zapped.empty() || !plan.zapped[size_t(c)])
      largest =
          std::max(largest, rounded_delay(plan.dm_const * dm, factors[size_t(c)], plan.tsamp_s));
  return largest;
}

}  // namespace

double DedispPlan::delay_s(int channel, double dm) const {
  return dm_const * dm * channel_delay_factor(*this, channel, top_freq_mhz());
}

// Every delay is (dm_const dm) times its channel's factor, over tsamp, rounded: one by one here,
// and in the tables below with each channel's factor taken once (a plan of 2048 DMs x 1024
// channels is 2 million delays).
int32_t DedispPlan::delay_samples(int channel, double dm) const {
  return rounded_delay(dm_const * dm, channel_delay_factor(*this, channel, top_freq_mhz()),
                       tsamp_s);
}

std::vector<int32_t> DedispPlan::delay_table() const {
  const std::vector<double> factors = channel_delay_factors(*this);
  std::vector<int32_t> table(dms.size() * size_t(nchans));
  for (size_t d = 0; d < dms.size(); ++d) {
    const double scaled_dm = dm_const * dms[d];
    int32_t* row = table.data() + d * size_t(nchans);
    for (int c = 0; c < nchans; ++c)
      row[c] = rounded_delay(scaled_dm, factors[size_t(c)], tsamp_s);
  }
  return table;
}

int32_t DedispPlan::max_delay_samples() const {
  const std::vector<double> factors = channel_delay_factors(*this);
  int32_t largest = 0;
  for (double dm : dms) largest = std::max(largest, largest_delay(*this, factors, dm));
  return largest;
}

int32_t DedispPlan::trial_delay_samples(double dm) const {
  return largest_delay(*this, channel_delay_factors(*this), dm);
}

}  // namespace rapt
