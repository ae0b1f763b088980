// The SIGPROC header of a simulated observation.
#pragma once
#include <string>

#include "io/sigproc.hpp"
#include "sim/simulation_plan.hpp"

namespace rapt {

// A filterbank header (data_type 1, one IF, unsigned samples) describing `obs`; rawdatafile is
// the basename of `output` ("stdout" for "-").
SigprocHeader sigproc_header_for(const ObservationSpec& obs, const std::string& output);

}  // namespace rapt
