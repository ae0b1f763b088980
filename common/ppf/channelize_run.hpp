// One channelize run: open the voltages, set the channeliser up, stream the voltages block by
// block through the engine into the output, commit it.
#pragma once
#include <cstdint>
#include <string>

#include "cli/program.hpp"
#include "ppf/channelize_options.hpp"

namespace rapt {

struct ChannelizeRunSummary {
  int64_t samples_in = 0;      // input time samples read
  int64_t samples_out = 0;     // channelised time samples made
  int64_t non_finite = 0;      // channelised station samples with NaN or infinity, zeroed
  double seconds_of_data = 0;
  double wall_seconds = 0;
  double input_bytes = 0;      // bytes of voltages as stored
  double waiting_s = 0;        // waiting for the next block to be read and decoded
  double channelising_s = 0;   // in the engine (with its copies to and from a GPU)
  double writing_s = 0;        // detecting, scaling and writing the output
  std::string engine;
};

// Throws DataError (bad data, naming the file) or UsageError (bad options); the output appears
// only when the whole input has been processed.
ChannelizeRunSummary run_channelize(const ChannelizeOptions& options, const Messages& messages);

}  // namespace rapt
