// The benchmark's one table: columns sized to their widest cell, printed once at the end.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace rapt::bench {

class BenchTable {
 public:
  explicit BenchTable(std::vector<std::string> header) : header_(std::move(header)) {}
  // A row may be shorter than the header (its last cell then runs on, e.g. "skipped: no GPU").
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::FILE* out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "12.3", "0.0412", "1.23e+04": three significant digits for timings and rates.
std::string number_cell(double value);
std::string percent_cell(double fraction);  // "41%", "0.3%", or "-" for a fraction < 0

}  // namespace rapt::bench
