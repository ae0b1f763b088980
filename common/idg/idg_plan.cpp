#include "idg/idg_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "geometry/interferometer_geometry.hpp"

namespace rapt {
namespace {

void check_view(const IdgSettings& settings, const IdgVisibilities& vis) {
  if (vis.nrows > 0 && (!vis.antenna1 || !vis.antenna2 || !vis.uvw_m || !vis.weight))
    throw UsageError("IDG visibilities: antennas, uvw and weights are needed");
  if (vis.nchan > 0 && !vis.freq_hz) throw UsageError("IDG visibilities: channel frequencies are needed");
  for (int p = 0; p < settings.npol; ++p)
    if (vis.product_index[size_t(p)] < 0 || size_t(vis.product_index[size_t(p)]) >= vis.products)
      throw UsageError("IDG visibilities: polarisation " + std::to_string(p) + " maps to product " +
                       std::to_string(vis.product_index[size_t(p)]) + " of " +
                       std::to_string(vis.products));
  for (size_t c = 0; c < vis.nchan; ++c)
    if (!(vis.freq_hz[c] > 0)) throw UsageError("IDG visibilities: channel frequencies must be > 0");
  if (vis.aterms) {
    check_aterms(*vis.aterms, settings.npol, settings.subgrid_size);
    for (size_t r = 0; r < vis.nrows; ++r) {
      if (vis.antenna1[r] < 0 || vis.antenna2[r] < 0 || vis.antenna1[r] >= vis.aterms->nr_stations ||
          vis.antenna2[r] >= vis.aterms->nr_stations)
        throw UsageError("IDG A-terms: row " + std::to_string(r) + " has an antenna beyond the " +
                         std::to_string(vis.aterms->nr_stations) + " stations of the A-terms");
      const int slot = vis.aterm_slot ? vis.aterm_slot[r] : 0;
      if (slot < 0 || slot >= vis.aterms->nr_slots)
        throw UsageError("IDG A-terms: row " + std::to_string(r) + " is in slot " +
                         std::to_string(slot) + " of " + std::to_string(vis.aterms->nr_slots));
    }
  }
}

// Rows grouped by baseline (antenna1, antenna2) in ascending order, each group in input order:
// a counting sort over the baselines when the antenna numbers span a small range (they do:
// stations), else a stable sort.
std::vector<int64_t> rows_by_baseline(const IdgVisibilities& vis) {
  std::vector<int64_t> rows(vis.nrows);
  if (vis.nrows == 0) return rows;
  const auto [lo1, hi1] = std::minmax_element(vis.antenna1, vis.antenna1 + vis.nrows);
  const auto [lo2, hi2] = std::minmax_element(vis.antenna2, vis.antenna2 + vis.nrows);
  const int64_t first1 = *lo1, first2 = *lo2;  // lambdas may not capture structured bindings
  const int64_t span1 = int64_t(*hi1) - first1 + 1, span2 = int64_t(*hi2) - first2 + 1;
  if (span1 * span2 > int64_t(1) << 22 || span1 * span2 > int64_t(vis.nrows) * 4) {
    std::iota(rows.begin(), rows.end(), int64_t(0));
    std::stable_sort(rows.begin(), rows.end(), [&](int64_t a, int64_t b) {
      if (vis.antenna1[a] != vis.antenna1[b]) return vis.antenna1[a] < vis.antenna1[b];
      return vis.antenna2[a] < vis.antenna2[b];
    });
    return rows;
  }
  auto key = [&](size_t r) {
    return size_t((int64_t(vis.antenna1[r]) - first1) * span2 +
                  (int64_t(vis.antenna2[r]) - first2));
  };
  std::vector<int64_t> start(size_t(span1 * span2) + 1, 0);
  for (size_t r = 0; r < vis.nrows; ++r) ++start[key(r) + 1];
  for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  for (size_t r = 0; r < vis.nrows; ++r) rows[size_t(start[key(r)]++)] = int64_t(r);
  return rows;
}

// The part of one time step that a channel group contributes, in grid pixels from the centre.
struct Step {
  int64_t row = 0;
  int64_t unflagged = 0;  // (row, channel) pairs with any weight > 0
  double px_min = 0, px_max = 0, py_min = 0, py_max = 0;
  int64_t layer = 0;
  int slot = 0;  // A-term time slot
};

class BaselinePlanner {
 public:
  BaselinePlanner(const IdgSettings& s, IdgPlan& plan) : s_(s), plan_(plan) {}

  // Plans the steps of one baseline and channel group, in time order.
  void plan(const std::vector<Step>& steps, int first_channel, int nr_channels) {
    first_channel_ = first_channel;
    nr_channels_ = nr_channels;
    open_ = false;
    for (const Step& step : steps) {
      if (open_ && fits(step)) {
        extend(step);
      } else {
        close();
        start(step);
      }
    }
    close();
  }

