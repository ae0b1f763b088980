// Beam forming of voltages from the array simulator (an independent signal generator: whole-
// and fractional-sample delays, phase from the full delay): a point source's power in each
// beam of a grid follows the array factor, computed here in double precision from
// geometric_delays_s.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "bf/beam_directions.hpp"
#include "bf/beam_weights.hpp"
#include "bf/beamformer_engine.hpp"
#include "geometry/array_layout.hpp"
#include "sim/array_voltage_simulator.hpp"

namespace rapt {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// Twelve stations within 300 m: delays below 1 us, an eighth of a 125 kHz channel's sample, so
// phase-only weights hold (rapt(7)).
ArrayLayout compact_layout() {
  return parse_layout_text(
      "# frame: enu -30.7130 21.4430 1038\n"
      "c0 0 0 0\nc1 120 35 0.5\nc2 -80 140 1\nc3 -150 -60 0\nc4 60 -130 0.3\nc5 10 150 0\n"
      "c6 140 -40 0\nc7 -140 70 0.2\nc8 90 110 0\nc9 -30 -150 0\nc10 -100 -120 0\nc11 150 90 0\n",
      "compact.txt");
}

TEST(BeamformerSimulated, PointSourcePowerInEachBeamFollowsTheArrayFactor) {
  ArrayVoltagePlan plan;
  plan.layout = compact_layout();
  plan.phase_centre = {3.0, -0.6};
  plan.nchan = 8;
  plan.bandwidth_mhz = 1.0;
  plan.centre_freq_mhz = 1400.0;
  plan.nsamples = 4096;
  plan.start = {60310, 3600.0};
  plan.nbits = 32;
  plan.noise = false;
  plan.gain = 1.0;
  const std::vector<BeamDirection> beams = tile_beams(BeamTiling::hex, 0.02, 7, plan.phase_centre);
  PointSourceSpec source;
  source.text = "test source";
  source.direction = beams[2].direction;  // the source sits in beam 2
  source.flux_jy = 10.0;
  plan.sources.push_back(source);
  ArrayVoltageSimulator simulator(plan, 2);
  const VoltageHeader header = plan.header("PSRDADA");
  std::vector<float> x(header.block_values(plan.nsamples));
  simulator.generate_block(0, plan.nsamples, x.data());

  std::vector<SkyDirection> directions;
  for (const BeamDirection& b : beams) directions.push_back(b.direction);
  std::vector<double> freqs;
  for (int c = 0; c < plan.nchan; ++c) freqs.push_back(header.channel_freq_mhz(c) * 1e6);
  const UtcInstant middle{plan.start.mjd_day, plan.start.seconds + plan.duration_s() / 2};
  const GeometricWeights geometry(plan.layout, directions, freqs, nullptr);
  BeamformerShape shape;
  shape.nchan = plan.nchan, shape.nant = plan.layout.size(), shape.npol = 2, shape.nbeams = 7;
  shape.tint = int(plan.nsamples);  // one integration over the whole block
  auto engine = make_cpu_beamformer(shape, 2);
  engine->set_weights(normalise_weights(geometry.at(middle),
                                        std::vector<uint8_t>(size_t(shape.nant), 1)));
  BeamBlockOutput out;
  engine->form(x.data(), plan.nsamples, nullptr, out);
  ASSERT_EQ(out.nsamples_out, 1);

  const std::vector<double> tau_source = geometric_delays_s(plan.layout, source.direction, middle);
  int weaker = 0;
  for (int b = 0; b < 7; ++b) {
    const std::vector<double> tau_beam = geometric_delays_s(plan.layout, directions[size_t(b)], middle);
    for (int c = 0; c < plan.nchan; ++c) {
      std::complex<double> af = 0;
      for (int a = 0; a < shape.nant; ++a)
        af += std::polar(1.0, kTwoPi * freqs[size_t(c)] * (tau_beam[size_t(a)] - tau_source[size_t(a)]));
      const double gain = std::norm(af / double(shape.nant));
      // Integrated Stokes I over the block: nsamples x 2 polarisations x S x |AF|^2 (the
      // source's own noise fluctuates by ~1/sqrt(2 x 4096) about S; the tolerance allows 4%).
      const double measured = out.detected[size_t(b) * plan.nchan + size_t(c)] / (2.0 * plan.nsamples);
      EXPECT_NEAR(measured, source.flux_jy * gain, 0.04 * source.flux_jy) << "beam " << b << " channel " << c;
      if (b != 2 && gain < 0.6) ++weaker;
    }
  }
  EXPECT_GT(weaker, 20);  // the neighbouring beams really are down the array factor's slope
}

}  // namespace
}  // namespace rapt
