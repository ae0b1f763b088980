// UVFITS: AIPS random-groups visibilities with the AIPS AN (antennas) and FQ (IF frequencies)
// tables, as AIPS FITTP, CASA exportuvfits, cotter, Miriad `fits` and pyuvdata write them.
//
// On disk and in VisibilitySet alike: uvw = antenna1 - antenna2 (UU/VV/WW in seconds on disk,
// metres in memory), V = <E1 conj(E2)>, so nothing is flipped in either direction.
// Random parameters are found by PTYPE name; PSCALn/PZEROn are applied here (CFITSIO leaves
// group parameters unscaled). Several IFs are flattened into one channel list (IF-major).
// A weight w on disk becomes flag = (w <= 0), weight = |w|; writing stores weight * (flag ? -1
// : 1), so an unflagged sample of weight 0 comes back flagged.
// Directions (AIPS): the phase centre is CRVAL of the RA and DEC axes, the pointing OBSRA and
// OBSDEC. A file without RA/DEC axes takes its phase centre from OBSRA/OBSDEC; one without
// OBSRA/OBSDEC is read as pointing at its phase centre (VisibilitySet::pointing unset).
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "geometry/array_layout.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

// Reads a whole UVFITS file. Throws DataError "path: problem" for anything it cannot interpret
// (no random groups, no AIPS AN table, several subarrays, truncated data, ...). Lenient
// departures (no FRAME in the AN table, no INTTIM, ...) are reported in `warnings`, each line
// starting with "path: ".
VisibilitySet read_uvfits(const std::string& path, std::vector<std::string>* warnings = nullptr);

// The same from a file image in memory; `name` stands for the file in messages. For files
// known to be well formed (tests): CFITSIO's memory driver can read past the buffer when a
// corrupt table claims more rows than it holds, where the disk driver reports an error.
VisibilitySet parse_uvfits(const void* data, size_t size, const std::string& name,
                           std::vector<std::string>* warnings = nullptr);

// Only the AIPS AN table: names and ITRF positions (ARRAYX/Y/Z + STABXYZ), in file order.
ArrayLayout read_uvfits_antennas(const std::string& path,
                                 std::vector<std::string>* warnings = nullptr);

// Writes `vis` as single-source, single-subarray, one-IF UVFITS (NAXIS 7, float32) through a
// temporary file renamed into place. Channels must be evenly spaced, the Stokes codes a
// consecutive run in some order (they are written sorted: XX YY XY YX), and all array sizes
// consistent (else UsageError "path: problem"); DataError when the file cannot be written or
// `path` exists and !overwrite.
void write_uvfits(const std::string& path, const VisibilitySet& vis, bool overwrite);

// BASELINE random parameter for 1-based antenna numbers: 256*a1 + a2 when both are < 256, else
// the extended 2048*a1 + a2 + 65536 (numbers < 2048).
double encode_uvfits_baseline(int antenna1_number, int antenna2_number);
// Inverse of the encodings above (and of 2147483648*a1 + a2 + 4259840); the fractional part
// of a 256*a1 + a2 code (the subarray) is ignored here. Returns 1-based numbers.
std::pair<long long, long long> decode_uvfits_baseline(double baseline);

}  // namespace rapt
