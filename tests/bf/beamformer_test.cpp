// Known-answer tests of beam forming: a plane wave over a random layout, the array factor of
// the other beams against an independent double-precision sum, the weight sign convention,
// flagging and renormalisation, Stokes parameters, integration and channel summation, and the
// incoherent beam. The CPU engine is the engine under test here; bf_gpu_test.cpp holds the GPU
// engine to it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "bf/beam_directions.hpp"
#include "bf/beam_weights.hpp"
#include "bf/beamformer_engine.hpp"
#include "bf/station_flags.hpp"
#include "geometry/array_layout.hpp"
#include "geometry/interferometer_geometry.hpp"

namespace rapt {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
using cd = std::complex<double>;

// `n` stations scattered over a 3 km x 3 km patch around MeerKAT's position.
ArrayLayout random_layout(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> offset(-1500, 1500), height(-5, 5);
  std::string text = "# frame: enu -30.7130 21.4430 1038\n";
  for (int a = 0; a < n; ++a)
    text += "s" + std::to_string(a) + " " + std::to_string(offset(rng)) + " " +
            std::to_string(offset(rng)) + " " + std::to_string(height(rng)) + "\n";
  return parse_layout_text(text, "random.txt");
}

const SkyDirection kPointing{3.1, -0.7};     // RA ~11h50m, Dec ~-40 deg
const UtcInstant kTime{60310, 64800.0};

// Narrow-band voltages of a plane wave from `source`: every station sees the same signal s(t)
// with the phase factor exp(-2 pi i nu tau_a) (rapt(7)), tau_a from geometric_delays_s.
// Canonical order [chan][ant][time][pol][re, im]; both polarisations carry s(t) and i s(t).
std::vector<float> plane_wave(const ArrayLayout& layout, const SkyDirection& source,
                              const std::vector<double>& freqs_hz, int64_t nt,
                              const std::vector<cd>& signal) {
  const std::vector<double> tau = geometric_delays_s(layout, source, kTime);
  const int nant = layout.size();
  std::vector<float> x(freqs_hz.size() * nant * size_t(nt) * 4);
  for (size_t c = 0; c < freqs_hz.size(); ++c)
    for (int a = 0; a < nant; ++a) {
      const cd phase = std::polar(1.0, -kTwoPi * freqs_hz[c] * tau[size_t(a)]);
      for (int64_t t = 0; t < nt; ++t) {
        const cd v0 = signal[size_t(t)] * phase, v1 = cd(0, 1) * v0;
        float* out = x.data() + ((c * nant + a) * size_t(nt) + size_t(t)) * 4;
        out[0] = float(v0.real()), out[1] = float(v0.imag());
        out[2] = float(v1.real()), out[3] = float(v1.imag());
      }
    }
  return x;
}

std::vector<cd> random_signal(int64_t nt, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  std::vector<cd> s(static_cast<size_t>(nt));
  for (cd& v : s) v = cd(g(rng), g(rng));
  return s;
}

// Array factor of a beam towards `beam` for a source at `source`: (1/N) sum_a
// exp(2 pi i nu (tau_a(beam) - tau_a(source))), in double precision from geometric_delays_s.
cd array_factor(const ArrayLayout& layout, const SkyDirection& beam, const SkyDirection& source,
                double freq_hz) {
  const std::vector<double> tb = geometric_delays_s(layout, beam, kTime);
  const std::vector<double> ts = geometric_delays_s(layout, source, kTime);
  cd sum = 0;
  for (size_t a = 0; a < tb.size(); ++a) sum += std::polar(1.0, kTwoPi * freq_hz * (tb[a] - ts[a]));
  return sum / double(tb.size());
}

std::vector<uint8_t> all_valid(int nant) { return std::vector<uint8_t>(size_t(nant), 1); }

struct Formed {
  BeamformerShape shape;
  BeamBlockOutput out;
};

Formed form(BeamformerShape shape, const BeamWeights& weights, const std::vector<float>& x,
            int64_t nt, const std::vector<uint8_t>& flags = {}) {
  auto engine = make_cpu_beamformer(shape, 3);
  engine->set_weights(weights);
  Formed f{shape, {}};
  engine->form(x.data(), nt, flags.empty() ? nullptr : flags.data(), f.out);
  return f;
}

TEST(Beamformer, MatchedBeamReturnsThePlaneWaveAndOthersFollowTheArrayFactor) {
  const ArrayLayout layout = random_layout(24, 7);
  const std::vector<double> freqs{1.20e9, 1.35e9, 1.50e9};
  const std::vector<BeamDirection> beams = tile_beams(BeamTiling::hex, 0.01, 19, kPointing);
  const SkyDirection source = beams[4].direction;  // the wave comes from beam 4's direction
  const int64_t nt = 64;
  const std::vector<cd> s = random_signal(nt, 3);
  const std::vector<float> x = plane_wave(layout, source, freqs, nt, s);

  std::vector<SkyDirection> directions;
  for (const BeamDirection& b : beams) directions.push_back(b.direction);
  const GeometricWeights geometry(layout, directions, freqs, nullptr);
  BeamformerShape shape;
  shape.nchan = 3, shape.nant = 24, shape.npol = 2, shape.nbeams = 19;
  shape.coherent = true;
  const Formed f = form(shape, normalise_weights(geometry.at(kTime), all_valid(24)), x, nt);

  int attenuated = 0;
  for (int b = 0; b < 19; ++b)
    for (size_t c = 0; c < freqs.size(); ++c) {
      const cd af = array_factor(layout, directions[size_t(b)], source, freqs[c]);
      if (b == 4) {
        EXPECT_NEAR(std::abs(af), 1.0, 1e-12);
      }
      if (std::abs(af) < 0.5) ++attenuated;
      for (int64_t t = 0; t < nt; ++t) {
        const float* y = f.out.coherent.data() + ((size_t(b) * 3 + c) * nt + size_t(t)) * 4;
        const cd expected = s[size_t(t)] * af;
        EXPECT_NEAR(y[0], expected.real(), 2e-5 * std::abs(s[size_t(t)]) + 1e-6) << b << " " << c;
        EXPECT_NEAR(y[1], expected.imag(), 2e-5 * std::abs(s[size_t(t)]) + 1e-6) << b << " " << c;
        EXPECT_NEAR(y[2], -expected.imag(), 2e-5 * std::abs(s[size_t(t)]) + 1e-6);
        EXPECT_NEAR(y[3], expected.real(), 2e-5 * std::abs(s[size_t(t)]) + 1e-6);
        // Stokes I of the beam: 2 |s|^2 |AF|^2 (two polarisations of equal power).
        const double power = 2 * std::norm(expected);
        EXPECT_NEAR(f.out.detected[(size_t(b) * nt + size_t(t)) * 3 + c], power,
                    1e-4 * std::norm(s[size_t(t)]) + 1e-6);
      }
    }
  EXPECT_GT(attenuated, 20);  // the grid is wide enough that most off-source beams lose power
}

TEST(Beamformer, WeightsUndoTheArrivalPhaseWithAPositiveExponent) {
  // Two stations 1 km apart east-west and a source low in the east: the eastern station sees the
  // wavefront first (negative delay), and the weight is exp(+2 pi i nu tau).
  const ArrayLayout layout = parse_layout_text(
      "# frame: enu 0 0 0\nwest -500 0 0\neast 500 0 0\n", "two.txt");
  const double freq = 1e9;
  const std::vector<double> tau = geometric_delays_s(layout, kPointing, kTime);
  const GeometricWeights geometry(layout, {kPointing}, {freq}, nullptr);
  const RawBeamWeights w = geometry.at(kTime);
  ASSERT_EQ(w.values.size(), 2u);
  for (int a = 0; a < 2; ++a) {
    const double expected = std::remainder(kTwoPi * freq * tau[size_t(a)], kTwoPi);
    EXPECT_NEAR(std::remainder(std::arg(w.values[size_t(a)]) - expected, kTwoPi), 0.0, 1e-9);
  }
  EXPECT_GT(std::fabs(tau[0] - tau[1]), 1e-9);  // the test means something only if they differ
}

TEST(Beamformer, FringeStoppedWeightsSteerByDelayDifferencesFromThePointing) {
  const ArrayLayout layout = random_layout(8, 11);
  const SkyDirection beam = direction_from_lmn(0.004, -0.002, kPointing);
  const GeometricWeights raw(layout, {beam}, {1.4e9}, nullptr);
  const GeometricWeights stopped(layout, {beam}, {1.4e9}, &kPointing);
  const GeometricWeights at_pointing(layout, {kPointing}, {1.4e9}, nullptr);
  const RawBeamWeights a = raw.at(kTime), b = stopped.at(kTime), p = at_pointing.at(kTime);
  for (size_t k = 0; k < 8; ++k)
    EXPECT_NEAR(std::abs(a.values[k] - b.values[k] * p.values[k]), 0.0, 1e-9);
  // A beam at the pointing of fringe-stopped data needs no phase at all.
  const RawBeamWeights unity = GeometricWeights(layout, {kPointing}, {1.4e9}, &kPointing).at(kTime);
  for (const auto& v : unity.values) EXPECT_NEAR(std::abs(v - 1.0), 0.0, 1e-12);
}

TEST(Beamformer, FlaggedStationIsLeftOutAndTheBeamRenormalised) {
  const ArrayLayout layout = random_layout(10, 5);
  const std::vector<double> freqs{1.4e9};
  const int64_t nt = 32;
  const std::vector<cd> s = random_signal(nt, 9);
  std::vector<float> x = plane_wave(layout, kPointing, freqs, nt, s);
  // Station 3 is broken: garbage that must not reach the beam.
  for (int64_t k = 0; k < nt * 4; ++k) x[3 * size_t(nt) * 4 + size_t(k)] = 1e6f;
  const StationFlags flags =
      parse_station_flags("s3 0 end\n", "flags.txt", {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"});
  const BlockFlags bf = block_flags(flags, 10, 0, nt, 1e-6, 0.5);
  ASSERT_EQ(bf.nvalid, 9);
  const GeometricWeights geometry(layout, {kPointing}, freqs, nullptr);
  const BeamWeights w = normalise_weights(geometry.at(kTime), bf.station_valid);
  EXPECT_NEAR(std::abs(w.weights[0]), 1.0 / 9, 1e-7);
  EXPECT_EQ(w.weights[3], std::complex<float>(0, 0));
  BeamformerShape shape;
  shape.nchan = 1, shape.nant = 10, shape.npol = 2, shape.nbeams = 1;
  shape.coherent = true, shape.incoherent = true;
  const Formed f = form(shape, w, x, nt, bf.sample_flags);
  for (int64_t t = 0; t < nt; ++t) {
    EXPECT_NEAR(f.out.coherent[size_t(t) * 4], s[size_t(t)].real(), 1e-5 * std::abs(s[size_t(t)]) + 1e-6);
    EXPECT_NEAR(f.out.coherent[size_t(t) * 4 + 1], s[size_t(t)].imag(), 1e-5 * std::abs(s[size_t(t)]) + 1e-6);
    // The incoherent beam: the mean power of the 9 stations kept, 2 |s|^2.
    EXPECT_NEAR(f.out.incoherent[size_t(t)], 2 * std::norm(s[size_t(t)]), 1e-4 * std::norm(s[size_t(t)]) + 1e-6);
  }
}

TEST(Beamformer, FlaggedSamplesAreZeroAndIntegrationsRescaled) {
  // One station, weight 1, constant power 1 per polarisation: Stokes I = 2 per sample.
  const int64_t nt = 8;
  std::vector<float> x(size_t(nt) * 4, 0.0f);
  for (int64_t t = 0; t < nt; ++t) x[size_t(t) * 4] = 1, x[size_t(t) * 4 + 3] = 1;
  std::vector<uint8_t> flags(size_t(nt), 0);
  flags[1] = 1;                         // window 0: 3 of 4 samples left
  flags[4] = flags[5] = flags[6] = flags[7] = 1;  // window 1: nothing left
  x[4] = 100;                           // a flagged sample's value must not count
  BeamformerShape shape;
  shape.nchan = 1, shape.nant = 1, shape.npol = 2, shape.nbeams = 1, shape.tint = 4;
  shape.coherent = true;
  const Formed f = form(shape, BeamWeights{{1.0f}, {1.0f}}, x, nt, flags);
  ASSERT_EQ(f.out.nsamples_out, 2);
  EXPECT_FLOAT_EQ(f.out.detected[0], 8.0f);  // 3 samples of 2, times 4/3
  EXPECT_FLOAT_EQ(f.out.detected[1], 0.0f);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(f.out.coherent[4 + size_t(k)], 0.0f);
  EXPECT_EQ(f.out.coherent[0], 1.0f);
}

TEST(Beamformer, FullStokesFollowsTheIeeeConventionForLinearAndCircularFeeds) {
  // One sample each: X only; X = Y (linear at +45 deg); Y = i X (circular).
  const std::vector<std::vector<float>> samples{{1, 0, 0, 0}, {1, 0, 1, 0}, {1, 0, 0, 1}};
  const std::vector<std::vector<float>> linear{{1, 1, 0, 0}, {2, 0, 2, 0}, {2, 0, 0, 2}};
  const std::vector<std::vector<float>> circular{{1, 0, 0, 1}, {2, 2, 0, 0}, {2, 0, 2, 0}};
  for (int circ = 0; circ < 2; ++circ)
    for (size_t k = 0; k < samples.size(); ++k) {
      BeamformerShape shape;
      shape.nchan = 1, shape.nant = 1, shape.npol = 2, shape.nbeams = 1;
      shape.detection = BeamDetection::full_stokes;
      shape.circular = circ == 1;
      const Formed f = form(shape, BeamWeights{{1.0f}, {1.0f}}, samples[k], 1);
      const auto& want = circ ? circular[k] : linear[k];
      for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(f.out.detected[size_t(i)], want[size_t(i)]) << circ << k << i;
    }
}

TEST(Beamformer, FscrunchSumsAdjacentChannelsInInputOrder) {
  // 4 channels, one station, power c + 1 in channel c (one polarisation).
  std::vector<float> x(4 * 2);
  for (int c = 0; c < 4; ++c) x[size_t(c) * 2] = std::sqrt(float(c + 1));
  BeamformerShape shape;
  shape.nchan = 4, shape.nant = 1, shape.npol = 1, shape.nbeams = 1, shape.fscrunch = 2;
  const Formed f = form(shape, BeamWeights{std::vector<std::complex<float>>(4, 1.0f), {1.0f}}, x, 1);
  ASSERT_EQ(f.out.detected.size(), 2u);
  EXPECT_NEAR(f.out.detected[0], 3.0f, 1e-5);
  EXPECT_NEAR(f.out.detected[1], 7.0f, 1e-5);
}

TEST(Beamformer, ShapeRefusesWhatCannotBeFormed) {
  BeamformerShape shape;
  shape.nchan = 6, shape.fscrunch = 4;
  EXPECT_THROW(shape.validate(), std::exception);
  shape.fscrunch = 1, shape.npol = 1, shape.detection = BeamDetection::full_stokes;
  EXPECT_THROW(shape.validate(), std::exception);
  shape.detection = BeamDetection::none;
  EXPECT_THROW(shape.validate(), std::exception);
  auto engine = make_cpu_beamformer(BeamformerShape{}, 1);
  BeamBlockOutput out;
  const std::vector<float> x(4, 0.0f);
  EXPECT_THROW(engine->form(x.data(), 1, nullptr, out), std::invalid_argument);  // no weights
}

}  // namespace
}  // namespace rapt
