// Natural, uniform and Briggs weighting, as WSClean defines them, done on the host before
// gridding.
//
// Every sample's weight w_k (from the file, flags as zero) is summed into the cell of a uv grid
// of the image's size whose cell is 1 / (N * cell) wavelengths: a sample at (u, v) wavelengths,
// mirrored to (-u, -v) when v < 0 (the sky is real), falls in column floor(u N cell + N/2) and
// row floor(v N cell), as in WSClean. W(c) = sum of w_k over the samples in cell c. Then
//   natural:   w'_k = w_k
//   uniform:   w'_k = w_k / W(c_k)
//   briggs R:  w'_k = w_k / (1 + W(c_k) f^2),  f^2 = (5 * 10^-R)^2 / (sum_c W(c)^2 / sum_c W(c))
// A sample whose cell is off the grid keeps its weight: it is off the image's uv grid too, and
// the gridder's plan reports it (idg-grid then refuses the cell size).
//
// Samples whose uv distance sqrt(u^2 + v^2) lies outside --minuv-l .. --maxuv-l (wavelengths,
// WSClean's options of those names) get weight 0 before any of this.
//
// A Gaussian taper (--taper FWHM, WSClean's -taper-gaussian) then multiplies every weight by
// exp(-2 pi^2 sigma^2 (u^2 + v^2)), sigma = FWHM / (2 sqrt(2 ln 2)) radians: the PSF is
// convolved with a Gaussian of that full width at half maximum.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace rapt {

enum class WeightingMode { natural, uniform, briggs };

struct Weighting {
  WeightingMode mode = WeightingMode::natural;
  double robustness = 0;  // briggs only
  double taper_fwhm_rad = 0;  // Gaussian uv taper; 0 = none
  double min_uv_lambda = 0;   // uv distances imaged (--minuv-l, --maxuv-l); 0 = no limit
  double max_uv_lambda = 0;
};

// Whether a sample at (u, v) wavelengths lies within the weighting's uv-distance range.
bool in_uv_range(const Weighting& weighting, double u_lambda, double v_lambda);

// The taper's factor for a sample at (u, v) wavelengths (1 without a taper).
double gaussian_taper(const Weighting& weighting, double u_lambda, double v_lambda);

// "natural", "uniform", "briggs:R" (also "briggs R", "briggs=R"); UsageError otherwise.
Weighting parse_weighting(const std::string& text);
// "briggs 0.5 weighting", "uniform weighting, Gaussian taper 60asec, uv 0-800 wavelengths"
std::string describe_weighting(const Weighting& w);

class ImagingWeights {
 public:
  // An nx x ny grid for an image of cells cell_rad (radians) square.
  ImagingWeights(const Weighting& weighting, int nx, int ny, double cell_rad);

  // First pass: every sample (u, v in wavelengths) with its weight.
  void add(double u_lambda, double v_lambda, float weight);
  // After all add() calls: computes Briggs' f^2.
  void finish();
  // Second pass: the imaging weight of a sample.
  float weight(double u_lambda, double v_lambda, float weight) const;

  double briggs_f2() const { return f2_; }
  double cell_sum(double u_lambda, double v_lambda) const;  // W(c), 0 off the grid (tests)

 private:
  // Index of the cell holding (u, v) or its mirror, or -1 off the grid.
  long cell(double u_lambda, double v_lambda) const;

  Weighting weighting_;
  int nx_, ny_;
  double u_scale_, v_scale_;  // cells per wavelength: N * cell
  std::vector<double> sums_;  // W(c), [row][column]; only the half-plane v >= 0 is kept
  double f2_ = 0;
};

}  // namespace rapt
