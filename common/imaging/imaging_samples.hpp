// The samples one channel group's images are made from: for each output polarisation (I from
// XX and YY, ...) its combined visibility and its imaging weight (file weight, flags as zero,
// then natural, uniform or Briggs weighting), laid out [row][channel][polarisation] so that
// one IdgVisibilities view per polarisation reaches them without copying.
#pragma once
#include <complex>
#include <cstddef>
#include <vector>

#include "imaging/imaging_weights.hpp"
#include "imaging/polarisation_selection.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

// Channels [first, first + count) of the file.
struct ChannelGroup {
  int first = 0;
  int count = 0;
};

// `groups` groups of adjacent channels as WSClean's -channels-out splits them: group g holds
// channels floor(g C / K) .. floor((g + 1) C / K) - 1. Throws UsageError when groups > nchan.
std::vector<ChannelGroup> split_channels(int nchan, int groups);

struct ImagingSamples {
  ChannelGroup channels;
  size_t npol = 0;
  std::vector<double> freq_hz;                // [channel in group]
  std::vector<std::complex<float>> vis;       // [row][channel][pol]
  std::vector<float> weight;                  // [row][channel][pol], imaging weights
  std::vector<double> natural_weight_sum;     // [pol], before weighting (for messages)

  size_t index(size_t row, size_t chan, size_t pol) const {
    return (row * freq_hz.size() + chan) * npol + pol;
  }
};

// Combines the products and weights the samples. Autocorrelations get weight 0 (they are not
// imaged, and do not count in the weighting's density). `nx`, `ny`, `cell_rad` give the uv
// cells of uniform and Briggs weighting.
ImagingSamples make_imaging_samples(const VisibilitySet& vs, const ChannelGroup& group,
                                    const std::vector<OutputPolarisation>& pols,
                                    const Weighting& weighting, int nx, int ny, double cell_rad);

}  // namespace rapt
