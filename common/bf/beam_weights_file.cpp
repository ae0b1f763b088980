// The weights-file reader of bf/beam_weights.hpp (the geometric weights and their
// normalisation live in beam_weights.cpp).
//
// Order: the file lists the weights beam slowest, then channel, antenna fastest:
//     file weight number f = (b * nchan + c) * nant + a
// while RawBeamWeights::values is stored channel slowest, [chan][beam][ant]:
//     values[(c * nbeams + b) * nant + a]
// so the reader reorders them.
#include "bf/beam_weights.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"

namespace rapt {

namespace {

// A whole word as a decimal integer in 1..INT_MAX, else nullopt.
std::optional<int> positive_count(const std::string& word) {
  if (word.empty() || word.size() > 10) return std::nullopt;
  for (const char c : word) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  const long long value = std::stoll(word);
  if (value < 1 || value > INT_MAX) return std::nullopt;
  return static_cast<int>(value);
}

constexpr const char* kSizeLineForm = "'nbeams B nchan C nant A'";

struct WeightsParseState {
  explicit WeightsParseState(const std::string& file_name) : name(file_name) {}
  const std::string& name;
  int line_number = 0;
  bool have_sizes = false;
  RawBeamWeights weights;
  int64_t needed = 0;       // nbeams x nchan x nant
  bool storing = false;     // values holds `needed` weights (false: too few bytes left for them)
  int64_t numbers_read = 0; // re and im both count
  int b = 0, c = 0, a = 0;  // where the next weight goes, in file order (beam slowest)
  double pending_re = 0;

  DataError error(const std::string& problem) const {
    return file_error(name, "line " + std::to_string(line_number) + ": " + problem);
  }
  std::string sizes() const {
    return "nbeams " + std::to_string(weights.nbeams) + " x nchan " +
           std::to_string(weights.nchan) + " x nant " + std::to_string(weights.nant);
  }
};

// "nbeams B nchan C nant A": the three keys in any order, each once, case ignored.
// `file_bytes`: the size of the whole text, which bounds how many weights can follow.
void parse_size_line(WeightsParseState& state, const std::string& line, size_t file_bytes) {
  const std::vector<std::string> fields = words(line);
  const auto malformed = [&]() {
    return state.error(std::string("expected ") + kSizeLineForm + ", got '" + line + "'");
  };
  if (fields.size() != 6) throw malformed();
  RawBeamWeights& w = state.weights;
  int* const slots[3] = {&w.nbeams, &w.nchan, &w.nant};
  const char* const keys[3] = {"nbeams", "nchan", "nant"};
  for (size_t f = 0; f < fields.size(); f += 2) {
    const std::string key = lowercase(fields[f]);
    int k = 0;
    while (k < 3 && key != keys[k]) ++k;
    if (k == 3 || *slots[k] != 0) throw malformed();
    const std::optional<int> value = positive_count(fields[f + 1]);
    if (!value) {
      throw state.error(std::string(keys[k]) + " '" + fields[f + 1] + "' is not a positive integer");
    }
    *slots[k] = *value;
  }
  if (__builtin_mul_overflow(static_cast<int64_t>(w.nbeams) * w.nchan, w.nant, &state.needed) ||
      state.needed > INT64_MAX / 4) {
    throw state.error(state.sizes() + " is too many weights");
  }
  state.have_sizes = true;
  // Each weight takes at least "r i" and a separator: allocate only for a file that can hold
  // them all, so that a short file cannot make the reader allocate without bound.
  state.storing = static_cast<uint64_t>(state.needed) * 4 <= static_cast<uint64_t>(file_bytes) + 1;
  if (state.storing) w.values.resize(static_cast<size_t>(state.needed));
}

// One number in file order; every second one completes a weight, stored at [chan][beam][ant].
void add_number(WeightsParseState& state, double value) {
  const bool is_imaginary = state.numbers_read % 2 == 1;
  ++state.numbers_read;
  if (!is_imaginary) {
    state.pending_re = value;
    return;
  }
  RawBeamWeights& w = state.weights;
  if (!state.storing || state.numbers_read / 2 > state.needed) return;  // counted, not kept
  const size_t stored = (static_cast<size_t>(state.c) * w.nbeams + state.b) * w.nant + state.a;
  w.values[stored] = {state.pending_re, value};
  if (++state.a == w.nant) {
    state.a = 0;
    if (++state.c == w.nchan) {
      state.c = 0;
      ++state.b;
    }
  }
}

// Whitespace-separated numbers, parsed in place (weights files can hold millions).
void parse_weight_line(WeightsParseState& state, const std::string& line) {
  const char* p = line.c_str();
  const char* const end = p + line.size();
  while (p < end) {
    if (std::isspace(static_cast<unsigned char>(*p))) {
      ++p;
      continue;
    }
    const char* word_end = p;
    while (word_end < end && !std::isspace(static_cast<unsigned char>(*word_end))) ++word_end;
    char* number_end = nullptr;
    const double value = std::strtod(p, &number_end);
    if (number_end != word_end || !std::isfinite(value)) {
      throw state.error("weight '" + std::string(p, word_end) + "' is not a finite number");
    }
    add_number(state, value);
    p = word_end;
  }
}

void finish_weights(const WeightsParseState& state) {
  if (!state.have_sizes) {
    throw file_error(state.name, std::string("no ") + kSizeLineForm + " line");
  }
  const int64_t have = state.numbers_read / 2;
  const bool lone = state.numbers_read % 2 != 0;
  if (lone || have != state.needed) {
    throw file_error(state.name, "has " + std::to_string(have) + " weights" +
                                     (lone ? " and a lone number" : "") + "; " + state.sizes() +
                                     " needs " + std::to_string(state.needed));
  }
}

}  // namespace

RawBeamWeights parse_weights_text(std::string_view text, const std::string& name) {
  WeightsParseState state(name);
  for_each_content_line(text, name, [&](int line_number, const std::string& content) {
    state.line_number = line_number;
    if (state.have_sizes) {
      parse_weight_line(state, content);
    } else {
      parse_size_line(state, content, text.size());
    }
  });
  finish_weights(state);
  return state.weights;
}

RawBeamWeights read_weights_file(const std::string& path) {
  return parse_weights_text(read_file_contents(path), path);
}

}  // namespace rapt
