// Deconvolution for idg-grid --niter, on N x N images [y][x] in the geometry of
// idg/idg_settings.hpp (the PSF's peak at pixel (N/2, N/2)): Hogbom's CLEAN on a residual image
// (the minor cycle), the Gaussian restoring beam fitted to the PSF's main lobe, and the
// restored image. The major cycles around the minor ones (subtracting the model from the
// visibilities, imaging what is left) are clean_cycles.hpp's.
#pragma once
#include <cstddef>
#include <vector>

namespace rapt {

struct CleanSettings {
  int niter = 0;          // --niter: components at most, over every minor cycle; 0 = no CLEAN
  double gain = 0.1;      // --gain: the fraction of the peak a component takes
  double mgain = 0.8;     // --mgain (WSClean's): a minor cycle cleans at most this fraction
                          // of its first peak, stopping at (1 - mgain) x it; 1 = no stop
  double threshold = 0;   // --threshold: Jy/beam; no component is taken below it
};

// Components go only in the central kCleanRegion of the image in x and in y: a PSF as large as
// the image, shifted to any pixel there, then covers every other pixel there, so a component
// leaves no sidelobe of its own behind in the region (image a field twice the one to clean;
// idg-grid's image is the padded grid's centre, so there the region is a larger part of it).
constexpr double kCleanRegion = 0.5;

struct MinorCycle {
  int components = 0;
  double first_peak = 0;  // |residual| at the start, within the region
  double last_peak = 0;   // at the end: the peak the next component would have taken
  // The model pixels the components went to (y n + x), in order; one may appear more than once.
  std::vector<size_t> pixels;
};

// A minor cycle whose peak passes this many times its first peak is diverging (the PSF no
// longer describes the residual, as where CLEAN has gone below the gridding's own errors): it
// stops there, and the major cycle that follows stops CLEAN (clean_cycles.hpp).
constexpr double kDivergingPeakRatio = 2.0;

// Hogbom: up to `max_components` times, the largest |residual| in the region, p at pixel q,
// becomes a component gain x p: model[q] += gain p and residual -= gain p x the PSF shifted
// to q, in the region (outside it the residual is left as it was: a major cycle makes it
// afresh). Stops first when the peak falls below threshold or below (1 - mgain) x the first
// peak, or rises above kDivergingPeakRatio x the first peak. `threads` >= 1.
MinorCycle hogbom_minor_cycle(std::vector<float>& residual, const std::vector<float>& psf, int n,
                              const CleanSettings& settings, int max_components,
                              std::vector<float>& model, int threads);

// The largest |value| of `image` in the clean region.
double clean_region_peak(const std::vector<float>& image, int n, int threads);

// The restoring beam: full widths at half maximum in pixels and the major axis's position
// angle (radians, from +y (north) towards -x (east), in (-pi/2, pi/2]).
struct CleanBeam {
  double major_px = 0, minor_px = 0, pa_rad = 0;
};

// The Gaussian fitted (least squares on the logarithm) to the core of the PSF's main lobe: the
// pixels above 35 % of its peak joined to (N/2, N/2). A lobe too small to fit gives a beam of
// one pixel. Throws DataError when the PSF's centre holds no positive value.
CleanBeam fit_clean_beam(const std::vector<float>& psf, int n);

// residual + the model convolved with the beam (a Gaussian of peak 1: Jy per pixel become
// Jy/beam), evaluated out to 5 sigma of the major axis around each component.
std::vector<float> restore_image(const std::vector<float>& model, const std::vector<float>& residual,
                                 int n, const CleanBeam& beam);

}  // namespace rapt
