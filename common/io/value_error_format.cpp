#include "io/value_error_format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "cli/file_contents.hpp"

namespace rapt {
namespace {

// Values whose magnitude (and whose error's) is below 10^-4 switch to scientific notation.
constexpr int kSmallestFixedExponent = -4;

// Powers of ten are applied as multiplications or divisions by exact doubles where possible;
// the rounding below reproduces PRESTO's last-bit artefacts (e.g. 1.04e19 ± 1e-10 shows as
// 10400000000000002048.0000000000), which depend on that arithmetic.
double scale_down(double x, int exponent) {
  return exponent >= 0 ? x / std::pow(10.0, exponent) : x * std::pow(10.0, -exponent);
}

// Half-up rounding to `decimals` places (negative: tens, hundreds...); never yields -0.
double round_half_up(double x, int decimals) {
  return std::floor(x * std::pow(10.0, decimals) + 0.5) * std::pow(10.0, -decimals);
}

int decimal_exponent(double nonzero) {
  return static_cast<int>(std::floor(std::log10(std::fabs(nonzero))));
}

// A C int conversion as x86-64 performs it: out-of-range values become INT_MIN.
long long as_c_int(double integral) {
  if (!(integral >= -2147483648.0 && integral < 2147483648.0)) return -2147483648LL;
  return static_cast<long long>(integral);
}

struct RoundedError {
  long long digits;  // the shown digits as one integer: 63 for "(63)" and "(6.3)"
  int lead;          // decimal exponent of the first shown digit
  int last;          // decimal exponent of the last shown digit
};

RoundedError round_error(double error, int ndigits) {
  if (error == 0) return {0, 0, 1 - ndigits};
  int lead = decimal_exponent(error);
  int last = lead - (ndigits - 1);
  auto digits = static_cast<long long>(std::floor(scale_down(error, last) + 0.5));
  if (digits >= (ndigits == 1 ? 10 : 100)) {  // 0.95 -> "1", 99.6 -> "1.0" one place up
    digits /= 10;
    ++lead;
    ++last;
  }
  return {digits, lead, last};
}

class ValueErrorFormatter {
 public:
  ValueErrorFormatter(double value, double error, int ndigits)
      : value_(value), ndigits_(ndigits), err_(round_error(error, ndigits)),
        value_exp_(value == 0 ? 0 : decimal_exponent(value)) {}

  std::string format() const { return ndigits_ == 1 ? one_digit() : two_digits(); }

 private:
  bool value_below(int exponent) const { return value_ == 0 || value_exp_ < exponent; }

  std::string one_digit() const {
    const int lead = err_.lead;
    if (lead >= 1) return scientific();
    if ((value_ != 0 && value_exp_ >= kSmallestFixedExponent) || lead >= kSmallestFixedExponent)
      return fixed();
    return value_below(lead) ? vanishing() : scientific();
  }

  std::string two_digits() const {
    const int lead = err_.lead;
    if (lead >= 2) return value_below(err_.last) ? vanishing() : scientific();
    if (lead == 1) return value_ != 0 && value_exp_ >= 1 ? integer() : scientific();
    if (lead == 0) return fixed();
    if (value_ == 0) return lead < kSmallestFixedExponent ? vanishing() : fixed();
    if (value_exp_ < err_.last) return vanishing();
    return value_exp_ < kSmallestFixedExponent ? scientific() : fixed();
  }

  // "63", or "6.3" when two digits are shown and the first sits at `unit_exponent`.
  std::string error_text(int unit_exponent) const {
    if (ndigits_ == 2 && err_.lead == unit_exponent)
      return format_string("%lld.%lld", err_.digits / 10, err_.digits % 10);
    return format_string("%lld", err_.digits);
  }

  static std::string signed_fixed(double x, int decimals) {
    return format_string("% .*f", decimals, round_half_up(x, decimals));
  }

  std::string fixed() const {
    return signed_fixed(value_, -err_.last) + "(" + error_text(0) + ")";
  }

  std::string integer() const {
    return format_string("% lld(%lld)", as_c_int(round_half_up(value_, 0)), err_.digits);
  }

  std::string vanishing() const {
    const int exponent = err_.last + 1;
    return "0.0(" + error_text(exponent) + ")x10^" + std::to_string(exponent);
  }

  std::string scientific() const {
    const double rounded = round_half_up(value_, -err_.last);
    int exponent = err_.lead;
    if (rounded != 0) exponent = std::max(exponent, decimal_exponent(rounded));
    const int decimals = exponent - err_.last;
    return signed_fixed(scale_down(value_, exponent), decimals) + "(" + error_text(exponent) +
           ")x10^" + std::to_string(exponent);
  }

  double value_;
  int ndigits_;
  RoundedError err_;
  int value_exp_;
};

double nan_value() { return std::numeric_limits<double>::quiet_NaN(); }

double decimal_to_double(const std::string& digits, int exponent) {
  return std::strtod((digits + "e" + std::to_string(exponent)).c_str(), nullptr);
}

}  // namespace

std::string format_value_error(double value, double error, int error_digits) {
  if (error_digits != 1 && error_digits != 2)
    throw std::invalid_argument("format_value_error: error_digits must be 1 or 2");
  if (!std::isfinite(value) || !std::isfinite(error) || error < 0) return "nan";
  return ValueErrorFormatter(value, error, error_digits).format();
}

ValueError parse_value_error(std::string_view text, int error_digits) {
  size_t begin = text.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {nan_value(), nan_value()};
  const size_t end = text.find_last_not_of(' ') + 1;
  const std::string s(text.substr(begin, end - begin));

  // Mantissa: [-]digits[.digits]
  size_t i = (s[0] == '-') ? 1 : 0;
  const size_t int_start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == int_start) return {nan_value(), nan_value()};
  bool has_point = false;
  int decimals = 0;
  if (i < s.size() && s[i] == '.') {
    has_point = true;
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) ++decimals;
  }
  const std::string mantissa = s.substr(0, i);
  const double mantissa_value = std::strtod(mantissa.c_str(), nullptr);

  if (i == s.size() || s[i] != '(') {
    // The error was cut off entirely. Without a decimal point the integer part may be cut too.
    if (i != s.size() || !has_point) return {nan_value(), nan_value()};
    return {mantissa_value, decimal_to_double("10", -decimals)};
  }
  std::string digits;
  for (++i; i < s.size() && s[i] != ')'; ++i)
    if (std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i];
  const bool closed = i < s.size();
  if (digits.empty()) digits = "1";
  while (static_cast<int>(digits.size()) < error_digits) digits += '0';
  if (!closed || i + 1 == s.size())
    return {mantissa_value, decimal_to_double(digits, -decimals)};

  const std::string_view rest = std::string_view(s).substr(i + 1);
  const double unknown_value = mantissa_value == 0 ? 0.0 : nan_value();
  if (rest.substr(0, 4) != "x10^" || rest.size() == 4) return {unknown_value, nan_value()};
  char* parsed_end = nullptr;
  const std::string exponent_text(rest.substr(4));
  const long exponent = std::strtol(exponent_text.c_str(), &parsed_end, 10);
  if (parsed_end == exponent_text.c_str() || *parsed_end != '\0')
    return {unknown_value, nan_value()};
  return {decimal_to_double(mantissa, static_cast<int>(exponent)),
          decimal_to_double(digits, static_cast<int>(exponent) - decimals)};
}

}  // namespace rapt
