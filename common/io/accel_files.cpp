// The ACCEL text table: writer and reader. (.cand and .txtcand: accel_cand_files.cpp.)
#include "io/accel_files.hpp"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"
#include "io/value_error_format.hpp"

namespace rapt {
namespace {

constexpr double kSpeedOfLight_m_s = 299792458.0;
// PRESTO's notes field when there is nothing to say: 19 spaces, printed with "%.20s".
const std::string kBlankNotes(19, ' ');
constexpr size_t kNotesShownChars = 20;
constexpr int kNotesWidth = 20;

struct Column {
  const char* title1;
  const char* title2;
  int width;
};

// Every column except the last (Notes) holds one cell per row.
std::vector<Column> fundamental_columns(bool jerk) {
  std::vector<Column> columns = {
      {"", "Cand", 4},          {"", "Sigma", 5},           {"Summed", "Power", 6},
      {"Coherent", "Power", 8}, {"Num", "Harm", 4},         {"Period", "(ms)", 16},
      {"Frequency", "(Hz)", 15}, {"FFT 'r'", "(bin)", 15},  {"Freq Deriv", "(Hz/s)", 15},
      {"FFT 'z'", "(bins)", 11}};
  if (jerk) columns.push_back({"FFT 'w'", "(bins)", 11});
  columns.push_back({"Accel", "(m/s^2)", 15});
  columns.push_back({"", "Notes", kNotesWidth});
  return columns;
}

std::vector<Column> harmonic_columns(bool jerk, bool photon) {
  std::vector<Column> columns = {
      {"", "Cand", 5},           {"", "Harm", 4},           {"", "Sigma", 5},
      {"Power /", photon ? "NumPhot" : "Loc Pow", 15},      {"Raw", "Power", 11},
      {"FFT 'r'", "(bin)", 18},  {"Pred 'r'", "(bin)", 13}, {"FFT 'z'", "(bins)", 12},
      {"Pred 'z'", "(bins)", 9}};
  if (jerk) {
    columns.push_back({"FFT 'w'", "(bins)", 12});
    columns.push_back({"Pred 'w'", "(bins)", 9});
  }
  columns.push_back({"Phase", "(rad)", 12});
  columns.push_back({"Centroid", "(0-1)", 10});
  columns.push_back({"Purity", "<p> = 1", 10});
  columns.push_back({"", "Notes", kNotesWidth});
  return columns;
}

// Centred in `width` (extra space on the right); cut to `width` if it does not fit.
std::string centered(const std::string& cell, int width) {
  const auto w = static_cast<size_t>(width);
  if (cell.size() >= w) return cell.substr(0, w);
  const size_t left = (w - cell.size()) / 2;
  return std::string(left, ' ') + cell + std::string(w - cell.size() - left, ' ');
}

std::string table_header(const std::vector<Column>& columns) {
  std::string lines[3];
  for (size_t k = 0; k < columns.size(); ++k) {
    const bool last = k + 1 == columns.size();
    lines[0] += centered(columns[k].title1, columns[k].width) + (last ? "\n" : "  ");
    lines[1] += centered(columns[k].title2, columns[k].width) + (last ? "\n" : "  ");
    lines[2] += std::string(columns[k].width, '-') + (last ? "\n" : "--");
  }
  return lines[0] + lines[1] + lines[2];
}

std::string table_row(const std::vector<std::string>& cells, const std::vector<Column>& columns,
                      const std::string& notes) {
  std::string row;
  for (size_t k = 0; k < cells.size(); ++k) row += centered(cells[k], columns[k].width) + "  ";
  return row + "  " + (notes.empty() ? kBlankNotes : notes.substr(0, kNotesShownChars)) + "\n";
}

std::string fixed2(double x) { return format_string("%.2f", x); }

std::vector<std::string> fundamental_cells(const AccelCandidate& c, int number, double t_s,
                                           bool jerk) {
  const double rerr = 0.5 / c.numharm, zerr = 2.0 / c.numharm, werr = 20.0 / c.numharm;
  const double f = c.r / t_s, ferr = rerr / t_s;
  const double p = 1.0 / f, perr = ferr / (f * f);
  const double fdot = c.z / (t_s * t_s), fdoterr = zerr / (t_s * t_s);
  const double accel = fdot * kSpeedOfLight_m_s / f, accelerr = fdoterr * kSpeedOfLight_m_s / f;
  std::vector<std::string> cells = {
      format_string("%-4d", number),           fixed2(c.sigma),
      fixed2(c.summed_power),                  fixed2(c.coherent_power),
      format_string("%d", c.numharm),          format_value_error(p * 1000.0, perr * 1000.0, 1),
      format_value_error(f, ferr, 1),          format_value_error(c.r, rerr, 2),
      format_value_error(fdot, fdoterr, 1),    format_value_error(c.z, zerr, 2)};
  if (jerk) cells.push_back(format_value_error(c.w, werr, 2));
  cells.push_back(format_value_error(accel, accelerr, 2));
  return cells;
}

std::vector<std::string> harmonic_cells(const AccelCandidate& c, int number, int harm,
                                        bool jerk) {
  const FourierProps& h = c.harmonics[harm - 1].props;
  std::vector<std::string> cells = {
      harm == 1 ? format_string(" %-4d", number) : std::string(),
      format_string("%-4d", harm),
      fixed2(c.harmonics[harm - 1].sigma),
      format_value_error(h.pow, h.powerr, 2),
      format_string("%.3g", h.rawpow),
      format_value_error(h.r, h.rerr, 2),
      fixed2(c.r * harm),
      format_value_error(h.z, h.zerr, 2),
      fixed2(c.z * harm)};
  if (jerk) {
    cells.push_back(format_value_error(h.w, h.werr, 2));
    cells.push_back(fixed2(c.w * harm));
  }
  cells.push_back(format_value_error(h.phs, h.phserr, 2));
  cells.push_back(format_value_error(h.cen, h.cenerr, 2));
  cells.push_back(format_value_error(h.pur, h.purerr, 2));
  return cells;
}

}  // namespace

std::string format_accel_text(const AccelCandidates& accel) {
  if (!(accel.obs_length_s > 0))
    throw DataError("ACCEL candidates: observation length must be positive");
  const auto fcols = fundamental_columns(accel.jerk);
  const auto hcols = harmonic_columns(accel.jerk, accel.photon);
  std::string out = table_header(fcols);
  int number = 0;
  for (const auto& c : accel.candidates) {
    ++number;
    if (c.numharm < 1 || static_cast<size_t>(c.numharm) != c.harmonics.size())
      throw DataError("ACCEL candidate " + std::to_string(number) + ": numharm is " +
                      std::to_string(c.numharm) + " but " + std::to_string(c.harmonics.size()) +
                      " harmonics are given");
    out += table_row(fundamental_cells(c, number, accel.obs_length_s, accel.jerk), fcols,
                     c.notes);
  }
  out += "\n\n" + table_header(hcols);
  number = 0;
  for (const auto& c : accel.candidates) {
    ++number;
    for (int harm = 1; harm <= c.numharm; ++harm)
      out += table_row(harmonic_cells(c, number, harm, accel.jerk), hcols, "");
  }
  return out + "\n\n" + accel.inf_text;
}

void write_accel_text(const std::string& path, const AccelCandidates& accel, bool overwrite) {
  const std::string text = format_accel_text(accel);
  AtomicOutputFile out(path, overwrite);
  out.write(text);
  out.commit();
}

// ---------------------------------------------------------------------------------------------
// Reader

namespace {

class LineReader {
 public:
  explicit LineReader(const std::string& text) : text_(text) {}
  bool at_end() const { return pos_ >= text_.size(); }
  int line_number() const { return line_; }
  size_t position() const { return pos_; }
  std::string next() {
    const size_t nl = text_.find('\n', pos_);
    const size_t end = nl == std::string::npos ? text_.size() : nl;
    std::string line = text_.substr(pos_, end - pos_);
    pos_ = nl == std::string::npos ? text_.size() : nl + 1;
    ++line_;
    return line;
  }

