// Visibilities in memory, as UVFITS and Measurement Set readers return them and writers take
// them. One row per baseline per integration.
//
// Conventions (pinned by tests, written down in rapt(7)): uvw = position(antenna1) -
// position(antenna2) rotated to (u, v, w) towards the phase centre, in metres; a visibility is
// V = <E1 * conj(E2)> (the AIPS/UVFITS and CASA sense), so a file read and written again needs
// no sign flips.
//
// Two directions: the phase centre (where uvw point and the fringes are stopped) and the
// pointing (where the antennas point: the primary beam's centre). They are one direction
// unless the visibilities were re-phased (corr --phase-centre); then a primary-beam correction
// needs the pointing, which is why files keep both (UVFITS OBSRA/OBSDEC, MS FIELD::REFERENCE_DIR).
#pragma once
#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "geometry/sky_direction.hpp"

namespace rapt {

// The position angle (degrees, north through east) of a linear feed's second receptor, Y; the
// first, X, is at 0. So the Stokes products of rapt(7) (Q = XX - YY) have X north, Y east, as the
// IAU's convention does. Writers give it as UVFITS POLAB and MS FEED RECEPTOR_ANGLE; circular
// feeds' receptors are both at 0.
inline constexpr double kLinearFeedYAngleDeg = 90.0;

struct VisibilitySet {
  std::string telescope;
  std::string instrument;
  std::string object;                    // source / field name
  double phase_centre_ra_rad = 0;        // J2000
  double phase_centre_dec_rad = 0;       // J2000
  std::optional<SkyDirection> pointing;  // J2000; unset: the phase centre
  ArrayLayout array;                     // antenna1/antenna2 index array.antennas

  std::vector<double> channel_freq_hz;  // centre of each channel
  double channel_width_hz = 0;          // signed, as the file has it
  // Correlation products in file order, as FITS/AIPS Stokes codes: 1..4 = I Q U V,
  // -1..-4 = RR LL RL LR, -5..-8 = XX YY XY YX.
  std::vector<int> stokes;

  // Rows.
  std::vector<double> time_mjd;        // UTC MJD of the integration centre, per row
  std::vector<float> integration_s;    // per row
  std::vector<int> antenna1;           // 0-based, per row
  std::vector<int> antenna2;
  std::vector<std::array<double, 3>> uvw_m;  // per row, metres
  // [row][channel][product], row-major.
  std::vector<std::complex<float>> vis;
  std::vector<float> weight;           // >= 0; the sample's weight (UVFITS |w|)
  std::vector<uint8_t> flag;           // 1 = flagged (UVFITS w <= 0)

  SkyDirection pointing_or_phase_centre() const {
    return pointing.value_or(SkyDirection{phase_centre_ra_rad, phase_centre_dec_rad});
  }
  size_t nchan() const { return channel_freq_hz.size(); }
  size_t nstokes() const { return stokes.size(); }
  size_t nrows() const { return antenna1.size(); }
  size_t index(size_t row, size_t chan, size_t product) const {
    return (row * nchan() + chan) * nstokes() + product;
  }
};

}  // namespace rapt
