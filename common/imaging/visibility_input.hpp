// The visibilities idg-grid images: a Measurement Set (a directory) or a UVFITS file, told
// apart by what the path holds, not by its name.
#pragma once
#include <string>
#include <vector>

#include "io/measurement_set.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

enum class VisibilityFileKind { measurement_set, uvfits };

// A directory holding table.dat is a Measurement Set; a file starting with a FITS primary
// header ("SIMPLE  =") is UVFITS. Throws DataError "path: ..." otherwise.
VisibilityFileKind visibility_file_kind(const std::string& path);

// Reads the whole file (the selection applies to Measurement Sets only: one other than the
// default on UVFITS throws UsageError); "-" reads UVFITS from
// standard input (corr -o - | idg-grid ... -). Lenient departures
// are appended to `warnings`. Throws DataError for unreadable files and for a file without a
// cross-correlation row.
VisibilitySet read_visibility_file(const std::string& path, const MeasurementSetSelection& sel,
                                   std::vector<std::string>* warnings);

}  // namespace rapt
