#include "idg/idg_host_passes.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

constexpr size_t kBlockRows = 2048;  // rows per work item of the row passes

// Subgrids are visited in groups of kGroup, a group's subgrids in lock step: time step t of
// each, then t + 1. Sorted by their first input row, the subgrids of a group are those of
// neighbouring baselines over the same time range, whose rows of one time step lie side by
// side in a time-major input. One subgrid at a time would jump a whole time step of the input
// between reads (a TLB miss and a cold row each), at a third of the speed.
constexpr size_t kGroup = 32;

// Where polarisation p of a (row, channel) lies, relative to its product 0.
struct Products {
  size_t stride = 1;  // values per (row, channel)
  size_t offset[4] = {0, 0, 0, 0};
  Products(const IdgVisibilities& vis, int npol) : stride(vis.products) {
    for (int p = 0; p < npol; ++p) offset[p] = size_t(vis.product_index[size_t(p)]);
  }
};

size_t step_base(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis, int t) {
  const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
  return (row * vis.nchan + size_t(sub.first_channel)) * vis.products;
}

// The order in which to visit subgrids[0, count): by first input row, ties in list order.
std::vector<size_t> visiting_order(const IdgPlan& plan, const size_t* subgrids, size_t count) {
  std::vector<std::pair<int64_t, size_t>> keys(count);
  for (size_t i = 0; i < count; ++i) {
    const IdgSubgrid& sub = plan.subgrids[subgrids[i]];
    keys[i] = {sub.nr_timesteps > 0 ? plan.timestep_rows[size_t(sub.first_timestep)] : 0, i};
  }
  std::sort(keys.begin(), keys.end());
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = keys[i].second;
  return order;
}

// Calls visit(members, n) for each group of up to kGroup subgrids of `order`, on `threads`
// threads.
template <typename Visit>
void for_each_group(const std::vector<size_t>& order, int threads, Visit&& visit) {
  parallel_for(threads, (order.size() + kGroup - 1) / kGroup, [&](size_t g, int) {
    visit(order.data() + g * kGroup, std::min(kGroup, order.size() - g * kGroup));
  });
}

// Packs (and sums the weights of) subgrids[members[k]], k < n, in lock step.
template <int NPOL>
void pack_group(const IdgPlan& plan, const IdgVisibilities& vis, bool unit, const size_t* subgrids,
                const size_t* offsets, const size_t* members, size_t n, std::complex<float>* out,
                float* weights_out, double* weight_sums) {
  const Products pr(vis, NPOL);
  double acc[kGroup][NPOL] = {};
  int steps = 0;
  for (size_t k = 0; k < n; ++k)
    steps = std::max(steps, plan.subgrids[subgrids[members[k]]].nr_timesteps);
  for (int t = 0; t < steps; ++t)
    for (size_t k = 0; k < n; ++k) {
      const size_t m = members[k];
      const IdgSubgrid& sub = plan.subgrids[subgrids[m]];
      if (t >= sub.nr_timesteps) continue;
      const size_t base = step_base(plan, sub, vis, t);
      const float* w = vis.weight + base;
      const uint8_t* f = vis.flag ? vis.flag + base : nullptr;
      const std::complex<float>* v = unit ? nullptr : vis.vis + base;
      const size_t first = (offsets[m] + size_t(t) * size_t(sub.nr_channels)) * NPOL;
      std::complex<float>* o = out + first;
      float* wo = weights_out ? weights_out + first : nullptr;
      for (int c = 0; c < sub.nr_channels; ++c, o += NPOL) {
        const size_t ci = size_t(c) * pr.stride;
        for (int p = 0; p < NPOL; ++p) {
          const size_t i = ci + pr.offset[p];
          const float weight = f && f[i] ? 0.0f : w[i];
          acc[k][p] += weight;
          if (wo) wo[size_t(c) * NPOL + size_t(p)] = weight;
          // A flagged value may be NaN: it must give 0, not 0 x NaN.
          if (weight == 0) {
            o[p] = {0.0f, 0.0f};
          } else if (unit) {
            o[p] = {weight, 0.0f};
          } else {
            const std::complex<float> value = v[i];
            o[p] = {weight * value.real(), weight * value.imag()};
          }
        }
      }
    }
  if (weight_sums)
    for (size_t k = 0; k < n; ++k)
      for (int p = 0; p < NPOL; ++p)
        weight_sums[subgrids[members[k]] * NPOL + size_t(p)] = acc[k][p];
}

