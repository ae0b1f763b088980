// From boxcar hits to PRESTO's event list for one series (formats.md section 5): within each
// width keep only the strongest hit within width/2 samples (width 1 is kept as is), drop hits
// in bad blocks, then across widths drop events within max(w1/2, w2/2, 1) samples of a
// stronger one, then events that touch an off region (padding between on/off pairs).
#pragma once
#include <cstdint>
#include <vector>

#include "io/presto_inf.hpp"
#include "io/singlepulse.hpp"
#include "snr/boxcar_engine.hpp"

namespace rapt {

struct EventContext {
  double dm = 0.0;
  double dt_s = 0.0;
  int64_t detrend_len = 1000;
  std::vector<bool> bad_blocks;
  std::vector<BinRange> off_regions;
};

// `hits` are one series' hits sorted by width index and sample; `widths` the engine's.
// Events come back sorted by sample (stable: narrower widths first among equal samples).
std::vector<SinglePulseEvent> events_from_hits(const std::vector<BoxcarHit>& hits,
                                               const std::vector<int>& widths,
                                               const EventContext& context);

// The two pruning steps on their own (for tests): keep the strongest within `radius`.
std::vector<BoxcarHit> keep_local_maxima(const std::vector<BoxcarHit>& hits, int64_t radius);
std::vector<SinglePulseEvent> prune_across_widths(const std::vector<SinglePulseEvent>& events,
                                                  int max_width);

}  // namespace rapt
