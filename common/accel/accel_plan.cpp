#include "accel/accel_plan.hpp"

#include <cmath>
#include <string>

#include "accel/accel_sigma.hpp"
#include "accel/fourier_response.hpp"
#include "cli/errors.hpp"

namespace rapt {
namespace {

int stages_for(int numharm) {
  for (int stages = 1, h = 1; h <= kMaxHarmonics; ++stages, h *= 2) {
    if (h == numharm) return stages;
  }
  throw UsageError("-numharm " + std::to_string(numharm) +
                   ": must be 1, 2, 4, 8, 16 or 32");
}

void choose_search_range(AccelPlan& plan) {
  const AccelSearchOptions& o = plan.options;
  const double T = plan.obs_length_s;
  const int64_t last_bin = plan.numbins - 1;
  // PRESTO treats -flo/-fhi as always given, so they win over -rlo/-rhi unless the user
  // asked for bins explicitly (rlo/rhi >= 0 here).
  plan.rlo = o.rlo >= 0.0 ? o.rlo : std::floor(o.flo_hz * T);
  if (plan.rlo < static_cast<double>(o.lobin)) plan.rlo = static_cast<double>(o.lobin);
  // Bin 0 holds the mean (and, packed in a .fft, the Nyquist amplitude), no periodic signal:
  // -flo 0 would make it a candidate of infinite period.
  if (plan.rlo < 1.0) plan.rlo = 1.0;
  if (plan.rlo > static_cast<double>(last_bin)) {
    throw UsageError("-flo/-rlo: the lowest frequency to search is above the highest bin (" +
                     std::to_string(last_bin) + ")");
  }
  const double hi = o.rhi >= 0.0 ? o.rhi : std::ceil(o.fhi_hz * T);
  plan.highestbin = static_cast<int64_t>(std::fmin(hi, static_cast<double>(last_bin)));
  plan.rhi = static_cast<double>(plan.highestbin);
  if (plan.rhi < plan.rlo) {
    throw UsageError("-fhi/-rhi: the highest frequency to search is below the lowest");
  }
}

void choose_segments(AccelPlan& plan) {
  if (plan.options.plane_mode == PlaneMode::Interbin) {
    // No kernels: segments only set the normalisation blocks; use PRESTO's zmax = 0 sizes.
    plan.kernel_halfwidth = z_response_halfwidth(0.0, ResponseAccuracy::Low);
  } else {
    plan.kernel_halfwidth = z_response_halfwidth(plan.zlo(), ResponseAccuracy::Low);
  }
  const int kernel_points = 2 * kAccelNumBetween * plan.kernel_halfwidth;
  plan.fftlen = std::max(2048, fftlen_for_kernel_width(kernel_points));
  plan.uselen = plan.fftlen - kernel_points;
  plan.uselen -= plan.uselen % kAccelNumBetween;  // whole Fourier bins per segment
}

}  // namespace

int fftlen_for_kernel_width(int kernel_points) {
  // PRESTO's table of FFT lengths that gave the best correlation throughput with FFTW.
  if (kernel_points < 6) return 128;
  if (kernel_points < 52) return 256;
  if (kernel_points < 67) return 512;
  if (kernel_points < 378) return 1024;
  if (kernel_points < 664) return 2048;
  if (kernel_points < 1672) return 4096;
  if (kernel_points < 3015) return 10240;
  if (kernel_points < 3554) return 15360;
  if (kernel_points < 6000) return 25600;
  int n = 1;
  while (n < kernel_points * 5) n *= 2;
  return n;
}

AccelPlan make_accel_plan(const AccelSearchOptions& options, int64_t numbins,
                          double obs_length_s) {
  if (options.zmax < 0 || options.zmax > 1200) {
    throw UsageError("-zmax " + std::to_string(options.zmax) + ": must be 0 to 1200");
  }
  if (!(options.sigma > 0.0)) throw UsageError("-sigma must be positive");
  if (numbins < 16) throw DataError("spectrum has only " + std::to_string(numbins) + " bins");
  if (!(obs_length_s > 0.0)) throw DataError("observation length must be positive");
  AccelPlan plan;
  plan.options = options;
  // accelsearch drops photon normalisation for a spectrum that does not start at bin 0.
  if (options.lobin > 0 && options.normalisation == SpectrumNormalisation::Photon) {
    plan.options.normalisation = SpectrumNormalisation::BlockMedian;
  }
  plan.options.zmax = accel_rounded_zmax(options.zmax);
  if (options.plane_mode == PlaneMode::Interbin) plan.options.zmax = 0;
  plan.numbins = numbins;
  plan.obs_length_s = obs_length_s;
  plan.numz = accel_num_z(plan.options.zmax);
  plan.numharm_stages = stages_for(options.numharm);
  choose_search_range(plan);
  choose_segments(plan);
  for (int stage = 0; stage < plan.numharm_stages; ++stage) {
    const int harmtosum = 1 << stage;
    const double trials = accel_independent_trials(plan.rlo, plan.rhi, plan.numz, 0, harmtosum);
    plan.numindep.push_back(trials);
    plan.powcut.push_back(
        static_cast<float>(power_for_sigma(options.sigma, harmtosum, trials)));
  }
  return plan;
}

std::vector<double> AccelPlan::warmup_segment_starts() const {
  std::vector<double> starts;
  if (numharm_stages == 1) return starts;
  for (double r = 8.0; r < rlo; r += uselen * kAccelDr) starts.push_back(r);
  return starts;
}

std::vector<double> AccelPlan::search_segment_starts() const {
  std::vector<double> starts;
  const double step = uselen * kAccelDr;
  for (double r = rlo; r + step < static_cast<double>(highestbin); r += step) {
    starts.push_back(r);
  }
  return starts;
}

int64_t AccelPlan::plane_columns() const {
  return (highestbin + uselen) * kAccelNumBetween;
}

int subharmonic_row(const AccelPlan& plan, int row, int harm, int harmtosum) {
  const double fraction = static_cast<double>(harm) / harmtosum;
  const double z = plan.row_z(row) * 0.5 * fraction;  // in units of kAccelDz
  const int subz = static_cast<int>(z < 0 ? z - 0.5 : z + 0.5) * kAccelDz;
  return (subz - plan.zlo()) / kAccelDz;
}


}  // namespace rapt
