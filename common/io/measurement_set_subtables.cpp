// Subtable rows of the Measurement Sets rapt writes: what imagers and calibrators expect to
// find about the array, the band, the products and the field.
#include "io/measurement_set_subtables.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/measures/Measures/MFrequency.h>

#include <algorithm>
#include <cmath>

#include "io/measurement_set.hpp"

// String arrays come from libcasa_casa's own instantiation (see measurement_set_writer.cpp).
extern template class casacore::Array<casacore::String>;
extern template class casacore::Vector<casacore::String>;

namespace rapt::ms_detail {

namespace {

using casacore::Matrix;
using casacore::Vector;

// The two receptors (0 = X or R, 1 = Y or L) that one correlation product multiplies.
std::pair<int, int> receptors(int fits_stokes) {
  switch (fits_stokes) {
    case -3:
    case -7:
    case 2:
      return {0, 1};  // RL, XY (Q by position, no receptor meaning)
    case -4:
    case -8:
    case 3:
      return {1, 0};  // LR, YX
    case -2:
    case -6:
    case 4:
      return {1, 1};  // LL, YY
    default:
      return {0, 0};  // RR, XX, I
  }
}

bool circular(const VisibilitySet& vis) {
  return std::any_of(vis.stokes.begin(), vis.stokes.end(),
                     [](int s) { return s <= -1 && s >= -4; });
}

void fill_antennas(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                   const VisibilitySet& vis) {
  const int nant = vis.array.size();
  ms.antenna().addRow(nant);
  casacore::MSAntennaColumns& ant = cols.antenna();
  for (int i = 0; i < nant; ++i) {
    const Antenna& a = vis.array.antennas[i];
    ant.name().put(i, a.name);
    ant.station().put(i, a.name);
    ant.type().put(i, "GROUND-BASED");
    ant.mount().put(i, "ALT-AZ");
    ant.position().put(i, Vector<double>({a.itrf_m[0], a.itrf_m[1], a.itrf_m[2]}));
    ant.offset().put(i, Vector<double>(3, 0.0));
    ant.dishDiameter().put(i, a.dish_diameter_m);
    ant.flagRow().put(i, false);
  }
  // One feed per antenna with two receptors, as imagers and calibrators expect to find.
  ms.feed().addRow(nant);
  casacore::MSFeedColumns& feed = cols.feed();
  Vector<casacore::String> receptor_types(2);
  receptor_types[0] = circular(vis) ? "R" : "X";
  receptor_types[1] = circular(vis) ? "L" : "Y";
  Matrix<casacore::Complex> response(2, 2, casacore::Complex(0, 0));
  response(0, 0) = response(1, 1) = casacore::Complex(1, 0);
  for (int i = 0; i < nant; ++i) {
    feed.antennaId().put(i, i);
    feed.feedId().put(i, 0);
    feed.spectralWindowId().put(i, -1);
    feed.time().put(i, 0.0);
    feed.interval().put(i, 0.0);
    feed.numReceptors().put(i, 2);
    feed.beamId().put(i, -1);
    feed.beamOffset().put(i, Matrix<double>(2, 2, 0.0));
    feed.polarizationType().put(i, receptor_types);
    feed.polResponse().put(i, response);
    feed.position().put(i, Vector<double>(3, 0.0));
    Vector<double> angles(2, 0.0);
    if (!circular(vis)) angles[1] = kLinearFeedYAngleDeg * M_PI / 180;
    feed.receptorAngle().put(i, angles);
  }
}

void fill_spectral_window(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                          const VisibilitySet& vis) {
  const size_t nchan = vis.nchan();
  const double width = vis.channel_width_hz, abs_width = std::fabs(width);
  ms.spectralWindow().addRow(1);
  casacore::MSSpWindowColumns& spw = cols.spectralWindow();
  spw.numChan().put(0, static_cast<int>(nchan));
  spw.name().put(0, "");
  spw.refFrequency().put(0, vis.channel_freq_hz[0]);
  Vector<double> freqs(nchan);
  for (size_t c = 0; c < nchan; ++c) freqs[c] = vis.channel_freq_hz[c];
  spw.chanFreq().put(0, freqs);
  spw.chanWidth().put(0, Vector<double>(nchan, width));
  spw.effectiveBW().put(0, Vector<double>(nchan, abs_width));
  spw.resolution().put(0, Vector<double>(nchan, abs_width));
  spw.measFreqRef().put(0, casacore::MFrequency::TOPO);
  spw.totalBandwidth().put(0, abs_width * nchan);
  spw.netSideband().put(0, width < 0 ? -1 : 1);
  spw.ifConvChain().put(0, 0);
  spw.freqGroup().put(0, 0);
  spw.freqGroupName().put(0, "");
  spw.flagRow().put(0, false);
}

void fill_polarization(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                       const VisibilitySet& vis) {
  const size_t ncorr = vis.nstokes();
  ms.polarization().addRow(1);
  Vector<int> corr_type(ncorr);
  Matrix<int> corr_product(2, ncorr);
  for (size_t p = 0; p < ncorr; ++p) {
    corr_type[p] = ms_corr_type_from_fits_stokes(vis.stokes[p]);
    const auto [r1, r2] = receptors(vis.stokes[p]);
    corr_product(0, p) = r1;
    corr_product(1, p) = r2;
  }
  casacore::MSPolarizationColumns& pol = cols.polarization();
  pol.numCorr().put(0, static_cast<int>(ncorr));
  pol.corrType().put(0, corr_type);
  pol.corrProduct().put(0, corr_product);
  pol.flagRow().put(0, false);

  ms.dataDescription().addRow(1);
  cols.dataDescription().spectralWindowId().put(0, 0);
  cols.dataDescription().polarizationId().put(0, 0);
  cols.dataDescription().flagRow().put(0, false);
}

// A FIELD direction cell, [2, NUM_POLY + 1] with NUM_POLY 0: no motion across the observation.
Matrix<double> direction_cell(double ra_rad, double dec_rad) {
  Matrix<double> dir(2, 1);
  dir(0, 0) = ra_rad;
  dir(1, 0) = dec_rad;
  return dir;
}

void fill_field_and_observation(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                                const VisibilitySet& vis) {
  ms.field().addRow(1);
  casacore::MSFieldColumns& field = cols.field();
  // MS v2: PHASE_DIR is the phase centre (uvw and the fringes point there; imagers such as
  // WSClean centre on it); DELAY_DIR the delay tracking centre, which is the phase centre too
  // because visibilities are fringe-stopped to it; REFERENCE_DIR the reference direction, the
  // antennas' pointing, kept apart for re-phased visibilities (corr --phase-centre) so the
  // primary beam can still be found. The POINTING subtable is left empty.
  const SkyDirection pointing = vis.pointing_or_phase_centre();
  const Matrix<double> phase_centre = direction_cell(vis.phase_centre_ra_rad,
                                                     vis.phase_centre_dec_rad);
  field.name().put(0, vis.object);
  field.code().put(0, "");
  field.numPoly().put(0, 0);
  field.delayDir().put(0, phase_centre);
  field.phaseDir().put(0, phase_centre);
  field.referenceDir().put(0, direction_cell(pointing.ra_rad, pointing.dec_rad));
  field.sourceId().put(0, -1);
  field.flagRow().put(0, false);

  ms.observation().addRow(1);
  casacore::MSObservationColumns& obs = cols.observation();
  obs.telescopeName().put(0, vis.telescope);
  obs.observer().put(0, "");
  obs.project().put(0, "");
  obs.scheduleType().put(0, "");
  obs.releaseDate().put(0, 0.0);
  const Vector<casacore::String> no_text(1);  // one empty string
  obs.log().put(0, no_text);
  obs.schedule().put(0, no_text);
  obs.flagRow().put(0, false);
  set_observation_time_range(cols, 0.0, 0.0);

  ms.processor().addRow(1);
  cols.processor().type().put(0, "CORRELATOR");
  cols.processor().subType().put(0, "");
  cols.processor().typeId().put(0, -1);
  cols.processor().modeId().put(0, -1);
  cols.processor().flagRow().put(0, false);
}

}  // namespace

void fill_subtables(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                    const VisibilitySet& vis) {
  fill_antennas(cols, ms, vis);
  fill_spectral_window(cols, ms, vis);
  fill_polarization(cols, ms, vis);
  fill_field_and_observation(cols, ms, vis);
}

void set_observation_time_range(casacore::MSColumns& cols, double first_s, double last_s) {
  cols.field().time().put(0, first_s);
  cols.observation().timeRange().put(0, Vector<double>({first_s, last_s}));
}

}  // namespace rapt::ms_detail

#endif  // RAPT_WITH_CASACORE
