#include "cli/text_words.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {

std::string trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\f\v");
  return std::string(text.substr(first, last - first + 1));
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string uppercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

std::optional<double> finite_number(const std::string& word) {
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (word.empty() || end != word.c_str() + word.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

void for_each_content_line(std::string_view text, const std::string& name,
                           const std::function<void(int, const std::string&)>& handle) {
  int line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find('\0') != std::string_view::npos)
      throw file_error(name, "line " + std::to_string(line_number) + ": contains a NUL byte");
    const std::string content = trimmed(line.substr(0, line.find('#')));
    if (!content.empty()) handle(line_number, content);
  }
}

}  // namespace rapt
