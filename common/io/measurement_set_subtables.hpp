// The subtable rows of a Measurement Set that rapt writes (measurement_set_writer.cpp);
// casacore builds only, not part of the public interface.
#pragma once
#ifdef RAPT_WITH_CASACORE
#include <casacore/ms/MeasurementSets/MSColumns.h>
#include <casacore/ms/MeasurementSets/MeasurementSet.h>

#include "io/visibility_set.hpp"

namespace rapt::ms_detail {

// One row each in SPECTRAL_WINDOW (TOPO), POLARIZATION, DATA_DESCRIPTION, FIELD, OBSERVATION
// and PROCESSOR, and one ANTENNA and FEED row per antenna, from the metadata of `vis` (its
// rows are not looked at). FIELD::TIME and OBSERVATION::TIME_RANGE are 0 until
// set_observation_time_range().
void fill_subtables(casacore::MSColumns& cols, casacore::MeasurementSet& ms,
                    const VisibilitySet& vis);

// FIELD::TIME = first and OBSERVATION::TIME_RANGE = [first, last], MJD seconds, once the rows
// are all written.
void set_observation_time_range(casacore::MSColumns& cols, double first_s, double last_s);

}  // namespace rapt::ms_detail
#endif  // RAPT_WITH_CASACORE
