// A-terms: the direction-dependent effects of each station (its beam, the ionosphere above it,
// a direction-dependent gain) as 2 x 2 Jones matrices, sampled at the subgrid pixels and
// applied inside the subgrid kernels (digest 002 §2.3). A baseline's subgrid sees the Jones
// matrices A1 of its antenna1 and A2 of its antenna2 in the A-term time slot its rows fall in
// (the planner never lets a subgrid span two slots):
//   gridder:   P <- A1^H P A2 at every subgrid pixel, after the direct DFT
//   degridder: P <- A1 P A2^H at every subgrid pixel, before the direct DFT
// with P = [[xx, xy], [yx, yy]] the pixel's four polarisations (settings.npol must be 4, the
// products in the order XX XY YX YY or RR RL LR LL). This is the measurement equation
// V = A1 B A2^H (rapt(7): V = <E1 conj(E2)>) and its adjoint, so degridding a model with the
// A-terms predicts what the stations saw, and gridding with them gives sum A1^H V A2 / sum w:
// a source of brightness B appears as the weighted mean over baselines of A1^H A1 B A2^H A2
// (with scalar gains a1, a2: |a1|^2 |a2|^2 B).
#pragma once
#include <complex>
#include <cstddef>
#include <vector>

namespace rapt {

struct IdgATerms {
  int nr_slots = 0;      // A-term time slots
  int nr_stations = 0;   // antenna indices 0 .. nr_stations - 1
  int subgrid_size = 0;  // N-bar: must equal the settings' subgrid size
  // [slot][station][j][i][4]: the Jones matrix at subgrid pixel (i, j), which looks at
  // l_i = -(i - N-bar/2) S / N-bar, m_j = (j - N-bar/2) S / N-bar (idg_subgrid_kernels.hpp),
  // elements xx, xy, yx, yy.
  std::vector<std::complex<float>> jones;

  size_t matrices_per_station() const { return size_t(subgrid_size) * subgrid_size; }
  // The N-bar^2 matrices (4 values each) of one station in one slot.
  const std::complex<float>* at(int slot, int station) const {
    return jones.data() + (size_t(slot) * nr_stations + size_t(station)) * matrices_per_station() * 4;
  }
  std::complex<float>* at(int slot, int station) {
    return jones.data() + (size_t(slot) * nr_stations + size_t(station)) * matrices_per_station() * 4;
  }
};

// Every matrix the identity.
IdgATerms identity_aterms(int nr_slots, int nr_stations, int subgrid_size);

// Throws UsageError when `aterms` cannot serve gridding with `npol` polarisations on subgrids of
// `subgrid_size` pixels: npol not 4, another subgrid size, no slots or stations, or a jones
// array of the wrong length.
void check_aterms(const IdgATerms& aterms, int npol, int subgrid_size);

// P <- A1^H P A2 (the gridder's), P and the matrices as xx, xy, yx, yy.
template <typename T>
inline void idg_aterm_grid(const std::complex<float>* a1, const std::complex<float>* a2,
                           std::complex<T>* p) {
  using C = std::complex<T>;
  const C a[4] = {C(a1[0]), C(a1[1]), C(a1[2]), C(a1[3])};
  const C b[4] = {C(a2[0]), C(a2[1]), C(a2[2]), C(a2[3])};
  // Q = A1^H P: A1^H = [[conj a0, conj a2], [conj a1, conj a3]].
  const C q0 = std::conj(a[0]) * p[0] + std::conj(a[2]) * p[2];
  const C q1 = std::conj(a[0]) * p[1] + std::conj(a[2]) * p[3];
  const C q2 = std::conj(a[1]) * p[0] + std::conj(a[3]) * p[2];
  const C q3 = std::conj(a[1]) * p[1] + std::conj(a[3]) * p[3];
  // P = Q A2.
  p[0] = q0 * b[0] + q1 * b[2];
  p[1] = q0 * b[1] + q1 * b[3];
  p[2] = q2 * b[0] + q3 * b[2];
  p[3] = q2 * b[1] + q3 * b[3];
}

// P <- A1 P A2^H (the degridder's, the adjoint of idg_aterm_grid).
template <typename T>
inline void idg_aterm_degrid(const std::complex<float>* a1, const std::complex<float>* a2,
                             std::complex<T>* p) {
  using C = std::complex<T>;
  const C a[4] = {C(a1[0]), C(a1[1]), C(a1[2]), C(a1[3])};
  const C b[4] = {C(a2[0]), C(a2[1]), C(a2[2]), C(a2[3])};
  // Q = A1 P.
  const C q0 = a[0] * p[0] + a[1] * p[2];
  const C q1 = a[0] * p[1] + a[1] * p[3];
  const C q2 = a[2] * p[0] + a[3] * p[2];
  const C q3 = a[2] * p[1] + a[3] * p[3];
  // P = Q A2^H: A2^H = [[conj b0, conj b2], [conj b1, conj b3]].
  p[0] = q0 * std::conj(b[0]) + q1 * std::conj(b[1]);
  p[1] = q0 * std::conj(b[2]) + q1 * std::conj(b[3]);
  p[2] = q2 * std::conj(b[0]) + q3 * std::conj(b[1]);
  p[3] = q2 * std::conj(b[2]) + q3 * std::conj(b[3]);
}

}  // namespace rapt
