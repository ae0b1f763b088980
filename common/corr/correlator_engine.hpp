// The X engine: every baseline's correlation products of one block of channelised station
// voltages, summed over time. One interface, two engines: the CPU engine (threads over channels,
// plain loops in double or exact 64-bit integer arithmetic: the reference) and the GPU engine
// (gpu/corr/: register-tiled FP32 on CUDA cores, FP16 and INT8 on tensor cores).
//
// What every engine computes (rapt(7), CORRELATION):
//   V[c][bl][p1][p2] = sum over t of X[c][a1][t][p1] conj(X[c][a2][t][p2])
// for every pair a1 <= a2 (autocorrelations included), bl = a2 (a2 + 1) / 2 + a1, and the
// polarisation products in the order p1 p2 = 00 01 10 11 (XX XY YX YY for linear feeds).
// So the lower-numbered antenna is antenna 1 and the second antenna is conjugated: the sense of
// the visibilities UVFITS and Measurement Sets hold (V12 = <E1 conj(E2)>).
//
// Precision:
//   fp32  inputs as given (float), products summed in FP32 on the GPU, in double on the CPU.
//   fp16  inputs rounded to IEEE half first (both engines), products summed in FP32 on the GPU.
//   int8  inputs rounded to the nearest integer and clamped to -127..127 (-128 and anything
//         beyond is clamped and counted in clamped_values()); sums are exact (64-bit integers
//         on the CPU; 32-bit partial sums over at most kInt8SafeSamples on the GPU, then 64-bit),
//         so both engines return bit-identical results.
#pragma once
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rapt {

enum class CorrPrecision { fp32, fp16, int8 };

// An int32 sum of products of values in -127..127 cannot overflow over this many samples:
// each sample adds at most 2 * 127^2 = 32258 to a real or imaginary part, and
// 2^31 / 32258 = 66572. Engines that sum in int32 flush to 64 bits at least this often.
inline constexpr int64_t kInt8SafeSamples = 65536;

struct CorrelatorShape {
  int nchan = 1;
  int nant = 1;
  int npol = 2;  // 1 or 2
  CorrPrecision precision = CorrPrecision::fp32;

  int64_t nbaselines() const { return int64_t(nant) * (nant + 1) / 2; }
  int nproducts() const { return npol * npol; }
  // Complex values in one set of visibilities: [chan][baseline][p1][p2].
  size_t nvis() const { return size_t(nchan) * size_t(nbaselines()) * size_t(nproducts()); }
  // Throws UsageError naming the problem: sizes < 1, npol other than 1 or 2.
  void validate() const;
};

// Index of the baseline of antennas a1 <= a2.
inline int64_t baseline_index(int a1, int a2) { return int64_t(a2) * (a2 + 1) / 2 + a1; }

// Useful operations of correlating `nsamples` samples: 8 per complex multiply-add, for every
// product of every baseline (autocorrelations' redundant YX included) and every channel.
double correlator_useful_ops(const CorrelatorShape& shape, int64_t nsamples);

class CorrelatorEngine {
 public:
  virtual ~CorrelatorEngine() = default;
  const CorrelatorShape& shape() const { return shape_; }
  virtual std::string name() const = 0;

  // Adds the products of `nsamples` time samples. `voltages`: canonical order
  // [chan][ant][time][pol][re, im] (io/voltage_stream.hpp). Throws std::invalid_argument for
  // nsamples < 0.
  void accumulate(const float* voltages, int64_t nsamples);
  // Hands over the sums since the last take() (or since construction), [chan][baseline][p1][p2],
  // and starts again from zero. Integer sums (int8) are exact in double up to 2^53.
  void take(std::vector<std::complex<double>>& visibilities);
  // Time samples added since the last take().
  int64_t samples_accumulated() const { return samples_; }
  // int8: input values that were clamped to -127..127 since construction.
  virtual int64_t clamped_values() const { return 0; }

 protected:
  explicit CorrelatorEngine(CorrelatorShape shape);

 private:
  virtual void add(const float* voltages, int64_t nsamples) = 0;
  // Writes the sums into `visibilities` (already sized to shape().nvis()) and zeroes them.
  virtual void read_and_reset(std::complex<double>* visibilities) = 0;
  CorrelatorShape shape_;
  int64_t samples_ = 0;
};

std::unique_ptr<CorrelatorEngine> make_cpu_correlator(const CorrelatorShape& shape, int threads);
// Throws UsageError in a build without CUDA.
std::unique_ptr<CorrelatorEngine> make_gpu_correlator(const CorrelatorShape& shape, int gpu_index);

// Input rounding shared by the engines: IEEE half rounding (fp16) and int8 rounding with the
// clamp (returns true when the value was clamped).
float round_to_half(float value);
int8_t round_to_int8(float value, bool* clamped);

}  // namespace rapt
