// One corr run: open the voltages, make the plan, then stream them block by block through the
// channeliser (if any), the validity masks, fringe stopping and the X engine into integrations
// of visibility rows, appended to the output as each integration ends.
#pragma once
#include <cstdint>
#include <string>

#include "cli/program.hpp"
#include "corr/corr_options.hpp"

namespace rapt {

struct CorrRunSummary {
  int64_t samples_in = 0;      // time samples read (before channelisation)
  int64_t samples_correlated = 0;
  int64_t integrations = 0;    // written
  int64_t rows = 0;
  double seconds_of_data = 0;
  double wall_seconds = 0;
  double input_bytes = 0;      // bytes of voltages as stored
  double waiting_s = 0;        // waiting for the next block to be read and decoded
  double channelising_s = 0;
  double correlating_s = 0;    // masks, fringe stopping and the engine (with GPU copies)
  double preparing_s = 0;      // ... of which masks and fringe stopping
  double writing_s = 0;        // rows and the writer
  std::string engine;
};

// Throws DataError (bad data, naming the file) or UsageError (bad options); the output appears
// only when the whole input has been correlated.
CorrRunSummary run_corr(const CorrOptions& options, const Messages& messages);

}  // namespace rapt
