// The CPU IDG engine, the reference: threads over subgrids for the gridder/degridder and their
// subgrid FFTs, the adder in one thread (so no two subgrids race for a grid pixel), FFTW for
// every transform. W-layers are gridded one after another into one grid buffer.
//
// Transforms are centred DFTs (index 0 of a transform is frequency -len/2): a centred DFT is a
// plain FFT between two checkerboards (-1)^(index sum), since len is even.
//   grid:   subgrid pixels --(-1)^(i+j), forward FFT--> subgrid uv --(-1)^(a+b) / N-bar^2, add-->
//           grid --(-1)^(gx+gy), backward FFT, (-1)^(x+y), exp(-2 pi i w_z (n - 1))--> layer image,
//           summed over layers, then divided by the image taper.
//   degrid: every step's adjoint in reverse order.
#include <fftw3.h>

#include <cmath>
#include <memory>
#include <vector>

#include "cli/errors.hpp"
#include "dedisp/parallel_for.hpp"
#include "idg/idg_aterms.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_host_passes.hpp"
#include "idg/idg_subgrid_kernels.hpp"
#include "idg/idg_taper.hpp"

namespace rapt {
namespace {

struct FftwFree {
  void operator()(void* p) const { fftwf_free(p); }
};
using FftwBuffer = std::unique_ptr<std::complex<float>[], FftwFree>;

FftwBuffer fftw_buffer(size_t count) {
  auto* p = static_cast<std::complex<float>*>(fftwf_malloc(sizeof(std::complex<float>) * count));
  if (!p) throw DataError("IDG: out of memory for " + std::to_string(count) + " complex values");
  return FftwBuffer(p);
}

struct FftwPlanDestroy {
  void operator()(fftwf_plan_s* p) const { fftwf_destroy_plan(p); }
};
using FftwPlan = std::unique_ptr<fftwf_plan_s, FftwPlanDestroy>;

// `howmany` in-place 2-D transforms of side `side`, planes one after another.
FftwPlan plan_planes(int side, int howmany, std::complex<float>* data, int sign) {
  const int dims[2] = {side, side};
  auto* d = reinterpret_cast<fftwf_complex*>(data);
  fftwf_plan plan = fftwf_plan_many_dft(2, dims, howmany, d, nullptr, 1, side * side, d, nullptr, 1,
                                        side * side, sign, FFTW_ESTIMATE);
  if (!plan) throw DataError("IDG: FFTW could not plan a " + std::to_string(side) + "^2 transform");
  return FftwPlan(plan);
}

inline float checker(int i) { return (i & 1) ? -1.0f : 1.0f; }

class CpuIdgEngine final : public IdgEngine {
 public:
  CpuIdgEngine(const IdgSettings& settings, int threads)
      : IdgEngine(settings, threads),
        threads_(threads),
        batch_(size_t(std::max(16, 4 * threads))),
        tables_(settings),
        plane_(size_t(settings.subgrid_size) * settings.subgrid_size),
        grid_(fftw_buffer(size_t(settings.npol) * settings.grid_size * settings.grid_size)),
        subgrids_(fftw_buffer(batch_ * settings.npol * plane_)),
        work_(size_t(threads)),
        scratch_(size_t(threads)) {
    if (threads < 1) throw UsageError("IDG needs at least 1 thread");
    const int n = settings.grid_size, nb = settings.subgrid_size, npol = settings.npol;
    grid_forward_ = plan_planes(n, npol, grid_.get(), FFTW_FORWARD);
    grid_backward_ = plan_planes(n, npol, grid_.get(), FFTW_BACKWARD);
    sub_forward_ = plan_planes(nb, npol, subgrids_.get(), FFTW_FORWARD);
    sub_backward_ = plan_planes(nb, npol, subgrids_.get(), FFTW_BACKWARD);
    image_taper_ = idg_image_taper(nb, n);
  }

  std::string name() const override { return "cpu"; }

 private:
  bool grid_image(const IdgPlan& plan, const IdgVisibilities& vis, bool unit,
                  IdgImage& image) override {
    const IdgSettings& s = settings();
    idg_fill_zero(image.pixels.data(), image.pixels.size(), threads_);  // layers add up in it
    for (int z = 0; z < s.nr_w_layers; ++z) {
      const std::vector<size_t> layer = subgrids_of_layer(plan, z);
      if (layer.empty()) continue;
      std::fill(grid_.get(), grid_.get() + size_t(s.npol) * s.grid_size * s.grid_size,
                std::complex<float>(0.0f, 0.0f));
      for (size_t begin = 0; begin < layer.size(); begin += batch_) {
        const size_t count = std::min(batch_, layer.size() - begin);
        parallel_for(threads_, count, [&](size_t item, int worker) {
          const IdgSubgrid& sub = plan.subgrids[layer[begin + item]];
          std::complex<float>* pixels = subgrid_buffer(item);
          idg_subgrid_visibilities(plan, sub, vis, unit, work_[size_t(worker)]);
          idg_grid_subgrid(tables_, s.npol, work_[size_t(worker)], pixels);
          apply_aterms(plan, sub, vis, pixels, /*degrid=*/false);
          checkerboard_subgrid(pixels);
          fftwf_execute_dft(sub_forward_.get(), as_fftw(pixels), as_fftw(pixels));
        });
        for (size_t item = 0; item < count; ++item) add_subgrid(plan.subgrids[layer[begin + item]], subgrid_buffer(item));
      }
      grid_to_image(z, image);
    }
    divide_by_taper(image);
    return false;
  }

