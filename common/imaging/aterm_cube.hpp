// A-terms from a FITS cube, in the layout WSClean reads for its FITS a-terms, and their sampling
// at the subgrid pixels of image-domain gridding (idg/idg_aterms.hpp).
//
// The file: the primary HDU, any BITPIX (normally -32 or -64), axes in FITS order (axis 1
// varies fastest):
//   1 RA      CTYPE1 'RA---SIN' (any RA projection is read as SIN); CRVAL1, CDELT1 in degrees
//             (CDELT1 usually negative: RA grows to the left)
//   2 DEC     CTYPE2 'DEC--SIN'; CRVAL2, CDELT2 in degrees
//   3 MATRIX  2: one complex scalar per station (re, im), the Jones matrix being that value
//                times the identity
//             4: a diagonal matrix (re xx, im xx, re yy, im yy)
//             8: a full matrix (re xx, im xx, re xy, im xy, re yx, im yx, re yy, im yy)
//   4 ANTENNA one per station; index k is antenna k (0-based) of the visibility file
//   5 FREQ    optional; CRVAL5, CDELT5, CRPIX5 in Hz
//   6 TIME    optional; CRVAL6, CDELT6, CRPIX6 in seconds of MJD (MJD x 86400, as Measurement
//             Set TIME columns)
// Missing trailing axes (FREQ, TIME) count as size 1; further axes must have size 1. A CTYPE
// that is present must name its axis (RA*, DEC*, MATRIX, ANTENNA, FREQ*, TIME*), so a cube with
// its axes in another order is refused rather than misread.
// Missing keys: CRPIXn is the axis centre (NAXISn + 1) / 2 (1-based, so pixel (N-1)/2 counting
// from 0; for an odd axis its middle pixel); CRVALn is 0. CDELT1/2 are required (and nonzero)
// when their axis has more than one pixel; CRVAL and a nonzero CDELT are required for FREQ and
// TIME when they have more than one plane.
//
// Sky coordinates: pixel p (0-based) along RA looks at direction cosine
// l = (p + 1 - CRPIX1) CDELT1 (radians) from (CRVAL1, CRVAL2), and q along DEC at
// m = (q + 1 - CRPIX2) CDELT2: the intermediate world coordinates of a SIN projection are
// direction cosines. The cube's reference direction must be the phase centre of the
// visibilities (check_aterm_centre).
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "idg/idg_aterms.hpp"
#include "idg/idg_settings.hpp"

namespace rapt {

struct ATermCube {
  std::string path;
  int nx = 0, ny = 0;  // RA, DEC pixels
  int matrix = 0;      // 2, 4 or 8
  int nr_antennas = 0, nr_freqs = 1, nr_times = 1;
  double ra_crpix = 0, ra_cdelt_rad = 0, dec_crpix = 0, dec_cdelt_rad = 0;  // FITS 1-based CRPIX
  double ra_crval_rad = 0, dec_crval_rad = 0;
  std::vector<double> freq_hz;   // [nr_freqs] centre of each plane
  std::vector<double> time_mjd;  // [nr_times] centre of each slot, MJD days
  double time_step_days = 0;     // |CDELT| of TIME in days (0 when nr_times == 1)
  std::vector<std::complex<float>>
      jones;  // [time][freq][antenna][y][x][4] xx, xy, yx, yy (expanded)

  // The 4 elements of the matrix at (time, freq, antenna, y, x).
  const std::complex<float>* at(int time, int freq, int antenna, int y, int x) const {
    const size_t index =
        (((size_t(time) * nr_freqs + size_t(freq)) * nr_antennas + size_t(antenna)) * ny +
         size_t(y)) *
            nx +
        size_t(x);
    return jones.data() + index * 4;
  }
};

// DataError "path: problem" for a file that is not such a cube.
ATermCube read_aterm_cube(const std::string& path);
// The A-term time slot of each time (MJD days): the slot whose centre is nearest. With one slot
// every time gets 0. A time more than half a step before the first centre or after the last is a
// DataError "path: ... visibilities at MJD x lie outside the A-terms' time range a - b".
std::vector<int> aterm_slots(const ATermCube& cube, const std::vector<double>& time_mjd);
// DataError when the cube's centre (CRVAL1/2) is more than one cube pixel (or, for a 1x1 screen,
// 1 arcsecond) away from the phase centre, naming both positions.
void check_aterm_centre(const ATermCube& cube, double phase_centre_ra_rad,
                        double phase_centre_dec_rad);
// The cube sampled for IDG: every time slot and antenna, the FREQ plane nearest `freq_hz`, at the
// direction of every subgrid pixel of `settings` (l_i, m_j of idg/idg_aterms.hpp), by bilinear
// interpolation in the cube's pixel coordinates (pixel p along RA looks at l = (p + 1 - CRPIX1)
// CDELT1 in radians — intermediate world coordinates of a SIN projection are direction cosines;
// same for m along DEC), clamped to the edge pixels outside the cube. A cube whose pixels coincide
// with the subgrid's gives its values exactly. `nr_stations` (the visibility file's antennas) must
// not exceed nr_antennas: DataError otherwise.
IdgATerms sample_aterms(const ATermCube& cube, const IdgSettings& settings, double freq_hz,
                        int nr_stations);

// The FREQ plane whose centre is nearest `freq_hz` (the lower one on a tie).
int nearest_aterm_freq(const ATermCube& cube, double freq_hz);

}  // namespace rapt
