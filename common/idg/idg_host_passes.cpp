#include "idg/idg_host_passes.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

constexpr size_t kBlockValues = size_t(1) << 18;  // values per work item of the image passes
constexpr size_t kBlockRows = 2048;               // rows per work item of the row passes

// One time step's slice of the caller's arrays for a subgrid: the (row, first channel) value
// block, with each polarisation's product offset. The next steps' blocks are fetched ahead:
// rows of one baseline lie a whole time step apart, beyond what the hardware prefetches.
struct StepBlock {
  size_t base = 0;     // index of (row, first channel, product 0)
  size_t products = 1;
  size_t offset[4] = {0, 0, 0, 0};

  StepBlock(const IdgVisibilities& vis, int npol) : products(vis.products) {
    for (int p = 0; p < npol; ++p) offset[p] = size_t(vis.product_index[size_t(p)]);
  }
  void at(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis, int t) {
    base = step_base(plan, sub, vis, t);
  }
  static size_t step_base(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis,
                          int t) {
    const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
    return (row * vis.nchan + size_t(sub.first_channel)) * vis.products;
  }
};

constexpr int kPrefetchSteps = 2;

template <typename T>
void prefetch_span(const T* p, size_t count) {
  const char* bytes = reinterpret_cast<const char*>(p);
  for (size_t i = 0; i < count * sizeof(T); i += 64) __builtin_prefetch(bytes + i);
}

// The blocks of time step t + kPrefetchSteps, when there is one.
void prefetch_step(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis, int t,
                   bool values, bool predictions, std::complex<float>* predicted) {
  if (t + kPrefetchSteps >= sub.nr_timesteps) return;
  const size_t base = StepBlock::step_base(plan, sub, vis, t + kPrefetchSteps);
  const size_t count = size_t(sub.nr_channels) * vis.products;
  if (predictions) {
    prefetch_span(predicted + base, count);
    return;
  }
  prefetch_span(vis.weight + base, count);
  if (vis.flag) prefetch_span(vis.flag + base, count);
  if (values && vis.vis) prefetch_span(vis.vis + base, count);
}

template <int NPOL>
void subgrid_weight_sums(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis,
                         double* sums) {
  StepBlock b(vis, NPOL);
  double acc[NPOL] = {};
  for (int t = 0; t < sub.nr_timesteps; ++t) {
    b.at(plan, sub, vis, t);
    prefetch_step(plan, sub, vis, t, false, false, nullptr);
    const float* w = vis.weight + b.base;
    const uint8_t* f = vis.flag ? vis.flag + b.base : nullptr;
    for (int c = 0; c < sub.nr_channels; ++c, w += b.products)
      for (int p = 0; p < NPOL; ++p) {
        const float weight = f && f[size_t(c) * b.products + b.offset[p]] ? 0.0f : w[b.offset[p]];
        acc[p] += weight;
      }
  }
  for (int p = 0; p < NPOL; ++p) sums[p] = acc[p];
}

template <int NPOL>
void pack(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis, bool unit,
          std::complex<float>* out, double* weight_sums) {
  StepBlock b(vis, NPOL);
  double acc[NPOL] = {};
  for (int t = 0; t < sub.nr_timesteps; ++t) {
    b.at(plan, sub, vis, t);
    prefetch_step(plan, sub, vis, t, !unit, false, nullptr);
    const float* w = vis.weight + b.base;
    const uint8_t* f = vis.flag ? vis.flag + b.base : nullptr;
    const std::complex<float>* v = unit ? nullptr : vis.vis + b.base;
    for (int c = 0; c < sub.nr_channels; ++c, out += NPOL) {
      const size_t k = size_t(c) * b.products;
      for (int p = 0; p < NPOL; ++p) {
        const size_t i = k + b.offset[p];
        const float weight = f && f[i] ? 0.0f : w[i];
        acc[p] += weight;
        if (weight == 0) {
          out[p] = {0.0f, 0.0f};
        } else if (unit) {
          out[p] = {weight, 0.0f};
        } else {
          const std::complex<float> value = v[i];
          out[p] = {weight * value.real(), weight * value.imag()};
        }
      }
    }
  }
  if (weight_sums)
    for (int p = 0; p < NPOL; ++p) weight_sums[p] = acc[p];
}

