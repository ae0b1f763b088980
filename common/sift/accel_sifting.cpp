#include "sift/accel_sifting.hpp"

#include <glob.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "cli/file_contents.hpp"

namespace rapt {
namespace {

void sort_by_sigma(std::vector<SiftCandidate>& candidates) {
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const SiftCandidate& a, const SiftCandidate& b) { return a.sigma > b.sigma; });
}

// First index of the largest value, as numpy's argmax.
size_t argmax(const std::vector<double>& values) {
  size_t best = 0;
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i] > values[best]) best = i;
  return best;
}

bool dominated_by_one_harmonic(const SiftCandidate& c) {
  if (c.numharm < 4) return false;
  const size_t maxharm = argmax(c.harm_pows);
  const double maxpow = c.harm_pows[maxharm];
  std::vector<double> sorted = c.harm_pows;
  std::sort(sorted.begin(), sorted.end());
  const double second = sorted[sorted.size() - 2];
  if (c.numharm >= 8 && maxharm > 4 && maxpow > 2.0 * second) return true;
  return maxharm > 2 && maxpow > 3.0 * second;
}

bool is_weak(const SiftCandidate& c, const AccelSiftSettings& s) {
  const double p = c.p();
  if (p > s.max_period_s || p < s.min_period_s) return true;
  if (c.numharm == 1 ? c.sigma < s.sigma_threshold && c.cpow < s.c_pow_threshold
                     : c.sigma < s.sigma_threshold)
    return true;
  if (c.harm_pows[argmax(c.harm_pows)] < s.harm_pow_cutoff) return true;
  if (dominated_by_one_harmonic(c)) return true;
  return c.numharm < s.min_numharm;
}

std::string file_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string dm_key(double dm) { return format_string("%.2f", dm); }

void sort_hits_by_dm(std::vector<SiftHit>& hits) {
  std::stable_sort(hits.begin(), hits.end(),
                   [](const SiftHit& a, const SiftHit& b) { return a.dm < b.dm; });
}

bool has_dm_problem(SiftCandidate& c, const std::map<std::string, int>& dm_index, int min_num_dms,
                    double low_dm_cutoff) {
  if (int(c.hits.size()) < min_num_dms) return true;
  std::vector<double> sigmas;
  for (const SiftHit& h : c.hits) sigmas.push_back(h.sigma);
  if (c.hits[argmax(sigmas)].dm <= low_dm_cutoff) return true;
  if (c.hits.size() > 1) {
    sort_hits_by_dm(c.hits);
    int min_step = 0;
    for (size_t i = 1; i < c.hits.size(); ++i) {
      const int step = dm_index.at(dm_key(c.hits[i].dm)) - dm_index.at(dm_key(c.hits[i - 1].dm));
      if (i == 1 || step < min_step) min_step = step;
    }
    if (min_step > 1) return true;
  }
  return false;
}

// The fractional harmonic ratios sifting also tests: 3/2, 5/2, 2/3, 4/3, 5/3, 3/4, 5/4, 2/5,
// 3/5, 4/5.
constexpr double kRatioNumerators[10] = {3, 5, 2, 4, 5, 3, 5, 2, 3, 4};
constexpr double kRatioDenominators[10] = {2, 2, 3, 3, 3, 4, 4, 5, 5, 5};

bool is_harmonic_of(const SiftCandidate& fund, const SiftCandidate& harm, double f_err) {
  const double ff = fund.f(), fh = harm.f();
  for (int k = 1; k <= 16; ++k) {
    const double factor = k;
    if (std::fabs(ff - fh * factor) < f_err * factor) return true;
    if (std::fabs(ff - fh / factor) < f_err / factor) return true;
  }
  for (int i = 0; i < 10; ++i) {
    const double factor = kRatioNumerators[i] / kRatioDenominators[i];
    if (std::fabs(ff - fh * factor) < f_err * factor) return true;
  }
  return false;
}

}  // namespace

std::vector<SiftCandidate> reject_weak_candidates(std::vector<SiftCandidate> candidates,
                                                  const AccelSiftSettings& settings) {
  candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                  [&](const SiftCandidate& c) { return is_weak(c, settings); }),
                   candidates.end());
  return candidates;
}

std::vector<SiftCandidate> remove_duplicate_candidates(std::vector<SiftCandidate> c, double r_err) {
  std::stable_sort(c.begin(), c.end(),
                   [](const SiftCandidate& a, const SiftCandidate& b) { return a.r < b.r; });
  size_t ii = 0;
  while (ii < c.size()) {
    size_t jj = ii + 1;
    if (jj < c.size() && std::fabs(c[ii].r - c[jj].r) < r_err) {
      ++jj;
      while (jj < c.size() && std::fabs(c[ii].r - c[jj].r) < r_err) ++jj;
      size_t best = ii;
      for (size_t k = ii + 1; k < jj; ++k)
        if (c[k].sigma > c[best].sigma) best = k;
      // The others' hits join the best's, last first; the best moves to ii and is compared
      // again with what follows the run.
      for (size_t k = jj; k-- > ii;)
        if (k != best) c[best].hits.insert(c[best].hits.end(), c[k].hits.begin(), c[k].hits.end());
      SiftCandidate kept = std::move(c[best]);
      c.erase(c.begin() + long(ii) + 1, c.begin() + long(jj));
      c[ii] = std::move(kept);
    } else {
      ++ii;
    }
  }
  sort_by_sigma(c);
  return c;
}

