// The AIPS AN and FQ tables of a UVFITS file: reading (uvfits_tables_reader.cpp) and writing
// (uvfits_tables_writer.cpp). Internal to the UVFITS reader and writer.
#pragma once
#include <fitsio.h>

#include <cstddef>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "io/uvfits_cfitsio.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

struct UvfitsAntennaTable {
  ArrayLayout layout;                // positions = ARRAYX/Y/Z + STABXYZ
  std::vector<long long> numbers;    // NOSTA of each antenna (row number when absent)
};

// Reads EXTNAME 'AIPS AN' (EXTVER 1 if there are several). DataError "name: UVFITS has no AIPS
// AN table" when there is none. `file_bytes` bounds what the header may promise.
UvfitsAntennaTable read_uvfits_an_table(fitsfile* fits, const std::string& name,
                                        size_t file_bytes, std::vector<std::string>* warnings);

// Offsets (Hz) of each IF from the FREQ axis, from 'AIPS FQ' row 1 ("IF FREQ"); {0} for one IF
// without a table. DataError when several IFs have no table.
std::vector<double> read_uvfits_if_offsets(fitsfile* fits, const std::string& name, int nif,
                                           std::vector<std::string>* warnings);

// Appends the AIPS AN table (one row per vis.array antenna, NOSTA = index + 1). RDATE and
// GSTIA0 are for `day_mjd`, the day that the groups' DATE PZERO names.
void write_uvfits_an_table(FitsOutputFile& out, const VisibilitySet& vis, double day_mjd);
// Appends the AIPS FQ table for one IF.
void write_uvfits_fq_table(FitsOutputFile& out, const VisibilitySet& vis);

// "YYYY-MM-DD" of the UTC day holding `mjd`.
std::string uvfits_date_text(double mjd);

}  // namespace rapt
