#include "io/bestprof.hpp"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {
namespace {

const char kHeaderEnd[] = "######################################################\n";

// "# <label padded to 17><separator>  <value>\n"
std::string line(const char* label, const std::string& value, char separator = '=') {
  return format_string("# %-17s%c  %s\n", label, separator, value.c_str());
}

std::string wide(double x) { return format_string("%-17.15g", x); }

std::string period_lines(const char* frame, const std::optional<BestprofPeriods>& p) {
  const std::string f(frame);
  const std::string labels[3] = {"P_" + f + " (ms)", "P'_" + f + " (s/s)",
                                 "P''_" + f + " (s/s^2)"};
  if (!p) return line(labels[0].c_str(), "N/A") + line(labels[1].c_str(), "N/A") +
                 line(labels[2].c_str(), "N/A");
  const auto with_error = [](double v, double e) { return wide(v) + format_string(" +/- %-.3g", e); };
  return line(labels[0].c_str(), with_error(p->p_ms, p->p_ms_err)) +
         line(labels[1].c_str(), with_error(p->pdot, p->pdot_err)) +
         line(labels[2].c_str(), with_error(p->pddot, p->pddot_err));
}

std::string orbit_lines(const std::optional<BestprofOrbit>& orbit) {
  if (!orbit)  // PRESTO labels the missing longitude "w (rad)"
    return line("P_orb (s)", "N/A") + line("asin(i)/c (s)", "N/A") +
           line("eccentricity", "N/A") + line("w (rad)", "N/A") + line("T_peri", "N/A");
  return line("P_orb (s)", wide(orbit->p_orb_s)) + line("asin(i)/c (s)", wide(orbit->asini_c_s)) +
         line("eccentricity", wide(orbit->eccentricity)) + line("w (deg)", wide(orbit->w_deg)) +
         line("T_peri", format_string("%-.12f", orbit->t_peri_mjd));
}

std::string trimmed(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") + 1 - begin);
}

class BestprofParser {
 public:
  BestprofParser(const std::string& text, const std::string& name) : text_(text), name_(name) {}

  Bestprof parse() {
    std::istringstream in(text_);
    std::string row;
    bool header_done = false;
    while (std::getline(in, row)) {
      ++line_number_;
      if (!header_done) {
        if (row.rfind("####", 0) == 0) header_done = true;
        else if (row.rfind("#", 0) == 0) read_header_line(row);
        continue;
      }
      if (trimmed(row).empty()) continue;
      int bin = 0;
      double value = 0.0;
      if (std::sscanf(row.c_str(), "%d %lf", &bin, &value) != 2)
        throw error("expected \"bin value\", found '" + row + "'");
      result_.profile.push_back(value);
    }
    if (!header_done || values_.empty()) throw file_error(name_, "not a prepfold .bestprof file");
    fill_fields();
    return result_;
  }

 private:
  DataError error(const std::string& problem) const {
    return file_error(name_, "line " + std::to_string(line_number_) + ": " + problem);
  }

  void read_header_line(const std::string& row) {
    const size_t sep = row.find_first_of("=<");
    if (sep == std::string::npos) return;
    values_[trimmed(row.substr(1, sep - 1))] = trimmed(row.substr(sep + 1));
  }

  bool has(const std::string& label) const {
    const auto it = values_.find(label);
    return it != values_.end() && it->second != "N/A";
  }
  std::string text(const std::string& label) const {
    const auto it = values_.find(label);
    return it == values_.end() ? "" : it->second;
  }
  double number(const std::string& label) const {
    if (!has(label)) return 0.0;
    const std::string value = text(label);
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (end == value.c_str()) throw file_error(name_, label + ": not a number: '" + value + "'");
    return x;
  }
  std::pair<double, double> with_error(const std::string& label) const {
    double value = 0.0, err = 0.0;
    if (has(label) && std::sscanf(text(label).c_str(), "%lf +/- %lf", &value, &err) < 1)
      throw file_error(name_, label + ": not a number: '" + text(label) + "'");
    return {value, err};
  }