 private:
  bool fits(const Step& step) const {
    if (step.layer != layer_ || step.slot != slot_ || count_ >= s_.max_timesteps_per_subgrid)
      return false;
    const double du = std::max(px_max_, step.px_max) - std::min(px_min_, step.px_min);
    const double dv = std::max(py_max_, step.py_max) - std::min(py_min_, step.py_min);
    return std::max(du, dv) + s_.kernel_size < s_.subgrid_size;
  }
  void start(const Step& step) {
    open_ = true;
    first_ = int64_t(plan_.timestep_rows.size());
    count_ = 0;
    unflagged_ = 0;
    layer_ = step.layer;
    slot_ = step.slot;
    px_min_ = step.px_min, px_max_ = step.px_max, py_min_ = step.py_min, py_max_ = step.py_max;
    extend(step);
  }
  void extend(const Step& step) {
    plan_.timestep_rows.push_back(step.row);
    ++count_;
    unflagged_ += step.unflagged;
    px_min_ = std::min(px_min_, step.px_min), px_max_ = std::max(px_max_, step.px_max);
    py_min_ = std::min(py_min_, step.py_min), py_max_ = std::max(py_max_, step.py_max);
  }
  // Centres the subgrid on its footprint; off the grid ([1, N - N-bar]) it is dropped and its
  // visibilities counted as not placed.
  void close() {
    if (!open_) return;
    open_ = false;
    const int n = s_.grid_size, nb = s_.subgrid_size;
    const double cx = std::round(0.5 * (px_min_ + px_max_));
    const double cy = std::round(0.5 * (py_min_ + py_max_));
    const double x = cx + n / 2 - nb / 2, y = cy + n / 2 - nb / 2;
    if (!(x >= 1 && x <= n - nb && y >= 1 && y <= n - nb)) {
      plan_.timestep_rows.resize(size_t(first_));
      plan_.unplaced_off_grid += unflagged_;
      return;
    }
    IdgSubgrid sub;
    sub.first_timestep = first_;
    sub.nr_timesteps = count_;
    sub.first_channel = first_channel_;
    sub.nr_channels = nr_channels_;
    sub.w_layer = int(layer_);
    sub.aterm_slot = slot_;
    sub.x = int(x);
    sub.y = int(y);
    plan_.subgrids.push_back(sub);
    plan_.visibilities_placed += unflagged_;
  }

