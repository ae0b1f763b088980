#include "corr/valid_samples.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "corr/correlator_engine.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {

void StationSampleMask::reset(int nant, int64_t nsamples) {
  if (nant < 0 || nsamples < 0) throw std::invalid_argument("StationSampleMask: negative size");
  nant_ = nant;
  nsamples_ = nsamples;
  nwords_ = size_t((nsamples + 63) / 64);
  bits_.assign(size_t(nant) * nwords_, ~uint64_t{0});
  // The bits past the last sample stay 0, so that popcounts count samples only.
  if (nsamples % 64)
    for (int a = 0; a < nant; ++a) bits_[(size_t(a) + 1) * nwords_ - 1] = (uint64_t{1} << (nsamples % 64)) - 1;
  invalid_.assign(size_t(nant), 0);
}

void StationSampleMask::invalidate(int ant, int64_t first, int64_t end) {
  if (ant < 0 || ant >= nant_) throw std::invalid_argument("StationSampleMask: no such station");
  first = std::max<int64_t>(first, 0);
  end = std::min(end, nsamples_);
  uint64_t* words = bits_.data() + size_t(ant) * nwords_;
  for (int64_t t = first; t < end; ++t) {
    const uint64_t bit = uint64_t{1} << (t & 63);
    if (words[t >> 6] & bit) {
      words[t >> 6] &= ~bit;
      ++invalid_[size_t(ant)];
    }
  }
}

int64_t StationSampleMask::invalid_count() const {
  int64_t total = 0;
  for (int64_t n : invalid_) total += n;
  return total;
}

int64_t StationSampleMask::valid_count(int a1, int a2) const {
  if (!invalid_[size_t(a1)] && !invalid_[size_t(a2)]) return nsamples_;
  const uint64_t* x = bits_.data() + size_t(a1) * nwords_;
  const uint64_t* y = bits_.data() + size_t(a2) * nwords_;
  int64_t count = 0;
  for (size_t w = 0; w < nwords_; ++w) count += __builtin_popcountll(x[w] & y[w]);
  return count;
}

int64_t mark_lost_samples(const float* block, int nchan, int nant, int64_t nsamples, int npol,
                          StationSampleMask& mask, int threads) {
  if (mask.nant() != nant || mask.nsamples() != nsamples)
    throw std::invalid_argument("mark_lost_samples: the mask is not the block's size");
  // Per station, the samples still all zero are looked for in one channel after another: data
  // that are not lost show a nonzero value in the first channel, so this reads little more than
  // one channel. Each thread has stations of its own (and their words of the mask).
  const int64_t values = int64_t(npol) * 2;
  std::vector<int64_t> marked(size_t(nant), 0);
  std::vector<std::vector<int64_t>> zero(size_t(std::max(threads, 1)));
  parallel_for(threads, size_t(nant), [&](size_t a, int worker) {
    std::vector<int64_t>& candidates = zero[size_t(worker)];
    candidates.clear();
    for (int64_t t = 0; t < nsamples; ++t) candidates.push_back(t);
    for (int c = 0; c < nchan && !candidates.empty(); ++c) {
      const float* x = block + (int64_t(c) * nant + int64_t(a)) * nsamples * values;
      size_t kept = 0;
      for (const int64_t t : candidates) {
        bool nonzero = false;
        for (int64_t k = 0; k < values; ++k) nonzero |= x[t * values + k] != 0.0f;
        if (!nonzero) candidates[kept++] = t;
      }
      candidates.resize(kept);
    }
    for (const int64_t t : candidates)
      if (mask.valid(int(a), t)) {
        mask.invalidate(int(a), t, t + 1);
        ++marked[a];
      }
  });
  int64_t total = 0;
  for (int64_t m : marked) total += m;
  return total;
}

int64_t mark_non_finite_samples(const float* block, int nchan, int nant, int64_t nsamples,
                                int npol, StationSampleMask& mask, int threads) {
  if (mask.nant() != nant || mask.nsamples() != nsamples)
    throw std::invalid_argument("mark_non_finite_samples: the mask is not the block's size");
  const int64_t values = int64_t(npol) * 2;
  std::vector<int64_t> marked(size_t(nant), 0);
  parallel_for(threads, size_t(nant), [&](size_t a, int) {
    for (int c = 0; c < nchan; ++c) {
      const float* x = block + (int64_t(c) * nant + int64_t(a)) * nsamples * values;
      for (int64_t t = 0; t < nsamples; ++t) {
        bool finite = true;
        for (int64_t k = 0; k < values; ++k) finite &= std::isfinite(x[t * values + k]);
        if (!finite && mask.valid(int(a), t)) {
          mask.invalidate(int(a), t, t + 1);
          ++marked[a];
        }
      }
    }
  });
  int64_t total = 0;
  for (int64_t m : marked) total += m;
  return total;
}

int64_t zero_non_finite_samples(float* block, int nchan, int nant, int64_t nsamples, int npol,
                                int threads) {
  StationSampleMask mask;
  mask.reset(nant, nsamples);
  const int64_t marked = mark_non_finite_samples(block, nchan, nant, nsamples, npol, mask, threads);
  if (marked) zero_invalid_samples(block, nchan, nant, nsamples, npol, mask, threads);
  return marked;
}

void zero_invalid_samples(float* block, int nchan, int nant, int64_t nsamples, int npol,
                          const StationSampleMask& mask, int threads) {
  const int64_t values = int64_t(npol) * 2;
  parallel_for(threads, size_t(nant), [&](size_t a, int) {
    if (!mask.invalid_count(int(a))) return;
    for (int c = 0; c < nchan; ++c) {
      float* x = block + (int64_t(c) * nant + int64_t(a)) * nsamples * values;
      for (int64_t t = 0; t < nsamples; ++t)
        if (!mask.valid(int(a), t)) std::fill(x + t * values, x + (t + 1) * values, 0.0f);
    }
  });
}

void add_baseline_valid_counts(const StationSampleMask& mask, std::vector<int64_t>& counts) {
  const int nant = mask.nant();
  if (counts.size() != size_t(nant) * size_t(nant + 1) / 2)
    throw std::invalid_argument("add_baseline_valid_counts: counts is not one per baseline");
  for (int a2 = 0; a2 < nant; ++a2)
    for (int a1 = 0; a1 <= a2; ++a1) counts[size_t(baseline_index(a1, a2))] += mask.valid_count(a1, a2);
}

}  // namespace rapt
