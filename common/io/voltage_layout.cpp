#include "io/voltage_layout.hpp"

#include <algorithm>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {

namespace {

// A layout file's antennas in the order the voltages' header names them (ANT_NAMES), where the
// header names each of them exactly once; else the file's order, as it stands.
ArrayLayout in_header_order(const ArrayLayout& file, const ArrayLayout& header) {
  if (header.size() != file.size()) return file;
  std::vector<int> from(size_t(header.size()), -1);
  for (int h = 0; h < header.size(); ++h) {
    for (int f = 0; f < file.size(); ++f) {
      if (file.antennas[size_t(f)].name != header.antennas[size_t(h)].name) continue;
      if (from[size_t(h)] >= 0) return file;  // a name twice: no order to take
      from[size_t(h)] = f;
    }
    if (from[size_t(h)] < 0) return file;
  }
  ArrayLayout ordered = file;
  for (int h = 0; h < header.size(); ++h)
    ordered.antennas[size_t(h)] = file.antennas[size_t(from[size_t(h)])];
  return ordered;
}

}  // namespace

ArrayLayout voltage_array_layout(const std::string& layout_path, const VoltageHeader& v,
                                 const std::string& input_name, bool needed) {
  ArrayLayout layout = layout_path.empty() ? v.array : read_layout_file(layout_path);
  const std::string from = layout_path.empty() ? input_name : layout_path;
  // Antennas named in the voltages' header without positions all lie at the origin (the
  // centre of the Earth), where no antenna is: they give no geometry.
  const bool placed = std::any_of(layout.antennas.begin(), layout.antennas.end(),
                                  [](const Antenna& a) {
                                    return a.itrf_m[0] != 0 || a.itrf_m[1] != 0 || a.itrf_m[2] != 0;
                                  });
  if (layout.size() == 0 || (needed && !placed && layout_path.empty())) {
    if (needed)
      throw file_error(input_name, "the voltages carry no antenna positions" +
                                       (v.positions_set_aside.empty()
                                            ? std::string()
                                            : " (" + v.positions_set_aside + ")") +
                                       "; give --layout FILE");
    return layout;
  }
  if (layout.size() != v.nant)
    throw file_error(input_name, format_string("the voltages have %d stations but %s lists %d "
                                               "antennas", v.nant, from.c_str(), layout.size()));
  return layout_path.empty() ? layout : in_header_order(layout, v.array);
}

std::vector<std::string> station_names(const ArrayLayout& layout, int nant) {
  std::vector<std::string> names;
  for (int a = 0; a < nant; ++a)
    names.push_back(layout.size() ? layout.antennas[size_t(a)].name : std::to_string(a));
  return names;
}

}  // namespace rapt
