#include "snr/single_pulse_search.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "snr/series_normaliser.hpp"
#include "snr/single_pulse_events.hpp"

namespace rapt {

size_t series_per_batch(int64_t samples_per_series, size_t budget_bytes) {
  const size_t bytes = size_t(std::max<int64_t>(samples_per_series, 1)) * sizeof(float);
  return std::max<size_t>(1, budget_bytes / bytes);
}

int64_t searched_length(const SeriesInput& series, int64_t usable_samples, int64_t detrend_len) {
  const int64_t whole = usable_samples / detrend_len * detrend_len;
  if (whole == 0)
    throw file_error(series.path, std::to_string(usable_samples) +
                                      " usable samples, fewer than one detrend block (" +
                                      std::to_string(detrend_len) + ")");
  return whole;
}

std::vector<std::vector<SinglePulseEvent>> events_of_series(
    const std::vector<BoxcarHit>& hits, const std::vector<SeriesInput>& series,
    const std::vector<int64_t>& searched, const std::vector<std::vector<bool>>& bad_blocks,
    const std::vector<int>& widths, int64_t detrend_len) {
  std::vector<std::vector<SinglePulseEvent>> events(series.size());
  size_t begin = 0;
  while (begin < hits.size()) {
    size_t end = begin;
    while (end < hits.size() && hits[end].series == hits[begin].series) ++end;
    const size_t s = size_t(hits[begin].series);
    std::vector<BoxcarHit> own;
    for (size_t i = begin; i < end; ++i)
      if (hits[i].sample < searched[s]) own.push_back(hits[i]);
    EventContext context;
    context.dm = series[s].dm;
    context.dt_s = series[s].dt_s;
    context.detrend_len = detrend_len;
    context.bad_blocks = bad_blocks[s];
    context.off_regions = series[s].off_regions;
    events[s] = events_from_hits(own, widths, context);
    begin = end;
  }
  return events;
}

std::vector<std::vector<SinglePulseEvent>> search_batch(const std::vector<SeriesInput>& batch,
                                                        const SnrSettings& settings,
                                                        BoxcarEngine& engine, int threads) {
  if (batch.empty()) return {};
  // Each series is searched over its whole detrend blocks; shorter ones are padded with zeros
  // to the longest (zeros are what the boxcars see past a series' end anyway).
  std::vector<int64_t> lengths;
  for (const SeriesInput& s : batch)
    lengths.push_back(searched_length(s, int64_t(s.samples.size()), settings.detrend_len));
  const int64_t row = *std::max_element(lengths.begin(), lengths.end());
  std::vector<float> packed(batch.size() * size_t(row), 0.0f);
  std::vector<std::vector<bool>> bad_blocks(batch.size());
  parallel_for(threads, batch.size(), [&](size_t s, int) {
    NormalisedSeries normalised = normalise_series(batch[s].samples, settings);
    std::copy(normalised.samples.begin(), normalised.samples.end(),
              packed.begin() + int64_t(s) * row);
    bad_blocks[s] = std::move(normalised.bad_blocks);
  });
  const std::vector<BoxcarHit> hits = engine.find_hits(packed, int64_t(batch.size()), row);
  return events_of_series(hits, batch, lengths, bad_blocks, engine.widths(),
                          settings.detrend_len);
}

std::vector<SinglePulseEvent> chunk_peak_events(const SeriesInput& series, int64_t chunk_len,
                                                double threshold) {
  std::vector<SinglePulseEvent> events;
  const std::vector<float>& x = series.samples;
  // As a boxcar search refuses a series shorter than one detrend block: nothing would be
  // searched, and no events would look like no pulses.
  if (int64_t(x.size()) < chunk_len)
    throw file_error(series.path, std::to_string(x.size()) + " usable samples, fewer than one " +
                                      "chunk (" + std::to_string(chunk_len) + ")");
  for (int64_t start = 0; start + chunk_len <= int64_t(x.size()); start += chunk_len) {
    double sum = 0.0, sum_sq = 0.0;
    int64_t peak = start;
    for (int64_t i = start; i < start + chunk_len; ++i) {
      sum += x[i];
      sum_sq += double(x[i]) * x[i];
      if (x[i] > x[peak]) peak = i;
    }
    const double mean = sum / double(chunk_len);
    const double var = std::max(0.0, sum_sq / double(chunk_len) - mean * mean);
    if (!(var > 0.0)) continue;
    const double snr = (x[peak] - mean) / std::sqrt(var);
    if (snr <= threshold) continue;
    SinglePulseEvent e;
    e.dm = series.dm;
    e.sigma = snr;
    e.sample = peak;
    e.time_s = double(peak) * series.dt_s;
    e.downfact = 1;
    events.push_back(e);
  }
  return events;
}

}  // namespace rapt
