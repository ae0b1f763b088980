// Turns one candidate found on the search grid into the record accelsearch writes: each
// harmonic optimised in (r, z) and measured (optimize_accelcand, then calc_props as
// accelsearch's output stage uses them).
//
// What comes from where, as in PRESTO's accelsearch:
//  - AccelCandidate::r, z, w, numharm and summed_power are the grid values, unchanged: the
//    fundamentals table and the .cand record show the grid r and z (with errors 0.5, 2, 20 per
//    numharm), and "Summed Power" is the grid's summed normalised power.
//  - AccelCandidate::sigma is the grid sigma too: PRESTO recomputes candidate_sigma from the
//    grid power with the search's trials factor, which gives the grid sigma back. It is copied
//    from GridCandidate::sigma.
//  - harmonics[n-1].props: calc_props of harmonic n at its optimised (r, z) (with harmonic
//    polishing, n times the fundamental's optimised r and z).
//  - harmonics[n-1].sigma: the harmonics table's single-trial sigma, candidate_sigma(props.pow,
//    1, 1), computed by the `single_trial_sigma` function the caller passes.
//  - coherent_power: output_fundamentals' phase-aligned sum over the harmonics (fourier_props.hpp).
//  - The .cand record (cand_record in io/accel_files.hpp) takes the fundamental's props with the
//    grid r, z, w put back, as PRESTO's calc_props(derivs[0], cand->r, cand->z, ...) does.
#pragma once
#include <complex>
#include <cstdint>
#include <functional>
#include <vector>

#include "accel/rz_maximiser.hpp"
#include "io/accel_files.hpp"

namespace rapt {

struct GridCandidate {
  double r = 0.0;       // fundamental: highest-harmonic grid r / numharm
  double z = 0.0;       // fundamental: highest-harmonic grid z / numharm
  int numharm = 1;
  double power = 0.0;   // summed normalised power on the grid
  double sigma = 0.0;   // its sigma with the search's trials factor
};

struct OptimiseOptions {
  bool harmonic_polish = true;  // false: -noharmpolish (each harmonic maximised on its own)
  // Fourier bin of spectrum[0] (accelsearch's -lobin; 0 for a whole .fft file).
  int64_t lobin = 0;
  // > 0: -photon runs, powers normalised by the photon count instead of the local power
  // (coherent power and the harmonics' props, as output_fundamentals/output_harmonics do).
  double photons = 0.0;
  // Single-trial sigma of one harmonic's normalised power (PRESTO: candidate_sigma(p, 1, 1)).
  // Left empty, harmonics' sigma stays 0.
  std::function<double(double power, int numharm)> single_trial_sigma;
};

// `spectrum`: the raw (un-normalised) packed spectrum, as accelsearch holds the .fft file in
// memory (element 0 is DC/Nyquist as stored; the optimiser reads it like any bin, as PRESTO).
// numbins complex values; spectrum[k] is Fourier bin lobin + k.
AccelCandidate optimise_candidate(const std::complex<float>* spectrum, int64_t numbins,
                                  const GridCandidate& grid, const OptimiseOptions& options);

// optimise_candidate for many candidates, the (r, z) maxima found by `maximiser` in one batch
// (one start per candidate with polishing, numharm single-harmonic starts without); local powers
// and the measurements at the maxima are computed here on up to `threads` threads. With the CPU
// maximiser the results equal optimise_candidate's exactly.
std::vector<AccelCandidate> optimise_candidates(const std::complex<float>* spectrum,
                                                int64_t numbins,
                                                const std::vector<GridCandidate>& grids,
                                                const OptimiseOptions& options,
                                                RzMaximiser& maximiser, int threads);

}  // namespace rapt
