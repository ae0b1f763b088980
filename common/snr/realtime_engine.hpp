// The per-chunk steps of snr's real-time mode, on one engine (CPU or GPU). The engine holds one
// row per DM trial: `history` samples kept from the previous chunk (already normalised), then
// the chunk's new samples. Per chunk the search calls dedisperse(), detrend(), search() and,
// when more data follow, shift().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dedisp/dedisp_engine.hpp"
#include "snr/boxcar_engine.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {

struct RealtimeShape {
  DedispPlan plan;        // the DM trials
  int64_t history = 0;    // samples kept before each chunk (a multiple of 4)
  int64_t chunk = 0;      // new samples per chunk (a multiple of the detrend length and of 4)
  SnrSettings settings;   // widths, threshold, detrend length, baseline, noise
};

class RealtimeEngine {
 public:
  virtual ~RealtimeEngine() = default;
  // Dedisperses `block` (chunk + max_delay() spectra) into the new part of every row.
  virtual void dedisperse(const SpectraBlock& block) = 0;
  // Removes the baseline of the first `blocks` detrend blocks of the new part and returns their
  // sigmas, sigma[dm * blocks + b]. (Fewer than a chunk's blocks only at the end: what follows
  // them is never searched.)
  virtual std::vector<double> detrend(int blocks) = 0;
  // Multiplies each of those blocks by scale[dm * blocks + b] (0: the block becomes zeros) and
  // searches every row's first history + blocks x detrend_len samples (blocks may be 0 at the
  // end of the data: the history alone). Hits are at row
  // positions (history + k for new sample k), sorted by series, width and sample.
  virtual std::vector<BoxcarHit> search(const std::vector<float>& scale, int blocks) = 0;
  // Keeps the last `history` searched samples as the next chunk's history.
  virtual void shift(int blocks) = 0;
  virtual int32_t max_delay() const = 0;
  virtual std::string name() const = 0;
};

std::unique_ptr<RealtimeEngine> make_cpu_realtime_engine(const RealtimeShape& shape, int threads);
// Throws UsageError in a build without CUDA.
std::unique_ptr<RealtimeEngine> make_gpu_realtime_engine(const RealtimeShape& shape, int gpu);

}  // namespace rapt
