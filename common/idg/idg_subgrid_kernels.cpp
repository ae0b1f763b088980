#include "idg/idg_subgrid_kernels.hpp"

#include <cmath>

#include "geometry/interferometer_geometry.hpp"
#include "idg/idg_taper.hpp"

namespace rapt {

IdgSubgridTables::IdgSubgridTables(const IdgSettings& s) : size(s.subgrid_size) {
  const int nb = size;
  const std::vector<double> taper_1d = idg_subgrid_taper(nb);
  angle.resize(size_t(nb));
  n_minus_1.resize(size_t(nb) * nb);
  taper.resize(size_t(nb) * nb);
  for (int i = 0; i < nb; ++i) angle[size_t(i)] = 2 * M_PI * (i - nb / 2) / nb;
  for (int j = 0; j < nb; ++j) {
    const double m = (j - nb / 2) * s.image_size / nb;
    for (int i = 0; i < nb; ++i) {
      const double l = -(i - nb / 2) * s.image_size / nb;
      const double r2 = l * l + m * m;
      // n - 1 without the cancellation of sqrt(1 - r2) - 1 near the centre.
      n_minus_1[size_t(j) * nb + i] = -r2 / (1.0 + std::sqrt(1.0 - r2));
      taper[size_t(j) * nb + i] = taper_1d[size_t(i)] * taper_1d[size_t(j)];
    }
  }
}

void idg_subgrid_visibilities(const IdgPlan& plan, const IdgSubgrid& subgrid,
                              const IdgVisibilities& vis, bool unit_visibilities,
                              std::vector<IdgSubgridVisibility>& out) {
  const IdgSettings& s = plan.settings;
  const double to_px = s.image_size / kSpeedOfLight_m_s;
  const double cx = subgrid.x + s.subgrid_size / 2 - s.grid_size / 2;
  const double cy = subgrid.y + s.subgrid_size / 2 - s.grid_size / 2;
  const double w_centre = idg_w_layer_centre(s, subgrid.w_layer);
  out.resize(size_t(subgrid.nr_timesteps) * subgrid.nr_channels);
  size_t k = 0;
  for (int t = 0; t < subgrid.nr_timesteps; ++t) {
    const int64_t row = plan.timestep_rows[size_t(subgrid.first_timestep + t)];
    const std::array<double, 3>& uvw = vis.uvw_m[row];
    for (int c = subgrid.first_channel; c < subgrid.first_channel + subgrid.nr_channels; ++c, ++k) {
      const double f = vis.freq_hz[c];
      IdgSubgridVisibility& v = out[k];
      v.dx = uvw[0] * f * to_px - cx;
      v.dy = -uvw[1] * f * to_px - cy;
      v.dw = -2 * M_PI * (uvw[2] * f / kSpeedOfLight_m_s - w_centre);
      for (int p = 0; p < s.npol; ++p) {
        const float weight = vis.weight_of(size_t(row), size_t(c), p);
        // A flagged value may be NaN: it must contribute 0, not 0 * NaN.
        if (weight == 0)
          v.value[p] = 0;
        else if (unit_visibilities)
          v.value[p] = weight;
        else
          v.value[p] = double(weight) * std::complex<double>(vis.vis[vis.index(size_t(row), size_t(c), p)]);
      }
    }
  }
}

void idg_grid_subgrid(const IdgSubgridTables& tables, int npol,
                      const std::vector<IdgSubgridVisibility>& visibilities,
                      std::complex<float>* pixels) {
  const int nb = tables.size;
  const size_t plane = size_t(nb) * nb;
  for (int j = 0; j < nb; ++j) {
    for (int i = 0; i < nb; ++i) {
      const size_t ij = size_t(j) * nb + i;
      const double ai = tables.angle[size_t(i)], aj = tables.angle[size_t(j)];
      const double n1 = tables.n_minus_1[ij];
      std::complex<double> sum[4] = {};
      for (const IdgSubgridVisibility& v : visibilities) {
        const double phase = v.dx * ai + v.dy * aj + v.dw * n1;
        const std::complex<double> phasor(std::cos(phase), std::sin(phase));
        for (int p = 0; p < npol; ++p) sum[p] += v.value[p] * phasor;
      }
      for (int p = 0; p < npol; ++p)
        pixels[p * plane + ij] = std::complex<float>(tables.taper[ij] * sum[p]);
    }
  }
}

void idg_degrid_subgrid(const IdgSubgridTables& tables, int npol, const std::complex<float>* pixels,
                        std::vector<IdgSubgridVisibility>& visibilities,
                        std::vector<std::complex<double>>& scratch) {
  const int nb = tables.size;
  const size_t plane = size_t(nb) * nb;
  scratch.resize(plane * npol);
  for (int p = 0; p < npol; ++p)
    for (size_t ij = 0; ij < plane; ++ij)
      scratch[p * plane + ij] = tables.taper[ij] * std::complex<double>(pixels[p * plane + ij]);
  for (IdgSubgridVisibility& v : visibilities) {
    std::complex<double> sum[4] = {};
    for (int j = 0; j < nb; ++j) {
      const double aj = tables.angle[size_t(j)];
      for (int i = 0; i < nb; ++i) {
        const size_t ij = size_t(j) * nb + i;
        const double phase = v.dx * tables.angle[size_t(i)] + v.dy * aj + v.dw * tables.n_minus_1[ij];
        const std::complex<double> phasor(std::cos(phase), -std::sin(phase));
        for (int p = 0; p < npol; ++p) sum[p] += scratch[p * plane + ij] * phasor;
      }
    }
    for (int p = 0; p < npol; ++p) v.value[p] = sum[p];
  }
}

}  // namespace rapt