// Weight sums alone, as pack_group makes them.
template <int NPOL>
void sum_group(const IdgPlan& plan, const IdgVisibilities& vis, const size_t* members, size_t n,
               double* weight_sums) {
  const Products pr(vis, NPOL);
  double acc[kGroup][NPOL] = {};
  int steps = 0;
  for (size_t k = 0; k < n; ++k) steps = std::max(steps, plan.subgrids[members[k]].nr_timesteps);
  for (int t = 0; t < steps; ++t)
    for (size_t k = 0; k < n; ++k) {
      const IdgSubgrid& sub = plan.subgrids[members[k]];
      if (t >= sub.nr_timesteps) continue;
      const size_t base = step_base(plan, sub, vis, t);
      const float* w = vis.weight + base;
      const uint8_t* f = vis.flag ? vis.flag + base : nullptr;
      for (int c = 0; c < sub.nr_channels; ++c) {
        const size_t ci = size_t(c) * pr.stride;
        for (int p = 0; p < NPOL; ++p) {
          const size_t i = ci + pr.offset[p];
          acc[k][p] += f && f[i] ? 0.0f : w[i];
        }
      }
    }
  for (size_t k = 0; k < n; ++k)
    for (int p = 0; p < NPOL; ++p) weight_sums[members[k] * NPOL + size_t(p)] = acc[k][p];
}

template <int NPOL>
void unpack_group(const IdgPlan& plan, const IdgVisibilities& vis, const size_t* subgrids,
                  const size_t* offsets, const size_t* members, size_t n,
                  const std::complex<float>* in, std::complex<float>* predicted) {
  const Products pr(vis, NPOL);
  int steps = 0;
  for (size_t k = 0; k < n; ++k)
    steps = std::max(steps, plan.subgrids[subgrids[members[k]]].nr_timesteps);
  for (int t = 0; t < steps; ++t)
    for (size_t k = 0; k < n; ++k) {
      const size_t m = members[k];
      const IdgSubgrid& sub = plan.subgrids[subgrids[m]];
      if (t >= sub.nr_timesteps) continue;
      std::complex<float>* o = predicted + step_base(plan, sub, vis, t);
      const std::complex<float>* v = in + (offsets[m] + size_t(t) * size_t(sub.nr_channels)) * NPOL;
      for (int c = 0; c < sub.nr_channels; ++c, v += NPOL, o += pr.stride)
        for (int p = 0; p < NPOL; ++p) o[pr.offset[p]] = v[p];
    }
}

// Calls f(std::integral_constant<int, npol>) (the settings allow 1, 2 or 4).
template <typename F>
void with_npol(int npol, F&& f) {
  switch (npol) {
    case 1: f(std::integral_constant<int, 1>()); break;
    case 2: f(std::integral_constant<int, 2>()); break;
    default: f(std::integral_constant<int, 4>()); break;
  }
}

}  // namespace

