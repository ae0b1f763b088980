// Measurement Set writer: a VisibilitySet as a complete MS v2 directory, built under a
// temporary sibling name and renamed into place so that a reader never sees half an MS.
#include "io/measurement_set.hpp"
#include "io/measurement_set_internal.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/measures/Measures/MFrequency.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/DataMan/TiledShapeStMan.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#endif

#ifdef RAPT_WITH_CASACORE
// String arrays come from libcasa_casa's own instantiation. Instantiated here they would take
// the library's place, and their allocator copy binds a null reference that UBSan (make
// test-sanitize, no recovery) stops on inside casacore's MS creation.
extern template class casacore::Array<casacore::String>;
extern template class casacore::Vector<casacore::String>;
#endif

namespace rapt {

#ifndef RAPT_WITH_CASACORE

void write_measurement_set(const std::string& path, const VisibilitySet&, bool) {
  throw ms_detail::no_support_error(path);
}

#else

namespace {

namespace fs = std::filesystem;
using casacore::IPosition;
using casacore::Matrix;
using casacore::MS;
using casacore::Vector;

constexpr double kSecondsPerDay = 86400.0;

void check_sizes(const std::string& path, const VisibilitySet& vis) {
  const size_t nrows = vis.nrows(), nsamples = nrows * vis.nchan() * vis.nstokes();
  auto fail = [&](const std::string& what) { throw file_error(path, "cannot write: " + what); };
  if (vis.nchan() == 0) fail("no channels");
  if (vis.nstokes() == 0) fail("no correlation products");
  if (vis.array.antennas.empty()) fail("no antennas");
  if (vis.antenna2.size() != nrows || vis.time_mjd.size() != nrows ||
      vis.integration_s.size() != nrows || vis.uvw_m.size() != nrows)
    fail("per-row vectors (time, integration, antenna1/2, uvw) differ in length");
  if (vis.vis.size() != nsamples || vis.weight.size() != nsamples || vis.flag.size() != nsamples)
    fail("visibility, weight or flag count is not rows x channels x products (" +
         std::to_string(nsamples) + ")");
  for (int code : vis.stokes)
    if (ms_corr_type_from_fits_stokes(code) == 0)
      fail("Stokes code " + std::to_string(code) + " has no Measurement Set correlation type");
  for (size_t r = 0; r < nrows; ++r)
    if (vis.antenna1[r] < 0 || vis.antenna2[r] < 0 || vis.antenna1[r] >= vis.array.size() ||
        vis.antenna2[r] >= vis.array.size())
      fail("row " + std::to_string(r) + " names an antenna outside the array");
}

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

casacore::TableDesc main_description() {
  casacore::TableDesc td = MS::requiredTableDesc();
  MS::addColumnToDesc(td, MS::DATA, 2);
  MS::addColumnToDesc(td, MS::WEIGHT_SPECTRUM, 2);
  return td;
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
    feed.receptorAngle().put(i, Vector<double>(2, 0.0));
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

void fill_field_and_observation(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                                const VisibilitySet& vis) {
  double t_min = 0, t_max = 0;
  if (vis.nrows() > 0) {
    const auto [lo, hi] = std::minmax_element(vis.time_mjd.begin(), vis.time_mjd.end());
    t_min = *lo * kSecondsPerDay;
    t_max = *hi * kSecondsPerDay;
  }
  ms.field().addRow(1);
  casacore::MSFieldColumns& field = cols.field();
  Matrix<double> dir(2, 1);
  dir(0, 0) = vis.phase_centre_ra_rad;
  dir(1, 0) = vis.phase_centre_dec_rad;
  field.name().put(0, vis.object);
  field.code().put(0, "");
  field.time().put(0, t_min);
  field.numPoly().put(0, 0);
  field.delayDir().put(0, dir);
  field.phaseDir().put(0, dir);
  field.referenceDir().put(0, dir);
  field.sourceId().put(0, -1);
  field.flagRow().put(0, false);

  ms.observation().addRow(1);
  casacore::MSObservationColumns& obs = cols.observation();
  obs.telescopeName().put(0, vis.telescope);
  obs.timeRange().put(0, Vector<double>({t_min, t_max}));
  obs.observer().put(0, "");
  obs.project().put(0, "");
  obs.scheduleType().put(0, "");
  obs.releaseDate().put(0, 0.0);
  const Vector<casacore::String> no_text(1);  // one empty string
  obs.log().put(0, no_text);
  obs.schedule().put(0, no_text);
  obs.flagRow().put(0, false);

  ms.processor().addRow(1);
  cols.processor().type().put(0, "CORRELATOR");
  cols.processor().subType().put(0, "");
  cols.processor().typeId().put(0, -1);
  cols.processor().modeId().put(0, -1);
  cols.processor().flagRow().put(0, false);
}

void fill_row_ids(casacore::MSMainColumns& cols, const VisibilitySet& vis, casacore::rownr_t r) {
  const double time_s = vis.time_mjd[r] * kSecondsPerDay;
  cols.time().put(r, time_s);
  cols.timeCentroid().put(r, time_s);
  cols.interval().put(r, vis.integration_s[r]);
  cols.exposure().put(r, vis.integration_s[r]);
  cols.antenna1().put(r, vis.antenna1[r]);
  cols.antenna2().put(r, vis.antenna2[r]);
  cols.feed1().put(r, 0);
  cols.feed2().put(r, 0);
  cols.dataDescId().put(r, 0);
  cols.fieldId().put(r, 0);
  cols.arrayId().put(r, 0);
  cols.observationId().put(r, 0);
  cols.processorId().put(r, 0);
  cols.stateId().put(r, -1);
  cols.scanNumber().put(r, 1);
  cols.uvw().put(r, Vector<double>({vis.uvw_m[r][0], vis.uvw_m[r][1], vis.uvw_m[r][2]}));
}

// DATA, FLAG, WEIGHT_SPECTRUM exactly; WEIGHT is the per-product sum over channels (what CASA
// keeps there) and SIGMA its 1/sqrt, both for tools that ignore WEIGHT_SPECTRUM.
void fill_row_samples(casacore::MSMainColumns& cols, const VisibilitySet& vis,
                      casacore::rownr_t r) {
  const size_t ncorr = vis.nstokes(), nchan = vis.nchan();
  Matrix<casacore::Complex> data(ncorr, nchan);
  Matrix<bool> flag(ncorr, nchan);
  Matrix<float> weight_spectrum(ncorr, nchan);
  Vector<float> weight(ncorr, 0.0f), sigma(ncorr, 0.0f);
  bool all_flagged = true;
  for (size_t c = 0; c < nchan; ++c)
    for (size_t p = 0; p < ncorr; ++p) {
      const size_t i = vis.index(r, c, p);
      data(p, c) = vis.vis[i];
      flag(p, c) = vis.flag[i] != 0;
      weight_spectrum(p, c) = vis.weight[i];
      weight[p] += vis.weight[i];
      all_flagged = all_flagged && flag(p, c);
    }
  for (size_t p = 0; p < ncorr; ++p) sigma[p] = weight[p] > 0 ? 1.0f / std::sqrt(weight[p]) : 0;
  cols.data().put(r, data);
  cols.flag().put(r, flag);
  cols.flagRow().put(r, all_flagged);
  cols.weightSpectrum().put(r, weight_spectrum);
  cols.weight().put(r, weight);
  cols.sigma().put(r, sigma);
}

void build_ms(const std::string& table_path, const VisibilitySet& vis) {
  casacore::SetupNewTable setup(table_path, main_description(), casacore::Table::New);
  // Samples in tiles of about 64 k values per column, rows along the slowest axis.
  const size_t per_row = vis.nchan() * vis.nstokes();
  const int tile_rows = static_cast<int>(std::max<size_t>(1, 65536 / per_row));
  const IPosition tile(3, static_cast<int>(vis.nstokes()), static_cast<int>(vis.nchan()),
                       tile_rows);
  casacore::TiledShapeStMan data_sm("TiledDATA", tile), flag_sm("TiledFLAG", tile),
      weight_sm("TiledWEIGHT_SPECTRUM", tile);
  setup.bindColumn("DATA", data_sm);
  setup.bindColumn("FLAG", flag_sm);
  setup.bindColumn("WEIGHT_SPECTRUM", weight_sm);
  casacore::MeasurementSet ms(setup, vis.nrows());
  ms.createDefaultSubtables(casacore::Table::New);
  casacore::MSColumns cols(ms);
  fill_antennas(cols, ms, vis);
  fill_spectral_window(cols, ms, vis);
  fill_polarization(cols, ms, vis);
  fill_field_and_observation(cols, ms, vis);
  for (casacore::rownr_t r = 0; r < vis.nrows(); ++r) {
    fill_row_ids(cols, vis, r);
    fill_row_samples(cols, vis, r);
  }
  ms.flush(true);
}

// "<dir>/.<name>.<tag>.<pid>.<random>": beside the destination, so the final rename stays
// within one file system.
std::string temporary_sibling(const std::string& path, const std::string& tag) {
  fs::path target(path);
  if (target.filename().empty()) target = target.parent_path();  // "out.ms/"
  std::random_device random;
  const std::string name = "." + target.filename().string() + "." + tag + "." +
                           std::to_string(::getpid()) + "." + std::to_string(random());
  return (target.parent_path() / name).string();
}

// Removes a directory tree without throwing (cleanup on the error path).
void remove_quietly(const std::string& path) {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

// Replacing deletes a whole tree, so only something that is an MS (a casacore table) or a
// plain file is replaced: a mistyped --force on a directory of other data must not erase it.
void check_replaceable(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return;
  if (!fs::exists(fs::path(path) / "table.dat", ec))
    throw file_error(path, "exists and is not a Measurement Set; not replacing it");
}

// Moves the finished MS into place. An old one is first moved aside, then deleted once the
// new one stands under its name (or moved back if that fails).
void commit_directory(const std::string& temp, const std::string& path, bool overwrite) {
  std::error_code ec;
  std::string aside;
  if (fs::exists(path, ec)) {
    if (!overwrite) throw file_error(path, "already exists (use --force to overwrite)");
    check_replaceable(path);
    aside = temporary_sibling(path, "old");
    fs::rename(path, aside, ec);
    if (ec) throw file_error(path, "cannot move the old Measurement Set aside: " + ec.message());
  }
  fs::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    if (!aside.empty()) fs::rename(aside, path, ignored);
    throw file_error(path,
                     "cannot rename the temporary Measurement Set into place: " + ec.message());
  }
  if (!aside.empty()) remove_quietly(aside);
}

}  // namespace

void write_measurement_set(const std::string& path, const VisibilitySet& vis, bool overwrite) {
  check_sizes(path, vis);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!overwrite) throw file_error(path, "already exists (use --force to overwrite)");
    check_replaceable(path);  // before the work of building the new one
  }
  const std::string temp = temporary_sibling(path, "tmp");
  try {
    build_ms(temp, vis);  // the table is closed when build_ms returns
    commit_directory(temp, path, overwrite);
  } catch (const casacore::AipsError& e) {
    remove_quietly(temp);
    throw file_error(path, "cannot write Measurement Set: " + ms_detail::one_line(e.getMesg()));
  } catch (...) {
    remove_quietly(temp);
    throw;
  }
}

#endif  // RAPT_WITH_CASACORE

}  // namespace rapt
