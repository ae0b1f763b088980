// Measurement Set reader: one DATA_DESC_ID and one FIELD_ID of an MS v2 into a VisibilitySet.
// The MS is opened as a plain casacore table (not through MeasurementSet, which insists on
// every required column) so that a file lacking something we do not use still reads, and a
// file lacking something we do use is reported by name.
#include "io/measurement_set.hpp"
#include "io/measurement_set_internal.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/tables/Tables/ArrayColumn.h>
#include <casacore/tables/Tables/ScalarColumn.h>
#include <casacore/tables/Tables/Table.h>
#include <casacore/tables/Tables/TableRecord.h>
#include <sys/stat.h>

#include <cmath>
#include <map>
#include <set>
#endif

namespace rapt {

#ifndef RAPT_WITH_CASACORE

VisibilitySet read_measurement_set(const std::string& path, const MeasurementSetSelection&,
                                   std::vector<std::string>*) {
  throw ms_detail::no_support_error(path);
}

#else

namespace {

using casacore::ArrayColumn;
using casacore::ScalarColumn;
using casacore::Table;

constexpr double kSecondsPerDay = 86400.0;
constexpr int kMeasFreqRefTopo = 5;

struct MsFile {
  std::string path;
  std::vector<std::string>* warnings;
  Table main;

