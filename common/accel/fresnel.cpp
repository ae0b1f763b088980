#include "accel/fresnel.hpp"

#include <cmath>

#include "accel/fresnel_core.hpp"

namespace rapt {

FresnelValues fresnel_integrals(double x) {
  using namespace fdotmath;
  const double ax = std::fabs(x);
  FresnelValues v;
  if (ax < kFresnelSeriesLimit) {
    const Complex cs = fresnel_series(ax);
    v = {cs.re, cs.im};
  } else {
    const Complex e = fresnel_tail_amplitude(ax);
    const Complex rotated = e * cis(fresnel_phase(ax));
    v = {0.5 - rotated.re, 0.5 - rotated.im};
  }
  if (x < 0.0) {
    v.c = -v.c;
    v.s = -v.s;
  }
  return v;
}

}  // namespace rapt
