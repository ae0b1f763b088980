#include "idg/idg_taper.hpp"

#include <cmath>

namespace rapt {

double idg_spheroidal(double nu) {
  nu = std::fabs(nu);
  if (nu > 1.0) return 0.0;
  // Two rational fits, on [0, 0.75) and [0.75, 1], in d = nu^2 - end^2.
  static constexpr double kP[2][5] = {
      {8.203343e-2, -3.644705e-1, 6.278660e-1, -5.335581e-1, 2.312756e-1},
      {4.028559e-3, -3.697768e-2, 1.021332e-1, -1.201436e-1, 6.412774e-2}};
  static constexpr double kQ[2][3] = {{1.0, 8.212018e-1, 2.078043e-1},
                                      {1.0, 9.599102e-1, 2.918724e-1}};
  const int part = nu < 0.75 ? 0 : 1;
  const double end = part == 0 ? 0.75 : 1.0;
  const double d = nu * nu - end * end;
  double top = 0, bottom = 0;
  for (int k = 4; k >= 0; --k) top = top * d + kP[part][k];
  for (int k = 2; k >= 0; --k) bottom = bottom * d + kQ[part][k];
  return (1.0 - nu * nu) * top / bottom;
}

std::vector<double> idg_subgrid_taper(int subgrid_size) {
  std::vector<double> taper(static_cast<size_t>(subgrid_size));
  const double half = 0.5 * subgrid_size;
  for (int i = 0; i < subgrid_size; ++i) taper[size_t(i)] = idg_spheroidal((i - half) / half);
  return taper;
}

// The spheroidal itself at every image pixel, not the trigonometric interpolation of the
// subgrid's samples that the subgrid FFT, adder and grid FFT perform: a visibility's tapered
// phasor reaches the image as its true value plus what the taper's spectrum aliases past the
// subgrid, and dividing by the true taper leaves that error alone, where dividing by the
// interpolated taper would add the taper's own aliasing to it (measured: 1.8x larger errors
// between the subgrids' sample points). On the sample points the two agree.
std::vector<double> idg_image_taper(int subgrid_size, int grid_size) {
  (void)subgrid_size;  // kept so a taper that depends on it can slot in
  std::vector<double> taper(static_cast<size_t>(grid_size));
  for (int x = 0; x < grid_size; ++x) taper[size_t(x)] = idg_spheroidal((x - 0.5 * grid_size) / (0.5 * grid_size));
  return taper;
}

}  // namespace rapt