template <int NPOL>
void unpack(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis,
            const std::complex<float>* in, std::complex<float>* predicted) {
  StepBlock b(vis, NPOL);
  for (int t = 0; t < sub.nr_timesteps; ++t) {
    b.at(plan, sub, vis, t);
    prefetch_step(plan, sub, vis, t, false, true, predicted);
    std::complex<float>* out = predicted + b.base;
    for (int c = 0; c < sub.nr_channels; ++c, in += NPOL, out += b.products)
      for (int p = 0; p < NPOL; ++p) out[b.offset[p]] = in[p];
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

void idg_subgrid_weight_sums(const IdgPlan& plan, const IdgSubgrid& subgrid,
                             const IdgVisibilities& vis, double* sums) {
  with_npol(plan.settings.npol, [&](auto n) {
    subgrid_weight_sums<decltype(n)::value>(plan, subgrid, vis, sums);
  });
}

std::vector<double> idg_total_weight_sums(const std::vector<double>& subgrid_sums, int npol) {
  std::vector<double> sums(size_t(npol), 0.0);
  for (size_t s = 0; s + size_t(npol) <= subgrid_sums.size(); s += size_t(npol))
    for (int p = 0; p < npol; ++p) sums[size_t(p)] += subgrid_sums[s + size_t(p)];
  return sums;
}

std::vector<double> idg_weight_sums(const IdgPlan& plan, const IdgVisibilities& vis, int threads) {
  const size_t npol = size_t(plan.settings.npol);
  std::vector<double> partial(plan.subgrids.size() * npol, 0.0);
  parallel_for(threads, plan.subgrids.size(), [&](size_t s, int) {
    idg_subgrid_weight_sums(plan, plan.subgrids[s], vis, partial.data() + s * npol);
  });
  return idg_total_weight_sums(partial, int(npol));
}

void idg_pack_subgrid(const IdgPlan& plan, const IdgSubgrid& subgrid, const IdgVisibilities& vis,
                      bool unit, std::complex<float>* out, double* weight_sums) {
  with_npol(plan.settings.npol, [&](auto n) {
    pack<decltype(n)::value>(plan, subgrid, vis, unit, out, weight_sums);
  });
}

void idg_unpack_subgrid(const IdgPlan& plan, const IdgSubgrid& subgrid, const IdgVisibilities& vis,
                        const std::complex<float>* in, std::complex<float>* predicted) {
  with_npol(plan.settings.npol, [&](auto n) {
    unpack<decltype(n)::value>(plan, subgrid, vis, in, predicted);
  });
}

void idg_zero_unplanned(const IdgPlan& plan, const IdgVisibilities& vis, int threads,
                        std::complex<float>* predicted) {
  const size_t cells = vis.nrows * vis.nchan;
  if (cells == 0) return;
  // planned[row][chan]: 1 where a subgrid covers it. Subgrids of one plan cover disjoint cells,
  // but a plan made by hand may not: the marks are atomic.
  std::unique_ptr<std::atomic<uint8_t>[]> planned(new std::atomic<uint8_t>[cells]);
  const size_t blocks = (cells + kBlockValues - 1) / kBlockValues;
  parallel_for(threads, blocks, [&](size_t b, int) {
    for (size_t i = b * kBlockValues; i < std::min(cells, (b + 1) * kBlockValues); ++i)
      planned[i].store(0, std::memory_order_relaxed);
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
  parallel_for(threads, (count + kBlockValues - 1) / kBlockValues, [&](size_t b, int) {
    const size_t first = b * kBlockValues, last = std::min(count, first + kBlockValues);
    std::fill(values + first, values + last, std::complex<float>(0.0f, 0.0f));
  });
}

void idg_scale(std::complex<float>* values, size_t count, float scale, int threads) {
  parallel_for(threads, (count + kBlockValues - 1) / kBlockValues, [&](size_t b, int) {
    const size_t first = b * kBlockValues, last = std::min(count, first + kBlockValues);
    for (size_t i = first; i < last; ++i) values[i] *= scale;
  });
}

void idg_copy(const std::complex<float>* from, std::complex<float>* to, size_t count, int threads) {
  parallel_for(threads, (count + kBlockValues - 1) / kBlockValues, [&](size_t b, int) {
    const size_t first = b * kBlockValues, last = std::min(count, first + kBlockValues);
    std::copy(from + first, from + last, to + first);
  });
}

}  // namespace rapt
