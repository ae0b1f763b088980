#include "idg/idg_subgrid_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "geometry/interferometer_geometry.hpp"
#include "idg/idg_taper.hpp"

namespace rapt {

namespace {

// The loops over a subgrid row run on vectors of kLanes doubles (GCC's vector extension: the
// compiler splits them where the instruction set is narrower), rows padded to a whole number
// of vectors; the sine and cosine are the branch-free sincos_lanes below rather than libm's,
// which the loops could not vectorise. All in double, as before: the tests hold these kernels
// to 1e-5 of an fp64 DFT and the engines to each other.
constexpr int kLanes = 2;
typedef double Vec __attribute__((vector_size(kLanes * sizeof(double))));
typedef long long VecInt __attribute__((vector_size(kLanes * sizeof(long long))));

inline Vec broadcast(double x) { return Vec{} + x; }
inline Vec load(const double* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, Vec v) { std::memcpy(p, &v, sizeof v); }
inline double lane_sum(Vec v) {
  double sum = 0;
  for (int k = 0; k < kLanes; ++k) sum += v[k];
  return sum;
}

// sin and cos of every lane to a few units in the last place: x is reduced by the nearest
// multiple q of pi/2 (found by adding 1.5 x 2^52, whose low mantissa bits then hold it; pi/2
// in three parts, the products exact for |q| < 2^20, |x| < 1.6e6, far beyond any phase here), then Taylor polynomials on
// [-pi/4, pi/4] (their first omitted terms are below 5e-17), then the quadrant's swap and signs.
inline void sincos_lanes(Vec x, Vec& sine, Vec& cosine) {
  const Vec magic = broadcast(6755399441055744.0);
  const Vec shifted = x * broadcast(0.63661977236758134308) + magic;
  const Vec q = shifted - magic;
  VecInt quadrant;
  std::memcpy(&quadrant, &shifted, sizeof quadrant);
  quadrant &= 3;
  Vec r = x - q * broadcast(1.57079632673412561417e+00);
  r -= q * broadcast(6.07710050630396597660e-11);
  r -= q * broadcast(2.02226624879595063154e-21);
  const Vec r2 = r * r;
  const Vec s = r + r * r2 * (broadcast(-1.0 / 6) + r2 * (broadcast(1.0 / 120) +
                r2 * (broadcast(-1.0 / 5040) + r2 * (broadcast(1.0 / 362880) +
                r2 * (broadcast(-1.0 / 39916800) + r2 * (broadcast(1.0 / 6227020800.0) +
                r2 * broadcast(-1.0 / 1307674368000.0)))))));
  const Vec c = broadcast(1.0) + r2 * (broadcast(-0.5) + r2 * (broadcast(1.0 / 24) +
                r2 * (broadcast(-1.0 / 720) + r2 * (broadcast(1.0 / 40320) +
                r2 * (broadcast(-1.0 / 3628800) + r2 * (broadcast(1.0 / 479001600) +
                r2 * (broadcast(-1.0 / 87178291200.0) + r2 * broadcast(1.0 / 20922789888000.0))))))));
  // Quadrant k: sin = (s, c, -s, -c)[k], cos = (c, -s, -c, s)[k].
  const VecInt odd = (quadrant & 1) != 0;
  const Vec swapped_s = odd ? c : s, swapped_c = odd ? s : c;
  const Vec sign_s = __builtin_convertvector(1 - 2 * ((quadrant >> 1) & 1), Vec);
  const Vec sign_c = __builtin_convertvector(1 - 2 * (((quadrant + 1) >> 1) & 1), Vec);
  sine = swapped_s * sign_s;
  cosine = swapped_c * sign_c;
}

int padded(int nb) { return (nb + kLanes - 1) / kLanes * kLanes; }

// Even channels of a subgrid from which the degridder takes them in pairs (degrid_pairs): with
// fewer, its third sine and cosine per pixel costs about what the pairing saves.
constexpr int kPairedMinChannels = 4;

}  // namespace

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
  padded_size = padded(nb);
  padded_angle.assign(size_t(padded_size), 0.0);
  padded_n_minus_1.assign(size_t(nb) * padded_size, 0.0);
  live.assign(size_t(padded_size), 0.0);
  for (int i = 0; i < nb; ++i) {
    padded_angle[size_t(i)] = angle[size_t(i)];
    live[size_t(i)] = 1.0;
    for (int j = 0; j < nb; ++j)
      padded_n_minus_1[size_t(j) * padded_size + i] = n_minus_1[size_t(j) * nb + i];
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
// whole channel group. Rows are padded to whole vectors, the padding's phasors 0.
struct RowPhasors {
  std::vector<double> re, im, step_re, step_im;  // [i], padded
};

void row_phasors(const IdgSubgridTables& tables, const IdgSubgridWork& work, int t, int j,
                 int channel, RowPhasors& out) {
  const int width = tables.padded_size;
  out.re.resize(size_t(width)), out.im.resize(size_t(width));
  out.step_re.resize(size_t(width)), out.step_im.resize(size_t(width));
  const IdgSubgridVisibility& a = work.visibilities[size_t(t) * work.nr_channels + channel];
  const bool step = work.even_channels && work.nr_channels > 1;
  const IdgSubgridVisibility& b = work.visibilities[size_t(t) * work.nr_channels + (step ? 1 : 0)];
  const IdgSubgridVisibility& a0 = work.visibilities[size_t(t) * work.nr_channels];
  const double aj = tables.angle[size_t(j)];
  const double* n1_row = &tables.padded_n_minus_1[size_t(j) * width];
  const Vec dx = broadcast(a.dx), dy = broadcast(a.dy * aj), dw = broadcast(a.dw);
  const Vec sdx = broadcast(b.dx - a0.dx), sdy = broadcast((b.dy - a0.dy) * aj);
  const Vec sdw = broadcast(b.dw - a0.dw);
  for (int i = 0; i < width; i += kLanes) {
    const Vec ai = load(&tables.padded_angle[size_t(i)]), n1 = load(n1_row + i);
    const Vec live = load(&tables.live[size_t(i)]);
    Vec sn, cs;
    sincos_lanes(dx * ai + dy + dw * n1, sn, cs);
    store(&out.re[size_t(i)], cs * live);
    store(&out.im[size_t(i)], sn * live);
    if (step) {
      sincos_lanes(sdx * ai + sdy + sdw * n1, sn, cs);
      store(&out.step_re[size_t(i)], cs);
      store(&out.step_im[size_t(i)], sn);
    }
  }
}

// Evenly spaced channels taken in pairs about the group's centre channel c = (nc - 1) / 2:
// channels c + k and c - k have the phasors e z and e conj(z), with e = exp(i phase) at the
// centre and z = exp(i k step). Along one subgrid row and time step: e at every pixel, z for
// the outermost pair (k = (nc - 1) / 2) and the step phasor (z goes inwards as z conj(step)).
// Rows padded as RowPhasors.
struct PairPhasors {
  std::vector<double> re, im, z_re, z_im, step_re, step_im;  // [i], padded
};

void pair_phasors(const IdgSubgridTables& tables, const IdgSubgridWork& work, int t, int j,
                  PairPhasors& out) {
  const int width = tables.padded_size, nc = work.nr_channels;
  for (std::vector<double>* v : {&out.re, &out.im, &out.z_re, &out.z_im, &out.step_re, &out.step_im})
    v->resize(size_t(width));
  const IdgSubgridVisibility& a = work.visibilities[size_t(t) * nc];
  const IdgSubgridVisibility& b = work.visibilities[size_t(t) * nc + 1];
  const double half = 0.5 * (nc - 1), aj = tables.angle[size_t(j)];
  const double* n1_row = &tables.padded_n_minus_1[size_t(j) * width];
  const double sdx = b.dx - a.dx, sdy = (b.dy - a.dy) * aj, sdw = b.dw - a.dw;
  const Vec dx = broadcast(a.dx + half * sdx), dy = broadcast(a.dy * aj + half * sdy);
  const Vec dw = broadcast(a.dw + half * sdw);
  for (int i = 0; i < width; i += kLanes) {
    const Vec ai = load(&tables.padded_angle[size_t(i)]), n1 = load(n1_row + i);
    const Vec live = load(&tables.live[size_t(i)]);
    const Vec step = broadcast(sdx) * ai + broadcast(sdy) + broadcast(sdw) * n1;
    Vec sn, cs;
    sincos_lanes(dx * ai + dy + dw * n1, sn, cs);
    store(&out.re[size_t(i)], cs * live);
    store(&out.im[size_t(i)], sn * live);
    sincos_lanes(broadcast(half) * step, sn, cs);
    store(&out.z_re[size_t(i)], cs);
    store(&out.z_im[size_t(i)], sn);
    sincos_lanes(step, sn, cs);
    store(&out.step_re[size_t(i)], cs);
    store(&out.step_im[size_t(i)], sn);
  }
}

// The degridder's values of time step t from the tapered pixels ([pol][j][i], padded rows), the
// channels in pairs: per row, B = pixel conj(e) at every pixel, then per pair R = sum Re(w) B
// and I = sum Im(w) B with w = conj(z); the pair's values are R + i I (channel c + k) and
// R - i I (c - k), the odd group's middle channel R. 4 multiply-adds a polarisation and pair
// where the channels one by one take 8.
void degrid_pairs(const IdgSubgridTables& tables, int npol, const double* tap_re,
                  const double* tap_im, int t, PairPhasors& ph, std::vector<double>& b_re,
                  std::vector<double>& b_im, IdgSubgridWork& work,
                  std::vector<std::complex<double>>& scratch) {
  const int nb = tables.size, nc = work.nr_channels, width = tables.padded_size;
  const int npairs = (nc + 1) / 2;
  const size_t padded_plane = size_t(nb) * width;
  std::vector<std::complex<double>>& sums = scratch;  // [pair][R, I][p]
  sums.assign(size_t(npairs) * 8, 0.0);
  for (int j = 0; j < nb; ++j) {
    pair_phasors(tables, work, t, j, ph);
    for (int i = 0; i < width; i += kLanes) {
      const Vec er = load(&ph.re[size_t(i)]), ei = load(&ph.im[size_t(i)]);
      for (int p = 0; p < npol; ++p) {
        const size_t at = p * padded_plane + size_t(j) * width + size_t(i);
        const Vec a = load(&tap_re[at]), b = load(&tap_im[at]);
        store(&b_re[size_t(p) * width + i], a * er + b * ei);
        store(&b_im[size_t(p) * width + i], b * er - a * ei);
      }
    }
    for (int k = 0; k < npairs; ++k) {
      Vec rr[4] = {}, ri[4] = {}, ir[4] = {}, ii[4] = {};
      for (int i = 0; i < width; i += kLanes) {
        const Vec zr = load(&ph.z_re[size_t(i)]), zi = load(&ph.z_im[size_t(i)]);
        for (int p = 0; p < npol; ++p) {  // w = conj(z)
          const Vec br = load(&b_re[size_t(p) * width + i]), bi = load(&b_im[size_t(p) * width + i]);
          rr[p] += zr * br, ri[p] += zr * bi;
          ir[p] -= zi * br, ii[p] -= zi * bi;
        }
        const Vec cr = load(&ph.step_re[size_t(i)]), ci = load(&ph.step_im[size_t(i)]);
        store(&ph.z_re[size_t(i)], zr * cr + zi * ci);
        store(&ph.z_im[size_t(i)], zi * cr - zr * ci);
      }
      for (int p = 0; p < npol; ++p) {
        sums[size_t(k) * 8 + p] += std::complex<double>(lane_sum(rr[p]), lane_sum(ri[p]));
        sums[size_t(k) * 8 + 4 + p] += std::complex<double>(lane_sum(ir[p]), lane_sum(ii[p]));
      }
    }
  }
  const std::complex<double> i_unit(0.0, 1.0);
  for (int k = 0; k < npairs; ++k) {
    const int hi = nc - 1 - k, lo = k;
    for (int p = 0; p < npol; ++p) {
      const std::complex<double> r = sums[size_t(k) * 8 + p], im = sums[size_t(k) * 8 + 4 + p];
      work.visibilities[size_t(t) * nc + hi].value[p] = hi == lo ? r : r + i_unit * im;
      if (hi != lo) work.visibilities[size_t(t) * nc + lo].value[p] = r - i_unit * im;
    }
  }
}

}  // namespace

void idg_grid_subgrid(const IdgSubgridTables& tables, int npol, const IdgSubgridWork& work,
                      std::complex<float>* pixels) {
  const int nb = tables.size, nc = work.nr_channels, width = tables.padded_size;
  const size_t plane = size_t(nb) * nb;
  RowPhasors ph;
  std::vector<double> sum_re(size_t(npol) * width), sum_im(size_t(npol) * width);
  for (int j = 0; j < nb; ++j) {
    std::fill(sum_re.begin(), sum_re.end(), 0.0);
    std::fill(sum_im.begin(), sum_im.end(), 0.0);
    for (int t = 0; t < work.nr_timesteps; ++t) {
      for (int c = 0; c < nc; ++c) {
        if (c == 0 || !work.even_channels) row_phasors(tables, work, t, j, c, ph);
        // The next channel's phasors are this one's stepped, in the same pass.
        const bool step = work.even_channels && c + 1 < nc;
        const IdgSubgridVisibility& v = work.visibilities[size_t(t) * nc + c];
        Vec vr[4], vi[4];
        for (int p = 0; p < npol; ++p)
          vr[p] = broadcast(v.value[p].real()), vi[p] = broadcast(v.value[p].imag());
        for (int i = 0; i < width; i += kLanes) {
          const Vec re = load(&ph.re[size_t(i)]), im = load(&ph.im[size_t(i)]);
          for (int p = 0; p < npol; ++p) {
            double* sr = &sum_re[size_t(p) * width + i];
            double* si = &sum_im[size_t(p) * width + i];
            store(sr, load(sr) + vr[p] * re - vi[p] * im);
            store(si, load(si) + vr[p] * im + vi[p] * re);
          }
          if (step) {
            const Vec sr = load(&ph.step_re[size_t(i)]), si = load(&ph.step_im[size_t(i)]);
            store(&ph.re[size_t(i)], re * sr - im * si);
            store(&ph.im[size_t(i)], re * si + im * sr);
          }
        }
      }
    }
    for (int p = 0; p < npol; ++p)
      for (int i = 0; i < nb; ++i) {
        const double taper = tables.taper[size_t(j) * nb + i];
        pixels[p * plane + size_t(j) * nb + i] = std::complex<float>(
            float(taper * sum_re[size_t(p) * width + i]), float(taper * sum_im[size_t(p) * width + i]));
      }
  }
}

void idg_degrid_subgrid(const IdgSubgridTables& tables, int npol, const std::complex<float>* pixels,
                        IdgSubgridWork& work, std::vector<std::complex<double>>& scratch) {
  const int nb = tables.size, nc = work.nr_channels, width = tables.padded_size;
  const size_t plane = size_t(nb) * nb, padded_plane = size_t(nb) * width;
  // Tapered pixels, [pol][j][i] as real and imaginary planes, rows padded with zeros.
  std::vector<double> tap_re(padded_plane * npol, 0.0), tap_im(padded_plane * npol, 0.0);
  for (int p = 0; p < npol; ++p)
    for (int j = 0; j < nb; ++j)
      for (int i = 0; i < nb; ++i) {
        const size_t ij = size_t(j) * nb + i, at = p * padded_plane + size_t(j) * width + i;
        tap_re[at] = tables.taper[ij] * double(pixels[p * plane + ij].real());
        tap_im[at] = tables.taper[ij] * double(pixels[p * plane + ij].imag());
      }
  RowPhasors ph;
  PairPhasors pairs;
  const bool paired = work.even_channels && nc >= kPairedMinChannels;
  std::vector<double> b_re(paired ? size_t(npol) * width : 0), b_im(b_re.size());
  for (int t = 0; t < work.nr_timesteps; ++t) {
    if (paired) {
      degrid_pairs(tables, npol, tap_re.data(), tap_im.data(), t, pairs, b_re, b_im, work, scratch);
      continue;
    }
    // sums[c][p] over every pixel of value * conj(phasor)
    std::vector<std::complex<double>>& sums = scratch;
    sums.assign(size_t(nc) * 4, 0.0);
    for (int j = 0; j < nb; ++j)
      for (int c = 0; c < nc; ++c) {
        if (c == 0 || !work.even_channels) row_phasors(tables, work, t, j, c, ph);
        // The next channel's phasors are this one's stepped, in the same pass.
        const bool step = work.even_channels && c + 1 < nc;
        Vec re[4] = {}, im[4] = {};
        for (int i = 0; i < width; i += kLanes) {
          const Vec pr = load(&ph.re[size_t(i)]), pi = load(&ph.im[size_t(i)]);
          for (int p = 0; p < npol; ++p) {
            const size_t at = p * padded_plane + size_t(j) * width + size_t(i);
            const Vec a = load(&tap_re[at]), b = load(&tap_im[at]);
            re[p] += a * pr + b * pi;
            im[p] += b * pr - a * pi;
          }
          if (step) {
            const Vec sr = load(&ph.step_re[size_t(i)]), si = load(&ph.step_im[size_t(i)]);
            store(&ph.re[size_t(i)], pr * sr - pi * si);
            store(&ph.im[size_t(i)], pr * si + pi * sr);
          }
        }
        for (int p = 0; p < npol; ++p)
          sums[size_t(c) * 4 + p] += std::complex<double>(lane_sum(re[p]), lane_sum(im[p]));
      }
    for (int c = 0; c < nc; ++c)
      for (int p = 0; p < npol; ++p) work.visibilities[size_t(t) * nc + c].value[p] = sums[size_t(c) * 4 + p];
  }
}

}  // namespace rapt