  void degrid_image(const IdgPlan& plan, const IdgImage& model, const IdgVisibilities& vis,
                    std::complex<float>* predicted) override {
    const IdgSettings& s = settings();
    for (int z = 0; z < s.nr_w_layers; ++z) {
      const std::vector<size_t> layer = subgrids_of_layer(plan, z);
      if (layer.empty()) continue;
      image_to_grid(z, model);
      parallel_for(threads_, layer.size(), [&](size_t item, int worker) {
        const IdgSubgrid& sub = plan.subgrids[layer[item]];
        IdgSubgridWork& work = work_[size_t(worker)];
        // Each worker's subgrid buffer is its own slot of the batch storage.
        std::complex<float>* pixels = subgrid_buffer(size_t(worker) % batch_);
        split_subgrid(sub, pixels);
        fftwf_execute_dft(sub_backward_.get(), as_fftw(pixels), as_fftw(pixels));
        checkerboard_subgrid(pixels);
        apply_aterms(plan, sub, vis, pixels, /*degrid=*/true);
        idg_subgrid_visibilities(plan, sub, vis, true, work);
        idg_degrid_subgrid(tables_, s.npol, pixels, work, scratch_[size_t(worker)]);
        size_t k = 0;
        for (int t = 0; t < sub.nr_timesteps; ++t) {
          const size_t row = size_t(plan.timestep_rows[size_t(sub.first_timestep + t)]);
          for (int c = sub.first_channel; c < sub.first_channel + sub.nr_channels; ++c, ++k)
            for (int p = 0; p < s.npol; ++p)
              predicted[vis.index(row, size_t(c), p)] = std::complex<float>(work.visibilities[k].value[p]);
        }
      });
    }
  }

  static fftwf_complex* as_fftw(std::complex<float>* p) { return reinterpret_cast<fftwf_complex*>(p); }
  std::complex<float>* subgrid_buffer(size_t item) {
    return subgrids_.get() + item * settings().npol * plane_;
  }

  std::vector<size_t> subgrids_of_layer(const IdgPlan& plan, int z) const {
    std::vector<size_t> out;
    for (size_t i = 0; i < plan.subgrids.size(); ++i)
      if (plan.subgrids[i].w_layer == z) out.push_back(i);
    return out;
  }

  // The subgrid's A-terms at every pixel (idg_aterms.hpp): P <- A1^H P A2 after gridding,
  // P <- A1 P A2^H before degridding. Nothing without A-terms.
  void apply_aterms(const IdgPlan& plan, const IdgSubgrid& sub, const IdgVisibilities& vis,
                    std::complex<float>* pixels, bool degrid) const {
    if (!vis.aterms) return;
    const int64_t row = plan.timestep_rows[size_t(sub.first_timestep)];
    const std::complex<float>* a1 = vis.aterms->at(sub.aterm_slot, vis.antenna1[row]);
    const std::complex<float>* a2 = vis.aterms->at(sub.aterm_slot, vis.antenna2[row]);
    for (size_t q = 0; q < plane_; ++q) {
      std::complex<double> p[4];
      for (int k = 0; k < 4; ++k) p[k] = pixels[k * plane_ + q];
      if (degrid)
        idg_aterm_degrid(a1 + 4 * q, a2 + 4 * q, p);
      else
        idg_aterm_grid(a1 + 4 * q, a2 + 4 * q, p);
      for (int k = 0; k < 4; ++k) pixels[k * plane_ + q] = std::complex<float>(p[k]);
    }
  }

  void checkerboard_subgrid(std::complex<float>* pixels) const {
    const int nb = settings().subgrid_size;
    for (int p = 0; p < settings().npol; ++p)
      for (int j = 0; j < nb; ++j)
        for (int i = 0; i < nb; ++i) pixels[p * plane_ + size_t(j) * nb + i] *= checker(i + j);
  }

  // grid[pol][y + b][x + a] += (-1)^(a+b) / N-bar^2 * uv[pol][b][a]
  void add_subgrid(const IdgSubgrid& sub, const std::complex<float>* uv) {
    const int n = settings().grid_size, nb = settings().subgrid_size;
    const float scale = 1.0f / float(plane_);
    for (int p = 0; p < settings().npol; ++p)
      for (int b = 0; b < nb; ++b) {
        std::complex<float>* row = grid_.get() + (size_t(p) * n + sub.y + b) * n + sub.x;
        const std::complex<float>* in = uv + p * plane_ + size_t(b) * nb;
        for (int a = 0; a < nb; ++a) row[a] += in[a] * (scale * checker(a + b));
      }
  }

