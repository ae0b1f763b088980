#include "cli/text_words.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

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

}  // namespace rapt
