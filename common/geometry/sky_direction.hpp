// A direction on the sky, J2000: a phase centre, a pointing, a source.
#pragma once

namespace rapt {

struct SkyDirection {
  double ra_rad = 0;   // J2000 (ICRS) right ascension
  double dec_rad = 0;  // J2000 (ICRS) declination
};

}  // namespace rapt
