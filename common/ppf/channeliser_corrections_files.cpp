// The channeliser's correction files: per-station delays and per-channel bandpass gains.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {
namespace {

std::string line_text(int line) { return "line " + std::to_string(line) + ": "; }

// A whole word as a non-negative integer below `limit`, else nullopt.
std::optional<int> index_below(const std::string& word, int limit) {
  if (word.empty() || word.size() > 10) return std::nullopt;
  for (char ch : word)
    if (ch < '0' || ch > '9') return std::nullopt;
  const long long value = std::stoll(word);
  if (value >= limit) return std::nullopt;
  return int(value);
}

}  // namespace

std::vector<double> read_delays_file(const std::string& path, int nant,
                                     const std::vector<std::string>& names) {
  return parse_delays_text(read_file_contents(path), path, nant, names);
}

std::vector<double> parse_delays_text(const std::string& text, const std::string& path, int nant,
                                      const std::vector<std::string>& names) {
  std::vector<double> delays(size_t(nant), 0.0);
  std::vector<int> listed_on(size_t(nant), 0);
  for_each_content_line(text, path, [&](int line, const std::string& content) {
    const std::vector<std::string> w = words(content);
    if (w.size() != 2)
      throw file_error(path, line_text(line) + "expected 'station delay_s', got '" + content + "'");
    int station = -1;
    // Only the first nant names: a name list longer than the data must not reach past them.
    for (size_t a = 0; a < names.size() && a < size_t(nant) && station < 0; ++a)
      if (names[a] == w[0]) station = int(a);
    if (station < 0) {
      const std::optional<int> index = index_below(w[0], nant);
      if (!index)
        throw file_error(path, line_text(line) + "no station '" + w[0] + "' in the voltages (" +
                                   (names.empty() ? "they carry no names: give an index, 0 to "
                                                  : "names or an index, 0 to ") +
                                   std::to_string(nant - 1) + ")");
      station = *index;
    }
    const std::optional<double> delay = finite_number(w[1]);
    if (!delay || std::fabs(*delay) > 1.0)
      throw file_error(path, line_text(line) + "delay '" + w[1] +
                                 "' is not a number of seconds within +-1");
    if (listed_on[size_t(station)])
      throw file_error(path, line_text(line) + "station '" + w[0] + "' is already given on line " +
                                 std::to_string(listed_on[size_t(station)]));
    listed_on[size_t(station)] = line;
    delays[size_t(station)] = *delay;
  });
  return delays;
}

std::vector<float> read_bandpass_file(const std::string& path, int nchan_out) {
  return parse_bandpass_text(read_file_contents(path), path, nchan_out);
}

std::vector<float> parse_bandpass_text(const std::string& text, const std::string& path,
                                       int nchan_out) {
  std::vector<float> column;                          // one gain a line
  std::vector<float> gains(size_t(nchan_out), 1.0f);  // "channel gain" lines
  std::vector<int> listed_on(size_t(nchan_out), 0);
  int form = 0;                                       // words per line, from the first line
  for_each_content_line(text, path, [&](int line, const std::string& content) {
    const std::vector<std::string> w = words(content);
    if (form == 0) form = int(w.size());
    if (int(w.size()) != form || (form != 1 && form != 2))
      throw file_error(path, line_text(line) + "expected " +
                                 (form == 2 ? "'channel gain'" : form == 1 ? "one gain"
                                                                           : "a gain or 'channel gain'") +
                                 " (every line alike), got '" + content + "'");
    const std::optional<double> gain = finite_number(w.back());
    if (!gain || std::fabs(*gain) > 3e38)
      throw file_error(path, line_text(line) + "gain '" + w.back() + "' is not a finite number");
    if (form == 1) {
      column.push_back(float(*gain));
      return;
    }
    const std::optional<int> channel = index_below(w[0], nchan_out);
    if (!channel)
      throw file_error(path, line_text(line) + "channel '" + w[0] + "' is not an output channel (0 to " +
                                 std::to_string(nchan_out - 1) + ")");
    if (listed_on[size_t(*channel)])
      throw file_error(path, line_text(line) + "channel " + w[0] + " is already given on line " +
                                 std::to_string(listed_on[size_t(*channel)]));
    listed_on[size_t(*channel)] = line;
    gains[size_t(*channel)] = float(*gain);
  });
  if (form == 0) throw file_error(path, "holds no gains");
  if (form == 1 && column.size() != size_t(nchan_out))
    throw file_error(path, format_string("holds %zu gains; the output has %d channels (or give "
                                         "'channel gain' lines)", column.size(), nchan_out));
  return form == 1 ? column : gains;
}

}  // namespace rapt
