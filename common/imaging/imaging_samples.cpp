#include "imaging/imaging_samples.hpp"

#include <cstdint>
#include <string>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kSpeedOfLight_m_s = 299792458.0;

}  // namespace

std::vector<ChannelGroup> split_channels(int nchan, int groups) {
  if (groups > nchan)
    throw UsageError("--channels-out " + std::to_string(groups) + " asks for more images than the " +
                     std::to_string(nchan) + " channels the data have");
  std::vector<ChannelGroup> out;
  for (int g = 0; g < groups; ++g) {
    const int first = int(int64_t(nchan) * g / groups);
    const int end = int(int64_t(nchan) * (g + 1) / groups);
    out.push_back({first, end - first});
  }
  return out;
}

ImagingSamples make_imaging_samples(const VisibilitySet& vs, const ChannelGroup& group,
                                    const std::vector<OutputPolarisation>& pols,
                                    const Weighting& weighting, int nx, int ny, double cell_rad) {
  ImagingSamples s;
  s.channels = group;
  s.npol = pols.size();
  s.freq_hz.assign(vs.channel_freq_hz.begin() + group.first,
                   vs.channel_freq_hz.begin() + group.first + group.count);
  const size_t nrows = vs.nrows(), nchan = s.freq_hz.size();
  s.vis.assign(nrows * nchan * s.npol, {});
  s.weight.assign(nrows * nchan * s.npol, 0.0f);
  s.natural_weight_sum.assign(s.npol, 0.0);
  for (size_t row = 0; row < nrows; ++row) {
    if (vs.antenna1[row] == vs.antenna2[row]) continue;
    const std::array<double, 3>& uvw = vs.uvw_m[row];
    for (size_t c = 0; c < nchan; ++c) {
      const double per_m = s.freq_hz[c] / kSpeedOfLight_m_s;
      if (!in_uv_range(weighting, uvw[0] * per_m, uvw[1] * per_m)) continue;  // weight 0
      const size_t in = vs.index(row, group.first + c, 0);
      for (size_t p = 0; p < s.npol; ++p) {
        const CombinedSample x =
            combine_products(pols[p], &vs.vis[in], &vs.weight[in], &vs.flag[in]);
        s.vis[s.index(row, c, p)] = x.value;
        s.weight[s.index(row, c, p)] = x.weight;
        s.natural_weight_sum[p] += x.weight;
      }
    }
  }
  // Each polarisation is weighted by the density of its own weights (they differ where one
  // product is flagged and another is not); the taper comes last.
  for (size_t p = 0; p < s.npol; ++p) {
    auto for_each_sample = [&](auto&& visit) {
      for (size_t row = 0; row < nrows; ++row) {
        const std::array<double, 3>& uvw = vs.uvw_m[row];
        for (size_t c = 0; c < nchan; ++c) {
          float& w = s.weight[s.index(row, c, p)];
          if (w > 0) {
            const double per_m = s.freq_hz[c] / kSpeedOfLight_m_s;
            visit(uvw[0] * per_m, uvw[1] * per_m, w);
          }
        }
      }
    };
    if (weighting.mode != WeightingMode::natural) {
      ImagingWeights density(weighting, nx, ny, cell_rad);
      for_each_sample([&](double u, double v, float& w) { density.add(u, v, w); });
      density.finish();
      for_each_sample([&](double u, double v, float& w) { w = density.weight(u, v, w); });
    }
    if (weighting.taper_fwhm_rad > 0)
      for_each_sample([&](double u, double v, float& w) {
        w = float(w * gaussian_taper(weighting, u, v));
      });
  }
  return s;
}

}  // namespace rapt
