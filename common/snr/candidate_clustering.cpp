#include "snr/candidate_clustering.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

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

// An event on the finest samples: its sample and width times its series' scale, and the scale.
struct FineEvent {
  double dm, kept_sigma;  // S/N as the file keeps it
  int64_t sample, width;
  int scale;
};

// True if `a` is the stronger member: higher S/N as the file keeps it, then the lower DM, the
// earlier sample, the narrower width, the finer series (an order independent of the events'
// order).
bool stronger(const FineEvent& a, const FineEvent& b) {
  if (a.kept_sigma != b.kept_sigma) return a.kept_sigma > b.kept_sigma;
  if (a.dm != b.dm) return a.dm < b.dm;
  if (a.sample != b.sample) return a.sample < b.sample;
  if (a.width != b.width) return a.width < b.width;
  return a.scale < b.scale;
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
                                           const std::vector<int>& scales,
                                           std::vector<size_t>* cluster_of) {
  if (!scales.empty() && scales.size() != events.size())
    throw std::invalid_argument("cluster_events: one scale per event");
  std::vector<double> dms = dms_searched;
  std::sort(dms.begin(), dms.end());
  dms.erase(std::unique(dms.begin(), dms.end()), dms.end());
  // The events on the finest samples: the ones compared (and ordered by) below.
  std::vector<FineEvent> fine(events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    const int scale = scales.empty() ? 1 : scales[i];
    fine[i] = {events[i].dm, singlepulse_kept_sigma(events[i].sigma), events[i].sample * scale,
               int64_t(events[i].downfact) * scale, scale};
  }
  std::vector<size_t> order(fine.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return fine[a].sample < fine[b].sample;
  });
  int64_t max_width = 1;
  for (const FineEvent& e : fine) max_width = std::max(max_width, e.width);
  std::vector<int> dm_of(fine.size());
  for (size_t i = 0; i < fine.size(); ++i) dm_of[i] = dm_index(dms, fine[i].dm);

  DisjointSets sets(fine.size());
  for (size_t a = 0; a < order.size(); ++a) {
    const FineEvent& x = fine[order[a]];
    for (size_t b = a + 1; b < order.size(); ++b) {
      const FineEvent& y = fine[order[b]];
      const int64_t gap = y.sample - x.sample;
      if (gap > max_width + settings.gap_samples) break;
      if (std::abs(dm_of[order[a]] - dm_of[order[b]]) > settings.dm_trials) continue;
      if (double(gap) > double(x.width + y.width) / 2.0 + double(settings.gap_samples)) continue;
      if (settings.width_ratio > 0.0) {
        const double ratio =
            double(std::max(x.width, y.width)) / double(std::min(x.width, y.width));
        if (ratio > settings.width_ratio) continue;
      }
      sets.join(order[a], order[b]);
    }
  }
  // Each cluster's strongest member, found and ordered on the finest samples, reported as its
  // own series has it.
  std::vector<int64_t> members(fine.size(), 0);
  std::vector<size_t> best_of(fine.size(), 0);
  for (size_t i = 0; i < fine.size(); ++i) {
    const size_t root = sets.find(i);
    if (members[root] == 0 || stronger(fine[i], fine[best_of[root]])) best_of[root] = i;
    ++members[root];
  }
  std::vector<size_t> roots;
  for (size_t i = 0; i < fine.size(); ++i)
    if (members[i] > 0) roots.push_back(i);
  std::sort(roots.begin(), roots.end(), [&](size_t ra, size_t rb) {
    const FineEvent& a = fine[best_of[ra]];
    const FineEvent& b = fine[best_of[rb]];
    if (a.sample != b.sample) return a.sample < b.sample;
    if (a.dm != b.dm) return a.dm < b.dm;
    if (a.width != b.width) return a.width < b.width;
    if (a.scale != b.scale) return a.scale < b.scale;
    return members[ra] < members[rb];
  });
  std::vector<PulseCandidate> out;
  std::vector<size_t> candidate_of_root(fine.size(), 0);
  for (const size_t root : roots) {
    candidate_of_root[root] = out.size();
    out.push_back({events[best_of[root]], members[root]});
  }
  if (cluster_of) {
    cluster_of->resize(fine.size());
    for (size_t i = 0; i < fine.size(); ++i) (*cluster_of)[i] = candidate_of_root[sets.find(i)];
  }
  return out;
}

std::vector<int> finest_sample_scales(const std::vector<double>& dts,
                                      const std::vector<std::string>& names,
                                      const std::vector<double>& tolerances) {
  std::vector<int> scales(dts.size(), 1);
  if (dts.empty()) return scales;
  const size_t finest =
      size_t(std::min_element(dts.begin(), dts.end()) - dts.begin());
  auto tolerance = [&](size_t i) { return i < tolerances.size() ? tolerances[i] : 1e-6; };
  for (size_t i = 0; i < dts.size(); ++i) {
    const double ratio = dts[i] / dts[finest];
    const double whole = std::round(ratio);
    if (whole > 1e6)
      throw file_error(names[i], format_string("sampling time %.9g s is over a million times %s's "
                                               "%.9g s",
                                               dts[i], names[finest].c_str(), dts[finest]));
    if (!(std::fabs(ratio - whole) <= (tolerance(i) + tolerance(finest)) * whole))
      throw file_error(names[i],
                       format_string("sampling time %.9g s is not a whole multiple of %s's %.9g s: "
                                     "their samples have no common time base",
                                     dts[i], names[finest].c_str(), dts[finest]));
    scales[i] = int(whole);
  }
  return scales;
}

void check_common_start(const std::vector<double>& start_mjds,
                        const std::vector<std::string>& names, double finest_dt) {
  size_t first = start_mjds.size(), last = start_mjds.size();
  for (size_t i = 0; i < start_mjds.size(); ++i) {
    if (!(start_mjds[i] > 0.0)) continue;
    if (first == start_mjds.size() || start_mjds[i] < start_mjds[first]) first = i;
    if (last == start_mjds.size() || start_mjds[i] > start_mjds[last]) last = i;
  }
  if (first == start_mjds.size()) return;
  const double apart_s = (start_mjds[last] - start_mjds[first]) * 86400.0;
  if (apart_s > 0.5 * finest_dt)
    throw file_error(names[last],
                     format_string("starts %.6g s after %s (MJD %.9f against %.9f): the series "
                                   "clustered together must start together, as one "
                                   "observation's DM trials do",
                                   apart_s, names[first].c_str(), start_mjds[last],
                                   start_mjds[first]));
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
