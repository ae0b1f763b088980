// Fresnel integrals C(x) = int_0^x cos(pi t^2 / 2) dt and S(x) = int_0^x sin(pi t^2 / 2) dt in
// double precision (relative error ~1e-15), for the f-fdot response.
#pragma once

namespace rapt {

struct FresnelValues {
  double c = 0.0;  // C(x)
  double s = 0.0;  // S(x)
};

// Odd in x; C, S -> 0.5 as x -> +infinity.
FresnelValues fresnel_integrals(double x);

}  // namespace rapt
