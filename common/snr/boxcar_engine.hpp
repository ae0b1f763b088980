// The boxcar stage of the single-pulse search: for every series of a batch, every boxcar
// width and every sample, the sum of `width` samples starting at sample - width/2 (zeros
// outside the series), divided by sqrt(width); every value above the threshold is a hit.
// Width 1 is the sample itself. This is PRESTO's convolution ('same' alignment) without its
// chunking. One interface, two engines: the CPU engine (threads over series, double prefix
// sums) and the GPU engine (gpu/snr_*: every series and width in one pass over tile-local
// prefix sums, hits compacted on the device).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

struct BoxcarHit {
  int32_t series = 0;       // row in the batch
  int32_t width_index = 0;  // into the engine's widths
  int64_t sample = 0;       // centre-aligned as above
  float snr = 0.0f;
};

class BoxcarEngine {
 public:
  virtual ~BoxcarEngine() = default;
  // `series` holds num_series rows of `length` floats (row-major, unit noise). Hits come back
  // sorted by series, width index and sample. Throws std::invalid_argument on a size mismatch.
  std::vector<BoxcarHit> find_hits(const std::vector<float>& series, int64_t num_series,
                                   int64_t length);
  const std::vector<int>& widths() const { return widths_; }
  float threshold() const { return threshold_; }
  virtual std::string name() const = 0;

 protected:
  BoxcarEngine(std::vector<int> widths, float threshold)
      : widths_(std::move(widths)), threshold_(threshold) {}

 private:
  virtual std::vector<BoxcarHit> compute_hits(const float* series, int64_t num_series,
                                              int64_t length) = 0;
  std::vector<int> widths_;
  float threshold_;
};

// Sorts hits by series, width index, sample (engines that compact in any order call this).
void sort_boxcar_hits(std::vector<BoxcarHit>& hits);

std::unique_ptr<BoxcarEngine> make_cpu_boxcar_engine(std::vector<int> widths, float threshold,
                                                     int threads);
// Throws UsageError in a build without CUDA.
std::unique_ptr<BoxcarEngine> make_gpu_boxcar_engine(std::vector<int> widths, float threshold,
                                                     int gpu_index);

// The CPU engine's arithmetic for one series, for tests and the benchmark.
void boxcar_hits_of_series(const float* x, int64_t length, const std::vector<int>& widths,
                           float threshold, int32_t series, std::vector<double>& prefix_scratch,
                           std::vector<BoxcarHit>& out);

}  // namespace rapt