  const IdgSettings& s_;
  IdgPlan& plan_;
  int first_channel_ = 0, nr_channels_ = 0;
  bool open_ = false;
  int64_t first_ = 0;
  int count_ = 0;
  int64_t unflagged_ = 0;
  int64_t layer_ = 0;
  int slot_ = 0;
  double px_min_ = 0, px_max_ = 0, py_min_ = 0, py_max_ = 0;
};

// The channels c0 .. c0 + nc - 1 of a row with any weight: how many, and the first and last.
struct WeightedChannels {
  int64_t count = 0;
  int first = 0, last = 0;
};

WeightedChannels weighted_in_group(const IdgVisibilities& vis, int npol, int64_t row, int c0, int nc) {
  size_t offset[4] = {0, 0, 0, 0};
  for (int p = 0; p < npol; ++p) offset[p] = size_t(vis.product_index[size_t(p)]);
  const size_t base = (size_t(row) * vis.nchan + size_t(c0)) * vis.products;
  const float* w = vis.weight + base;
  const uint8_t* f = vis.flag ? vis.flag + base : nullptr;
  WeightedChannels weighted;
  for (int c = 0; c < nc; ++c) {
    const size_t k = size_t(c) * vis.products;
    bool any = false;
    for (int p = 0; p < npol && !any; ++p) any = !(f && f[k + offset[p]]) && w[k + offset[p]] > 0;
    if (!any) continue;
    if (weighted.count++ == 0) weighted.first = c0 + c;
    weighted.last = c0 + c;
  }
  return weighted;
}

// Plans the rows [begin, end) of `rows`, one baseline's, into `plan`.
void plan_baseline(const IdgSettings& settings, const IdgVisibilities& vis,
                   const std::vector<int64_t>& rows, size_t begin, size_t end, IdgPlan& plan) {
  const int a1 = vis.antenna1[rows[begin]], a2 = vis.antenna2[rows[begin]];
  if (a1 == a2) return;  // autocorrelations are not imaged
  BaselinePlanner planner(settings, plan);
  const int nchan = int(vis.nchan);
  const double scale = settings.image_size / kSpeedOfLight_m_s;  // metres * Hz -> pixels
  std::vector<Step> steps;
  for (int c0 = 0; c0 < nchan; c0 += settings.max_channels_per_subgrid) {
    const int nc = std::min(settings.max_channels_per_subgrid, nchan - c0);
    steps.clear();
    for (size_t r = begin; r < end; ++r) {
      Step step;
      step.row = rows[r];
      step.slot = vis.aterm_slot ? vis.aterm_slot[step.row] : 0;
      const WeightedChannels weighted = weighted_in_group(vis, settings.npol, step.row, c0, nc);
      step.unflagged = weighted.count;
      if (step.unflagged == 0) continue;
      // u, v and w scale linearly with frequency: the first and last channels with weight bound
      // the row's footprint (the others add nothing to the grid, and their predictions are not
      // used: idg-grid's --maxuv-l leaves a baseline's upper channels out, for instance).
      const double f[2] = {vis.freq_hz[weighted.first], vis.freq_hz[weighted.last]};
      const std::array<double, 3>& uvw = vis.uvw_m[step.row];
      // Grid pixels: gx = N/2 + u S nu / c, gy = N/2 - v S nu / c (idg_settings.hpp).
      const double px[2] = {uvw[0] * f[0] * scale, uvw[0] * f[1] * scale};
      const double py[2] = {-uvw[1] * f[0] * scale, -uvw[1] * f[1] * scale};
      step.px_min = std::min(px[0], px[1]), step.px_max = std::max(px[0], px[1]);
      step.py_min = std::min(py[0], py[1]), step.py_max = std::max(py[0], py[1]);
      const double w[2] = {uvw[2] * f[0] / kSpeedOfLight_m_s, uvw[2] * f[1] / kSpeedOfLight_m_s};
      // The layer of the group's central w; the residual at both ends must fit the kernel,
      // so a group straddling a layer boundary is still placed.
      step.layer = idg_w_layer(settings, 0.5 * (w[0] + w[1]));
      bool w_ok = step.layer >= 0 && step.layer < settings.nr_w_layers;
      for (int k = 0; k < 2 && w_ok; ++k)
        w_ok = kIdgTaperSupportPx +
                   idg_w_support_px(settings, w[k] - idg_w_layer_centre(settings, step.layer)) <=
               settings.kernel_size;
      if (!w_ok) {
        plan.unplaced_w += step.unflagged;
        continue;
      }
      const double extent = std::max(step.px_max - step.px_min, step.py_max - step.py_min);
      if (extent + settings.kernel_size >= settings.subgrid_size) {
        plan.unplaced_off_grid += step.unflagged;  // the group alone is wider than a subgrid
        continue;
      }
      steps.push_back(step);
    }
    planner.plan(steps, c0, nc);
  }
}

}  // namespace

IdgPlan make_idg_plan(const IdgSettings& settings, const IdgVisibilities& vis, int threads) {
  settings.validate();
  check_view(settings, vis);
  const std::vector<int64_t> rows = rows_by_baseline(vis);
  std::vector<size_t> bounds = {0};  // baseline b: rows [bounds[b], bounds[b + 1])
  for (size_t r = 1; r < rows.size(); ++r)
    if (vis.antenna1[rows[r]] != vis.antenna1[rows[r - 1]] ||
        vis.antenna2[rows[r]] != vis.antenna2[rows[r - 1]])
      bounds.push_back(r);
  bounds.push_back(rows.size());
  const size_t nbaselines = rows.empty() ? 0 : bounds.size() - 1;
  // Each baseline planned on its own, then appended in baseline order: the plan does not
  // depend on the thread count.
  std::vector<IdgPlan> parts(nbaselines);
  parallel_for(std::max(threads, 1), nbaselines, [&](size_t b, int) {
    parts[b].settings = settings;
    plan_baseline(settings, vis, rows, bounds[b], bounds[b + 1], parts[b]);
  });
  IdgPlan plan;
  plan.settings = settings;
  size_t nsteps = 0, nsubgrids = 0;
  for (const IdgPlan& part : parts) nsteps += part.timestep_rows.size(), nsubgrids += part.subgrids.size();
  plan.timestep_rows.reserve(nsteps);
  plan.subgrids.reserve(nsubgrids);
  for (const IdgPlan& part : parts) {
    const int64_t offset = int64_t(plan.timestep_rows.size());
    plan.timestep_rows.insert(plan.timestep_rows.end(), part.timestep_rows.begin(), part.timestep_rows.end());
    for (IdgSubgrid sub : part.subgrids) {
      sub.first_timestep += offset;
      plan.subgrids.push_back(sub);
    }
    plan.visibilities_placed += part.visibilities_placed;
    plan.unplaced_off_grid += part.unplaced_off_grid;
    plan.unplaced_w += part.unplaced_w;
  }
  return plan;
}

}  // namespace rapt