std::vector<double> idg_weight_sums(const IdgPlan& plan, const IdgVisibilities& vis, int threads) {
  const int npol = plan.settings.npol;
  std::vector<size_t> all(plan.subgrids.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<double> partial(all.size() * size_t(npol), 0.0);
  const std::vector<size_t> order = visiting_order(plan, all.data(), all.size());
  with_npol(npol, [&](auto np) {
    for_each_group(order, threads, [&](const size_t* members, size_t n) {
      sum_group<decltype(np)::value>(plan, vis, members, n, partial.data());
    });
  });
  return idg_total_weight_sums(partial, npol);
}

void idg_subgrid_weight_sums(const IdgPlan& plan, const IdgSubgrid& subgrid,
                             const IdgVisibilities& vis, double* sums) {
  const int npol = plan.settings.npol;
  const Products pr(vis, npol);
  std::vector<double> acc(size_t(npol), 0.0);
  for (int t = 0; t < subgrid.nr_timesteps; ++t) {
    const size_t base = step_base(plan, subgrid, vis, t);
    for (int c = 0; c < subgrid.nr_channels; ++c)
      for (int p = 0; p < npol; ++p) {
        const size_t i = base + size_t(c) * pr.stride + pr.offset[p];
        acc[size_t(p)] += vis.flag && vis.flag[i] ? 0.0f : vis.weight[i];
      }
  }
  for (int p = 0; p < npol; ++p) sums[p] = acc[size_t(p)];
}

std::vector<double> idg_total_weight_sums(const std::vector<double>& subgrid_sums, int npol) {
  std::vector<double> sums(size_t(npol), 0.0);
  for (size_t s = 0; s + size_t(npol) <= subgrid_sums.size(); s += size_t(npol))
    for (int p = 0; p < npol; ++p) sums[size_t(p)] += subgrid_sums[s + size_t(p)];
  return sums;
}

void idg_pack_subgrids(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                       const size_t* subgrids, const size_t* offsets, size_t count,
                       std::complex<float>* out, double* weight_sums, int threads) {
  const std::vector<size_t> order = visiting_order(plan, subgrids, count);
  with_npol(plan.settings.npol, [&](auto np) {
    for_each_group(order, threads, [&](const size_t* members, size_t n) {
      pack_group<decltype(np)::value>(plan, vis, unit, subgrids, offsets, members, n, out,
                                      nullptr, weight_sums);
    });
  });
}

void idg_pack_subgrids_and_weights(const IdgPlan& plan, const IdgVisibilities& vis,
                                   const size_t* subgrids, const size_t* offsets, size_t count,
                                   std::complex<float>* out, float* weights, double* weight_sums,
                                   int threads) {
  const std::vector<size_t> order = visiting_order(plan, subgrids, count);
  with_npol(plan.settings.npol, [&](auto np) {
    for_each_group(order, threads, [&](const size_t* members, size_t n) {
      pack_group<decltype(np)::value>(plan, vis, false, subgrids, offsets, members, n, out,
                                      weights, weight_sums);
    });
  });
}

void idg_unpack_subgrids(const IdgPlan& plan, const IdgVisibilities& vis, const size_t* subgrids,
                         const size_t* offsets, size_t count, const std::complex<float>* in,
                         std::complex<float>* predicted, int threads) {
  const std::vector<size_t> order = visiting_order(plan, subgrids, count);
  with_npol(plan.settings.npol, [&](auto np) {
    for_each_group(order, threads, [&](const size_t* members, size_t n) {
      unpack_group<decltype(np)::value>(plan, vis, subgrids, offsets, members, n, in, predicted);
    });
  });
}

void idg_zero_unplanned(const IdgPlan& plan, const IdgVisibilities& vis, int threads,
                        std::complex<float>* predicted) {
  const size_t cells = vis.nrows * vis.nchan;
  if (cells == 0) return;
  // planned[row][chan]: 1 where a subgrid covers it. Subgrids of one plan cover disjoint cells,
  // but a plan made by hand may not: the marks are atomic.
  std::unique_ptr<std::atomic<uint8_t>[]> planned(new std::atomic<uint8_t>[cells]);
  idg_for_blocks(cells, threads, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) planned[i].store(0, std::memory_order_relaxed);
  });
  parallel_for(threads, plan.subgrids.size(), [&](size_t s, int) {
    const IdgSubgrid& sub = plan.subgrids[s];
    for (int t = 0; t < sub.nr_timesteps; ++t) {
      const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
      for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c)
        planned[row * vis.nchan + size_t(c)].store(1, std::memory_order_relaxed);
    }
  });
  const int npol = plan.settings.npol;
  const size_t row_blocks = (vis.nrows + kBlockRows - 1) / kBlockRows;
  parallel_for(threads, row_blocks, [&](size_t b, int) {
    const size_t first = b * kBlockRows * vis.nchan;
    const size_t last = std::min(vis.nrows, (b + 1) * kBlockRows) * vis.nchan;
    for (size_t cell = first; cell < last; ++cell) {
      if (planned[cell].load(std::memory_order_relaxed)) continue;
      std::complex<float>* out = predicted + cell * vis.products;
      for (int p = 0; p < npol; ++p) out[vis.product_index[size_t(p)]] = {0.0f, 0.0f};
    }
  });
}

void idg_fill_zero(std::complex<float>* values, size_t count, int threads) {
  idg_for_blocks(count, threads, [&](size_t first, size_t last) {
    std::fill(values + first, values + last, std::complex<float>(0.0f, 0.0f));
  });
}

void idg_scale(std::complex<float>* values, size_t count, float scale, int threads) {
  idg_for_blocks(count, threads, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) values[i] *= scale;
  });
}

namespace {

template <typename T>
void copy_in_blocks(const T* from, T* to, size_t count, int threads) {
  idg_for_blocks(count, threads, [&](size_t first, size_t last) {
    std::copy(from + first, from + last, to + first);
  });
}

}  // namespace

void idg_copy(const std::complex<float>* from, std::complex<float>* to, size_t count, int threads) {
  copy_in_blocks(from, to, count, threads);
}

void idg_copy(const float* from, float* to, size_t count, int threads) {
  copy_in_blocks(from, to, count, threads);
}

void idg_copy_scaled(const std::complex<float>* from, std::complex<float>* to, size_t count,
                     float scale, int threads) {
  idg_for_blocks(count, threads, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      std::complex<float> value = from[i];
      value *= scale;
      to[i] = value;
    }
  });
}

}  // namespace rapt
