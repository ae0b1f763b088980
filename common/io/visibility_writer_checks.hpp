// Checks and helpers shared by the streaming UVFITS and Measurement Set writers
// (io/visibility_writer.hpp); not part of the public interface.
#pragma once
#include <string>

#include "io/visibility_set.hpp"

namespace rapt {

// A copy of everything but the rows: a writer keeps this for its whole life, so a caller that
// passes a complete set (write_uvfits, write_measurement_set) is not charged a second copy.
VisibilitySet visibility_metadata(const VisibilitySet& set);

// UsageError "path: problem" unless `rows` describes the same channels (count, and frequencies
// to a millionth of a channel width), correlation products and number of antennas as
// `metadata`. Other metadata of `rows` (names, phase centre) is not looked at.
void check_append_metadata(const std::string& path, const VisibilitySet& metadata,
                           const VisibilitySet& rows);

}  // namespace rapt
