#include "sift/accel_sift_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "accel/accel_sigma.hpp"
#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"

namespace rapt {
namespace {

// Python's float(text) and int(text): the whole text is the number, or it is an error.
bool whole_double(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0';
}

bool whole_int(const std::string& text, long long& value) {
  char* end = nullptr;
  value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0';
}

std::string before_paren(const std::string& cell) { return cell.substr(0, cell.find('(')); }

// numpy's sum of a float64 array (pairwise: 8 running partial sums for 8 or more values).
double numpy_sum(const std::vector<double>& a) {
  const size_t n = a.size();
  double sum = 0.0;
  if (n < 8) {
    for (double x : a) sum += x;
    return sum;
  }
  double r[8];
  for (int j = 0; j < 8; ++j) r[j] = a[size_t(j)];
  size_t i = 8;
  for (; i < n - n % 8; i += 8)
    for (int j = 0; j < 8; ++j) r[j] += a[i + size_t(j)];
  sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
  for (; i < n; ++i) sum += a[i];
  return sum;
}

class Reader {
 public:
  Reader(const std::string& name) : name_(name) {}

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw file_error(name_, "line " + std::to_string(line) + ": " + what);
  }

  double number(const std::vector<std::string>& f, size_t i, int line, const char* what) const {
    double value = 0.0;
    if (i >= f.size() || !whole_double(i == 7 || i == 9 ? before_paren(f[i]) : f[i], value))
      fail(line, std::string(what) + " (field " + std::to_string(i + 1) + ") is not a number");
    return value;
  }

  // The sums sifting makes once every harmonic's power is read.
  static void finish(SiftCandidate& c) {
    std::vector<double> amps(c.harm_pows.size());
    for (size_t i = 0; i < amps.size(); ++i)
      amps[i] = std::sqrt(std::max(c.harm_pows[i] - 1.0, 0.0));
    c.snr = numpy_sum(amps);
    double ipow = 0.0;
    for (double p : c.harm_pows) ipow += p;
    c.ipow = ipow;
    c.sigma = candidate_sigma(ipow, c.numharm, 1.0);
    c.hits = {SiftHit{c.dm, c.snr, c.sigma}};
  }

 private:
  std::string name_;
};

}  // namespace

bool accel_dm_from_name(const std::string& path, std::string& dm_text) {
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (size_t at = name.find("DM"); at != std::string::npos; at = name.find("DM", at + 1)) {
    const size_t first = at + 2;
    size_t i = first;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
    if (i > first && i + 2 < name.size() && name[i] == '.' &&
        std::isdigit(static_cast<unsigned char>(name[i + 1])) &&
        std::isdigit(static_cast<unsigned char>(name[i + 2]))) {
      dm_text = name.substr(first, i + 3 - first);
      return true;
    }
  }
  return false;
}

double parse_sift_power(const std::string& cell) {
  double power = 0.0;
  if (!whole_double(before_paren(cell), power))
    throw DataError("power \"" + cell + "\" is not a number");
  const size_t caret = cell.find('^');
  if (caret != std::string::npos) {
    const std::string rest = cell.substr(caret + 1);
    double exponent = 0.0;
    if (!whole_double(rest.substr(0, rest.find('^')), exponent)) exponent = 5.0;
    power *= std::pow(10.0, exponent);
  }
  return power;
}

namespace {

// N and dt from the .inf lines sifting looks for (the last of each); false if one is missing.
bool observation_length(const std::string& text, double& T) {
  long long n = 0;
  double dt = 0.0;
  bool have_n = false, have_dt = false;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(" Number of bins in the time series", 0) == 0) {
      const std::vector<std::string> f = words(line);
      have_n = !f.empty() && whole_int(f.back(), n);
    } else if (line.rfind(" Width of each time series bin (sec)", 0) == 0) {
      const std::vector<std::string> f = words(line);
      have_dt = !f.empty() && whole_double(f.back(), dt);
    }
  }
  T = double(n) * dt;
  return have_n && have_dt;
}

}  // namespace

