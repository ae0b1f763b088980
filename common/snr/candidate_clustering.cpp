#include "snr/candidate_clustering.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {
namespace {

class DisjointSets {
 public:
  explicit DisjointSets(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t find(size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(size_t a, size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<size_t> parent_;
};

// True if `a` is the stronger member: higher S/N as the file keeps it, then the lower DM, the
// earlier sample, the narrower width (an order independent of the events' order).
bool stronger(const SinglePulseEvent& a, double kept_a, const SinglePulseEvent& b,
              double kept_b) {
  if (kept_a != kept_b) return kept_a > kept_b;
  if (a.dm != b.dm) return a.dm < b.dm;
  if (a.sample != b.sample) return a.sample < b.sample;
  return a.downfact < b.downfact;
}

int dm_index(const std::vector<double>& dms, double dm) {
  const auto it = std::lower_bound(dms.begin(), dms.end(), dm - 1e-9);
  return int(it - dms.begin());
}

}  // namespace

double singlepulse_kept_sigma(double sigma) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", sigma);
  return std::strtod(text, nullptr);
}

std::vector<PulseCandidate> cluster_events(const std::vector<SinglePulseEvent>& events,
                                           const std::vector<double>& dms_searched,
                                           const ClusterSettings& settings,
                                           const std::vector<int>& scales) {
  std::vector<double> dms = dms_searched;
  std::sort(dms.begin(), dms.end());
  dms.erase(std::unique(dms.begin(), dms.end()), dms.end());
  // The events on the finest samples: the ones compared (and ordered by) below.
  std::vector<SinglePulseEvent> fine = events;
  for (size_t i = 0; i < scales.size() && i < fine.size(); ++i) {
    fine[i].sample *= scales[i];
    fine[i].downfact *= scales[i];
  }
  std::vector<size_t> order(fine.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return fine[a].sample < fine[b].sample;
  });
  int max_width = 1;
  for (const SinglePulseEvent& e : fine) max_width = std::max(max_width, e.downfact);
  std::vector<int> dm_of(fine.size());
  for (size_t i = 0; i < fine.size(); ++i) dm_of[i] = dm_index(dms, fine[i].dm);

  DisjointSets sets(fine.size());
  for (size_t a = 0; a < order.size(); ++a) {
    const SinglePulseEvent& x = fine[order[a]];
    for (size_t b = a + 1; b < order.size(); ++b) {
      const SinglePulseEvent& y = fine[order[b]];
      const int64_t gap = y.sample - x.sample;
      if (gap > max_width + settings.gap_samples) break;
      if (std::abs(dm_of[order[a]] - dm_of[order[b]]) > settings.dm_trials) continue;
      if (double(gap) > (x.downfact + y.downfact) / 2.0 + double(settings.gap_samples)) continue;
      if (settings.width_ratio > 0.0) {
        const double ratio = double(std::max(x.downfact, y.downfact)) /
                             double(std::min(x.downfact, y.downfact));
        if (ratio > settings.width_ratio) continue;
      }
      sets.join(order[a], order[b]);
    }
  }
  // Each cluster's strongest member, found and ordered on the finest samples, reported as its
  // own series has it.
  std::vector<PulseCandidate> by_root(fine.size());
  std::vector<size_t> best_of(fine.size(), 0);
  std::vector<double> kept_of_best(fine.size(), 0.0);
  for (size_t i = 0; i < fine.size(); ++i) {
    const size_t root = sets.find(i);
    PulseCandidate& c = by_root[root];
    const double kept = singlepulse_kept_sigma(fine[i].sigma);
    if (c.members == 0 || stronger(fine[i], kept, fine[best_of[root]], kept_of_best[root])) {
      best_of[root] = i;
      kept_of_best[root] = kept;
    }
    ++c.members;
  }
  std::vector<size_t> roots;
  for (size_t i = 0; i < fine.size(); ++i)
    if (by_root[i].members > 0) roots.push_back(i);
  std::sort(roots.begin(), roots.end(), [&](size_t ra, size_t rb) {
    const SinglePulseEvent& a = fine[best_of[ra]];
    const SinglePulseEvent& b = fine[best_of[rb]];
    if (a.sample != b.sample) return a.sample < b.sample;
    if (a.dm != b.dm) return a.dm < b.dm;
    if (a.downfact != b.downfact) return a.downfact < b.downfact;
    return by_root[ra].members < by_root[rb].members;
  });
  std::vector<PulseCandidate> out;
  for (const size_t root : roots) {
    PulseCandidate c = by_root[root];
    c.best = events[best_of[root]];
    out.push_back(c);
  }
  return out;
}

std::vector<int> finest_sample_scales(const std::vector<double>& dts,
                                      const std::vector<std::string>& names) {
  std::vector<int> scales(dts.size(), 1);
  if (dts.empty()) return scales;
  const size_t finest =
      size_t(std::min_element(dts.begin(), dts.end()) - dts.begin());
  for (size_t i = 0; i < dts.size(); ++i) {
    const double ratio = dts[i] / dts[finest];
    const double whole = std::round(ratio);
    if (!(std::fabs(ratio - whole) <= 1e-6 * whole) || whole > 1e9)
      throw file_error(names[i],
                       format_string("sampling time %.9g s is not a whole multiple of %s's %.9g s: "
                                     "their samples have no common time base",
                                     dts[i], names[finest].c_str(), dts[finest]));
    scales[i] = int(whole);
  }
  return scales;
}

std::string format_candidates(const std::vector<PulseCandidate>& candidates) {
  std::string text = "#      DM      Time(s)     Sample  Width      S/N  Members\n";
  char line[160];
  for (const PulseCandidate& c : candidates) {
    std::snprintf(line, sizeof line, "%9.3f %12.6f %10lld %6d %8.2f %8lld\n", c.best.dm,
                  c.best.time_s, static_cast<long long>(c.best.sample), c.best.downfact,
                  c.best.sigma, static_cast<long long>(c.members));
    text += line;
  }
  return text;
}

}  // namespace rapt
