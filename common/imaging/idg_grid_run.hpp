// idg-grid from options to images: read the visibilities, combine the polarisations, weight,
// plan and grid each channel group and polarisation, write the dirty images and PSFs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/program.hpp"
#include "imaging/idg_grid_options.hpp"

namespace rapt {

struct IdgGridSummary {
  int64_t visibilities = 0;   // (row, channel) samples gridded, summed over every image
  int images = 0;             // dirty images and PSFs written
  double gridding_s = 0;      // planning, gridding and FFTs
  double wall_s = 0;
  std::string engine;
  std::string energy;         // EnergyMeter::report() of the gridding
  std::string energy_note;    // why it was not measured, or ""
  std::vector<std::string> outputs;
};

// Throws UsageError/DataError with one-line messages; writes nothing unless it succeeds.
IdgGridSummary run_idg_grid(const IdgGridOptions& options, const Messages& messages);

}  // namespace rapt