AccelSiftFile parse_accel_sift_file(const std::string& text, const std::string& name,
                                    const std::string& inf_fallback) {
  AccelSiftFile file;
  file.path = name;
  std::string dm_text;
  if (!accel_dm_from_name(name, dm_text))
    throw file_error(name, "no DM<dm> with 2 decimals in the name (<root>_DM<dm>_ACCEL_<zmax>)");
  file.dm = std::strtod(dm_text.c_str(), nullptr);
  if (!observation_length(text, file.T) && !observation_length(inf_fallback, file.T))
    throw file_error(name,
                     "no .inf appended (\" Number of bins in the time series\" and \" Width "
                     "of each time series bin (sec)\") and none beside it");
  if (!(file.T > 0.0)) throw file_error(name, "the .inf gives an observation length of 0 s");
  const size_t slash = name.find_last_of('/');
  const std::string filename = slash == std::string::npos ? name : name.substr(slash + 1);

  Reader reader(name);
  std::vector<SiftCandidate>& cands = file.candidates;
  int last_candnum = 0, last_goodcandnum = 0, current_goodcandnum = 0, current_harmnum = 0;
  const auto find = [&](int candnum) -> SiftCandidate* {
    for (SiftCandidate& c : cands)
      if (c.candnum == candnum) return &c;
    return nullptr;
  };
  std::istringstream lines(text);
  int line_number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const bool fundamental = !line.empty() && std::isdigit(static_cast<unsigned char>(line[0]));
    const bool first_harmonic =
        line.size() > 1 && line[0] == ' ' && std::isdigit(static_cast<unsigned char>(line[1]));
    if (fundamental) {
      const std::vector<std::string> f = words(line);
      long long number = 0;
      if (!whole_int(f[0], number))
        reader.fail(line_number, "candidate number is not a whole number");
      SiftCandidate c;
      c.candnum = int(number);
      // Past 9999 the 4-character column cuts the number: count on from the previous one.
      if (!cands.empty() && f[0].size() == 4 && cands.back().candnum >= 9999)
        c.candnum = last_candnum + 1;
      c.sigma = reader.number(f, 1, line_number, "Sigma");
      c.ipow = reader.number(f, 2, line_number, "Summed Power");
      c.cpow = reader.number(f, 3, line_number, "Coherent Power");
      long long numharm = 0;
      if (f.size() < 5 || !whole_int(f[4], numharm) || numharm < 1 || numharm > 64)
        reader.fail(line_number, "Num Harm (field 5) is not a number of harmonics");
      c.numharm = int(numharm);
      c.r = reader.number(f, 7, line_number, "FFT 'r'");
      c.z = reader.number(f, 9, line_number, "FFT 'z'");
      c.path = name;
      c.filename = filename;
      c.dm = file.dm;
      c.T = file.T;
      cands.push_back(c);
      last_candnum = c.candnum;
      continue;
    }
    if (first_harmonic) {
      const std::vector<std::string> f = words(line);
      long long number = 0;
      if (!whole_int(f[0], number))
        reader.fail(line_number, "candidate number is not a whole number");
      int candnum = int(number);
      if (f[0].size() == 4 && last_goodcandnum >= 9999) candnum = last_goodcandnum + 1;
      SiftCandidate* c = find(candnum);
      if (!c) continue;
      if (f.size() < 4) reader.fail(line_number, "harmonic row without a power (field 4)");
      c->harm_pows.assign(size_t(c->numharm), 0.0);
      try {
        c->harm_pows[0] = parse_sift_power(f[3]);
      } catch (const DataError& e) {
        reader.fail(line_number, e.what());
      }
      if (c->numharm > 1) {
        current_goodcandnum = candnum;
        current_harmnum = 1;
      } else {
        last_goodcandnum = candnum;
        current_goodcandnum = 0;
        Reader::finish(*c);
      }
      continue;
    }
    if (current_goodcandnum) {
      SiftCandidate* c = find(current_goodcandnum);
      const std::vector<std::string> f = words(line);
      if (f.size() < 3)
        reader.fail(line_number, "candidate " + std::to_string(current_goodcandnum) + " has " +
                                     std::to_string(current_harmnum) + " of its " +
                                     std::to_string(c->numharm) + " harmonic rows");
      try {
        c->harm_pows[size_t(current_harmnum)] = parse_sift_power(f[2]);
      } catch (const DataError& e) {
        reader.fail(line_number, e.what());
      }
      if (++current_harmnum == c->numharm) {
        Reader::finish(*c);
        last_goodcandnum = c->candnum;
        current_goodcandnum = 0;
      }
    }
  }
  for (const SiftCandidate& c : cands)
    if (c.hits.empty())
      throw file_error(name, "candidate " + std::to_string(c.candnum) +
                                 " has no complete rows in the harmonics table");
  return file;
}

AccelSiftFile read_accel_sift_file(const std::string& path) {
  const std::string text = read_file_contents(path);
  std::string inf;
  double T = 0.0;
  if (!observation_length(text, T)) {
    const size_t accel = path.find("_ACCEL");
    if (accel != std::string::npos && path_exists(path.substr(0, accel) + ".inf"))
      inf = read_file_contents(path.substr(0, accel) + ".inf");
  }
  return parse_accel_sift_file(text, path, inf);
}

}  // namespace rapt
