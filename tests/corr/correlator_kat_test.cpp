// Known-answer tests of the X engine's definition, on the CPU engine (the reference every other
// engine is compared with): exact integer sums against an independent int64 loop, constant
// inputs (which pin the conjugation), a common signal in noise, a delayed source's phase slope,
// polarisation, symmetries and integration in pieces.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "corr/correlator_engine.hpp"

namespace rapt {
namespace {

using cd = std::complex<double>;

// Canonical block [chan][ant][time][pol][re, im].
struct Block {
  int nchan, nant, npol;
  int64_t nsamples;
  std::vector<float> v;
  Block(int c, int a, int p, int64_t t)
      : nchan(c), nant(a), npol(p), nsamples(t), v(size_t(c) * a * t * p * 2, 0.0f) {}
  size_t at(int c, int a, int64_t t, int p) const {
    return ((((size_t(c) * nant + a) * nsamples + t) * npol) + p) * 2;
  }
  void set(int c, int a, int64_t t, int p, std::complex<float> x) {
    v[at(c, a, t, p)] = x.real();
    v[at(c, a, t, p) + 1] = x.imag();
  }
  std::complex<float> get(int c, int a, int64_t t, int p) const {
    return {v[at(c, a, t, p)], v[at(c, a, t, p) + 1]};
  }
};

CorrelatorShape shape_of(const Block& b, CorrPrecision precision) {
  CorrelatorShape s;
  s.nchan = b.nchan;
  s.nant = b.nant;
  s.npol = b.npol;
  s.precision = precision;
  return s;
}

std::vector<cd> correlate(const Block& b, CorrPrecision precision, int threads = 2) {
  auto engine = make_cpu_correlator(shape_of(b, precision), threads);
  engine->accumulate(b.v.data(), b.nsamples);
  std::vector<cd> vis;
  engine->take(vis);
  return vis;
}

size_t vis_index(const Block& b, int c, int a1, int a2, int p1, int p2) {
  const int64_t nbl = int64_t(b.nant) * (b.nant + 1) / 2;
  return ((size_t(c) * nbl + baseline_index(a1, a2)) * b.npol + p1) * b.npol + p2;
}

Block random_int_block(int c, int a, int p, int64_t t, uint32_t seed, int lo = -127, int hi = 127) {
  Block b(c, a, p, t);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  for (float& x : b.v) x = float(d(rng));
  return b;
}

TEST(CorrelatorKat, BaselineIndexRunsLowAntennaFastest) {
  EXPECT_EQ(baseline_index(0, 0), 0);
  EXPECT_EQ(baseline_index(0, 1), 1);
  EXPECT_EQ(baseline_index(1, 1), 2);
  EXPECT_EQ(baseline_index(0, 2), 3);
  EXPECT_EQ(baseline_index(2, 2), 5);
  CorrelatorShape s;
  s.nant = 64;
  s.nchan = 3;
  EXPECT_EQ(s.nbaselines(), 2080);
  EXPECT_EQ(s.nvis(), size_t(3) * 2080 * 4);
  EXPECT_DOUBLE_EQ(correlator_useful_ops(s, 768), 32.0 * 2080 * 3 * 768);
}

TEST(CorrelatorKat, Int8MatchesAnIndependentInt64LoopExactly) {
  for (int npol : {1, 2}) {
    const Block b = random_int_block(3, 5, npol, 37, 11 + npol);
    const std::vector<cd> vis = correlate(b, CorrPrecision::int8);
    for (int c = 0; c < b.nchan; ++c)
      for (int a1 = 0; a1 < b.nant; ++a1)
        for (int a2 = a1; a2 < b.nant; ++a2)
          for (int p1 = 0; p1 < npol; ++p1)
            for (int p2 = 0; p2 < npol; ++p2) {
              int64_t re = 0, im = 0;
              for (int64_t t = 0; t < b.nsamples; ++t) {
                const std::complex<float> x = b.get(c, a1, t, p1), y = b.get(c, a2, t, p2);
                const int64_t xr = int64_t(x.real()), xi = int64_t(x.imag());
                const int64_t yr = int64_t(y.real()), yi = int64_t(y.imag());
                re += xr * yr + xi * yi;  // x conj(y)
                im += xi * yr - xr * yi;
              }
              const cd v = vis[vis_index(b, c, a1, a2, p1, p2)];
              ASSERT_EQ(v.real(), double(re)) << c << " " << a1 << " " << a2 << " " << p1 << p2;
              ASSERT_EQ(v.imag(), double(im)) << c << " " << a1 << " " << a2 << " " << p1 << p2;
            }
  }
}

TEST(CorrelatorKat, ConstantInputsGiveTTimesAConjB) {
  // Antenna 0 holds a, antenna 1 holds b in both polarisations: V01 = T a conj(b), which is
  // the convention (the second antenna is conjugated).
  const std::complex<float> a(3, -2), b(-1, 5);
  const int64_t T = 100;
  Block blk(2, 2, 2, T);
  for (int c = 0; c < 2; ++c)
    for (int64_t t = 0; t < T; ++t)
      for (int p = 0; p < 2; ++p) {
        blk.set(c, 0, t, p, a);
        blk.set(c, 1, t, p, b);
      }
  for (CorrPrecision precision : {CorrPrecision::fp32, CorrPrecision::fp16, CorrPrecision::int8}) {
    const std::vector<cd> vis = correlate(blk, precision);
    const cd expected = double(T) * cd(a) * std::conj(cd(b));
    for (int c = 0; c < 2; ++c)
      for (int p = 0; p < 4; ++p) {
        EXPECT_EQ(vis[vis_index(blk, c, 0, 1, p / 2, p % 2)], expected);
        EXPECT_EQ(vis[vis_index(blk, c, 0, 0, p / 2, p % 2)], double(T) * std::norm(cd(a)));
        EXPECT_EQ(vis[vis_index(blk, c, 1, 1, p / 2, p % 2)], double(T) * std::norm(cd(b)));
      }
  }
}

TEST(CorrelatorKat, CommonSignalInNoiseRecoversTheCorrelationCoefficient) {
  // x_a = s + n_a with <|s|^2> = 1, <|n|^2> = 3: rho = 1/4 on every baseline, phase 0.
  const int nant = 4;
  const int64_t T = 20000;
  Block b(1, nant, 1, T);
  std::mt19937 rng(5);
  std::normal_distribution<float> g(0.0f, 1.0f);
  const float s_sigma = std::sqrt(0.5f), n_sigma = std::sqrt(1.5f);
  for (int64_t t = 0; t < T; ++t) {
    const std::complex<float> s(s_sigma * g(rng), s_sigma * g(rng));
    for (int a = 0; a < nant; ++a) b.set(0, a, t, 0, s + std::complex<float>(n_sigma * g(rng), n_sigma * g(rng)));
  }
  const std::vector<cd> vis = correlate(b, CorrPrecision::fp32);
  const double tolerance = 4 / std::sqrt(2.0 * T);
  for (int a1 = 0; a1 < nant; ++a1)
    for (int a2 = a1 + 1; a2 < nant; ++a2) {
      const cd v = vis[vis_index(b, 0, a1, a2, 0, 0)];
      const double v11 = vis[vis_index(b, 0, a1, a1, 0, 0)].real();
      const double v22 = vis[vis_index(b, 0, a2, a2, 0, 0)].real();
      const cd rho = v / std::sqrt(v11 * v22);
      EXPECT_NEAR(rho.real(), 0.25, tolerance) << a1 << "-" << a2;
      EXPECT_NEAR(rho.imag(), 0.0, tolerance) << a1 << "-" << a2;
    }
}

TEST(CorrelatorKat, DelayedSourceGivesThePhaseSlopeItsDelayImplies) {
  // A source reaching antenna a with delay tau_a carries exp(-2 pi i nu tau_a) in channel nu:
  // arg V12 = -2 pi nu (tau_1 - tau_2). Applying exp(+2 pi i nu tau_a) first flattens it.
  const int nchan = 16, nant = 3;
  const int64_t T = 64;
  const double tau[nant] = {0.0, 3.7e-9, -11.2e-9};
  auto nu = [](int c) { return 1.0e9 + c * 1.0e6; };
  std::mt19937 rng(9);
  std::normal_distribution<double> g(0.0, 1.0);
  for (bool compensate : {false, true}) {
    Block b(nchan, nant, 1, T);
    std::mt19937 rng_signal(3);
    for (int c = 0; c < nchan; ++c)
      for (int64_t t = 0; t < T; ++t) {
        const cd s(g(rng_signal), g(rng_signal));
        for (int a = 0; a < nant; ++a) {
          const double phase = -2 * M_PI * nu(c) * tau[a] * (compensate ? 0.0 : 1.0);
          b.set(c, a, t, 0, std::complex<float>(s * std::polar(1.0, phase)));
        }
      }
    const std::vector<cd> vis = correlate(b, CorrPrecision::fp32);
    for (int c = 0; c < nchan; ++c)
      for (int a1 = 0; a1 < nant; ++a1)
        for (int a2 = a1 + 1; a2 < nant; ++a2) {
          const double expected = compensate ? 0.0 : -2 * M_PI * nu(c) * (tau[a1] - tau[a2]);
          const double error = std::remainder(std::arg(vis[vis_index(b, c, a1, a2, 0, 0)]) - expected, 2 * M_PI);
          EXPECT_LT(std::fabs(error) * 180 / M_PI, 0.1) << "channel " << c << " " << a1 << "-" << a2;
        }
  }
}

TEST(CorrelatorKat, PolarisationProductsFollowTheirInputs) {
  const int64_t T = 50;
  Block only_x(1, 2, 2, T), equal(1, 2, 2, T);
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> d(-20, 20);
  for (int64_t t = 0; t < T; ++t)
    for (int a = 0; a < 2; ++a) {
      const std::complex<float> s(float(d(rng)), float(d(rng)));
      only_x.set(0, a, t, 0, s);
      equal.set(0, a, t, 0, s);
      equal.set(0, a, t, 1, s);
    }
  const std::vector<cd> vx = correlate(only_x, CorrPrecision::int8);
  const std::vector<cd> ve = correlate(equal, CorrPrecision::int8);
  for (int a2 = 0; a2 < 2; ++a2)
    for (int a1 = 0; a1 <= a2; ++a1) {
      EXPECT_NE(vx[vis_index(only_x, 0, a1, a2, 0, 0)], cd(0));
      for (int p : {1, 2, 3}) EXPECT_EQ(vx[vis_index(only_x, 0, a1, a2, p / 2, p % 2)], cd(0));
      for (int p : {1, 2, 3})
        EXPECT_EQ(ve[vis_index(equal, 0, a1, a2, p / 2, p % 2)], ve[vis_index(equal, 0, a1, a2, 0, 0)]);
    }
}

TEST(CorrelatorKat, AutocorrelationsAreRealAndCrossHandsConjugate) {
  for (CorrPrecision precision : {CorrPrecision::fp32, CorrPrecision::int8}) {
    const Block b = random_int_block(2, 4, 2, 31, 21);
    const std::vector<cd> vis = correlate(b, precision);
    for (int c = 0; c < 2; ++c)
      for (int a = 0; a < 4; ++a) {
        for (int p : {0, 3}) {
          const cd v = vis[vis_index(b, c, a, a, p / 2, p % 2)];
          EXPECT_EQ(v.imag(), 0.0);
          EXPECT_GE(v.real(), 0.0);
        }
        const cd xy = vis[vis_index(b, c, a, a, 0, 1)], yx = vis[vis_index(b, c, a, a, 1, 0)];
        EXPECT_EQ(xy, std::conj(yx));
      }
  }
}

TEST(CorrelatorKat, ScalingZeroAndStationPermutation) {
  const Block b = random_int_block(1, 5, 2, 23, 31, -40, 40);
  Block scaled = b, zero(1, 5, 2, 23), permuted(1, 5, 2, 23);
  for (float& x : scaled.v) x *= 3;
  const int perm[5] = {3, 0, 4, 1, 2};  // station a of `b` is station perm[a] of `permuted`
  for (int a = 0; a < 5; ++a)
    for (int64_t t = 0; t < 23; ++t)
      for (int p = 0; p < 2; ++p) permuted.set(0, perm[a], t, p, b.get(0, a, t, p));
  const std::vector<cd> v = correlate(b, CorrPrecision::int8);
  const std::vector<cd> v3 = correlate(scaled, CorrPrecision::int8);
  const std::vector<cd> v0 = correlate(zero, CorrPrecision::int8);
  const std::vector<cd> vp = correlate(permuted, CorrPrecision::int8);
  for (size_t k = 0; k < v.size(); ++k) {
    EXPECT_EQ(v3[k], 9.0 * v[k]);
    EXPECT_EQ(v0[k], cd(0));
  }
  for (int a1 = 0; a1 < 5; ++a1)
    for (int a2 = a1; a2 < 5; ++a2)
      for (int p1 = 0; p1 < 2; ++p1)
        for (int p2 = 0; p2 < 2; ++p2) {
          const int q1 = perm[a1], q2 = perm[a2];
          // A swapped pair comes back conjugated with its polarisations exchanged.
          const cd w = q1 <= q2 ? vp[vis_index(permuted, 0, q1, q2, p1, p2)]
                                : std::conj(vp[vis_index(permuted, 0, q2, q1, p2, p1)]);
          EXPECT_EQ(w, v[vis_index(b, 0, a1, a2, p1, p2)]);
        }
}

TEST(CorrelatorKat, IntegratingInPiecesEqualsIntegratingAtOnce) {
  const Block b = random_int_block(2, 6, 2, 90, 41);
  for (CorrPrecision precision : {CorrPrecision::fp32, CorrPrecision::fp16, CorrPrecision::int8}) {
    auto engine = make_cpu_correlator(shape_of(b, precision), 3);
    // The same 90 samples as 3 blocks of 30: each block is canonical on its own.
    for (int piece = 0; piece < 3; ++piece) {
      Block part(2, 6, 2, 30);
      for (int c = 0; c < 2; ++c)
        for (int a = 0; a < 6; ++a)
          for (int64_t t = 0; t < 30; ++t)
            for (int p = 0; p < 2; ++p) part.set(c, a, t, p, b.get(c, a, piece * 30 + t, p));
      engine->accumulate(part.v.data(), 30);
    }
    EXPECT_EQ(engine->samples_accumulated(), 90);
    std::vector<cd> pieces;
    engine->take(pieces);
    EXPECT_EQ(engine->samples_accumulated(), 0);
    EXPECT_EQ(pieces, correlate(b, precision));  // integer-valued sums: exact in every precision
    std::vector<cd> after;
    engine->take(after);
    for (const cd& x : after) EXPECT_EQ(x, cd(0));
  }
}

TEST(CorrelatorKat, Int8WorstCaseOverTheSafeLengthIsExact) {
  // Every value -127 or +127 on one baseline for longer than an int32 sum could hold.
  const int64_t T = 2 * kInt8SafeSamples + 1000;
  Block b(1, 2, 1, T);
  for (int64_t t = 0; t < T; ++t) {
    b.set(0, 0, t, 0, {127, -127});
    b.set(0, 1, t, 0, {-127, -127});
  }
  const std::vector<cd> vis = correlate(b, CorrPrecision::int8);
  // (127 - 127i) conj(-127 - 127i) = (127 - 127i)(-127 + 127i) = 2 i 127^2.
  EXPECT_EQ(vis[vis_index(b, 0, 0, 1, 0, 0)], cd(0, 2.0 * 127 * 127 * double(T)));
  EXPECT_EQ(vis[vis_index(b, 0, 0, 0, 0, 0)], cd(2.0 * 127 * 127 * double(T), 0));
  EXPECT_GT(2.0 * 127 * 127 * double(T), 2147483647.0);
}

TEST(CorrelatorKat, Int8ClampsMinus128AndCountsIt) {
  Block b(1, 1, 1, 4);
  b.set(0, 0, 0, 0, {-128, 0});
  b.set(0, 0, 1, 0, {300, -0.4f});
  b.set(0, 0, 2, 0, {2.5f, -2.5f});  // ties to even: 2, -2
  CorrelatorShape s = shape_of(b, CorrPrecision::int8);
  auto engine = make_cpu_correlator(s, 1);
  engine->accumulate(b.v.data(), 4);
  EXPECT_EQ(engine->clamped_values(), 2);
  std::vector<cd> vis;
  engine->take(vis);
  EXPECT_EQ(vis[0], cd(127.0 * 127 + 127.0 * 127 + 8, 0));
}

TEST(CorrelatorKat, HalfRoundingIsIeeeRoundToNearestEven) {
  EXPECT_EQ(round_to_half(1.0f), 1.0f);
  EXPECT_EQ(round_to_half(1.0f + 0x1p-10f), 1.0f + 0x1p-10f);   // representable
  EXPECT_EQ(round_to_half(1.0f + 0x1p-11f), 1.0f);              // tie: to even
  EXPECT_EQ(round_to_half(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f); // tie: to even, upwards
  EXPECT_EQ(round_to_half(-3.14159f), -3.140625f);
  EXPECT_EQ(round_to_half(65504.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(round_to_half(65520.0f)));
  EXPECT_EQ(round_to_half(0x1p-24f), 0x1p-24f);                 // smallest subnormal
  EXPECT_EQ(round_to_half(0x1p-25f), 0.0f);                     // tie: to even (zero)
  EXPECT_EQ(round_to_half(3 * 0x1p-25f), 0x1p-23f);
  EXPECT_EQ(round_to_half(0x1p-14f + 0x1p-25f), 0x1p-14f);
}

// Half rounding by scaling: an independent reference for the engine's bit-level rounding.
float half_by_scaling(float value) {
  if (!std::isfinite(value) || value == 0) return value;
  int exponent = 0;
  std::frexp(value, &exponent);
  const int quantum_exp = std::max(exponent - 11, -24);
  const float r = std::ldexp(std::nearbyint(std::ldexp(value, -quantum_exp)), quantum_exp);
  return std::fabs(r) > 65504.0f ? std::copysign(INFINITY, value) : r;
}

TEST(CorrelatorKat, HalfRoundingAgreesWithRoundingByScalingOnRandomValues) {
  std::mt19937 rng(17);
  std::uniform_int_distribution<uint32_t> exponent(90, 145), fraction(0, (1u << 23) - 1);
  for (int k = 0; k < 1000000; ++k) {
    const uint32_t bits = (uint32_t(k & 1) << 31) | (exponent(rng) << 23) | fraction(rng);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    const float expected = half_by_scaling(x), got = round_to_half(x);
    ASSERT_TRUE(expected == got || (std::isinf(expected) && std::isinf(got) && (expected > 0) == (got > 0)))
        << std::hexfloat << x << ": " << got << " instead of " << expected;
  }
}

TEST(CorrelatorKat, RejectsBadShapes) {
  CorrelatorShape s;
  s.npol = 3;
  EXPECT_ANY_THROW(make_cpu_correlator(s, 1));
  s.npol = 2;
  s.nant = 0;
  EXPECT_ANY_THROW(make_cpu_correlator(s, 1));
}

}  // namespace
}  // namespace rapt
