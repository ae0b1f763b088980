#include "corr/visibility_rows.hpp"

#include <stdexcept>

#include "corr/correlator_engine.hpp"

namespace rapt {

void append_integration_rows(const RowSettings& s, const std::vector<std::complex<double>>& sums,
                             const std::vector<int64_t>& valid_counts, double time_mjd,
                             double integration_s, const std::vector<Vector3>& antenna_uvw_m,
                             VisibilitySet& rows) {
  const int64_t nbl = int64_t(s.nant) * (s.nant + 1) / 2;
  const int nprod_engine = s.npol * s.npol;
  const size_t nprod = s.products.stokes.size();
  if (s.chan_avg < 1 || s.nchan % s.chan_avg || sums.size() != size_t(s.nchan) * nbl * nprod_engine ||
      valid_counts.size() != size_t(nbl) || antenna_uvw_m.size() != size_t(s.nant) ||
      rows.nchan() != size_t(s.nchan / s.chan_avg) || rows.stokes != s.products.stokes ||
      s.products.engine_product.size() != nprod)
    throw std::invalid_argument("append_integration_rows: sizes disagree");
  const int nout = s.nchan / s.chan_avg;
  for (int a2 = 0; a2 < s.nant; ++a2)
    for (int a1 = 0; a1 <= a2; ++a1) {
      if (a1 == a2 && !s.autos) continue;
      const int64_t bl = baseline_index(a1, a2);
      const int64_t n = valid_counts[size_t(bl)];
      const double scale = n > 0 ? 1.0 / (double(n) * s.chan_avg) : 0.0;
      rows.time_mjd.push_back(time_mjd);
      rows.integration_s.push_back(float(integration_s));
      rows.antenna1.push_back(a1);
      rows.antenna2.push_back(a2);
      Vector3 uvw;
      for (int k = 0; k < 3; ++k) uvw[k] = antenna_uvw_m[size_t(a1)][k] - antenna_uvw_m[size_t(a2)][k];
      rows.uvw_m.push_back(uvw);
      for (int c = 0; c < nout; ++c)
        for (size_t p = 0; p < nprod; ++p) {
          std::complex<double> sum = 0;
          for (int k = 0; k < s.chan_avg; ++k) {
            const int64_t chan = int64_t(c) * s.chan_avg + k;
            sum += sums[size_t((chan * nbl + bl) * nprod_engine + s.products.engine_product[p])];
          }
          rows.vis.push_back(std::complex<float>(sum * scale));
          rows.weight.push_back(float(n) * s.chan_avg);
          rows.flag.push_back(n > 0 ? 0 : 1);
        }
    }
}

std::vector<double> averaged_channel_freqs(const std::vector<double>& freqs_hz, int chan_avg) {
  if (chan_avg < 1 || freqs_hz.size() % size_t(chan_avg))
    throw std::invalid_argument("averaged_channel_freqs: chan_avg does not divide the channels");
  std::vector<double> out;
  for (size_t c = 0; c < freqs_hz.size(); c += size_t(chan_avg)) {
    double sum = 0;
    for (int k = 0; k < chan_avg; ++k) sum += freqs_hz[c + size_t(k)];
    out.push_back(sum / chan_avg);
  }
  return out;
}

void clear_rows(VisibilitySet& rows) {
  rows.time_mjd.clear();
  rows.integration_s.clear();
  rows.antenna1.clear();
  rows.antenna2.clear();
  rows.uvw_m.clear();
  rows.vis.clear();
  rows.weight.clear();
  rows.flag.clear();
}

}  // namespace rapt
