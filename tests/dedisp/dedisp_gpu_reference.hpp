// Test support for the CUDA dedispersion tests: synthetic input blocks and a plain reference.
// Header-only (the test build compiles tests/*_test.cpp only).
//
// The reference sums in float, channels ascending, then downsamples by adding consecutive
// samples in order: the order both engines promise for float input. Integer input gives exact
// sums below 2^24 whatever the order.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dedisp/dedisp_engine.hpp"

namespace rapt::testing {

struct SyntheticBlock {
  std::vector<uint8_t> bytes;
  int nchans = 0;
  int nbits = 8;
  size_t nspectra = 0;

  SpectraBlock block() const {
    SpectraBlock b;
    b.data = bytes.data();
    b.nbits = nbits;
    b.nspectra = nspectra;
    return b;
  }

  float sample(size_t t, int c) const {
    if (nbits == 32) {
      float v;
      std::memcpy(&v, bytes.data() + (t * size_t(nchans) + size_t(c)) * 4, 4);
      return v;
    }
    const size_t bit = size_t(c) * size_t(nbits);
    const uint8_t byte = bytes[t * (size_t(nchans) * size_t(nbits) / 8) + bit / 8];
    return float((byte >> (bit % 8)) & ((1u << nbits) - 1u));
  }
};

// Random samples: uniform unsigned for nbits <= 8 (all ones when `saturated`), uniform in
// [-1, 1) for float input.
inline SyntheticBlock random_spectra(int nchans, int nbits, size_t nspectra, uint32_t seed,
                                     bool saturated = false) {
  SyntheticBlock s;
  s.nchans = nchans;
  s.nbits = nbits;
  s.nspectra = nspectra;
  std::mt19937 rng(seed);
  if (nbits == 32) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> values(nspectra * size_t(nchans));
    for (float& v : values) v = dist(rng);
    s.bytes.resize(values.size() * 4);
    std::memcpy(s.bytes.data(), values.data(), s.bytes.size());
    return s;
  }
  s.bytes.resize(nspectra * size_t(nchans) * size_t(nbits) / 8);
  std::uniform_int_distribution<int> dist(0, 255);
  for (uint8_t& b : s.bytes) b = saturated ? 0xFF : uint8_t(dist(rng));
  return s;
}

inline size_t output_samples(const DedispPlan& plan, size_t nspectra) {
  return (nspectra - size_t(plan.max_delay_samples())) / size_t(plan.downsamp);
}

// [plan DM][output sample], output_samples() per DM.
inline std::vector<float> reference_dedisp(const DedispPlan& plan, const SyntheticBlock& in) {
  const size_t nout = output_samples(plan, in.nspectra), ds = size_t(plan.downsamp);
  const std::vector<int32_t> delays = plan.delay_table();
  std::vector<float> out(plan.dms.size() * nout);
  std::vector<float> full(nout * ds);
  for (size_t d = 0; d < plan.dms.size(); ++d) {
    for (size_t t = 0; t < full.size(); ++t) {
      float sum = 0.0f;
      for (int c = 0; c < plan.nchans; ++c)
        if (plan.zapped.empty() || !plan.zapped[c])
          sum += in.sample(t + size_t(delays[d * plan.nchans + c]), c);
      full[t] = sum;
    }
    for (size_t k = 0; k < nout; ++k) {
      float sum = 0.0f;
      for (size_t i = 0; i < ds; ++i) sum += full[k * ds + i];
      out[d * nout + k] = sum;
    }
  }
  return out;
}

// Number of entries of `got` further than rel_tol * max(1, |want|) from `want` (NaN counts).
// `got` has rows `got_stride` apart; `want` is dense with `ncols` per row.
inline size_t count_differences(const std::vector<float>& got, size_t got_stride,
                                const std::vector<float>& want, size_t ncols, double rel_tol,
                                std::string* first = nullptr) {
  size_t bad = 0;
  const size_t nrows = ncols ? want.size() / ncols : 0;
  for (size_t r = 0; r < nrows; ++r)
    for (size_t t = 0; t < ncols; ++t) {
      const double g = got[r * got_stride + t], w = want[r * ncols + t];
      if (!(std::fabs(g - w) <= rel_tol * std::fmax(1.0, std::fabs(w)))) {
        if (bad == 0 && first)
          *first = "DM row " + std::to_string(r) + ", sample " + std::to_string(t) + ": got " +
                   std::to_string(g) + ", want " + std::to_string(w);
        ++bad;
      }
    }
  return bad;
}

inline DedispPlan small_plan(int nchans, int ndm, double dm_step, int downsamp = 1) {
  DedispPlan p;
  p.nchans = nchans;
  p.fch1_mhz = 1500.0;
  p.foff_mhz = -4.0;
  p.tsamp_s = 128e-6;
  for (int i = 0; i < ndm; ++i) p.dms.push_back(dm_step * i);
  p.downsamp = downsamp;
  return p;
}

}  // namespace rapt::testing
