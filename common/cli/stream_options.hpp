// The options every program that streams voltages through an engine shares (bf, corr): how big a
// block is, what VDIF's frames do not say, and where the engine runs. Declared once here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cxxopts.hpp>
#include <string>

#include "gpu_device.hpp"
#include "io/vdif_read_options.hpp"

namespace rapt {

// Largest block, MiB, of voltages from a pipe (their length unknown) unless --gulp asks for more:
// output then follows a recorder's stream as it arrives, and memory stays small.
constexpr double kStreamBlockMib = 16;

// Samples a block of an input of `nsamples` samples holds (-1: a pipe) when --gulp does not say:
// `samples` (what --max-block-mib allows), from a pipe no more than kStreamBlockMib holds but
// never fewer than `unit` (one output's input).
inline int64_t stream_block_samples(int64_t samples, int64_t nsamples, double bytes_per_sample,
                                    int64_t unit) {
  if (nsamples >= 0) return samples;
  return std::min(samples,
                  std::max(unit, int64_t(kStreamBlockMib * 1048576.0 / bytes_per_sample)));
}

struct StreamOptions {
  int64_t gulp = 0;            // --gulp: time samples per block; 0 = from max_block_mib
  double max_block_mib = 256;  // --max-block-mib
  VdifReadOptions vdif;        // --vdif-rate, --vdif-freq, --vdif-lsb, --vdif-signed
  DeviceChoice device;         // --device
  int threads = 0;             // --threads: 0 = every core

  // --threads, or the number of cores when it is 0.
  int thread_count() const;
};

// Declares --gulp, --max-block-mib, --device, --threads and the VDIF options in `group`; `work` says
// what is done to a block while the next one is read ("formed", "correlated").
void add_stream_options(cxxopts::Options& options, const std::string& group,
                        const std::string& work);

// Throws UsageError naming the option for a bad value.
StreamOptions stream_options_from(const cxxopts::ParseResult& result);

}  // namespace rapt
