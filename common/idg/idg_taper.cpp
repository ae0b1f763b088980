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

// A subgrid's pixel values reach the image through t(X) = (1/N-bar) sum_q sum_i t_i
// exp(2 pi i q (X/N - (i - N-bar/2)/N-bar)), q in [-N-bar/2, N-bar/2): the Dirichlet interpolation
// of the samples. The samples are symmetric about N-bar/2 and t_0 = 0, so the result is real.
std::vector<double> idg_image_taper(int subgrid_size, int grid_size) {
  const std::vector<double> samples = idg_subgrid_taper(subgrid_size);
  const int nb = subgrid_size;
  std::vector<double> taper(static_cast<size_t>(grid_size));
  for (int x = 0; x < grid_size; ++x) {
    const double X = x - 0.5 * grid_size;
    double sum = 0;
    for (int i = 0; i < nb; ++i) {
      const double t = X / grid_size - (i - 0.5 * nb) / nb;
      for (int q = -nb / 2; q < nb / 2; ++q) sum += samples[size_t(i)] * std::cos(2 * M_PI * q * t);
    }
    taper[size_t(x)] = sum / nb;
  }
  return taper;
}

}  // namespace rapt
