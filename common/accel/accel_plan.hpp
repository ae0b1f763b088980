// The geometry of one Fourier-domain acceleration search, fixed before any data are touched:
// which Fourier bins and drifts are searched, how the f-fdot plane is cut into overlap-save
// segments, and the per-stage power thresholds. Everything follows PRESTO's accelsearch so that
// the same input gives the same grid, the same normalisation blocks and the same trials factor.
//
// Grid: r in steps of 0.5 bin (kAccelDr), z = fdot*T^2 in steps of 2 (kAccelDz), for
// z = -zmax .. zmax. The plane is searched as the highest harmonic of each candidate
// (PRESTO's "fundamental"); stage s sums 2^s harmonics.
#pragma once
#include <cstdint>
#include <vector>

namespace rapt {

inline constexpr double kAccelDr = 0.5;     // Fourier bins between plane columns
inline constexpr int kAccelNumBetween = 2;  // plane columns per Fourier bin
inline constexpr int kAccelDz = 2;          // z between plane rows
inline constexpr double kAccelClosestR = 15.0;  // candidates closer than this are one
inline constexpr int kMaxHarmonics = 32;

enum class SpectrumNormalisation { BlockMedian, LocalPower, Photon };

// How the plane's columns are made. Correlation is accelsearch's (f-fdot response kernels);
// Interbin is the fast zmax = 0 path: powers at whole bins and at half bins from
// (F_k - F_k+1) / sqrt(2) (unit mean in noise, as the whole bins), with no correlation.
enum class PlaneMode { Correlation, Interbin };

// How plane powers are stored. Float16 (--fp16) halves the plane's memory and the traffic of
// the harmonic sums: the plane holds each power's square root in binary16, good to 2^-10 of
// the power up to 4.3e9 (see half_power.hpp). Both engines store the same rounded values.
enum class PlanePrecision { Float32, Float16 };

// What the user asks for; PRESTO's option names in the comments.
struct AccelSearchOptions {
  int zmax = 200;        // -zmax, rounded up to a multiple of kAccelDz
  int numharm = 8;       // -numharm: 1, 2, 4, 8, 16 or 32
  double sigma = 2.0;    // -sigma: threshold including the trials factor
  double flo_hz = 1.0;   // -flo: lowest frequency of the highest harmonic
  double fhi_hz = 10000.0;  // -fhi
  double rlo = -1.0;     // -rlo, -rhi: Fourier bins, used instead of flo/fhi when >= 0
  double rhi = -1.0;
  int64_t lobin = 0;     // -lobin: the first bin held in the .fft file
  SpectrumNormalisation normalisation = SpectrumNormalisation::BlockMedian;
  PlaneMode plane_mode = PlaneMode::Correlation;
  PlanePrecision plane_precision = PlanePrecision::Float32;  // --fp16
  bool harmonic_polish = true;   // -noharmpolish turns off
  bool remove_harmonics = true;  // -noharmremove turns off
};

struct AccelPlan {
  AccelSearchOptions options;    // as given, zmax rounded up
  int64_t numbins = 0;           // complex bins in the spectrum
  double obs_length_s = 0.0;     // T
  int numz = 1;                  // plane rows: 2*zmax/kAccelDz + 1
  int numharm_stages = 1;        // log2(numharm) + 1
  int kernel_halfwidth = 0;      // bins, the widest kernel's (z = -zmax)
  int fftlen = 0;                // complex points per segment correlation
  int uselen = 0;                // plane columns each segment yields (even)
  double rlo = 0.0;              // searched range of the highest harmonic (bins)
  double rhi = 0.0;
  int64_t highestbin = 0;
  std::vector<double> numindep;  // per stage: independent trials
  std::vector<float> powcut;     // per stage: summed power threshold

  int zlo() const { return -options.zmax; }
  int row_z(int row) const { return zlo() + row * kAccelDz; }
  int numharm() const { return options.numharm; }
  // Segment starts (r of the first column) in PRESTO's order: the in-memory warm-up segments
  // below rlo (harmonics of low candidates fall there), then the searched segments from rlo.
  std::vector<double> warmup_segment_starts() const;
  std::vector<double> search_segment_starts() const;
  // Columns of the stored plane: absolute r = column * kAccelDr.
  int64_t plane_columns() const;
};

// Throws UsageError for out-of-range options (numharm not a power of two up to 32, zmax < 0 or
// > 1200, flo above the highest bin...). `obs_length_s` = N*dt of the series the spectrum
// came from.
AccelPlan make_accel_plan(const AccelSearchOptions& options, int64_t numbins,
                          double obs_length_s);

// PRESTO's sub-harmonic index maps: the plane row and half-bin column read for harmonic
// `harm` of `harmtosum` when the highest harmonic is at (column, row).
int subharmonic_row(const AccelPlan& plan, int row, int harm, int harmtosum);
// Columns: floor(column * harm / harmtosum + 1/2), in integers (column >= 0).
inline int64_t subharmonic_column(int64_t column, int harm, int harmtosum) {
  return (2 * column * harm + harmtosum) / (2 * int64_t(harmtosum));
}

// PRESTO's correlation FFT length for a kernel of `kernel_points` points.
int fftlen_for_kernel_width(int kernel_points);

}  // namespace rapt
