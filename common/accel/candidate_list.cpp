#include "accel/candidate_list.hpp"

#include <algorithm>
#include <cmath>

#include "accel/accel_sigma.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

// accelsearch's candidate list, reproduced exactly because its quirks decide which offers
// survive: a linked list meant to be in increasing r, scanned from the front to the first
// entry at or above the offer's r (or the last entry). An offer within kAccelClosestR of that
// entry or of the one before replaces whichever it beats, in place (so entries keep their
// positions even when their r changes); otherwise it is inserted before that entry, or
// appended when it lies more than kAccelClosestR beyond the last. An offer exactly
// kAccelClosestR above the last entry goes to the front, and the list is no longer sorted:
// PRESTO does the same, and later offers see the same list.
class DedupList {
 public:
  bool offer(const RawCandidate& c) {
    if (list_.empty()) {
      list_.push_back(c);
      return true;
    }
    size_t next = 0;
    bool has_prev = false;
    while (next + 1 < list_.size() && list_[next].r < c.r) {
      has_prev = true;
      ++next;
    }
    const size_t prev = next - (has_prev ? 1 : 0);
    const double next_diff = std::fabs(c.r - list_[next].r);
    const double prev_diff = has_prev ? std::fabs(c.r - list_[prev].r) : kAccelClosestR + 1.0;
    bool added = false;
    if (prev_diff < kAccelClosestR) {
      if (list_[prev].sigma < c.sigma) {
        list_[prev] = c;
        added = true;
      }
      if (next_diff < kAccelClosestR && list_[next].sigma < c.sigma) {
        if (added) {
          list_.erase(list_.begin() + std::ptrdiff_t(next));
        } else {
          list_[next] = c;
          added = true;
        }
      }
    } else if (next_diff < kAccelClosestR) {
      if (list_[next].sigma < c.sigma) {
        list_[next] = c;
        added = true;
      }
    } else {
      added = true;
      if (next + 1 == list_.size() && list_[next].r < c.r - kAccelClosestR) {
        list_.push_back(c);
      } else {
        list_.insert(list_.begin() + std::ptrdiff_t(has_prev ? next : 0), c);
      }
    }
    return added;
  }

  const std::vector<RawCandidate>& values() const { return list_; }

 private:
  std::vector<RawCandidate> list_;  // in PRESTO's list order
};

bool near(double a, double b) { return std::fabs(a - b) < 1.5; }

bool harmonically_related(double r, double other) {
  constexpr int kMaxHarm = 16;
  for (int i = 1; i <= kMaxHarm; ++i) {
    if (near(r / i, other) || near(r * i, other)) return true;
  }
  // Ratios accelsearch also checks, as numerator / denominator.
  static constexpr int kRatios[][2] = {
      {3, 2}, {5, 2}, {2, 3}, {4, 3}, {5, 3}, {3, 4}, {5, 4}, {2, 5}, {3, 5}, {4, 5}, {5, 6},
      {2, 7}, {3, 7}, {4, 7}, {3, 8}, {5, 8}, {2, 9}, {3, 10}, {2, 11}, {3, 11}, {2, 13},
      {3, 13}, {2, 15}};
  for (const auto& ratio : kRatios) {
    if (near(r * ratio[0] / ratio[1], other)) return true;
  }
  return false;
}

}  // namespace

std::vector<RawCandidate> collect_candidates(std::vector<PlaneHit> hits, const AccelPlan& plan,
                                             std::string* txtcand) {
  std::stable_sort(hits.begin(), hits.end(), precedes_in_search_order);
  // Every hit's sigma first, on all cores in blocks of hits: the incomplete gamma functions
  // cost more than the list itself (about 1 ms for 3400 hits on one core).
  std::vector<float> sigmas(hits.size());
  constexpr size_t kBlock = 256;
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  parallel_for(threads, (hits.size() + kBlock - 1) / kBlock, [&](size_t block, int) {
    const size_t end = std::min(hits.size(), (block + 1) * kBlock);
    for (size_t i = block * kBlock; i < end; ++i) {
      const PlaneHit& hit = hits[i];
      sigmas[i] = static_cast<float>(
          candidate_sigma(hit.power, 1 << hit.stage, plan.numindep[size_t(hit.stage)]));
    }
  });
  DedupList list;
  for (size_t i = 0; i < hits.size(); ++i) {
    const PlaneHit& hit = hits[i];
    const int numharm = 1 << hit.stage;
    RawCandidate c;
    c.power = hit.power;
    c.sigma = sigmas[i];
    c.numharm = numharm;
    c.r = (static_cast<double>(hit.column) * kAccelDr) / numharm;
    c.z = static_cast<double>(plan.row_z(hit.row)) / numharm;
    if (list.offer(c) && txtcand) {
      AccelTextLogEntry entry;
      entry.power = c.power;
      entry.sigma = c.sigma;
      entry.numharm = c.numharm;
      entry.r = c.r;
      entry.freq_hz = c.r / plan.obs_length_s;
      entry.z = c.z;
      entry.w = c.w;
      *txtcand += format_txtcand_line(entry);
    }
  }
  std::vector<RawCandidate> sorted = list.values();
  std::stable_sort(sorted.begin(), sorted.end(), [](const RawCandidate& a, const RawCandidate& b) {
    if (a.sigma != b.sigma) return a.sigma > b.sigma;
    return a.power > b.power;
  });
  return sorted;
}

void eliminate_harmonics(std::vector<RawCandidate>& candidates) {
  for (size_t current = 0; current + 1 < candidates.size(); ++current) {
    const double r = candidates[current].r;
    auto first_other = candidates.begin() + std::ptrdiff_t(current) + 1;
    candidates.erase(std::remove_if(first_other, candidates.end(),
                                    [r](const RawCandidate& other) {
                                      return harmonically_related(r, other.r);
                                    }),
                     candidates.end());
  }
}

std::vector<std::string> candidate_notes(const std::vector<FourierProps>& props) {
  std::vector<std::string> notes(props.size());
  for (size_t i = 0; i < props.size(); ++i) {
    for (size_t j = 0; j < props.size(); ++j) {
      if (i == j) continue;
      const FourierProps& a = props[i];
      const FourierProps& b = props[j];
      if (std::fabs(a.r - b.r) < 15.0 && std::fabs(a.z - b.z) > 1.0 && a.pow > b.pow) {
        if (notes[j].empty()) notes[j] = "SL? of Cand " + std::to_string(i + 1);
        continue;
      }
      for (int k = 1; k < 61; ++k) {
        if (std::fabs(a.r - b.r / k) < b.rerr * 3 && std::fabs(a.z - b.z / k) < b.zerr * 2) {
          if (notes[j].empty()) {
            notes[j] = "H " + std::to_string(k) + " of Cand " + std::to_string(i + 1);
            break;
          }
        }
      }
    }
  }
  return notes;
}

}  // namespace rapt
