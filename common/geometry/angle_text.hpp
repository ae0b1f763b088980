// Angles as text: sexagesimal "[+-]a:b:c.c" (one to three fields) or a plain decimal number.
// The sign is read from the text, not from the first field, so "-00:30:00" is negative.
#pragma once
#include <optional>
#include <string>

namespace rapt {

struct AngleText {
  double value = 0;         // a + b/60 + c/3600 with the sign applied, or the decimal number
  bool sexagesimal = false; // true when the text had ':' separators
};

// std::nullopt for anything malformed: empty fields, minutes or seconds outside [0, 60), more
// than three fields, stray characters, non-finite numbers.
std::optional<AngleText> parse_angle_text(const std::string& text);

}  // namespace rapt
