#include "imaging/cell_size.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/errors.hpp"
#include "cli/text_words.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegree = kPi / 180;

struct Unit {
  const char* suffix;
  double rad;
};
// Longer suffixes first, so "arcsec" is not read as a number followed by "c".
constexpr Unit kUnits[] = {{"arcsec", kDegree / 3600}, {"arcmin", kDegree / 60},
                           {"asec", kDegree / 3600},   {"amin", kDegree / 60},
                           {"mas", kDegree / 3.6e6},   {"deg", kDegree},
                           {"rad", 1.0}};

}  // namespace

double parse_cell_size_rad(const std::string& text, const std::string& option) {
  const std::string t = lowercase(trimmed(text));
  double scale = kDegree;  // WSClean's default unit
  std::string number = t;
  for (const Unit& u : kUnits) {
    const std::string suffix = u.suffix;
    if (t.size() > suffix.size() && t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0) {
      number = trimmed(t.substr(0, t.size() - suffix.size()));
      scale = u.rad;
      break;
    }
  }
  const std::optional<double> value = finite_number(number);
  if (!value || !(*value > 0))
    throw UsageError(option + " must be a positive angle such as 20asec, 1.5amin, 0.01deg or "
                     "2e-5rad (a bare number is degrees), not '" + text + "'");
  return *value * scale;
}

std::string describe_angle(double rad) {
  const double asec = rad / (kDegree / 3600);
  char text[64];
  if (asec < 60)
    std::snprintf(text, sizeof text, "%.4g asec", asec);
  else if (asec < 3600)
    std::snprintf(text, sizeof text, "%.4g amin", asec / 60);
  else
    std::snprintf(text, sizeof text, "%.4g deg", asec / 3600);
  return text;
}

}  // namespace rapt
