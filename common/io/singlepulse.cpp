#include "io/singlepulse.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {

std::string format_singlepulse(const std::vector<SinglePulseEvent>& events) {
  if (events.empty()) return "";
  std::string out = std::string(kSinglePulseHeader) + "\n";
  for (const SinglePulseEvent& e : events) {
    const char* format = "%7.2f %7.2f %13.6f %10lld     %3d\n";
    const long long sample = static_cast<long long>(e.sample);
    const int length =
        std::snprintf(nullptr, 0, format, e.dm, e.sigma, e.time_s, sample, e.downfact);
    std::string line(static_cast<size_t>(length) + 1, '\0');
    std::snprintf(line.data(), line.size(), format, e.dm, e.sigma, e.time_s, sample, e.downfact);
    line.pop_back();
    out += line;
  }
  return out;
}

namespace {

// Beyond this a double no longer holds every integer, and int64 conversion must stay defined.
constexpr double kMaxWholeNumber = 9.0e15;

const char* const kColumnNames[] = {"DM", "Sigma", "Time", "Sample", "Downfact"};

std::string where(const std::string& name, int line_number) {
  return name + ": line " + std::to_string(line_number);
}

double column_number(const std::string& token, int column, const std::string& name,
                     int line_number) {
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(x))
    throw DataError(where(name, line_number) + ": " + kColumnNames[column] +
                    " is not a number: \"" + token + "\"");
  return x;
}

int64_t column_whole_number(const std::string& token, int column, const std::string& name,
                            int line_number) {
  const double x = column_number(token, column, name, line_number);
  if (x != std::floor(x) || !(std::fabs(x) <= kMaxWholeNumber))
    throw DataError(where(name, line_number) + ": " + kColumnNames[column] +
                    " is not a whole number: \"" + token + "\"");
  return static_cast<int64_t>(x);
}

SinglePulseEvent event_from_line(const std::string& line, const std::string& name,
                                 int line_number) {
  std::istringstream fields(line);
  std::string tokens[5];
  int count = 0;
  while (count < 5 && fields >> tokens[count]) ++count;
  if (count < 5)
    throw DataError(where(name, line_number) + ": expected 5 columns (DM Sigma Time Sample " +
                    "Downfact), found " + std::to_string(count));
  SinglePulseEvent e;
  e.dm = column_number(tokens[0], 0, name, line_number);
  e.sigma = column_number(tokens[1], 1, name, line_number);
  e.time_s = column_number(tokens[2], 2, name, line_number);
  e.sample = column_whole_number(tokens[3], 3, name, line_number);
  const int64_t downfact = column_whole_number(tokens[4], 4, name, line_number);
  if (downfact < 1 || downfact > 1000000000)
    throw DataError(where(name, line_number) + ": Downfact must be a positive width: \"" +
                    tokens[4] + "\"");
  e.downfact = static_cast<int>(downfact);
  return e;
}

}  // namespace

std::vector<SinglePulseEvent> parse_singlepulse(const std::string& text, const std::string& name) {
  std::vector<SinglePulseEvent> events;
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    events.push_back(event_from_line(line, name, line_number));
  }
  return events;
}

std::vector<SinglePulseEvent> read_singlepulse(const std::string& path) {
  return parse_singlepulse(read_file_contents(path), path);
}

void write_singlepulse(const std::string& path, const std::vector<SinglePulseEvent>& events,
                       bool overwrite) {
  write_file_atomically(path, format_singlepulse(events), overwrite);
}

}  // namespace rapt
