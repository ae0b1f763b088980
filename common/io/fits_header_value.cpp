#include "io/fits_header_value.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace rapt {

namespace {

std::string without_outer_blanks(const std::string& text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

}  // namespace

std::optional<long long> fits_integer_value(const std::string& raw) {
  std::string text = without_outer_blanks(raw);
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
    text = without_outer_blanks(text.substr(1, text.size() - 2));
  if (text.empty() || text.find_first_of("xX") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long whole = std::strtoll(text.c_str(), &end, 10);
  if (*end == '\0' && errno == 0) return whole;
  for (char& c : text)
    if (c == 'D' || c == 'd') c = 'E';  // FITS allows a Fortran exponent
  const double real = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(real) || std::fabs(real) >= 9.2e18) return std::nullopt;
  return static_cast<long long>(real);
}

}  // namespace rapt
