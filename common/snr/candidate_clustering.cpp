#include "snr/candidate_clustering.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

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
                                           const ClusterSettings& settings) {
  std::vector<double> dms = dms_searched;
  std::sort(dms.begin(), dms.end());
  dms.erase(std::unique(dms.begin(), dms.end()), dms.end());
  std::vector<size_t> order(events.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return events[a].sample < events[b].sample;
  });
  int max_width = 1;
  for (const SinglePulseEvent& e : events) max_width = std::max(max_width, e.downfact);
  std::vector<int> dm_of(events.size());
  for (size_t i = 0; i < events.size(); ++i) dm_of[i] = dm_index(dms, events[i].dm);

  DisjointSets sets(events.size());
  for (size_t a = 0; a < order.size(); ++a) {
    const SinglePulseEvent& x = events[order[a]];
    for (size_t b = a + 1; b < order.size(); ++b) {
      const SinglePulseEvent& y = events[order[b]];
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
  std::vector<PulseCandidate> by_root(events.size());
  std::vector<double> kept_of_best(events.size(), 0.0);
  for (size_t i = 0; i < events.size(); ++i) {
    const size_t root = sets.find(i);
    PulseCandidate& c = by_root[root];
    const double kept = singlepulse_kept_sigma(events[i].sigma);
    if (c.members == 0 || stronger(events[i], kept, c.best, kept_of_best[root])) {
      c.best = events[i];
      kept_of_best[root] = kept;
    }
    ++c.members;
  }
  std::vector<PulseCandidate> out;
  for (const PulseCandidate& c : by_root)
    if (c.members > 0) out.push_back(c);
  std::sort(out.begin(), out.end(), [](const PulseCandidate& a, const PulseCandidate& b) {
    if (a.best.sample != b.best.sample) return a.best.sample < b.best.sample;
    if (a.best.dm != b.best.dm) return a.best.dm < b.best.dm;
    if (a.best.downfact != b.best.downfact) return a.best.downfact < b.best.downfact;
    return a.members < b.members;
  });
  return out;
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
