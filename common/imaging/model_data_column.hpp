// Writing predicted visibilities into the MODEL_DATA column of the Measurement Set they were
// predicted for, as WSClean's -predict does (the column is made when the MS has none, and
// replaced when it has one). Needs casacore (RAPT_WITH_CASACORE); without it the call throws
// UsageError saying so.
#pragma once
#include <string>

#include "io/visibility_set.hpp"

namespace rapt {

// `predicted` holds the rows read_measurement_set(path, ...) returned for DATA_DESC_ID
// `data_desc_id` and FIELD_ID `field_id` (-1: the only one the MS's rows use), with the same
// antennas and times; its visibilities go to those rows' MODEL_DATA. Throws UsageError when
// the MS uses several spectral windows or fields and no id says which, DataError when the rows
// do not match or the column cannot be written.
void write_model_data_column(const std::string& path, const VisibilitySet& predicted,
                             int data_desc_id, int field_id);

}  // namespace rapt
