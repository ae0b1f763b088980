#include "accel/candidate_optimise.hpp"

#include <vector>

#include "accel/fourier_props.hpp"
#include "accel/rz_optimise.hpp"
#include "dedisp/parallel_for.hpp"

namespace rapt {
namespace {

struct OptimisedHarmonics {
  std::vector<double> r;  // absolute Fourier bins
  std::vector<double> z;
  std::vector<FourierDerivs> derivs;
};

// The record from each harmonic's optimised (r, z) and derivs.
AccelCandidate assembled(const GridCandidate& grid, const OptimiseOptions& options,
                         const OptimisedHarmonics& h) {
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

// The maximiser's starts for one candidate: one polishing start (max_rz_arr_harmonics), or one
// start per harmonic (max_rz_arr). With harmonic polishing PRESTO evaluates harmonic n at
// n * (r - lobin) in the array but reports n * r: the two agree only for lobin = 0, the usual
// case.
std::vector<RzStart> starts_of(const std::complex<float>* spectrum, int64_t numbins,
                               const GridCandidate& grid, const OptimiseOptions& options) {
  const double lobin = static_cast<double>(options.lobin);
  if (options.harmonic_polish) {
    return {harmonic_rz_start(spectrum, numbins, grid.numharm, grid.r - lobin, grid.z)};
  }
  std::vector<RzStart> starts;
  for (int n = 1; n <= grid.numharm; ++n) {
    starts.push_back(single_rz_start(grid.r * n - lobin, grid.z * n));
  }
  return starts;
}

// Measures the harmonics at the maxima found for one candidate's starts (as polished() and
// separately() do after their own maximisation).
OptimisedHarmonics measured(const std::complex<float>* spectrum, int64_t numbins,
                            const GridCandidate& grid, const OptimiseOptions& options,
                            const RzPoint* points) {
  const double lobin = static_cast<double>(options.lobin);
  OptimisedHarmonics out;
  if (options.harmonic_polish) {
    const HarmonicRzMaximum m = harmonic_rz_maximum_at(spectrum, numbins, grid.numharm, points[0]);
    for (int n = 1; n <= grid.numharm; ++n) {
      out.r.push_back((m.r + lobin) * n);
      out.z.push_back(m.z * n);
    }
    out.derivs = m.derivs;
    return out;
  }
  for (int n = 1; n <= grid.numharm; ++n) {
    const RzMaximum m = rz_maximum_at(spectrum, numbins, points[n - 1]);
    out.r.push_back(m.r + lobin);
    out.z.push_back(m.z);
    out.derivs.push_back(m.derivs);
  }
  return out;
}

}  // namespace

AccelCandidate optimise_candidate(const std::complex<float>* spectrum, int64_t numbins,
                                  const GridCandidate& grid, const OptimiseOptions& options) {
  std::vector<RzPoint> points;
  for (const RzStart& start : starts_of(spectrum, numbins, grid, options)) {
    points.push_back(maximise_rz_point(spectrum, numbins, start.power_norms, start.r, start.z));
  }
  return assembled(grid, options, measured(spectrum, numbins, grid, options, points.data()));
}

std::vector<AccelCandidate> optimise_candidates(const std::complex<float>* spectrum,
                                                int64_t numbins,
                                                const std::vector<GridCandidate>& grids,
                                                const OptimiseOptions& options,
                                                RzMaximiser& maximiser, int threads) {
  std::vector<std::vector<RzStart>> per_candidate(grids.size());
  parallel_for(threads, grids.size(), [&](size_t i, int) {
    per_candidate[i] = starts_of(spectrum, numbins, grids[i], options);
  });
  std::vector<RzStart> starts;
  std::vector<size_t> first_start;
  for (const std::vector<RzStart>& s : per_candidate) {
    first_start.push_back(starts.size());
    starts.insert(starts.end(), s.begin(), s.end());
  }
  const std::vector<RzPoint> points = maximiser.maximise(spectrum, numbins, starts);
  std::vector<AccelCandidate> candidates(grids.size());
  parallel_for(threads, grids.size(), [&](size_t i, int) {
    candidates[i] = assembled(
        grids[i], options, measured(spectrum, numbins, grids[i], options, &points[first_start[i]]));
  });
  return candidates;
}

}  // namespace rapt
