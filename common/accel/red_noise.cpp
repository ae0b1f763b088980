#include "accel/red_noise.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "accel/power_median.hpp"
#include "cli/atomic_output.hpp"
#include "io/presto_series.hpp"

namespace rapt {
namespace {

using Complex = std::complex<float>;

// accelsearch's fixed deredden() settings.
constexpr int kAccelStartWidth = 6;
constexpr int kAccelEndWidth = 200;

// How the block walk of the two PRESTO variants differs.
struct BlockWalk {
  int first_length = 6;
  std::function<int(long first_bin)> next_length;  // length of the block starting there
  bool measure_short_last_block = true;            // rednoise yes, accelsearch no
};

float block_level(const Complex* bins, size_t count) {
  return static_cast<float>(median_power(bins, count) / std::log(2.0));
}

void scale(Complex& bin, float level) {
  const float norm = 1.0f / std::sqrt(level);
  bin = Complex(bin.real() * norm, bin.imag() * norm);
}

// Scales bins [from, to) by the level interpolated from `level` with `slope` per bin.
void scale_ramp(Complex* bins, size_t from, size_t to, float level, float slope) {
  int step = 0;
  for (size_t i = from; i < to; ++i, ++step) scale(bins[i], level + slope * step);
}

void walk_blocks(std::vector<Complex>& packed, const BlockWalk& walk) {
  const size_t n = packed.size();
  Complex* bins = packed.data();
  bins[0] = Complex(1.0f, 0.0f);
  size_t old_start = 1, old_length = static_cast<size_t>(walk.first_length);
  float old_level = block_level(bins + old_start, old_length);
  float slope = 1.0f;  // PRESTO's initial value, used if no second block exists
  scale_ramp(bins, 1, 1 + old_length / 2, old_level, 0.0f);
  size_t start = old_start + old_length;
  int length = walk.next_length(static_cast<long>(start));
  for (;;) {
    size_t new_length = static_cast<size_t>(std::max(length, 1));
    if (walk.measure_short_last_block) {
      if (start >= n) break;
      new_length = std::min(new_length, n - start);
    } else if (start + new_length >= n) {
      break;
    }
    const float new_level = block_level(bins + start, new_length);
    slope = static_cast<float>((new_level - old_level) / (0.5 * (old_length + new_length)));
    scale_ramp(bins, old_start + old_length / 2, start + new_length / 2, old_level, slope);
    old_start = start;
    old_length = new_length;
    old_level = new_level;
    start += new_length;
    length = walk.next_length(static_cast<long>(start));
  }
  scale_ramp(bins, old_start + old_length / 2, n, old_level, slope);
}

int log_width(int startwidth, long first_bin) {
  return static_cast<int>(startwidth * std::log(static_cast<double>(first_bin)));
}

}  // namespace

size_t min_bins_to_deredden(const RedNoiseOptions& options) {
  return static_cast<size_t>(std::max(options.startwidth, 1)) + 1;
}

void deredden(std::vector<Complex>& packed, double T_s, const RedNoiseOptions& options) {
  if (options.startwidth < 1 || options.endwidth < options.startwidth)
    throw std::invalid_argument("deredden needs 1 <= startwidth <= endwidth");
  if (packed.size() < min_bins_to_deredden(options))
    throw std::invalid_argument("spectrum too short to deredden");
  const float T = static_cast<float>(T_s);
  bool first_update = true;
  BlockWalk walk;
  walk.first_length = options.startwidth;
  walk.next_length = [&](long first_bin) {
    // rednoise applies endfreq from the second update on (its first update is unconditional).
    const bool above = !first_update && static_cast<float>(first_bin) / T >= options.endfreq_hz;
    first_update = false;
    if (above) return options.endwidth;
    return std::min(log_width(options.startwidth, first_bin), options.endwidth);
  };
  walk_blocks(packed, walk);
}

void deredden_for_accelsearch(std::vector<Complex>& packed) {
  if (packed.size() < kAccelStartWidth + 1)
    throw std::invalid_argument("spectrum too short to deredden");
  BlockWalk walk;
  walk.first_length = kAccelStartWidth;
  walk.next_length = [](long first_bin) {
    return std::min(log_width(kAccelStartWidth, first_bin), kAccelEndWidth);
  };
  walk.measure_short_last_block = false;
  walk_blocks(packed, walk);
}

std::string red_noise_output_root(const std::string& root) { return root + "_red"; }

InfFile dereddened_inf(const InfFile& inf, const std::string& name) {
  InfFile out = inf;
  out.name = name;
  return out;
}

void write_dereddened(const std::string& out_root, const std::vector<Complex>& packed,
                      const InfFile& inf, bool overwrite) {
  FftWriter fft(out_root + ".fft", overwrite);
  AtomicOutputFile inf_file(out_root + ".inf", overwrite);
  fft.append(packed);
  inf_file.write(format_inf(inf));
  fft.commit();
  inf_file.commit();
}

}  // namespace rapt
