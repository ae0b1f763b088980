// One bf run: open the voltages, work out the array, pointing, beams, weights and flags, then
// stream the voltages block by block through the engine into the outputs.
#pragma once
#include <string>

#include "bf/bf_options.hpp"
#include "cli/program.hpp"

namespace rapt {

struct BfRunSummary {
  int64_t samples_in = 0;       // time samples read
  int64_t samples_out = 0;      // output samples per beam
  int64_t non_finite = 0;       // station samples with NaN or infinity, left out
  double seconds_of_data = 0;
  double wall_seconds = 0;
  double input_bytes = 0;       // bytes of voltages as stored
  double waiting_s = 0;         // waiting for the next block to be read and decoded
  double forming_s = 0;         // in the engine (with its copies to and from a GPU)
  double writing_s = 0;         // scaling and writing the outputs
  std::string engine;
};

// Throws DataError (bad data, naming the file) or UsageError (bad options); every output appears
// only when the whole input has been processed.
BfRunSummary run_bf(const BfOptions& options, const Messages& messages);

}  // namespace rapt