std::vector<SiftCandidate> remove_dm_problems(std::vector<SiftCandidate> candidates,
                                              const std::vector<double>& dms_searched,
                                              int min_num_dms, double low_dm_cutoff) {
  std::vector<double> dms = dms_searched;
  for (const SiftCandidate& c : candidates)
    for (const SiftHit& h : c.hits) dms.push_back(h.dm);
  std::map<double, std::string> unique;  // sorted, as numpy's unique
  for (double dm : dms) unique.emplace(dm, dm_key(dm));
  std::map<std::string, int> dm_index;
  int index = 0;
  for (const auto& entry : unique) dm_index[entry.second] = index++;
  sort_by_sigma(candidates);
  candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                  [&](SiftCandidate& c) {
                                    return has_dm_problem(c, dm_index, min_num_dms, low_dm_cutoff);
                                  }),
                   candidates.end());
  return candidates;
}

std::vector<SiftCandidate> remove_harmonics(std::vector<SiftCandidate> c, double r_err) {
  sort_by_sigma(c);
  if (c.size() < 2) return c;
  const double f_err = r_err / c[0].T;
  for (size_t ii = 0; ii + 1 < c.size(); ++ii)
    for (size_t jj = c.size() - 1; jj > ii; --jj)
      if (is_harmonic_of(c[ii], c[jj], f_err)) c.erase(c.begin() + long(jj));
  return c;
}

std::vector<SiftCandidate> sift_accel_candidates(const std::vector<AccelSiftFile>& files,
                                                 const std::vector<double>& dms_searched,
                                                 const AccelSiftSettings& settings,
                                                 AccelSiftCounts* counts) {
  AccelSiftCounts n;
  std::vector<const AccelSiftFile*> ordered;
  for (const AccelSiftFile& file : files) ordered.push_back(&file);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const AccelSiftFile* a, const AccelSiftFile* b) {
                     if (a->dm != b->dm) return a->dm < b->dm;
                     const std::string na = file_name(a->path), nb = file_name(b->path);
                     return na != nb ? na < nb : a->path < b->path;
                   });
  std::vector<SiftCandidate> candidates;
  for (const AccelSiftFile* f : ordered) {
    const AccelSiftFile& file = *f;
    n.read += file.candidates.size();
    std::vector<SiftCandidate> kept = reject_weak_candidates(file.candidates, settings);
    candidates.insert(candidates.end(), kept.begin(), kept.end());
  }
  n.passed_thresholds = candidates.size();
  candidates = remove_duplicate_candidates(std::move(candidates), settings.r_err);
  n.distinct = candidates.size();
  candidates = remove_dm_problems(std::move(candidates), dms_searched, settings.min_num_dms,
                                  settings.low_dm_cutoff);
  n.good_dms = candidates.size();
  candidates = remove_harmonics(std::move(candidates), settings.r_err);
  n.fundamentals = candidates.size();
  if (counts) *counts = n;
  return candidates;
}

std::vector<double> dm_trials_beside(const std::vector<AccelSiftFile>& files) {
  std::set<std::string> patterns;
  std::vector<double> dms;
  for (const AccelSiftFile& f : files) {
    dms.push_back(f.dm);
    std::string dm_text;
    if (!accel_dm_from_name(f.path, dm_text)) continue;
    const size_t slash = f.path.find_last_of('/');
    const size_t dm_at = f.path.find("DM" + dm_text, slash == std::string::npos ? 0 : slash + 1);
    patterns.insert(f.path.substr(0, dm_at) + "DM*.inf");
  }
  for (const std::string& pattern : patterns) {
    glob_t matches{};
    if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0)
      for (size_t i = 0; i < matches.gl_pathc; ++i) {
        std::string dm_text;
        if (accel_dm_from_name(matches.gl_pathv[i], dm_text))
          dms.push_back(std::strtod(dm_text.c_str(), nullptr));
      }
    globfree(&matches);
  }
  return dms;
}

std::string python_center(const std::string& text, size_t width) {
  if (text.size() >= width) return text;
  const size_t margin = width - text.size();
  const size_t left = margin / 2 + (margin & width & 1);
  return std::string(left, ' ') + text + std::string(margin - left, ' ');
}

std::string format_sift_candlist(const std::vector<SiftCandidate>& candidates) {
  std::string out = "#" + python_center("file:candnum", 66) + python_center("DM", 9) +
                    python_center("SNR", 8) + python_center("sigma", 8) +
                    python_center("numharm", 9) + python_center("ipow", 9) +
                    python_center("cpow", 9) + python_center("P(ms)", 14) + python_center("r", 12) +
                    python_center("z", 8) + python_center("numhits", 9) + "\n";
  for (const SiftCandidate& c : candidates) {
    const std::string name = c.filename + ":" + std::to_string(c.candnum);
    out += format_string("%-65s   %7.2f  %6.2f  %6.2f  ", name.c_str(), c.dm, c.snr, c.sigma);
    out += format_string("  %2d  ", c.numharm);  // sifting's "%2d".center(7)
    out += format_string("   %7.1f  %7.1f  %12.6f  %10.2f  %8.2f  (%zu)\n", c.ipow, c.cpow,
                         c.p() * 1000.0, c.r, c.z, c.hits.size());
    if (c.hits.size() > 1) {
      std::vector<SiftHit> hits = c.hits;
      sort_hits_by_dm(hits);
      for (const SiftHit& h : hits) {
        const double stars = std::trunc(h.sigma / 3.0);
        out += format_string("  DM=%6.2f SNR=%5.2f Sigma=%5.2f   ", h.dm, h.snr, h.sigma) +
               std::string(stars > 0.0 ? size_t(stars) : 0, '*') + "\n";
      }
    }
  }
  return out;
}

}  // namespace rapt
