#include "inspect/report_text.hpp"

#include <cmath>
#include <cstdio>

namespace rapt {

namespace {

// Proleptic Gregorian date of a day count from 1970-01-01 (the civil-from-days algorithm).
void civil_date(long long days_since_1970, int& year, int& month, int& day) {
  const long long z = days_since_1970 + 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const long long day_of_era = z - era * 146097;
  const long long year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const long long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const long long shifted_month = (5 * day_of_year + 2) / 153;
  day = int(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  month = int(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  year = int(year_of_era + era * 400 + (month <= 2 ? 1 : 0));
}

}  // namespace

std::string report_line(const std::string& label, const std::string& value) {
  std::string out = "  " + label;
  if (label.size() < 28) out.append(28 - label.size(), ' ');
  return out + " " + value + "\n";
}

std::string report_number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string sexagesimal(double value_deg, bool is_ra) {
  double scaled = is_ra ? std::fmod(value_deg, 360.0) / 15.0 : std::fabs(value_deg);
  if (scaled < 0) scaled += 24.0;
  // Round once, to whole units of the last printed digit, and split those integers: 59.99995 s
  // never prints as 60, and -30 degrees held as -29.999999999999996 prints as -30:00:00.
  const long long per_second = is_ra ? 10000 : 1000;
  const long long total = std::llround(scaled * 3600.0 * double(per_second));
  const long long whole = total / (3600 * per_second);
  const long long minutes = total % (3600 * per_second) / (60 * per_second);
  const double seconds = double(total % (60 * per_second)) / double(per_second);
  char buffer[40];
  if (is_ra)
    std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%07.4f", whole % 24, minutes, seconds);
  else
    std::snprintf(buffer, sizeof buffer, "%c%02lld:%02lld:%06.3f", value_deg < 0 ? '-' : '+',
                  whole, minutes, seconds);
  return buffer;
}

std::string sky_position(double ra_deg, double dec_deg) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%s  %s  (%.6f, %.6f deg)", sexagesimal(ra_deg, true).c_str(),
                sexagesimal(dec_deg, false).c_str(), ra_deg, dec_deg);
  return buffer;
}

std::string utc_date_time(long long mjd_day, double seconds_of_day) {
  // Carry whole days out of the seconds first, then round at the microsecond.
  const double extra_days = std::floor(seconds_of_day / 86400.0);
  mjd_day += (long long)extra_days;
  seconds_of_day -= extra_days * 86400.0;
  long long micro = (long long)std::llround(seconds_of_day * 1e6);
  if (micro >= 86400LL * 1000000) { micro -= 86400LL * 1000000; ++mjd_day; }
  int year = 0, month = 0, day = 0;
  civil_date(mjd_day - 40587, year, month, day);  // MJD 40587 = 1970-01-01
  const int hours = int(micro / 3600000000LL);
  const int minutes = int(micro / 60000000LL % 60);
  const double seconds = double(micro % 60000000LL) / 1e6;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d %02d:%02d:%09.6f", year, month, day, hours,
                minutes, seconds);
  return buffer;
}

std::string utc_date_time(double mjd) {
  const double day = std::floor(mjd);
  return utc_date_time((long long)day, (mjd - day) * 86400.0);
}

std::string stokes_name(int code) {
  static constexpr const char* kPositive[] = {"I", "Q", "U", "V"};
  static constexpr const char* kNegative[] = {"RR", "LL", "RL", "LR", "XX", "YY", "XY", "YX"};
  if (code >= 1 && code <= 4) return kPositive[code - 1];
  if (code <= -1 && code >= -8) return kNegative[-code - 1];
  return "code " + std::to_string(code);
}

double rms_about_zero(const RunningStats& stats) {
  if (stats.count == 0) return 0.0;
  return std::sqrt(stats.m2 / double(stats.count) + stats.mean * stats.mean);
}

std::string stats_summary(const RunningStats& stats) {
  if (stats.count == 0) return "no samples";
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "mean %-11.6g rms %-11.6g min %-11.6g max %.6g", stats.mean,
                rms_about_zero(stats), stats.min, stats.max);
  return buffer;
}

}  // namespace rapt
