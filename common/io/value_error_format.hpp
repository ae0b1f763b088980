// Journal-style "value(error)" strings, exactly as PRESTO prints them in ACCEL candidate files
// (its nice_output_1 / nice_output_2), and a lenient reader for them.
// Behaviour: shared reference formats.md section 4.3; every branch is pinned by the 450 golden
// pairs in presto-golden/nice_output_golden.tsv.
#pragma once
#include <string>
#include <string_view>

namespace rapt {

// The error is rounded (half up) to `error_digits` significant digits (1 or 2) and the value to
// the decimal place of the error's last digit: " 770.688(63)", "-6.2(3)". Positive values get a
// leading space. Layouts:
//   fixed        " 12345.68(25)", " 4.0(1.0)" (two digits whose first is a unit: "a.b")
//   scientific   " 2.32(14)x10^4", " 1.23457(1)x10^-5"  (errors >= 10 with one digit, >= 100
//                with two; values below 1e-4 when the error is small too)
//   vanishing    "0.0(2.5)x10^-1" (no leading space): the value is below the error's last digit
// Quirks kept for byte compatibility: two-digit errors in [10, 100) print the value through a
// C int, so values beyond its range show as -2147483648; a zero error prints "(0)" / "(0.0)".
// NaN or infinite inputs (which PRESTO never prints) give "nan".
std::string format_value_error(double value, double error, int error_digits);

// What a value(error) string says. Fields are NaN where the text does not tell (see below).
struct ValueError {
  double value;
  double error;
};

// Reads format_value_error's output, also when a fixed-width table cut it short:
//   "0.4888(67"      missing ")"            -> exact
//   "-6.2830982(7"   missing error digits   -> the missing digits read as 0
//   "166.91435"      no error at all        -> error = 10 units of the last shown digit
//   "8.75109(13)x10" exponent cut off       -> value and error NaN (value 0 if the mantissa is 0)
// The value of a "vanishing" string is read as 0. `error_digits` is the count the writer used.
ValueError parse_value_error(std::string_view text, int error_digits);

}  // namespace rapt
