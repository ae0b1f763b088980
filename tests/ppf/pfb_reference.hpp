// An independent, straightforward polyphase filterbank in double precision for the tests: the
// FIR as a direct sum over the whole input (zeros before it) and the FFT as a direct DFT, with
// the fine channels mapped, conjugated and corrected as the contract in ppf/channeliser.hpp
// says (written out again here, not taken from the engines). Small inputs only: O(L^2) a frame.
// Also the filter's own frequency response, and test signals.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "ppf/channeliser.hpp"

namespace rapt::test {

constexpr double kTestPi = 3.14159265358979323846;

// H(nu) = sum over k of h[k] exp(+2 pi i nu k), nu in cycles per input sample: a tone
// exp(2 pi i phi n) gives bin b of output sample t the value
// exp(2 pi i phi (t - ntaps + 1) L) H(phi - b / L).
inline std::complex<double> filter_response(const std::vector<float>& h, double nu) {
  std::complex<double> sum = 0;
  for (size_t k = 0; k < h.size(); ++k)
    sum += double(h[k]) * std::polar(1.0, 2 * kTestPi * nu * double(k));
  return sum;
}

// The whole output of `nframes` frames for canonical `input`, [chan_out][ant][t][pol] complex.
inline std::vector<std::complex<double>> reference_pfb(const ChanneliserShape& s,
                                                       const std::vector<float>& h,
                                                       const ChanneliserCorrections& corr,
                                                       const std::vector<float>& input,
                                                       int64_t nframes) {
  const int L = s.frame(), P = s.nfine, M = s.ntaps;
  const int values = s.real_input ? 1 : 2;
  const int64_t nsamples = nframes * L;
  const int nchan_out = s.nchan_in * P;
  std::vector<std::complex<double>> out(size_t(nchan_out) * s.nant * nframes * s.npol);
  std::vector<std::complex<double>> v(static_cast<size_t>(L)), spectrum(static_cast<size_t>(L));
  for (int c = 0; c < s.nchan_in; ++c)
    for (int a = 0; a < s.nant; ++a)
      for (int p = 0; p < s.npol; ++p) {
        auto x = [&](int64_t n) -> std::complex<double> {
          if (n < 0) return 0.0;
          const float* at = input.data() + ((size_t(c) * s.nant + a) * nsamples + n) * s.npol * values +
                            size_t(p) * values;
          return values == 1 ? std::complex<double>(at[0], 0) : std::complex<double>(at[0], at[1]);
        };
        for (int64_t t = 0; t < nframes; ++t) {
          for (int q = 0; q < L; ++q) {
            v[size_t(q)] = 0;
            for (int m = 0; m < M; ++m)
              v[size_t(q)] += double(h[size_t(m) * L + q]) * x((t - M + 1 + m) * L + q);
          }
          for (int b = 0; b < L; ++b) {
            spectrum[size_t(b)] = 0;
            for (int q = 0; q < L; ++q)
              spectrum[size_t(b)] += v[size_t(q)] * std::polar(1.0, -2 * kTestPi * double(q) * b / L);
          }
          for (int j = 0; j < P; ++j) {
            int bin = j;
            if (!s.real_input) bin = s.inverted ? ((P / 2 - j) % P + P) % P : ((j - P / 2) % P + P) % P;
            std::complex<double> value = spectrum[size_t(bin)];
            if (s.real_input && s.inverted) value = std::conj(value);
            const int ch = c * P + j;
            if (!corr.bandpass_gain.empty()) value *= double(corr.bandpass_gain[size_t(ch)]);
            if (!corr.delay_s.empty())
              value *= std::polar(1.0, 2 * kTestPi * corr.fine_freq_hz[size_t(ch)] * corr.delay_s[size_t(a)]);
            out[((size_t(ch) * s.nant + a) * nframes + t) * s.npol + p] = value;
          }
        }
      }
  return out;
}

// Gaussian noise of unit variance per float, canonical order, `nsamples` time samples.
inline std::vector<float> noise_input(const ChanneliserShape& s, int64_t nsamples, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::vector<float> x(size_t(s.nchan_in) * s.nant * nsamples * s.npol * (s.real_input ? 1 : 2));
  for (float& value : x) value = gauss(rng);
  return x;
}

}  // namespace rapt::test
