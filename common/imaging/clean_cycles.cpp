#include "imaging/clean_cycles.hpp"

#include <algorithm>
#include <complex>
#include <cstdint>

#include "cli/errors.hpp"
#include "imaging/minor_cycle.hpp"

namespace rapt {
namespace {

std::vector<float> real_plane(const IdgImage& image) {
  const size_t count = size_t(image.size) * image.size;
  std::vector<float> out(count);
  const std::complex<float>* plane = image.plane(0);
  for (size_t i = 0; i < count; ++i) out[i] = plane[i].real();
  return out;
}

}  // namespace

CleanResult clean_held(IdgEngine& engine, const IdgImage& dirty, const IdgImage& psf,
                       const CleanSettings& s, int threads, int minor_gpu) {
  if (!engine.holding()) throw UsageError("CLEAN needs the engine to hold the visibilities");
  if (dirty.npol != 1 || psf.npol != 1 || psf.size != dirty.size)
    throw UsageError("CLEAN takes one polarisation's dirty image and PSF of one size");
  const int n = dirty.size;
  CleanResult r;
  const std::vector<float> psf_plane = real_plane(psf);
  r.beam = fit_clean_beam(psf_plane, n);
  const std::unique_ptr<MinorCycleEngine> minor =
      minor_gpu >= 0 ? make_gpu_minor_cycle(psf_plane, n, minor_gpu)
                     : make_cpu_minor_cycle(psf_plane, n, threads);
  r.residual = real_plane(dirty);
  r.model.assign(size_t(n) * n, 0.0f);
  std::vector<float> delta(size_t(n) * n, 0.0f);  // a minor cycle's components; 0 elsewhere
  std::vector<IdgModelPoint> components;
  while (r.components < s.niter) {
    const MinorCycle cycle = minor->run(r.residual, s, s.niter - r.components, delta);
    if (cycle.components == 0) break;  // the peak is below the threshold
    r.components += cycle.components;
    // Major cycle: the new components leave the held visibilities, whose image is then the
    // exact residual. Only the components go to the engine and only the residual's real
    // plane comes back, not whole complex images.
    components.clear();
    for (const size_t i : cycle.pixels) {
      if (delta[i] == 0.0f) continue;  // taken already (or its components cancelled)
      components.push_back({0, int64_t(i), {delta[i], 0.0f}});
      r.model[i] += delta[i];
      delta[i] = 0.0f;  // ready for the next minor cycle
    }
    engine.subtract_held_points(components);
    engine.grid_held_real(0, r.residual);
    ++r.major_cycles;
    // A cycle after which the residual's peak is higher than where its minor cycle began is
    // diverging (the components overshoot what the visibilities hold, cycle after cycle).
    const double after = clean_region_peak(r.residual, n, threads);
    if (after > cycle.first_peak) {
      r.diverged = true;
      r.diverged_from = cycle.first_peak;
      r.diverged_to = after;
      break;
    }
  }
  r.peak = clean_region_peak(r.residual, n, threads);  // on the exact residual
  r.restored = restore_image(r.model, r.residual, n, r.beam);
  return r;
}

}  // namespace rapt
