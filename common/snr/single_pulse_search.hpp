// The boxcar single-pulse search of a batch of series of one sampling time: normalise each
// (threads), run the boxcar engine over all of them at once, turn each series' hits into
// PRESTO's event list.
#pragma once
#include <vector>

#include "io/singlepulse.hpp"
#include "snr/boxcar_engine.hpp"
#include "snr/series_input.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {

// `batch` series have their samples loaded (usable lengths may differ); the engine was made with
// settings.widths and settings.threshold. Returns one event list per series. Throws DataError
// when a series is shorter than one detrend block.
std::vector<std::vector<SinglePulseEvent>> search_batch(const std::vector<SeriesInput>& batch,
                                                        const SnrSettings& settings,
                                                        BoxcarEngine& engine, int threads);

// The part of a series the search covers: its usable samples cut to whole detrend blocks.
// Throws DataError when that is not one block.
int64_t searched_length(const SeriesInput& series, int64_t usable_samples, int64_t detrend_len);

// Turns hits (sorted by series, width index, sample; series numbers index `series`) into each
// series' events. Hits at or past a series' searched length are dropped. `bad_blocks[s]` are
// series s's flags from its normalisation.
std::vector<std::vector<SinglePulseEvent>> events_of_series(
    const std::vector<BoxcarHit>& hits, const std::vector<SeriesInput>& series,
    const std::vector<int64_t>& searched, const std::vector<std::vector<bool>>& bad_blocks,
    const std::vector<int>& widths, int64_t detrend_len);

// Series per batch so that one batch holds about `budget_bytes` of samples (at least 1).
size_t series_per_batch(int64_t samples_per_series, size_t budget_bytes);

// The per-chunk peak S/N of Sclocco's thesis: for each chunk of `chunk_len` samples (the last
// partial chunk is left out), (max - mean) / std; an event (width 1, at the maximum) where it
// exceeds `threshold`. Throws DataError for a series shorter than one chunk.
std::vector<SinglePulseEvent> chunk_peak_events(const SeriesInput& series, int64_t chunk_len,
                                                double threshold);

}  // namespace rapt