 private:
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 0;
};

std::vector<std::string> slice_cells(const std::string& line, const std::vector<Column>& columns) {
  std::vector<std::string> cells;
  size_t offset = 0;
  for (size_t k = 0; k + 1 < columns.size(); ++k) {
    cells.push_back(offset < line.size() ? line.substr(offset, columns[k].width) : "");
    offset += columns[k].width + 2;
  }
  return cells;
}

std::string notes_of(const std::string& line, const std::vector<Column>& columns) {
  size_t offset = 2;  // the notes start after an extra two spaces
  for (size_t k = 0; k + 1 < columns.size(); ++k) offset += columns[k].width + 2;
  if (offset >= line.size()) return "";
  std::string notes = line.substr(offset);
  const size_t end = notes.find_last_not_of(' ');
  return end == std::string::npos ? "" : notes.substr(0, end + 1);
}

class AccelTextParser {
 public:
  AccelTextParser(const std::string& text, const std::string& name)
      : text_(text), name_(name), lines_(text) {}

  AccelCandidates parse() {
    const std::string title1 = lines_.next();
    const std::string title2 = lines_.next();
    if (title2.rfind("Cand", 0) != 0 || title2.find("Sigma") == std::string::npos ||
        title1.find("Summed") == std::string::npos)
      throw file_error(name_, "not an accelsearch candidate file (no fundamentals table)");
    result_.jerk = title1.find("FFT 'w'") != std::string::npos;
    lines_.next();  // dashes
    const auto fcols = fundamental_columns(result_.jerk);
    for (std::string line = lines_.next(); !line.empty(); line = lines_.next())
      result_.candidates.push_back(parse_fundamental(line, fcols));
    skip_blank_lines();
    lines_.next();
    const std::string harmonic_title2 = lines_.next();
    if (harmonic_title2.rfind("Cand", 0) != 0 || harmonic_title2.find("Harm") == std::string::npos)
      throw error("no harmonics table after the fundamentals");
    result_.photon = harmonic_title2.find("NumPhot") != std::string::npos;
    lines_.next();  // dashes
    parse_harmonics(harmonic_columns(result_.jerk, result_.photon));
    if (!lines_.at_end() && text_[lines_.position()] == '\n') lines_.next();
    result_.inf_text = text_.substr(lines_.position());
    result_.obs_length_s = obs_length_from_inf(result_.inf_text);
    return result_;
  }