  // The adder's adjoint: uv[pol][b][a] = (-1)^(a+b) / N-bar^2 * grid[pol][y + b][x + a]
  void split_subgrid(const IdgSubgrid& sub, std::complex<float>* uv) const {
    const int n = settings().grid_size, nb = settings().subgrid_size;
    const float scale = 1.0f / float(plane_);
    for (int p = 0; p < settings().npol; ++p)
      for (int b = 0; b < nb; ++b) {
        const std::complex<float>* row = grid_.get() + (size_t(p) * n + sub.y + b) * n + sub.x;
        std::complex<float>* out = uv + p * plane_ + size_t(b) * nb;
        for (int a = 0; a < nb; ++a) out[a] = row[a] * (scale * checker(a + b));
      }
  }

  // exp(sign 2 pi i w_z (n - 1)) at image pixel (x, y), or 1 on the w = 0 layer. n is worked
  // out here, not tabulated: a table of N^2 doubles would outweigh the grid.
  std::complex<float> w_phasor(int z, int x, int y, double sign) const {
    const double wz = idg_w_layer_centre(settings(), z);
    if (wz == 0) return {1.0f, 0.0f};
    const int n = settings().grid_size;
    const double l = -(x - n / 2) * settings().cell_rad(), m = (y - n / 2) * settings().cell_rad();
    const double r2 = std::min(l * l + m * m, 1.0);
    const double n_minus_1 = -r2 / (1.0 + std::sqrt(1.0 - r2));  // no cancellation near the centre
    const double phase = sign * 2 * M_PI * wz * n_minus_1;
    return {float(std::cos(phase)), float(std::sin(phase))};
  }

  void grid_to_image(int z, IdgImage& image) {
    const int n = settings().grid_size;
    const size_t plane = size_t(n) * n;
    for (int p = 0; p < settings().npol; ++p)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) grid_[p * plane + size_t(y) * n + x] *= checker(x + y);
    fftwf_execute(grid_backward_.get());
    for (int p = 0; p < settings().npol; ++p)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const size_t i = size_t(y) * n + x;
          image.plane(p)[i] += grid_[p * plane + i] * (checker(x + y) * w_phasor(z, x, y, -1.0));
        }
  }

  // The adjoint of grid_to_image and divide_by_taper for layer z: model -> grid_.
  void image_to_grid(int z, const IdgImage& model) {
    const int n = settings().grid_size;
    const size_t plane = size_t(n) * n;
    for (int p = 0; p < settings().npol; ++p)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const size_t i = size_t(y) * n + x;
          grid_[p * plane + i] = model.plane(p)[i] * (inverse_taper(x, y) * checker(x + y)) *
                                 w_phasor(z, x, y, +1.0);
        }
    fftwf_execute(grid_forward_.get());
    for (int p = 0; p < settings().npol; ++p)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) grid_[p * plane + size_t(y) * n + x] *= checker(x + y);
  }

  // 1 / taper, or 0 where the taper has fallen to nothing (the image's outermost pixels, where
  // dividing would only blow up rounding errors).
  float inverse_taper(int x, int y) const {
    const double t = image_taper_[size_t(x)] * image_taper_[size_t(y)];
    return t > 1e-6 ? float(1.0 / t) : 0.0f;
  }

  void divide_by_taper(IdgImage& image) const {
    const int n = settings().grid_size;
    for (int p = 0; p < settings().npol; ++p)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) image.plane(p)[size_t(y) * n + x] *= inverse_taper(x, y);
  }

  int threads_;
  size_t batch_;  // subgrids gridded between two adder passes; >= threads
  IdgSubgridTables tables_;
  size_t plane_;  // N-bar^2
  std::vector<double> image_taper_;  // [x] along one image axis
  FftwBuffer grid_;                  // [pol][gy][gx], one w-layer at a time
  FftwBuffer subgrids_;              // [batch][pol][b][a]
  FftwPlan grid_forward_, grid_backward_, sub_forward_, sub_backward_;
  std::vector<IdgSubgridWork> work_;                         // per worker
  std::vector<std::vector<std::complex<double>>> scratch_;   // per worker
};

}  // namespace

std::unique_ptr<IdgEngine> make_cpu_idg_engine(const IdgSettings& settings, int threads) {
  if (threads < 1) throw UsageError("IDG needs at least 1 thread");
  // FFTW takes the distance between planes (N^2) as an int.
  if (settings.grid_size > 46340)
    throw UsageError("the CPU IDG engine takes grids of up to 46340 pixels a side, not " +
                     std::to_string(settings.grid_size));
  return std::make_unique<CpuIdgEngine>(settings, threads);
}

}  // namespace rapt
