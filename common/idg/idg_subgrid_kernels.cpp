#include "idg/idg_subgrid_kernels.hpp"

#include <algorithm>
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
                              IdgSubgridWork& work) {
  const IdgSettings& s = plan.settings;
  const double to_px = s.image_size / kSpeedOfLight_m_s;
  const double cx = subgrid.x + s.subgrid_size / 2 - s.grid_size / 2;
  const double cy = subgrid.y + s.subgrid_size / 2 - s.grid_size / 2;
  const double w_centre = idg_w_layer_centre(s, subgrid.w_layer);
  const int c0 = subgrid.first_channel, nc = subgrid.nr_channels;
  work.nr_timesteps = subgrid.nr_timesteps;
  work.nr_channels = nc;
  work.even_channels = nc > 1;
  if (nc > 1) {
    const double step = vis.freq_hz[c0 + 1] - vis.freq_hz[c0];
    for (int c = 2; c < nc && work.even_channels; ++c)
      work.even_channels = std::fabs(vis.freq_hz[c0 + c] - vis.freq_hz[c0] - c * step) <=
                           1e-12 * std::fabs(vis.freq_hz[c0]);
  }
  work.visibilities.resize(size_t(subgrid.nr_timesteps) * nc);
  size_t k = 0;
  for (int t = 0; t < subgrid.nr_timesteps; ++t) {
    const int64_t row = plan.timestep_rows[size_t(subgrid.first_timestep + t)];
    const std::array<double, 3>& uvw = vis.uvw_m[row];
    for (int c = c0; c < c0 + nc; ++c, ++k) {
      const double f = vis.freq_hz[c];
      IdgSubgridVisibility& v = work.visibilities[k];
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

namespace {

// Phasors of one time step along one subgrid row: exp(i phase) of the first channel at every
// pixel i, and the factor that steps each to the next channel. With evenly spaced channels the
// phase terms are linear in the channel number, so two sines and cosines per pixel serve the
// whole channel group; the recurrence runs independently for every pixel of the row, which
// keeps the multiplies pipelined.
struct RowPhasors {
  std::vector<double> re, im, step_re, step_im;  // [i]
};

void row_phasors(const IdgSubgridTables& tables, const IdgSubgridWork& work, int t, int j,
                 int channel, RowPhasors& out) {
  const int nb = tables.size;
  out.re.resize(size_t(nb)), out.im.resize(size_t(nb));
  out.step_re.assign(size_t(nb), 1.0), out.step_im.assign(size_t(nb), 0.0);
  const IdgSubgridVisibility& a = work.visibilities[size_t(t) * work.nr_channels + channel];
  const bool step = work.even_channels && work.nr_channels > 1;
  const IdgSubgridVisibility& b = work.visibilities[size_t(t) * work.nr_channels + (step ? 1 : 0)];
  const IdgSubgridVisibility& a0 = work.visibilities[size_t(t) * work.nr_channels];
  const double aj = tables.angle[size_t(j)];
  for (int i = 0; i < nb; ++i) {
    const double ai = tables.angle[size_t(i)];
    const double n1 = tables.n_minus_1[size_t(j) * nb + i];
    const double phase = a.dx * ai + a.dy * aj + a.dw * n1;
    out.re[size_t(i)] = std::cos(phase);
    out.im[size_t(i)] = std::sin(phase);
    if (step) {
      const double d = (b.dx - a0.dx) * ai + (b.dy - a0.dy) * aj + (b.dw - a0.dw) * n1;
      out.step_re[size_t(i)] = std::cos(d);
      out.step_im[size_t(i)] = std::sin(d);
    }
  }
}

// phasor[i] *= step[i] for the next channel.
void step_row(RowPhasors& ph, int nb) {
  for (int i = 0; i < nb; ++i) {
    const double re = ph.re[size_t(i)] * ph.step_re[size_t(i)] - ph.im[size_t(i)] * ph.step_im[size_t(i)];
    const double im = ph.re[size_t(i)] * ph.step_im[size_t(i)] + ph.im[size_t(i)] * ph.step_re[size_t(i)];
    ph.re[size_t(i)] = re, ph.im[size_t(i)] = im;
  }
}

}  // namespace

void idg_grid_subgrid(const IdgSubgridTables& tables, int npol, const IdgSubgridWork& work,
                      std::complex<float>* pixels) {
  const int nb = tables.size, nc = work.nr_channels;
  const size_t plane = size_t(nb) * nb;
  RowPhasors ph;
  std::vector<double> sum_re(size_t(npol) * nb), sum_im(size_t(npol) * nb);
  for (int j = 0; j < nb; ++j) {
    std::fill(sum_re.begin(), sum_re.end(), 0.0);
    std::fill(sum_im.begin(), sum_im.end(), 0.0);
    for (int t = 0; t < work.nr_timesteps; ++t) {
      for (int c = 0; c < nc; ++c) {
        if (c == 0 || !work.even_channels)
          row_phasors(tables, work, t, j, c, ph);
        else
          step_row(ph, nb);
        const IdgSubgridVisibility& v = work.visibilities[size_t(t) * nc + c];
        for (int p = 0; p < npol; ++p) {
          const double vr = v.value[p].real(), vi = v.value[p].imag();
          double* sr = &sum_re[size_t(p) * nb];
          double* si = &sum_im[size_t(p) * nb];
          for (int i = 0; i < nb; ++i) {
            sr[i] += vr * ph.re[size_t(i)] - vi * ph.im[size_t(i)];
            si[i] += vr * ph.im[size_t(i)] + vi * ph.re[size_t(i)];
          }
        }
      }
    }
    for (int p = 0; p < npol; ++p)
      for (int i = 0; i < nb; ++i) {
        const double taper = tables.taper[size_t(j) * nb + i];
        pixels[p * plane + size_t(j) * nb + i] = std::complex<float>(
            float(taper * sum_re[size_t(p) * nb + i]), float(taper * sum_im[size_t(p) * nb + i]));
      }
  }
}

void idg_degrid_subgrid(const IdgSubgridTables& tables, int npol, const std::complex<float>* pixels,
                        IdgSubgridWork& work, std::vector<std::complex<double>>& scratch) {
  const int nb = tables.size, nc = work.nr_channels;
  const size_t plane = size_t(nb) * nb;
  // Tapered pixels, [pol][j][i] as real and imaginary planes.
  scratch.resize(plane * npol);
  std::vector<double> tap_re(plane * npol), tap_im(plane * npol);
  for (int p = 0; p < npol; ++p)
    for (size_t ij = 0; ij < plane; ++ij) {
      tap_re[p * plane + ij] = tables.taper[ij] * double(pixels[p * plane + ij].real());
      tap_im[p * plane + ij] = tables.taper[ij] * double(pixels[p * plane + ij].imag());
    }
  RowPhasors ph;
  for (int t = 0; t < work.nr_timesteps; ++t) {
    // sums[c][p] over every pixel of value * conj(phasor)
    std::vector<std::complex<double>>& sums = scratch;
    sums.assign(size_t(nc) * 4, 0.0);
    for (int j = 0; j < nb; ++j)
      for (int c = 0; c < nc; ++c) {
        if (c == 0 || !work.even_channels)
          row_phasors(tables, work, t, j, c, ph);
        else
          step_row(ph, nb);
        for (int p = 0; p < npol; ++p) {
          const double* xr = &tap_re[p * plane + size_t(j) * nb];
          const double* xi = &tap_im[p * plane + size_t(j) * nb];
          double re = 0, im = 0;
          for (int i = 0; i < nb; ++i) {
            re += xr[i] * ph.re[size_t(i)] + xi[i] * ph.im[size_t(i)];
            im += xi[i] * ph.re[size_t(i)] - xr[i] * ph.im[size_t(i)];
          }
          sums[size_t(c) * 4 + p] += std::complex<double>(re, im);
        }
      }
    for (int c = 0; c < nc; ++c)
      for (int p = 0; p < npol; ++p) work.visibilities[size_t(t) * nc + c].value[p] = sums[size_t(c) * 4 + p];
  }
}

}  // namespace rapt