  void warn(const std::string& text) const {
    if (warnings) warnings->push_back(path + ": " + text);
  }
  void require_column(const Table& table, const std::string& table_name,
                      const std::string& column) const {
    if (!table.tableDesc().isColumn(column))
      throw file_error(path, "no column " + column + " in the " + table_name + " table");
  }
  Table subtable(const std::string& name) const {
    const casacore::TableRecord& keys = main.keywordSet();
    if (!keys.isDefined(name) || keys.dataType(name) != casacore::TpTable)
      throw file_error(path, "no " + name + " subtable");
    return keys.asTable(name);
  }
  // Row `row` of a subtable that must have it (ids in MAIN or DATA_DESCRIPTION point here).
  void require_row(const Table& table, const std::string& name, int row) const {
    const casacore::rownr_t n = table.nrow();
    if (row < 0 || static_cast<casacore::rownr_t>(row) >= n)
      throw file_error(path, name + " table has " + std::to_string(n) +
                                 (n == 1 ? " row" : " rows") + ", no row " + std::to_string(row));
  }
};

template <typename T>
std::vector<T> cell_vector(const ArrayColumn<T>& column, casacore::rownr_t row) {
  const casacore::Array<T> cell = column.get(row);
  return std::vector<T>(cell.begin(), cell.end());
}

template <typename T>
std::vector<T> scalar_column(const MsFile& ms, const std::string& name) {
  ms.require_column(ms.main, "main", name);
  const casacore::Vector<T> values = ScalarColumn<T>(ms.main, name).getColumn();
  return std::vector<T>(values.begin(), values.end());
}

struct Setup {  // what one DATA_DESC_ID describes
  int spw = 0;
  int pol = 0;
  size_t nchan = 0;
  size_t ncorr = 0;
};

Setup read_setup(const MsFile& ms, int data_desc_id) {
  const Table dd = ms.subtable("DATA_DESCRIPTION");
  ms.require_row(dd, "DATA_DESCRIPTION", data_desc_id);
  ms.require_column(dd, "DATA_DESCRIPTION", "SPECTRAL_WINDOW_ID");
  ms.require_column(dd, "DATA_DESCRIPTION", "POLARIZATION_ID");
  Setup s;
  s.spw = ScalarColumn<int>(dd, "SPECTRAL_WINDOW_ID").get(data_desc_id);
  s.pol = ScalarColumn<int>(dd, "POLARIZATION_ID").get(data_desc_id);
  const Table spw = ms.subtable("SPECTRAL_WINDOW");
  const Table pol = ms.subtable("POLARIZATION");
  ms.require_row(spw, "SPECTRAL_WINDOW", s.spw);
  ms.require_row(pol, "POLARIZATION", s.pol);
  ms.require_column(spw, "SPECTRAL_WINDOW", "CHAN_FREQ");
  ms.require_column(pol, "POLARIZATION", "CORR_TYPE");
  s.nchan = ArrayColumn<double>(spw, "CHAN_FREQ").shape(s.spw).product();
  s.ncorr = ArrayColumn<int>(pol, "CORR_TYPE").shape(s.pol).product();
  return s;
}

int choose_data_desc_id(const MsFile& ms, const std::vector<int>& ddids, int wanted) {
  if (wanted >= 0) return wanted;
  const std::set<int> used(ddids.begin(), ddids.end());
  if (used.empty()) return 0;
  const int first = *used.begin();
  if (used.size() == 1) return first;
  const Setup s0 = read_setup(ms, first);
  std::string shapes;
  bool same = true;
  for (int id : used) {
    const Setup s = read_setup(ms, id);
    same = same && s.nchan == s0.nchan && s.ncorr == s0.ncorr;
    shapes += (shapes.empty() ? "" : ", ") + std::to_string(id) + ": " + std::to_string(s.nchan) +
              " channels x " + std::to_string(s.ncorr);
  }
  if (!same)
    throw file_error(ms.path, "rows use spectral windows of different shapes (DATA_DESC_ID " +
                                  shapes + "); choose one DATA_DESC_ID");
  ms.warn("rows use " + std::to_string(used.size()) + " DATA_DESC_IDs; reading only " +
          std::to_string(first));
  return first;
}

int choose_field_id(const MsFile& ms, const std::vector<int>& fields, int wanted) {
  if (wanted >= 0) return wanted;
  const std::set<int> used(fields.begin(), fields.end());
  if (used.empty()) return 0;
  if (used.size() > 1)
    ms.warn("rows use " + std::to_string(used.size()) + " fields; reading only FIELD_ID " +
            std::to_string(*used.begin()));
  return *used.begin();
}

void read_spectral_window(const MsFile& ms, int spw_row, VisibilitySet& vis) {
  const Table spw = ms.subtable("SPECTRAL_WINDOW");
  vis.channel_freq_hz = cell_vector(ArrayColumn<double>(spw, "CHAN_FREQ"), spw_row);
  if (spw.tableDesc().isColumn("CHAN_WIDTH")) {
    const std::vector<double> widths = cell_vector(ArrayColumn<double>(spw, "CHAN_WIDTH"), spw_row);
    if (!widths.empty()) vis.channel_width_hz = widths[0];
  }
  if (vis.channel_width_hz == 0 && vis.channel_freq_hz.size() > 1)
    vis.channel_width_hz = vis.channel_freq_hz[1] - vis.channel_freq_hz[0];
  if (spw.tableDesc().isColumn("MEAS_FREQ_REF")) {
    const int ref = ScalarColumn<int>(spw, "MEAS_FREQ_REF").get(spw_row);
    // casacore's MFrequency types, in their order.
    static const char* const kFrames[] = {"REST", "LSRK", "LSRD", "BARY", "GEO",
                                          "TOPO", "GALACTO", "LGROUP", "CMB"};
    const std::string frame = ref >= 0 && ref < 9 ? std::string(kFrames[ref]) + " (" +
                                                        std::to_string(ref) + ")"
                                                  : std::to_string(ref);
    if (ref != kMeasFreqRefTopo)
      ms.warn("SPECTRAL_WINDOW " + std::to_string(spw_row) + " frequencies are in frame " +
              frame + " (MEAS_FREQ_REF), not TOPO; used as they are");
  }
}

void read_polarization(const MsFile& ms, int pol_row, VisibilitySet& vis) {
  const Table pol = ms.subtable("POLARIZATION");
  vis.stokes.clear();
  for (int corr_type : cell_vector(ArrayColumn<int>(pol, "CORR_TYPE"), pol_row)) {
    const int code = fits_stokes_from_ms_corr_type(corr_type);
    if (code == 0)
      throw file_error(ms.path, "POLARIZATION row " + std::to_string(pol_row) + ": CORR_TYPE " +
                                    std::to_string(corr_type) +
                                    " is not one of I Q U V, RR RL LR LL, XX XY YX YY");
    vis.stokes.push_back(code);
  }
}

// REFERENCE_DIR, the field's reference direction, is the antennas' pointing (the phase centre
// unless the visibilities were re-phased). Lenient: a missing column or an empty or short
// cell leaves the pointing at the phase centre.
void read_reference_dir(const Table& field, int field_id, VisibilitySet& vis) {
  if (!field.tableDesc().isColumn("REFERENCE_DIR")) return;
  const ArrayColumn<double> reference_dir(field, "REFERENCE_DIR");
  if (!reference_dir.isDefined(field_id)) return;
  const std::vector<double> dir = cell_vector(reference_dir, field_id);
  if (dir.size() >= 2 && std::isfinite(dir[0]) && std::fabs(dir[1]) <= M_PI / 2)
    vis.pointing = SkyDirection{dir[0], dir[1]};
}

void read_field(const MsFile& ms, int field_id, VisibilitySet& vis) {
  const Table field = ms.subtable("FIELD");
  ms.require_row(field, "FIELD", field_id);
  ms.require_column(field, "FIELD", "PHASE_DIR");
  const ArrayColumn<double> phase_dir(field, "PHASE_DIR");
  const std::vector<double> dir = cell_vector(phase_dir, field_id);
  if (dir.size() < 2)
    throw file_error(ms.path, "FIELD row " + std::to_string(field_id) + ": PHASE_DIR has " +
                                  std::to_string(dir.size()) + " values, expected 2");
  vis.phase_centre_ra_rad = dir[0];  // [2, npoly+1] with the direction axis fastest
  vis.phase_centre_dec_rad = dir[1];
  const casacore::TableRecord& keys = phase_dir.keywordSet();
  if (keys.isDefined("MEASINFO")) {
    const casacore::TableRecord& info = keys.asRecord("MEASINFO");
    if (info.isDefined("Ref") && info.dataType("Ref") == casacore::TpString &&
        info.asString("Ref") != "J2000")
      ms.warn("FIELD PHASE_DIR is in frame " + std::string(info.asString("Ref")) +
              ", not J2000; used as it is");
  }
  if (field.tableDesc().isColumn("NAME"))
    vis.object = ScalarColumn<casacore::String>(field, "NAME").get(field_id);
  read_reference_dir(field, field_id, vis);
}

void read_antennas(const MsFile& ms, VisibilitySet& vis) {
  const Table ant = ms.subtable("ANTENNA");
  ms.require_column(ant, "ANTENNA", "POSITION");
  const ArrayColumn<double> position(ant, "POSITION");
  const bool has_name = ant.tableDesc().isColumn("NAME");
  const bool has_station = ant.tableDesc().isColumn("STATION");
  const bool has_dish = ant.tableDesc().isColumn("DISH_DIAMETER");
  vis.array.antennas.clear();
  for (casacore::rownr_t row = 0; row < ant.nrow(); ++row) {
    Antenna a;
    if (has_name) a.name = ScalarColumn<casacore::String>(ant, "NAME").get(row);
    if (a.name.empty() && has_station)
      a.name = ScalarColumn<casacore::String>(ant, "STATION").get(row);
    const std::vector<double> xyz = cell_vector(position, row);
    if (xyz.size() != 3)
      throw file_error(ms.path, "ANTENNA row " + std::to_string(row) + ": POSITION has " +
                                    std::to_string(xyz.size()) + " values, expected 3");
    for (int k = 0; k < 3; ++k) a.itrf_m[k] = xyz[k];
    if (has_dish) a.dish_diameter_m = ScalarColumn<double>(ant, "DISH_DIAMETER").get(row);
    vis.array.antennas.push_back(a);
  }
  vis.array.reference_itrf_m = vis.array.mean_antenna_position();
}

void read_telescope(const MsFile& ms, int observation_id, VisibilitySet& vis) {
  const Table obs = ms.subtable("OBSERVATION");
  if (!obs.tableDesc().isColumn("TELESCOPE_NAME") || observation_id < 0 ||
      static_cast<casacore::rownr_t>(observation_id) >= obs.nrow())
    return;
  vis.telescope = ScalarColumn<casacore::String>(obs, "TELESCOPE_NAME").get(observation_id);
  vis.array.telescope = vis.telescope;
}

// Row numbers of MAIN that belong to the selection, in file order.
std::vector<casacore::rownr_t> select_rows(const MsFile& ms, const MeasurementSetSelection& sel,
                                           int& data_desc_id, int& field_id) {
  const std::vector<int> ddids = scalar_column<int>(ms, "DATA_DESC_ID");
  const std::vector<int> fields = scalar_column<int>(ms, "FIELD_ID");
  data_desc_id = choose_data_desc_id(ms, ddids, sel.data_desc_id);
  std::vector<int> fields_in_window;
  for (size_t r = 0; r < ddids.size(); ++r)
    if (ddids[r] == data_desc_id) fields_in_window.push_back(fields[r]);
  field_id = choose_field_id(ms, fields_in_window, sel.field_id);
  std::vector<casacore::rownr_t> rows;
  for (size_t r = 0; r < ddids.size(); ++r)
    if (ddids[r] == data_desc_id && fields[r] == field_id) rows.push_back(r);
  if (rows.empty() && !ddids.empty())
    ms.warn("no rows with DATA_DESC_ID " + std::to_string(data_desc_id) + " and FIELD_ID " +
            std::to_string(field_id));
  return rows;
}

struct MainColumns {
  ArrayColumn<casacore::Complex> data;
  ArrayColumn<bool> flag;
  ArrayColumn<float> weight;
  ArrayColumn<float> weight_spectrum;  // null when the MS has none
  ArrayColumn<double> uvw;
  ScalarColumn<bool> flag_row;  // null when the MS has none
};

MainColumns open_main_columns(const MsFile& ms, const std::string& data_column) {
  for (const char* name : {"UVW", "FLAG", "WEIGHT", "TIME", "INTERVAL", "ANTENNA1", "ANTENNA2"})
    ms.require_column(ms.main, "main", name);
  ms.require_column(ms.main, "main", data_column);
  // Any complex array column will do (DATA, CORRECTED_DATA, MODEL_DATA, or one of the user's).
  const casacore::ColumnDesc& data_desc = ms.main.tableDesc().columnDesc(data_column);
  if (data_desc.dataType() != casacore::TpComplex || !data_desc.isArray())
    throw file_error(ms.path, "column " + data_column + " of the main table is not a complex "
                              "data column");
  MainColumns c;
  c.data.attach(ms.main, data_column);
  c.flag.attach(ms.main, "FLAG");
  c.weight.attach(ms.main, "WEIGHT");
  c.uvw.attach(ms.main, "UVW");
  if (ms.main.tableDesc().isColumn("WEIGHT_SPECTRUM"))
    c.weight_spectrum.attach(ms.main, "WEIGHT_SPECTRUM");
  if (ms.main.tableDesc().isColumn("FLAG_ROW")) c.flag_row.attach(ms.main, "FLAG_ROW");
  return c;
}

std::string row_text(casacore::rownr_t row) { return "row " + std::to_string(row) + ": "; }

// Samples, flags and weights of one MAIN row into output row `out`.
void read_row_samples(const MsFile& ms, const MainColumns& c, const std::string& data_column,
                      casacore::rownr_t row, size_t out, VisibilitySet& vis) {
  const casacore::IPosition shape(2, vis.nstokes(), vis.nchan());
  if (!c.data.isDefined(row))
    throw file_error(ms.path, row_text(row) + data_column + " has no value");
  const casacore::Array<casacore::Complex> data = c.data.get(row);
  if (!data.shape().isEqual(shape))
    throw file_error(ms.path, row_text(row) + data_column + " shape " + data.shape().toString() +
                                  " does not match " + shape.toString() +
                                  " (correlations, channels)");
  const size_t n = shape.product();
  const size_t base = vis.index(out, 0, 0);
  std::copy(data.begin(), data.end(), vis.vis.begin() + base);
  const bool row_flagged = !c.flag_row.isNull() && c.flag_row.get(row);
  if (c.flag.isDefined(row) && c.flag.shape(row).isEqual(shape)) {
    const casacore::Array<bool> flags = c.flag.get(row);
    size_t i = 0;
    for (bool f : flags) vis.flag[base + i++] = (f || row_flagged) ? 1 : 0;
  } else {
    std::fill_n(vis.flag.begin() + base, n, row_flagged ? 1 : 0);
  }
  if (!c.weight_spectrum.isNull() && c.weight_spectrum.isDefined(row) &&
      c.weight_spectrum.shape(row).isEqual(shape)) {
    const casacore::Array<float> w = c.weight_spectrum.get(row);
    std::copy(w.begin(), w.end(), vis.weight.begin() + base);
    return;
  }
  const std::vector<float> w = cell_vector(c.weight, row);
  if (w.size() != vis.nstokes())
    throw file_error(ms.path, row_text(row) + "WEIGHT has " + std::to_string(w.size()) +
                                  " values for " + std::to_string(vis.nstokes()) + " correlations");
  for (size_t ch = 0; ch < vis.nchan(); ++ch)
    std::copy(w.begin(), w.end(), vis.weight.begin() + base + ch * vis.nstokes());
}

void read_main_rows(const MsFile& ms, const std::string& data_column,
                    const std::vector<casacore::rownr_t>& rows, VisibilitySet& vis) {
  const MainColumns c = open_main_columns(ms, data_column);
  const ScalarColumn<double> time(ms.main, "TIME"), interval(ms.main, "INTERVAL");
  const ScalarColumn<int> ant1(ms.main, "ANTENNA1"), ant2(ms.main, "ANTENNA2");
  const size_t nrows = rows.size(), per_row = vis.nchan() * vis.nstokes();
  vis.vis.assign(nrows * per_row, {});
  vis.flag.assign(nrows * per_row, 0);
  vis.weight.assign(nrows * per_row, 0.0f);
  for (size_t out = 0; out < nrows; ++out) {
    const casacore::rownr_t row = rows[out];
    const int a1 = ant1.get(row), a2 = ant2.get(row);
    if (a1 < 0 || a2 < 0 || a1 >= vis.array.size() || a2 >= vis.array.size())
      throw file_error(ms.path, row_text(row) + "ANTENNA1/2 " + std::to_string(a1) + "-" +
                                    std::to_string(a2) + " outside the " +
                                    std::to_string(vis.array.size()) + " ANTENNA rows");
    const std::vector<double> uvw = cell_vector(c.uvw, row);
    if (uvw.size() != 3) throw file_error(ms.path, row_text(row) + "UVW does not have 3 values");
    vis.time_mjd.push_back(time.get(row) / kSecondsPerDay);
    vis.integration_s.push_back(static_cast<float>(interval.get(row)));
    vis.antenna1.push_back(a1);
    vis.antenna2.push_back(a2);
    vis.uvw_m.push_back({uvw[0], uvw[1], uvw[2]});
    read_row_samples(ms, c, data_column, row, out, vis);
  }
}

void check_is_directory(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw file_error(path, "cannot open: " + errno_text());
  if (!S_ISDIR(st.st_mode)) throw file_error(path, "not a Measurement Set (an MS is a directory)");
}

VisibilitySet read_ms(const std::string& path, const MeasurementSetSelection& sel,
                      std::vector<std::string>* warnings) {
  check_is_directory(path);
  if (!Table::isReadable(path))
    throw file_error(path, "not a Measurement Set (no readable casacore table)");
  const MsFile ms{path, warnings, Table(path, Table::Old)};
  int data_desc_id = 0, field_id = 0;
  const std::vector<casacore::rownr_t> rows = select_rows(ms, sel, data_desc_id, field_id);
  const Setup setup = read_setup(ms, data_desc_id);
  VisibilitySet vis;
  read_spectral_window(ms, setup.spw, vis);
  read_polarization(ms, setup.pol, vis);
  read_field(ms, field_id, vis);
  read_antennas(ms, vis);
  const std::vector<int> obs_ids = ms.main.tableDesc().isColumn("OBSERVATION_ID")
                                       ? scalar_column<int>(ms, "OBSERVATION_ID")
                                       : std::vector<int>{};
  read_telescope(ms, rows.empty() || obs_ids.empty() ? 0 : obs_ids[rows[0]], vis);
  read_main_rows(ms, sel.data_column, rows, vis);
  return vis;
}

}  // namespace

VisibilitySet read_measurement_set(const std::string& path, const MeasurementSetSelection& sel,
                                   std::vector<std::string>* warnings) {
  try {
    return read_ms(path, sel, warnings);
  } catch (const casacore::AipsError& e) {
    throw file_error(path, "cannot read Measurement Set: " + ms_detail::one_line(e.getMesg()));
  }
}

#endif  // RAPT_WITH_CASACORE

}  // namespace rapt
