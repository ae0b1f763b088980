// Small helpers of the line-oriented text parsers (layout, beams, flags and weights files):
// trimming, case folding, splitting into words, and reading a word as a number.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rapt {

// `text` without leading and trailing blanks (space, tab, CR, FF, VT).
std::string trimmed(std::string_view text);
// ASCII lower and upper case.
std::string lowercase(std::string text);
std::string uppercase(std::string text);
// The blank-separated words of `text`.
std::vector<std::string> words(const std::string& text);
// A whole word as a finite number (strtod syntax), else nullopt.
std::optional<double> finite_number(const std::string& word);

// Calls handle(line_number, content) for each line of `text` (numbered from 1), `content` being
// the line without its comment ('#' to the end) and surrounding blanks; empty contents are
// skipped. A line holding a NUL byte throws DataError "name: line N: contains a NUL byte".
void for_each_content_line(std::string_view text, const std::string& name,
                           const std::function<void(int, const std::string&)>& handle);

}  // namespace rapt
