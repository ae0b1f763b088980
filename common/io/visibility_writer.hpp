// Visibilities written a few rows at a time, for programs that make them as they go (corr):
// memory stays bounded however long the observation. The metadata (array, channels, products,
// phase centre, names) is fixed when the writer is opened; each append() adds rows that share
// it. Nothing appears under the final name before commit(); a writer destroyed without commit()
// leaves nothing behind (its temporary file or directory is removed).
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "io/visibility_set.hpp"

namespace rapt {

class VisibilityWriter {
 public:
  virtual ~VisibilityWriter() = default;
  // Adds the rows of `rows`, whose metadata must equal the writer's (channel frequencies,
  // products and number of antennas are checked; UsageError "path: problem" otherwise).
  // A refused append (other metadata, arrays of inconsistent size) writes nothing and the
  // writer goes on; once writing to disk has failed it refuses all further work (DataError),
  // and destroying it removes the temporary.
  virtual void append(const VisibilitySet& rows) = 0;
  // Completes the file and moves it into place. Throws DataError naming the path on failure.
  virtual void commit() = 0;
  virtual size_t rows_written() const = 0;
};

// UVFITS as write_uvfits() writes it (io/uvfits.hpp), built up row by row. `metadata` is a
// VisibilitySet whose rows are not written (only its times are looked at, see Dates below);
// it is checked here as write_uvfits() checks it (UsageError). An existing `path` is refused
// unless `overwrite` (DataError), and then replaced only at commit().
// Dates: the first DATE parameter's PZERO (and DATE-OBS, the AN table's RDATE) name one UTC
// day, fixed once: the day of the earliest metadata.time_mjd when the metadata has times,
// else the day of the earliest time in the first append() that has rows. Rows of other days
// are dated from that same 0h; the two-part float32 DATE keeps them to well under a
// microsecond all the same.
std::unique_ptr<VisibilityWriter> open_uvfits_writer(const std::string& path,
                                                     const VisibilitySet& metadata,
                                                     bool overwrite);

// A Measurement Set as write_measurement_set() writes it (io/measurement_set.hpp), row by row.
// In a build without casacore, throws UsageError saying so.
std::unique_ptr<VisibilityWriter> open_measurement_set_writer(const std::string& path,
                                                              const VisibilitySet& metadata,
                                                              bool overwrite);

}  // namespace rapt
