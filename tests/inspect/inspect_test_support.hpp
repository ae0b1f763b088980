// Helpers for the inspect tests: finding a labelled line in a report and the numbers on it.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "cli/errors.hpp"
#include "inspect/inspect_report.hpp"

namespace rapt::testing {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The report line whose label (after the two-space indent) is `label`; "" when there is none.
inline std::string report_line_of(const std::string& report, const std::string& label) {
  const std::string start = "\n  " + label + " ";
  const size_t at = ("\n" + report).find(start);
  if (at == std::string::npos) return "";
  const size_t end = report.find('\n', at);
  return report.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The number following `key` ("mean ", "rms ") on `line`; NaN when absent.
inline double number_after(const std::string& line, const std::string& key) {
  const size_t at = line.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(line.c_str() + at + key.size(), nullptr);
}

// The message of the DataError inspect_file throws for `path`, or "no error".
inline std::string inspect_error(const std::string& path, const InspectSettings& settings = {}) {
  try {
    inspect_file(path, settings);
  } catch (const DataError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace rapt::testing
