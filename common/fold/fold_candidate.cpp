#include "fold/fold_candidate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/accel_files.hpp"
#include "io/presto_inf.hpp"

namespace rapt {

FoldSpin spin_from_period(double p_s, double pdot, double pddot) {
  FoldSpin spin;
  spin.f_hz = 1.0 / p_s;
  spin.fdot = pdot == 0.0 ? 0.0 : -pdot / (p_s * p_s);
  spin.fddot = pddot == 0.0 ? 0.0 : 2.0 * pdot * pdot / (p_s * p_s * p_s) - pddot / (p_s * p_s);
  return spin;
}

double period_pddot(const FoldSpin& s) {
  return s.fddot == 0.0 ? 0.0
                        : 2.0 * s.fdot * s.fdot / (s.f_hz * s.f_hz * s.f_hz) - s.fddot / (s.f_hz * s.f_hz);
}

namespace {

std::string printf_name(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

FoldCandidate period_candidate(double p_s, double pdot, double pddot) {
  if (!(p_s > 0.0)) throw UsageError("-p: the period must be positive");
  FoldCandidate c;
  c.name = printf_name("%.2fms_Cand", p_s * 1000.0);
  c.spin = spin_from_period(p_s, pdot, pddot);
  return c;
}

FoldCandidate frequency_candidate(double f_hz, double fdot, double fddot) {
  if (!(f_hz > 0.0)) throw UsageError("-f: the frequency must be positive");
  FoldCandidate c;
  c.name = printf_name("%.2fHz_Cand", f_hz);
  c.spin = {f_hz, fdot, fddot};
  return c;
}

std::vector<int> parse_candidate_numbers(const std::string& text) {
  std::vector<int> numbers;
  std::stringstream items(text);
  std::string item;
  const auto bad = [&] {
    return UsageError("--accelcand " + text + ": give candidate numbers like 2, 1,3,5 or 2-6");
  };
  while (std::getline(items, item, ',')) {
    const size_t dash = item.find('-', 1);
    char* end = nullptr;
    const long first = std::strtol(item.c_str(), &end, 10);
    long last = first;
    if (dash != std::string::npos) {
      if (end != item.c_str() + dash) throw bad();
      last = std::strtol(item.c_str() + dash + 1, &end, 10);
    }
    if (item.empty() || *end != '\0' || first < 1 || last < first || last - first > 100000)
      throw bad();
    for (long n = first; n <= last; ++n) numbers.push_back(int(n));
  }
  if (numbers.empty()) throw bad();
  return numbers;
}

std::vector<FoldCandidate> accel_candidates(const std::string& accelfile,
                                            const std::vector<int>& numbers) {
  const size_t accel = accelfile.find("_ACCEL");
  if (accel == std::string::npos)
    throw file_error(accelfile, "name has no _ACCEL, so the search's .inf cannot be found");
  // prepfold reads the binary records; the text list beside them is a common slip.
  if (accelfile.size() < 5 || accelfile.compare(accelfile.size() - 5, 5, ".cand") != 0) {
    if (path_exists(accelfile + ".cand"))
      throw file_error(accelfile, "is accelsearch's text list; give its binary records, " +
                                      accelfile + ".cand");
  }
  const std::string inf_path = accelfile.substr(0, accel) + ".inf";
  if (!path_exists(inf_path))
    throw file_error(accelfile, "the search's " + inf_path +
                                    " (its length turns r and z into f and f') is missing");
  const InfFile inf = read_inf(inf_path);
  const double t_obs = double(inf.n) * inf.dt_s;
  const std::vector<FourierProps> records = read_cand_file(accelfile);
  const bool jerk = accelfile.find("_JERK") != std::string::npos;
  std::vector<FoldCandidate> candidates;
  for (int number : numbers) {
    if (number > int(records.size()))
      throw file_error(accelfile, "has " + std::to_string(records.size()) +
                                      " candidates; there is no candidate " +
                                      std::to_string(number));
    const FourierProps& r = records[size_t(number - 1)];
    const double z0 = r.z - 0.5 * r.w;
    const double r0 = r.r - 0.5 * z0 - r.w / 6.0;
    FoldCandidate c;
    c.name = (jerk ? "JERK_Cand_" : "ACCEL_Cand_") + std::to_string(number);
    c.spin = {r0 / t_obs, z0 / (t_obs * t_obs), r.w / (t_obs * t_obs * t_obs)};
    c.barycentric = inf.barycentered;
    if (!(c.spin.f_hz > 0.0))
      throw file_error(accelfile, "candidate " + std::to_string(number) +
                                      " has no positive frequency");
    candidates.push_back(c);
  }
  return candidates;
}

namespace {

double par_number(const std::string& path, const std::string& key, std::string value) {
  for (char& ch : value)
    if (ch == 'D' || ch == 'd') ch = 'e';  // Fortran exponents, 1.0D-15
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0')
    throw file_error(path, key + " value '" + value + "' is not a number");
  return number;
}

}  // namespace

FoldCandidate par_candidate(const std::string& path, double epoch_mjd) {
  return parse_par_candidate(read_file_contents(path), path, epoch_mjd);
}

FoldCandidate parse_par_candidate(const std::string& text, const std::string& path,
                                  double epoch_mjd) {
  // Keys as PRESTO's par reader takes them: F0 or F, P0 or P, F1, P1 (s/s), F2, PEPOCH, DM,
  // PSR or PSRJ (a leading J or B dropped, at most 12 characters).
  std::map<std::string, double> values;
  std::string name;
  bool orbit = false;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string key, value;
    if (!(fields >> key >> value)) continue;
    if (key == "PSR" || key == "PSRJ") {
      name = value.substr(value[0] == 'J' || value[0] == 'B' ? 1 : 0, 12);
    } else if (key == "F0" || key == "F") {
      values["F0"] = par_number(path, key, value);
    } else if (key == "P0" || key == "P") {
      values["F0"] = 1.0 / par_number(path, key, value);
    } else if (key == "P1") {
      values["P1"] = par_number(path, key, value);
    } else if (key == "F1" || key == "F2" || key == "PEPOCH" || key == "DM") {
      values[key] = par_number(path, key, value);
    } else if (key == "BINARY" || key == "PB") {
      orbit = true;
    }
  }
  const auto get = [&](const char* key) { return values.count(key) ? values[key] : 0.0; };
  if (!values.count("F0")) throw file_error(path, "no F0 (spin frequency) or P0 in the par file");
  FoldCandidate c;
  const double f0 = get("F0");
  if (!(f0 > 0.0) || !std::isfinite(f0)) throw file_error(path, "F0 must be positive");
  c.spin = {f0, values.count("P1") ? -get("P1") * f0 * f0 : get("F1"), get("F2")};
  if (values.count("PEPOCH") && epoch_mjd > 0.0) {
    const double dt = (epoch_mjd - get("PEPOCH")) * 86400.0;
    c.spin = {c.spin.f_hz + dt * (c.spin.fdot + 0.5 * dt * c.spin.fddot),
              c.spin.fdot + dt * c.spin.fddot, c.spin.fddot};
  }
  if (values.count("DM")) c.par_dm = get("DM");
  c.par_orbit = orbit;
  c.name = "PSR_" + (name.empty() ? std::string("unknown") : name);
  return c;
}

}  // namespace rapt
