#include "geometry/angle_text.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace rapt {

namespace {

// A whole string as an unsigned finite decimal number (no sign, no exponent-only junk).
std::optional<double> unsigned_number(const std::string& field) {
  const bool starts_like_number =
      !field.empty() && (std::isdigit(static_cast<unsigned char>(field[0])) || field[0] == '.');
  if (!starts_like_number) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(field.c_str(), &end);
  if (end != field.c_str() + field.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::vector<std::string> split_colons(const std::string& text) {
  std::vector<std::string> fields(1);
  for (const char c : text) {
    if (c == ':') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

std::optional<AngleText> parse_angle_text(const std::string& raw) {
  const size_t first = raw.find_first_not_of(" \t");
  if (first == std::string::npos) return std::nullopt;
  const size_t last = raw.find_last_not_of(" \t");
  std::string text = raw.substr(first, last - first + 1);
  double sign = 1.0;
  if (text[0] == '+' || text[0] == '-') {
    sign = text[0] == '-' ? -1.0 : 1.0;
    text.erase(0, 1);
  }
  const std::vector<std::string> fields = split_colons(text);
  if (fields.size() > 3) return std::nullopt;
  AngleText out;
  out.sexagesimal = fields.size() > 1;
  double scale = 1.0;
  for (size_t k = 0; k < fields.size(); ++k) {
    const std::optional<double> number = unsigned_number(fields[k]);
    if (!number) return std::nullopt;
    if (k > 0 && *number >= 60.0) return std::nullopt;
    // Only the last field may carry a fraction: "12.5:30" is not an angle.
    if (k + 1 < fields.size() && *number != std::floor(*number)) return std::nullopt;
    out.value += *number / scale;
    scale *= 60.0;
  }
  out.value *= sign;
  return out;
}

}  // namespace rapt
