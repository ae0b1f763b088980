// Pieces shared by the Measurement Set reader and writer; not part of the public interface.
#pragma once
#include <string>

#include "cli/errors.hpp"

namespace rapt::ms_detail {

// The error every Measurement Set entry point throws in a build without casacore.
UsageError no_support_error(const std::string& path);

// casacore's exception texts can span lines; ours are one line.
std::string one_line(const std::string& text);

}  // namespace rapt::ms_detail