  std::optional<BestprofPeriods> periods(const std::string& frame) const {
    if (!has("P_" + frame + " (ms)")) return std::nullopt;
    BestprofPeriods p;
    std::tie(p.p_ms, p.p_ms_err) = with_error("P_" + frame + " (ms)");
    std::tie(p.pdot, p.pdot_err) = with_error("P'_" + frame + " (s/s)");
    std::tie(p.pddot, p.pddot_err) = with_error("P''_" + frame + " (s/s^2)");
    return p;
  }

  void fill_fields() {
    Bestprof& b = result_;
    b.input_file = text("Input file");
    b.candidate = text("Candidate");
    b.telescope = text("Telescope");
    if (has("Epoch_topo")) b.epoch_topo_mjd = number("Epoch_topo");
    if (has("Epoch_bary (MJD)")) b.epoch_bary_mjd = number("Epoch_bary (MJD)");
    b.t_sample_s = number("T_sample");
    b.data_folded = number("Data Folded");
    b.data_avg = number("Data Avg");
    b.data_stddev = number("Data StdDev");
    b.profile_avg = number("Profile Avg");
    b.profile_stddev = number("Profile StdDev");
    b.reduced_chi_sqr = number("Reduced chi-sqr");
    std::sscanf(text("Prob(Noise)").c_str(), "%lf (~%lf", &b.prob_noise, &b.prob_noise_sigma);
    if (has("Best DM")) b.best_dm = number("Best DM");
    b.topo = periods("topo");
    b.bary = periods("bary");
    if (has("P_orb (s)")) {
      b.orbit = BestprofOrbit{number("P_orb (s)"), number("asin(i)/c (s)"), number("eccentricity"),
                              number("w (deg)"), number("T_peri")};
    }
    if (has("Profile Bins")) {
      // Compared as a double: a negative or huge count must not be converted to size_t.
      const double bins = number("Profile Bins");
      if (bins != double(b.profile.size()))
        throw file_error(name_, "header says " + format_string("%.0f", bins) +
                                    " profile bins, found " + std::to_string(b.profile.size()));
    }
  }

  const std::string& text_;
  const std::string& name_;
  int line_number_ = 0;
  std::map<std::string, std::string> values_;
  Bestprof result_;
};

}  // namespace

std::string format_bestprof(const Bestprof& b) {
  std::string out = line("Input file", b.input_file) + line("Candidate", b.candidate) +
                    line("Telescope", b.telescope);
  out += b.epoch_topo_mjd ? line("Epoch_topo", format_string("%.12f", *b.epoch_topo_mjd))
                          : line("Epoch_topo", "N/A");
  out += b.epoch_bary_mjd ? line("Epoch_bary (MJD)", format_string("%.12f", *b.epoch_bary_mjd))
                          : line("Epoch_bary", "N/A");
  out += line("T_sample", format_string("%.6g", b.t_sample_s));
  out += line("Data Folded", format_string("%.0f", b.data_folded));
  out += line("Data Avg", wide(b.data_avg)) + line("Data StdDev", wide(b.data_stddev));
  out += line("Profile Bins", std::to_string(b.profile.size()));
  out += line("Profile Avg", wide(b.profile_avg)) + line("Profile StdDev", wide(b.profile_stddev));
  out += line("Reduced chi-sqr", format_string("%.3f", b.reduced_chi_sqr));
  out += line("Prob(Noise)", format_string("%.3g   (~%.1f sigma)", b.prob_noise,
                                           b.prob_noise_sigma), '<');
  if (b.best_dm) out += line("Best DM", format_string("%.3f", *b.best_dm));
  out += period_lines("topo", b.topo) + period_lines("bary", b.bary) + orbit_lines(b.orbit);
  out += kHeaderEnd;
  for (size_t i = 0; i < b.profile.size(); ++i)
    out += format_string("%4d  %.7g\n", static_cast<int>(i), b.profile[i]);
  return out;
}

void write_bestprof(const std::string& path, const Bestprof& bestprof, bool overwrite) {
  const std::string text = format_bestprof(bestprof);
  AtomicOutputFile out(path, overwrite);
  out.write(text);
  out.commit();
}

Bestprof parse_bestprof(const std::string& text, const std::string& name) {
  return BestprofParser(text, name).parse();
}

Bestprof read_bestprof(const std::string& path) { return parse_bestprof(read_file_contents(path), path); }

}  // namespace rapt
