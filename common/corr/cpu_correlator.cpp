// The CPU correlator: the reference engine. Threads take channels (no two threads add into the
// same sums). A channel of the canonical block is already antenna-major with both polarisations
// of a sample together; it is rounded as the precision asks (half or int8) into a scratch copy,
// then every baseline's products are summed over time: in double for fp32 and fp16, in 64-bit
// integers for int8, so that int8 is exact and any engine summing exactly must agree bit for bit.
#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <vector>

#include "corr/correlator_engine.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

template <typename Value, typename Sum>
void correlate_channel(const Value* x, int nant, int64_t nsamples, int npol, Sum* sums) {
  // x: [ant][time][pol][re, im]; sums: [baseline][p1][p2][re, im].
  const int64_t stride = nsamples * npol * 2;
  for (int a2 = 0; a2 < nant; ++a2) {
    const Value* y = x + a2 * stride;
    for (int a1 = 0; a1 <= a2; ++a1) {
      const Value* z = x + a1 * stride;
      Sum* s = sums + baseline_index(a1, a2) * npol * npol * 2;
      for (int p1 = 0; p1 < npol; ++p1)
        for (int p2 = 0; p2 < npol; ++p2) {
          Sum re = 0, im = 0;
          for (int64_t t = 0; t < nsamples; ++t) {
            const Value* a = z + (t * npol + p1) * 2;  // antenna 1
            const Value* b = y + (t * npol + p2) * 2;  // antenna 2, conjugated
            re += Sum(a[0]) * Sum(b[0]) + Sum(a[1]) * Sum(b[1]);
            im += Sum(a[1]) * Sum(b[0]) - Sum(a[0]) * Sum(b[1]);
          }
          s[(p1 * npol + p2) * 2] += re;
          s[(p1 * npol + p2) * 2 + 1] += im;
        }
    }
  }
}

class CpuCorrelator final : public CorrelatorEngine {
 public:
  CpuCorrelator(const CorrelatorShape& shape, int threads)
      : CorrelatorEngine(shape), threads_(std::max(threads, 1)) {
    if (shape.precision == CorrPrecision::int8)
      int_sums_.assign(shape.nvis() * 2, 0);
    else
      sums_.assign(shape.nvis() * 2, 0.0);
  }
  std::string name() const override { return "cpu"; }
  int64_t clamped_values() const override { return clamped_; }

 private:
  void add(const float* voltages, int64_t nsamples) override {
    const CorrelatorShape& s = shape();
    const size_t per_channel = size_t(s.nant) * size_t(nsamples) * s.npol * 2;
    const size_t vis_per_channel = size_t(s.nbaselines()) * s.nproducts() * 2;
    std::atomic<int64_t> clamped{0};
    parallel_for(threads_, size_t(s.nchan), [&](size_t c, int) {
      const float* in = voltages + c * per_channel;
      if (s.precision == CorrPrecision::int8) {
        std::vector<int8_t> x(per_channel);
        int64_t n_clamped = 0;
        for (size_t k = 0; k < per_channel; ++k) {
          bool was_clamped = false;
          x[k] = round_to_int8(in[k], &was_clamped);
          n_clamped += was_clamped;
        }
        clamped += n_clamped;
        correlate_channel(x.data(), s.nant, nsamples, s.npol, int_sums_.data() + c * vis_per_channel);
      } else if (s.precision == CorrPrecision::fp16) {
        std::vector<float> x(per_channel);
        for (size_t k = 0; k < per_channel; ++k) x[k] = round_to_half(in[k]);
        correlate_channel(x.data(), s.nant, nsamples, s.npol, sums_.data() + c * vis_per_channel);
      } else {
        correlate_channel(in, s.nant, nsamples, s.npol, sums_.data() + c * vis_per_channel);
      }
    });
    clamped_ += clamped;
  }

  void read_and_reset(std::complex<double>* visibilities) override {
    const size_t n = shape().nvis();
    if (shape().precision == CorrPrecision::int8) {
      for (size_t k = 0; k < n; ++k)
        visibilities[k] = {double(int_sums_[2 * k]), double(int_sums_[2 * k + 1])};
      std::fill(int_sums_.begin(), int_sums_.end(), 0);
    } else {
      for (size_t k = 0; k < n; ++k) visibilities[k] = {sums_[2 * k], sums_[2 * k + 1]};
      std::fill(sums_.begin(), sums_.end(), 0.0);
    }
  }

  int threads_;
  std::vector<double> sums_;       // fp32, fp16: [chan][baseline][p1][p2][re, im]
  std::vector<int64_t> int_sums_;  // int8
  int64_t clamped_ = 0;
};

}  // namespace

std::unique_ptr<CorrelatorEngine> make_cpu_correlator(const CorrelatorShape& shape, int threads) {
  return std::make_unique<CpuCorrelator>(shape, threads);
}

}  // namespace rapt
