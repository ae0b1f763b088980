// Measurement Sets (casacore MS v2 directories) read into and written from a VisibilitySet.
//
// Conventions: MS and UVFITS are treated alike (rapt(7)): UVW is antenna1 - antenna2 in metres
// and DATA is <E1 conj(E2)> as CASA writes them, so nothing is negated or conjugated on the way
// in or out. TIME is MJD seconds (UTC) in the file and MJD days in memory; ANTENNA1/2 are
// 0-based rows of the ANTENNA table in both. Correlation types are converted to FITS/AIPS Stokes
// codes on reading and back on writing.
//
// casacore is optional at build time (RAPT_WITH_CASACORE). Without it these functions exist and
// throw UsageError "<path>: this build of rapt has no Measurement Set support ...".
#pragma once
#include <string>
#include <vector>

#include "io/visibility_set.hpp"

namespace rapt {

// Which part of a Measurement Set to read.
struct MeasurementSetSelection {
  std::string data_column = "DATA";  // or "CORRECTED_DATA", "MODEL_DATA"
  // DATA_DESC_ID (spectral window + polarisation setup); -1 = the only one the rows use, or
  // the first one if several share one shape (others are then skipped with a warning).
  int data_desc_id = -1;
  int field_id = -1;  // -1 = the lowest FIELD_ID the rows use (others skipped with a warning)
};

// True if this build can read and write Measurement Sets.
bool measurement_set_supported();

// Reads the rows of one DATA_DESC_ID and one FIELD_ID, in file order (not re-sorted).
// Weights come from WEIGHT_SPECTRUM when the column has values, else WEIGHT broadcast over
// channels; FLAG_ROW is ORed into the flags; FLAG_CATEGORY is never read. The phase centre is
// FIELD::PHASE_DIR and the pointing FIELD::REFERENCE_DIR (unset without one); the array
// reference position is the mean of the ANTENNA positions (MS v2 has no place for it). Things
// worth knowing that do not stop the read (skipped fields or spectral windows, a non-TOPO
// frequency frame, a non-J2000 phase centre) are appended to `warnings` when given. Throws DataError "path: problem" for anything that is not a readable
// MS (missing subtable or column, bad ids, unknown correlation type), and UsageError for a
// bad selection (unknown data column name).
VisibilitySet read_measurement_set(const std::string& path, const MeasurementSetSelection& sel = {},
                                   std::vector<std::string>* warnings = nullptr);

// Writes a complete MS v2 directory: MAIN (TIME, ANTENNA1/2, UVW, DATA, FLAG, FLAG_ROW,
// WEIGHT, SIGMA, WEIGHT_SPECTRUM, ...) with one DATA_DESC_ID and one FIELD, and the ANTENNA,
// SPECTRAL_WINDOW (TOPO), POLARIZATION, FIELD, DATA_DESCRIPTION, OBSERVATION, FEED and
// PROCESSOR rows; the other required subtables (POINTING among them) are created empty. FIELD
// holds the phase centre in PHASE_DIR and DELAY_DIR and the pointing in REFERENCE_DIR. The
// directory is built under a temporary sibling name and renamed into place when complete; an
// existing `path` is refused unless `overwrite`, and then replaced only after the new one is
// complete.
// Throws DataError naming `path` for an inconsistent VisibilitySet or a failed write.
void write_measurement_set(const std::string& path, const VisibilitySet& vis, bool overwrite);

// casacore's Stokes enum (MS CORR_TYPE: 1..4 I Q U V, 5 RR, 6 RL, 7 LR, 8 LL, 9 XX, 10 XY,
// 11 YX, 12 YY) to FITS/AIPS Stokes codes and back. Return 0 for a value with no counterpart.
int fits_stokes_from_ms_corr_type(int corr_type);
int ms_corr_type_from_fits_stokes(int fits_stokes);

}  // namespace rapt
