// The array behind a voltage file, for the programs that need its geometry (bf, corr): a layout
// file given on the command line, else the antenna names and positions in the voltages' header.
#pragma once
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

// `layout_path` (read_layout_file), or "" for the header's array. Throws DataError naming the
// input when the array is needed but neither has one ("give --layout FILE"), and when the array
// does not list as many antennas as the voltages hold. With no array and !needed, returns the
// empty layout. Where the header names every antenna of the file once (ANT_NAMES), the file's
// antennas are taken by name, in the header's order; else in the file's order.
ArrayLayout voltage_array_layout(const std::string& layout_path, const VoltageHeader& voltages,
                                 const std::string& input_name, bool needed);

// The stations' names for flags files: the layout's, or "0", "1", ... when it has none.
std::vector<std::string> station_names(const ArrayLayout& layout, int nant);

}  // namespace rapt
