// Metadata checks of the streaming visibility writers. A correlator appends one integration at
// a time; rows made for another setup would be stored under the wrong frequencies or products
// without any error from the file format, so each append is compared with what was opened.
#include "io/visibility_writer_checks.hpp"

#include <cmath>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {

namespace {

std::string join(const std::vector<int>& codes) {
  std::ostringstream text;
  for (size_t k = 0; k < codes.size(); ++k) text << (k ? " " : "") << codes[k];
  return text.str();
}

}  // namespace

VisibilitySet visibility_metadata(const VisibilitySet& set) {
  VisibilitySet m;
  m.telescope = set.telescope;
  m.instrument = set.instrument;
  m.object = set.object;
  m.phase_centre_ra_rad = set.phase_centre_ra_rad;
  m.phase_centre_dec_rad = set.phase_centre_dec_rad;
  m.pointing = set.pointing;
  m.array = set.array;
  m.channel_freq_hz = set.channel_freq_hz;
  m.channel_width_hz = set.channel_width_hz;
  m.stokes = set.stokes;
  return m;
}

void check_append_metadata(const std::string& path, const VisibilitySet& metadata,
                           const VisibilitySet& rows) {
  auto fail = [&](const std::string& problem) { throw UsageError(path + ": " + problem); };
  if (rows.nchan() != metadata.nchan())
    fail("appended rows have " + std::to_string(rows.nchan()) + " channels; the file has " +
         std::to_string(metadata.nchan()));
  const double tolerance_hz = 1e-6 * std::fabs(metadata.channel_width_hz);
  for (size_t k = 0; k < metadata.nchan(); ++k)
    if (!(std::fabs(rows.channel_freq_hz[k] - metadata.channel_freq_hz[k]) <= tolerance_hz))
      fail("appended rows put channel " + std::to_string(k) + " at " +
           std::to_string(rows.channel_freq_hz[k]) + " Hz; the file has it at " +
           std::to_string(metadata.channel_freq_hz[k]) + " Hz");
  if (rows.stokes != metadata.stokes)
    fail("appended rows have correlation products (Stokes codes) " + join(rows.stokes) +
         "; the file has " + join(metadata.stokes));
  if (rows.array.size() != metadata.array.size())
    fail("appended rows come from a " + std::to_string(rows.array.size()) +
         "-antenna array; the file has " + std::to_string(metadata.array.size()) + " antennas");
}

}  // namespace rapt
