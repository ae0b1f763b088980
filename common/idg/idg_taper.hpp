// The IDG taper: a separable prolate spheroidal (Schwab's rational approximation, support 6
// uv cells), applied to every subgrid in the image domain and divided out of the final image.
#pragma once
#include <vector>

namespace rapt {

// The spheroidal s(nu) for |nu| <= 1 (0 outside), s(0) = 1 up to the fit's accuracy.
double idg_spheroidal(double nu);

// Samples along one axis of a subgrid of `subgrid_size` pixels: pixel i sits at
// nu = (i - N-bar/2) / (N-bar/2), so pixel 0 is the field's edge (taper 0) and N-bar/2 its centre.
std::vector<double> idg_subgrid_taper(int subgrid_size);

// The taper the final N-pixel image is divided by, along one axis: the spheroidal at pixel x,
// nu = (x - N/2) / (N/2); the subgrid samples sit at x - N/2 = (i - N-bar/2) N / N-bar.
std::vector<double> idg_image_taper(int subgrid_size, int grid_size);

}  // namespace rapt
