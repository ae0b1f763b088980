// Text and time helpers for voltage-file headers.
#include "io/voltage_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rapt {

std::string trim_blanks(std::string_view text) {
  const char* blanks = " \t\r\n";
  size_t begin = 0;
  size_t end = text.size();
  auto blank = [&](char c) { return c == '\0' || std::string_view(blanks).find(c) != std::string_view::npos; };
  while (begin < end && blank(text[begin])) ++begin;
  while (end > begin && blank(text[end - 1])) --end;
  return std::string(text.substr(begin, end - begin));
}

std::optional<double> parse_lenient_number(std::string_view text) {
  std::string value = trim_blanks(text);
  if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
      value.back() == value.front())
    value = trim_blanks(std::string_view(value).substr(1, value.size() - 2));
  if (value.empty()) return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end != value.c_str() + value.size() || !std::isfinite(number)) return std::nullopt;
  return number;
}

std::optional<int64_t> parse_lenient_integer(std::string_view text) {
  const std::optional<double> number = parse_lenient_number(text);
  // 2^62 keeps the conversion exact-enough and far from overflow in later products.
  if (!number || std::floor(*number) != *number || std::fabs(*number) > 4.6e18) return std::nullopt;
  return static_cast<int64_t>(*number);
}

std::optional<double> parse_sexagesimal_value(std::string_view text) {
  const std::string value = trim_blanks(text);
  if (value.find(':') == std::string::npos) return parse_lenient_number(value);
  const bool negative = !value.empty() && value[0] == '-';
  double parts[3] = {0, 0, 0};
  size_t start = (negative || (!value.empty() && value[0] == '+')) ? 1 : 0;
  for (int i = 0; i < 3; ++i) {
    const size_t colon = value.find(':', start);
    const bool last = colon == std::string::npos;
    if (last && i < 1) return std::nullopt;
    const std::string field = value.substr(start, last ? std::string::npos : colon - start);
    if (field.empty() || field[0] == '-' || field[0] == '+') return std::nullopt;
    const std::optional<double> number = parse_lenient_number(field);
    if (!number || *number > 1e9) return std::nullopt;
    parts[i] = *number;
    if (last) break;
    if (i == 2) return std::nullopt;  // a fourth field
    start = colon + 1;
  }
  const double magnitude = parts[0] + parts[1] / 60.0 + parts[2] / 3600.0;
  return negative ? -magnitude : magnitude;
}

std::string format_sexagesimal_value(double value, int decimals) {
  decimals = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
  // Beyond this the integer arithmetic below would overflow; such values are no angle anyway.
  if (!std::isfinite(value) || std::fabs(value) > 1e9) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
  }
  const double scale = std::pow(10.0, decimals);
  const long long units = std::llround(std::fabs(value) * 3600.0 * scale);
  const long long whole_seconds = units / static_cast<long long>(scale);
  const long long fraction = units % static_cast<long long>(scale);
  char text[96];
  std::snprintf(text, sizeof text, "%s%02lld:%02lld:%02lld", value < 0 && units != 0 ? "-" : "",
                whole_seconds / 3600, whole_seconds / 60 % 60, whole_seconds % 60);
  std::string out = text;
  if (decimals > 0) {
    std::snprintf(text, sizeof text, ".%0*lld", decimals % 10, fraction);
    out += text;
  }
  return out;
}

std::string format_right_ascension(double ra_deg, int decimals) {
  double hours = std::fmod(std::fmod(ra_deg, 360.0) + 360.0, 360.0) / 15.0;
  const double scale = std::pow(10.0, decimals < 0 ? 0 : decimals > 9 ? 9 : decimals);
  if (std::llround(hours * 3600.0 * scale) >= std::llround(24.0 * 3600.0 * scale)) hours = 0;
  return format_sexagesimal_value(hours, decimals);
}

int64_t mjd_from_calendar(int year, int month, int day) {
  // Days from the civil-calendar algorithm (March-based years), then shifted to MJD 0 =
  // 1858-11-17.
  const int64_t y = year - (month <= 2 ? 1 : 0);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t year_of_era = y - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  const int64_t days_since_1970 = era * 146097 + day_of_era - 719468;
  return days_since_1970 + 40587;
}

void calendar_from_mjd(int64_t mjd, int& year, int& month, int& day) {
  const int64_t z = mjd - 40587 + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t day_of_era = z - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  day = static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1);
  month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  year = static_cast<int>(year_of_era + era * 400 + (month <= 2 ? 1 : 0));
}

void normalise_mjd(int& day, double& seconds) {
  const double whole_days = std::floor(seconds / 86400.0);
  // Values this far out are rejected by the header checks; leave them rather than overflow.
  if (!std::isfinite(whole_days) || std::fabs(whole_days) > 1e8) return;
  day += static_cast<int>(whole_days);
  seconds -= whole_days * 86400.0;
  if (seconds >= 86400.0) {  // rounding right at the day boundary
    seconds -= 86400.0;
    ++day;
  }
}

bool clear_start_in_day_zero(int day, double& seconds) {
  if (day != 0) return false;
  seconds = 0;
  return true;
}

bool mjd_in_range(int day, double seconds) {
  normalise_mjd(day, seconds);
  return day >= 0 && day <= 9999999 && seconds >= 0 && seconds < 86400.0;
}

}  // namespace rapt
