// Measurement Set writer: MAIN rows added as they arrive (open_measurement_set_writer), so
// memory does not grow with the observation, in a directory built under a temporary sibling
// name and renamed into place at commit() so that a reader never sees half an MS.
// write_measurement_set() is the same writer fed once.
#include "io/measurement_set.hpp"
#include "io/measurement_set_internal.hpp"
#include "io/visibility_writer.hpp"

#ifdef RAPT_WITH_CASACORE
#include <casacore/casa/Arrays/Array.h>
#include <casacore/casa/Arrays/Matrix.h>
#include <casacore/casa/Arrays/Vector.h>
#include <casacore/casa/Exceptions/Error.h>
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>
#include <casacore/tables/DataMan/TiledShapeStMan.h>
#include <casacore/tables/Tables/SetupNewTab.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <random>

#include "cli/atomic_output.hpp"
#include "io/measurement_set_subtables.hpp"
#include "io/visibility_writer_checks.hpp"
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

std::unique_ptr<VisibilityWriter> open_measurement_set_writer(const std::string& path,
                                                              const VisibilitySet&, bool) {
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

// What every row shares: checked once, when the writer is opened.
void check_metadata(const std::string& path, const VisibilitySet& vis) {
  auto fail = [&](const std::string& what) { throw file_error(path, "cannot write: " + what); };
  if (vis.nchan() == 0) fail("no channels");
  if (vis.nstokes() == 0) fail("no correlation products");
  if (vis.array.antennas.empty()) fail("no antennas");
  for (int code : vis.stokes)
    if (ms_corr_type_from_fits_stokes(code) == 0)
      fail("Stokes code " + std::to_string(code) + " has no Measurement Set correlation type");
}

void check_rows(const std::string& path, const VisibilitySet& vis) {
  const size_t nrows = vis.nrows(), nsamples = nrows * vis.nchan() * vis.nstokes();
  auto fail = [&](const std::string& what) { throw file_error(path, "cannot write: " + what); };
  if (vis.antenna2.size() != nrows || vis.time_mjd.size() != nrows ||
      vis.integration_s.size() != nrows || vis.uvw_m.size() != nrows)
    fail("per-row vectors (time, integration, antenna1/2, uvw) differ in length");
  if (vis.vis.size() != nsamples || vis.weight.size() != nsamples || vis.flag.size() != nsamples)
    fail("visibility, weight or flag count is not rows x channels x products (" +
         std::to_string(nsamples) + ")");
  for (size_t r = 0; r < nrows; ++r)
    if (vis.antenna1[r] < 0 || vis.antenna2[r] < 0 || vis.antenna1[r] >= vis.array.size() ||
        vis.antenna2[r] >= vis.array.size())
      fail("row " + std::to_string(r) + " names an antenna outside the array");
}

casacore::TableDesc main_description() {
  casacore::TableDesc td = MS::requiredTableDesc();
  MS::addColumnToDesc(td, MS::DATA, 2);
  MS::addColumnToDesc(td, MS::WEIGHT_SPECTRUM, 2);
  return td;
}

// Row `r` of `vis` into MAIN row `out`.
void fill_row_ids(casacore::MSMainColumns& cols, const VisibilitySet& vis, size_t r,
                  casacore::rownr_t out) {
  const double time_s = vis.time_mjd[r] * kSecondsPerDay;
  cols.time().put(out, time_s);
  cols.timeCentroid().put(out, time_s);
  cols.interval().put(out, vis.integration_s[r]);
  cols.exposure().put(out, vis.integration_s[r]);
  cols.antenna1().put(out, vis.antenna1[r]);
  cols.antenna2().put(out, vis.antenna2[r]);
  cols.feed1().put(out, 0);
  cols.feed2().put(out, 0);
  cols.dataDescId().put(out, 0);
  cols.fieldId().put(out, 0);
  cols.arrayId().put(out, 0);
  cols.observationId().put(out, 0);
  cols.processorId().put(out, 0);
  cols.stateId().put(out, -1);
  cols.scanNumber().put(out, 1);
  cols.uvw().put(out, Vector<double>({vis.uvw_m[r][0], vis.uvw_m[r][1], vis.uvw_m[r][2]}));
}

// DATA, FLAG, WEIGHT_SPECTRUM exactly; WEIGHT is the per-product sum over channels (what CASA
// keeps there) and SIGMA its 1/sqrt, both for tools that ignore WEIGHT_SPECTRUM.
void fill_row_samples(casacore::MSMainColumns& cols, const VisibilitySet& vis, size_t r,
                      casacore::rownr_t out) {
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
  cols.data().put(out, data);
  cols.flag().put(out, flag);
  cols.flagRow().put(out, all_flagged);
  cols.weightSpectrum().put(out, weight_spectrum);
  cols.weight().put(out, weight);
  cols.sigma().put(out, sigma);
}

// A new MS with no MAIN rows and every subtable filled from the metadata.
std::unique_ptr<casacore::MeasurementSet> create_ms(const std::string& table_path,
                                                    const VisibilitySet& metadata) {
  casacore::SetupNewTable setup(table_path, main_description(), casacore::Table::New);
  // Samples in tiles of about 64 k values per column, rows along the slowest axis.
  const size_t per_row = metadata.nchan() * metadata.nstokes();
  const int tile_rows = static_cast<int>(std::max<size_t>(1, 65536 / per_row));
  const IPosition tile(3, static_cast<int>(metadata.nstokes()),
                       static_cast<int>(metadata.nchan()), tile_rows);
  casacore::TiledShapeStMan data_sm("TiledDATA", tile), flag_sm("TiledFLAG", tile),
      weight_sm("TiledWEIGHT_SPECTRUM", tile);
  setup.bindColumn("DATA", data_sm);
  setup.bindColumn("FLAG", flag_sm);
  setup.bindColumn("WEIGHT_SPECTRUM", weight_sm);
  auto ms = std::make_unique<casacore::MeasurementSet>(setup, 0);
  ms->createDefaultSubtables(casacore::Table::New);
  casacore::MSColumns cols(*ms);
  ms_detail::fill_subtables(cols, *ms, metadata);
  return ms;
}

// "<dir>/.<name>.<tag>.<pid>.<random>": beside the destination, so the final rename stays
// within one file system.
std::string temporary_sibling(const std::string& path, const std::string& tag) {
  fs::path target(path);
  if (target.filename().empty()) target = target.parent_path();  // "out.ms/"
  std::random_device random;
  const std::string name = "." + target.filename().string() + "." + tag + "." +
                           std::to_string(::getpid()) + "." + std::to_string(random());
  // "./" before a bare name: casacore takes a table name starting with "." relative to
  // something other than the working directory.
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  return (parent / name).string();
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

class MeasurementSetWriter final : public VisibilityWriter {
 public:
  // The metadata and the destination are checked before the temporary directory is made.
  MeasurementSetWriter(const std::string& path, const VisibilitySet& metadata, bool overwrite)
      : path_(path), metadata_(visibility_metadata(metadata)), overwrite_(overwrite) {
    check_metadata(path, metadata);
    check_output_directory(path);  // named as given, not as the temporary beside it
    std::error_code ec;
    if (fs::exists(path, ec)) {
      if (!overwrite) throw file_error(path, "already exists (use --force to overwrite)");
      check_replaceable(path);  // before the work of building the new one
    }
    temp_ = temporary_sibling(path, "tmp");
    // casacore's message would name the temporary; a directory that cannot be made is named as
    // given, with the system's reason.
    const std::string cause = creation_failure(temp_, true);
    if (!cause.empty()) throw file_error(path, "cannot create: " + cause);
    pending_.emplace(temp_);  // removed by the signal handler if the program is interrupted
    guarded([&] {
      ms_ = create_ms(temp_, metadata_);
      cols_ = std::make_unique<casacore::MSMainColumns>(*ms_);
      // UVW are J2000 coordinates towards the phase centre (the table's default says ITRF).
      cols_->setUVWRef(casacore::Muvw::J2000);
    });
  }

  ~MeasurementSetWriter() override {
    if (committed_) return;
    close_quietly();
    remove_quietly(temp_);
  }

  void append(const VisibilitySet& rows) override {
    check_usable();
    check_append_metadata(path_, metadata_, rows);
    check_rows(path_, rows);
    if (rows.nrows() == 0) return;
    guarded([&] {
      const casacore::rownr_t first = ms_->nrow();
      ms_->addRow(rows.nrows());
      for (size_t r = 0; r < rows.nrows(); ++r) {
        fill_row_ids(*cols_, rows, r, first + r);
        fill_row_samples(*cols_, rows, r, first + r);
        first_s_ = std::min(first_s_, rows.time_mjd[r] * kSecondsPerDay);
        last_s_ = std::max(last_s_, rows.time_mjd[r] * kSecondsPerDay);
      }
      rows_ += rows.nrows();
    });
  }

  void commit() override {
    check_usable();
    guarded([&] {
      casacore::MSColumns cols(*ms_);
      if (rows_ > 0) ms_detail::set_observation_time_range(cols, first_s_, last_s_);
      ms_->flush(true);
    });
    close_quietly();  // the table is complete on disk; let go of it before the rename
    failed_ = true;   // a failed commit leaves nothing to retry with
    commit_directory(temp_, path_, overwrite_);
    pending_.reset();
    failed_ = false;
    committed_ = true;
  }

  size_t rows_written() const override { return rows_; }

 private:
  // Runs `step`; a casacore error becomes a one-line DataError naming the MS, and after any
  // error the writer refuses further work (the table may be half changed).
  template <typename Step>
  void guarded(Step step) {
    try {
      step();
    } catch (const casacore::AipsError& e) {
      fail_quietly();
      throw file_error(path_, "cannot write Measurement Set: " + ms_detail::one_line(e.getMesg()));
    } catch (...) {
      fail_quietly();
      throw;
    }
  }

  // After a failed step: the table is closed and its directory removed at once, so an error
  // that ends the program leaves nothing behind even before the writer is destroyed.
  void fail_quietly() {
    failed_ = true;
    close_quietly();
    remove_quietly(temp_);
  }

  // Closing writes what casacore still buffers; for an abandoned table that is wasted work
  // before the directory is removed, but harmless.
  void close_quietly() noexcept {
    cols_.reset();
    ms_.reset();
  }

  void check_usable() const {
    if (committed_) throw UsageError(path_ + ": the Measurement Set is already complete");
    if (failed_) throw file_error(path_, "an earlier write to the Measurement Set failed");
  }

  std::string path_;
  VisibilitySet metadata_;
  bool overwrite_;
  std::string temp_;
  std::optional<PendingTemporary> pending_;
  std::unique_ptr<casacore::MeasurementSet> ms_;
  std::unique_ptr<casacore::MSMainColumns> cols_;
  size_t rows_ = 0;
  double first_s_ = std::numeric_limits<double>::infinity();
  double last_s_ = -std::numeric_limits<double>::infinity();
  bool failed_ = false;
  bool committed_ = false;
};

}  // namespace

std::unique_ptr<VisibilityWriter> open_measurement_set_writer(const std::string& path,
                                                              const VisibilitySet& metadata,
                                                              bool overwrite) {
  return std::make_unique<MeasurementSetWriter>(path, metadata, overwrite);
}

#endif  // RAPT_WITH_CASACORE

void write_measurement_set(const std::string& path, const VisibilitySet& vis, bool overwrite) {
  const std::unique_ptr<VisibilityWriter> writer =
      open_measurement_set_writer(path, vis, overwrite);
  writer->append(vis);
  writer->commit();
}

}  // namespace rapt
