#include "cli/work_part.hpp"

#include <cctype>

#include "cli/errors.hpp"

namespace rapt {
namespace {

// A positive decimal number of at most six digits, or -1.
int positive_number(const std::string& digits) {
  if (digits.empty() || digits.size() > 6) return -1;
  for (char ch : digits)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
  const int value = std::stoi(digits);
  return value > 0 ? value : -1;
}

}  // namespace

WorkPart parse_work_part(const std::string& text) {
  const size_t slash = text.find('/');
  const int index = slash == std::string::npos ? -1 : positive_number(text.substr(0, slash));
  const int count = slash == std::string::npos ? -1 : positive_number(text.substr(slash + 1));
  if (index < 0 || count < 0)
    throw UsageError("--part " + text + ": expected K/N, part K of N (for example 2/8)");
  if (index > count)
    throw UsageError("--part " + text + ": K must be 1 to " + std::to_string(count));
  return {index, count};
}

ItemRange part_items(size_t total, const WorkPart& part) {
  const size_t count = size_t(part.count);
  const size_t k = size_t(part.index - 1);
  const size_t base = total / count;
  const size_t extra = total % count;  // the first `extra` parts take one item more
  const size_t begin = k * base + (k < extra ? k : extra);
  return {begin, begin + base + (k < extra ? 1 : 0)};
}

std::string describe(const WorkPart& part) {
  return "part " + std::to_string(part.index) + "/" + std::to_string(part.count);
}

}  // namespace rapt
