// The host's passes over a plan's visibilities that every engine call makes around its
// gridding: weight sums, packing a subgrid's values into a contiguous block (the GPU engine's
// batches), scattering predictions back, zeroing what no subgrid predicts, and whole-image
// fills, scales and copies. Threaded over groups of subgrids or blocks of rows with
// parallel_for; the per-polarisation products, flags and row blocks are looked up once per time
// step, not per value. Every result is independent of the thread count: sums are in double,
// per subgrid in time-then-channel order and then over the subgrids in plan order.
#pragma once
#include <algorithm>
#include <complex>
#include <cstddef>
#include <vector>

#include "dedisp/parallel_for.hpp"
#include "idg/idg_plan.hpp"

namespace rapt {

// sum of vis.weight_of over every planned (time step, channel) of every subgrid, per
// polarisation (npol values): per subgrid, then over the subgrids in plan order.
std::vector<double> idg_weight_sums(const IdgPlan& plan, const IdgVisibilities& vis, int threads);
// The per-subgrid part: sums[p] over one subgrid's (time step, channel) in order.
void idg_subgrid_weight_sums(const IdgPlan& plan, const IdgSubgrid& subgrid,
                             const IdgVisibilities& vis, double* sums);
// idg_weight_sums from the per-subgrid parts, [subgrid][pol] in plan order.
std::vector<double> idg_total_weight_sums(const std::vector<double>& subgrid_sums, int npol);

// The values of plan.subgrids[subgrids[i]], i < count, into out + offsets[i] x npol, each as
// [nr_timesteps][nr_channels][npol], time then channel: weight x V (or the weight alone when
// `unit`), 0 where the weight is 0 or the value flagged (a flagged value may be NaN; it must
// give 0, not 0 x NaN). npol = plan.settings.npol. With `weight_sums`, also each subgrid's
// idg_subgrid_weight_sums into weight_sums[subgrids[i] x npol ...] (the weights are read
// anyway). Subgrids of neighbouring baselines over the same times go together, in lock step,
// so that reads sweep the rows of a time-major input rather than jump between them.
void idg_pack_subgrids(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                       const size_t* subgrids, const size_t* offsets, size_t count,
                       std::complex<float>* out, double* weight_sums, int threads);
// The same (unit false) and also each value's weight into weights[] at the value's index (0
// where flagged): what an engine that holds the visibilities keeps for the PSF and residuals.
void idg_pack_subgrids_and_weights(const IdgPlan& plan, const IdgVisibilities& vis,
                                   const size_t* subgrids, const size_t* offsets, size_t count,
                                   std::complex<float>* out, float* weights, double* weight_sums,
                                   int threads);
// The inverse of the layout above: predicted[vis.index(row, c, p)] = the value of (t, c, p).
void idg_unpack_subgrids(const IdgPlan& plan, const IdgVisibilities& vis, const size_t* subgrids,
                         const size_t* offsets, size_t count, const std::complex<float>* in,
                         std::complex<float>* predicted, int threads);

// Sets predicted[vis.index(row, c, p)] to 0 for every row, channel and planned polarisation
// that no subgrid of `plan` covers (the values a degridder leaves alone).
void idg_zero_unplanned(const IdgPlan& plan, const IdgVisibilities& vis, int threads,
                        std::complex<float>* predicted);

// fn(first, last) for blocks [first, last) of [0, count), on up to `threads` threads: the
// whole-image and whole-array passes.
template <typename Fn>
void idg_for_blocks(size_t count, int threads, Fn&& fn) {
  constexpr size_t kBlock = size_t(1) << 18;  // values per work item
  parallel_for(threads, (count + kBlock - 1) / kBlock,
               [&](size_t b, int) { fn(b * kBlock, std::min(count, (b + 1) * kBlock)); });
}

// values[0, count) = 0, values[0, count) *= scale, to[0, count) = from[0, count) (complex or
// real values) and to[0, count) = from[0, count) * scale (the same float products as a copy
// and then idg_scale), in parallel blocks.
void idg_fill_zero(std::complex<float>* values, size_t count, int threads);
void idg_scale(std::complex<float>* values, size_t count, float scale, int threads);
void idg_copy(const std::complex<float>* from, std::complex<float>* to, size_t count, int threads);
void idg_copy(const float* from, float* to, size_t count, int threads);
void idg_copy_scaled(const std::complex<float>* from, std::complex<float>* to, size_t count,
                     float scale, int threads);

}  // namespace rapt
