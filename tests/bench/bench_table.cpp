#include "bench_table.hpp"

#include <algorithm>
#include <cmath>

namespace rapt::bench {

void BenchTable::print(std::FILE* out) const {
  std::vector<size_t> width(header_.size(), 0);
  auto widen = [&](const std::vector<std::string>& cells, bool all) {
    for (size_t i = 0; i < cells.size() && i < width.size(); ++i)
      if (all || i + 1 < cells.size()) width[i] = std::max(width[i], cells[i].size());
  };
  widen(header_, true);
  for (const auto& row : rows_) widen(row, row.size() == header_.size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t i = 0; i < cells.size(); ++i) {
      text += cells[i];
      if (i + 1 < cells.size()) text += std::string(width[i] - cells[i].size() + 2, ' ');
    }
    std::fprintf(out, "%s\n", text.c_str());
  };
  line(header_);
  for (const auto& row : rows_) line(row);
}

std::string number_cell(double value) {
  char text[32];
  if (value != 0.0 && (std::fabs(value) >= 1e5 || std::fabs(value) < 1e-3))
    std::snprintf(text, sizeof text, "%.2e", value);
  else if (std::fabs(value) >= 100.0)
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string percent_cell(double fraction) {
  if (fraction < 0.0 || !std::isfinite(fraction)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, fraction >= 0.1 ? "%.0f%%" : "%.1f%%", fraction * 100.0);
  return text;
}

}  // namespace rapt::bench
