// idg-grid --niter: Cotton-Schwab CLEAN on visibilities an IDG engine holds (IdgEngine::hold).
// Hogbom minor cycles on the residual image (hogbom_clean.hpp) alternate with major cycles that
// subtract the new components from the held visibilities and image the residuals afresh, so
// the residual image stays exact however far the PSF's sidelobes reach.
#pragma once
#include <vector>

#include "idg/idg_engine.hpp"
#include "imaging/hogbom_clean.hpp"

namespace rapt {

struct CleanResult {
  std::vector<float> model;     // Jy per pixel
  std::vector<float> residual;  // Jy/beam, after the last major cycle
  std::vector<float> restored;  // residual + model convolved with the beam
  CleanBeam beam;
  int components = 0;
  int major_cycles = 0;
  double peak = 0;  // the residual's largest |value| in the clean region at the end
  // CLEAN stopped because a major cycle left the residual's peak above the one its minor cycle
  // started from (the model then makes the residual worse, not better): that peak, before and
  // after.
  bool diverged = false;
  double diverged_from = 0, diverged_to = 0;
};

// `engine` holds one polarisation's visibilities (settings npol 1); `dirty` and `psf` are its
// grid_held and psf_held images. The major cycles send the engine the components
// (subtract_held_points) and take the residual's real plane (grid_held_real). The minor cycles
// run on GPU `minor_gpu`, or on `threads` (>= 1) host threads where it is negative
// (minor_cycle.hpp: the same results either way).
CleanResult clean_held(IdgEngine& engine, const IdgImage& dirty, const IdgImage& psf,
                       const CleanSettings& settings, int threads, int minor_gpu = -1);

}  // namespace rapt