 private:
  DataError error(const std::string& problem) const {
    return file_error(name_, "line " + std::to_string(lines_.line_number()) + ": " + problem);
  }

  void skip_blank_lines() {
    while (!lines_.at_end() && text_[lines_.position()] == '\n') lines_.next();
  }

  double number(const std::string& cell) const {
    char* end = nullptr;
    const double value = std::strtod(cell.c_str(), &end);
    if (end == cell.c_str()) throw error("expected a number, found '" + cell + "'");
    return value;
  }

  // PRESTO sums at most 32 harmonics; a count outside 1 ... 32 is a damaged row (and one past
  // int's range cannot be converted at all).
  int harmonic_count(const std::string& cell) const {
    const double value = number(cell);
    if (!(value >= 1 && value <= 32) || value != std::floor(value))
      throw error("the number of harmonics must be a whole number from 1 to 32, found '" +
                  trimmed(cell) + "'");
    return static_cast<int>(value);
  }

  AccelCandidate parse_fundamental(const std::string& line, const std::vector<Column>& columns) {
    const auto cells = slice_cells(line, columns);
    if (cells[0].find_first_not_of(' ') == std::string::npos)
      throw error("expected a candidate row, found '" + line + "'");
    AccelCandidate c;
    c.sigma = number(cells[1]);
    c.summed_power = number(cells[2]);
    c.coherent_power = number(cells[3]);
    c.numharm = harmonic_count(cells[4]);
    c.r = parse_value_error(cells[7], 2).value;
    c.z = parse_value_error(cells[9], 2).value;
    c.w = result_.jerk ? parse_value_error(cells[10], 2).value : 0.0;
    c.notes = notes_of(line, columns);
    return c;
  }

  void parse_harmonics(const std::vector<Column>& columns) {
    size_t candidate = 0;
    bool started = false;
    for (std::string line = lines_.next(); !line.empty(); line = lines_.next()) {
      const auto cells = slice_cells(line, columns);
      if (cells[0].find_first_not_of(' ') != std::string::npos) {
        if (started) ++candidate;
        started = true;
      }
      if (!started || candidate >= result_.candidates.size())
        throw error("harmonic row without a matching candidate");
      result_.candidates[candidate].harmonics.push_back(parse_harmonic(cells));
    }
  }

  AccelHarmonic parse_harmonic(const std::vector<std::string>& cells) const {
    constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    AccelHarmonic h;
    h.sigma = number(cells[2]);
    FourierProps& p = h.props;
    const auto set = [&](size_t k, double& value, double& error) {
      const auto ve = parse_value_error(cells[k], 2);
      value = ve.value;
      error = ve.error;
    };
    const auto r = parse_value_error(cells[5], 2), z = parse_value_error(cells[7], 2);
    p.r = r.value;
    p.rerr = r.error;
    p.z = z.value;
    p.zerr = z.error;
    set(3, p.pow, p.powerr);
    p.rawpow = number(cells[4]);
    size_t next = 9;
    if (result_.jerk) {
      const auto w = parse_value_error(cells[9], 2);
      p.w = w.value;
      p.werr = w.error;
      next = 11;
    }
    set(next, p.phs, p.phserr);
    set(next + 1, p.cen, p.cenerr);
    set(next + 2, p.pur, p.purerr);
    p.sig = kUnknown;
    p.locpow = kUnknown;
    return h;
  }

  static double inf_value(const std::string& inf, const std::string& label) {
    const size_t at = inf.find(label);
    if (at == std::string::npos) return 0.0;
    const size_t eq = inf.find('=', at);
    const size_t nl = inf.find('\n', at);
    if (eq == std::string::npos || (nl != std::string::npos && eq > nl)) return 0.0;
    return std::strtod(inf.c_str() + eq + 1, nullptr);
  }

  static double obs_length_from_inf(const std::string& inf) {
    return inf_value(inf, "Number of bins in the time series") *
           inf_value(inf, "Width of each time series bin");
  }

  const std::string& text_;
  const std::string& name_;
  LineReader lines_;
  AccelCandidates result_;
};

}  // namespace

AccelCandidates parse_accel_text(const std::string& text, const std::string& name) {
  return AccelTextParser(text, name).parse();
}

AccelCandidates read_accel_text(const std::string& path) {
  return parse_accel_text(read_file_contents(path), path);
}

}  // namespace rapt
