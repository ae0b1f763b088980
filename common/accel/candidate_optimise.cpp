#include "accel/candidate_optimise.hpp"

#include <vector>

#include "accel/fourier_props.hpp"
#include "accel/rz_optimise.hpp"

namespace rapt {
namespace {

struct OptimisedHarmonics {
  std::vector<double> r;  // absolute Fourier bins
  std::vector<double> z;
  std::vector<FourierDerivs> derivs;
};

// With harmonic polishing PRESTO evaluates harmonic n at n * (r - lobin) in the array but
// reports n * r: the two agree only for lobin = 0, the usual case.
OptimisedHarmonics polished(const std::complex<float>* spectrum, int64_t numbins,
                            const GridCandidate& grid, const OptimiseOptions& options) {
  const HarmonicRzMaximum m = maximise_rz_harmonics(
      spectrum, numbins, grid.numharm, grid.r - static_cast<double>(options.lobin), grid.z);
  OptimisedHarmonics out;
  for (int n = 1; n <= grid.numharm; ++n) {
    out.r.push_back((m.r + static_cast<double>(options.lobin)) * n);
    out.z.push_back(m.z * n);
  }
  out.derivs = m.derivs;
  return out;
}

OptimisedHarmonics separately(const std::complex<float>* spectrum, int64_t numbins,
                              const GridCandidate& grid, const OptimiseOptions& options) {
  OptimisedHarmonics out;
  for (int n = 1; n <= grid.numharm; ++n) {
    const RzMaximum m = maximise_rz(spectrum, numbins,
                                    grid.r * n - static_cast<double>(options.lobin), grid.z * n);
    out.r.push_back(m.r + static_cast<double>(options.lobin));
    out.z.push_back(m.z);
    out.derivs.push_back(m.derivs);
  }
  return out;
}

}  // namespace

AccelCandidate optimise_candidate(const std::complex<float>* spectrum, int64_t numbins,
                                  const GridCandidate& grid, const OptimiseOptions& options) {
  const OptimisedHarmonics h = options.harmonic_polish
                                   ? polished(spectrum, numbins, grid, options)
                                   : separately(spectrum, numbins, grid, options);
  AccelCandidate cand;
  cand.sigma = grid.sigma;
  cand.summed_power = grid.power;
  cand.coherent_power = coherent_power(h.derivs, options.photons);
  cand.numharm = grid.numharm;
  cand.r = grid.r;
  cand.z = grid.z;
  cand.w = 0.0;
  for (int n = 0; n < grid.numharm; ++n) {
    FourierDerivs d = h.derivs[n];
    if (options.photons > 0.0) d.locpow = options.photons;  // output_harmonics' -photon swap
    AccelHarmonic harmonic;
    harmonic.props = fourier_props(d, h.r[n], h.z[n], 0.0);
    if (options.single_trial_sigma) {
      harmonic.sigma = options.single_trial_sigma(harmonic.props.pow, 1);
    }
    cand.harmonics.push_back(harmonic);
  }
  return cand;
}

}  // namespace rapt
