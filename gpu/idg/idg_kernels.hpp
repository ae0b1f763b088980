// Launchers of the IDG engine's kernels (gpu/idg/idg_kernels.cu); the FFTs between them are
// cuFFT's (gpu/idg/idg_gpu_engine.cpp).
//
// Layouts on the device, for a batch of S subgrids of one w-layer, N-bar = nb, npol P:
//   subgrids   [S]                     IdgGpuSubgrid: where each subgrid's inputs lie
//   uvw        [planned time step]     double3, metres (the plan's timestep_rows order)
//   freq       [channel]               double, Hz
//   values     [batch visibility][P]   float2: weight x V (or weight), 0 where flagged;
//                                      subgrid s holds [vis_offset, + nr_timesteps x nr_channels)
//                                      in time-then-channel order
//   pixels     [S][P][nb][nb]          float2: subgrid pixels or their uv (FFT in place)
//   grid/image [P][N][N]               float2
//   tables     [nb][nb]                float: taper and n - 1 of the subgrid's pixels
//   aterms     [slot x stations + station][nb][nb][4]
//                                      float2: Jones matrices xx, xy, yx, yy (idg_aterms.hpp)
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace rapt::gpu {

struct IdgGpuSubgrid {
  int first_timestep;  // into uvw
  int nr_timesteps;
  int first_channel;
  int nr_channels;
  int x, y;            // top-left grid pixel
  int vis_offset;      // into values / predictions, in visibilities
  double w_centre;     // wavelengths, the w-layer's centre
  // Into aterms, in N-bar^2-matrix sets: antenna1's and antenna2's in the subgrid's slot
  // (slot x stations + station); -1 without A-terms. Last, so the fields above keep their
  // offsets and the kernels without A-terms their loads.
  int aterm1, aterm2;
};

// What every kernel of one engine shares.
struct IdgGpuGeometry {
  int npol = 1;
  int subgrid_size = 0;   // nb
  int grid_size = 0;      // N
  double to_px = 0;       // image_size / c: metres x Hz -> grid pixels from the centre
  double speed_of_light = 0;  // m/s, the host's constant (the kernels see no host headers)
  const float* taper = nullptr;      // [nb][nb]
  const float* n_minus_1 = nullptr;  // [nb][nb]
  // Null without A-terms; with them (npol 4 only) the gridder and degridder apply every
  // subgrid's aterm1 and aterm2 matrices at each pixel.
  const float2* aterms = nullptr;
  // The call's channels are evenly spaced (to 1e-12 of the first): the subgrid kernels then
  // take them in pairs about a run's centre, rotating the pair's phasor, instead of taking a
  // sine and cosine per channel (idg_kernels.cu).
  bool even_channels = false;
};

// Gridder (digest 002 §2.2): pixels[s][p] = taper checker(i+j) sum_k value_kp exp(i phase),
// then with A-terms P <- A1^H P A2 per pixel (§2.3).
void launch_idg_gridder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                        const double3* uvw, const double* freq, const float2* values,
                        float2* pixels, cudaStream_t stream);

// Degridder, the adjoint: predictions[vis][p] = sum taper checker(i+j) pixels exp(-i phase),
// the pixels taken as A1 P A2^H with A-terms.
void launch_idg_degridder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                          const double3* uvw, const double* freq, const float2* pixels,
                          float2* predictions, cudaStream_t stream);

// Adder: grid[p][y+b][x+a] += checker(a+b) / nb^2 uv[s][p][b][a] (atomic: subgrids overlap).
void launch_idg_adder(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                      const float2* uv, float2* grid, cudaStream_t stream);
// Splitter, the adder's adjoint: uv[s][p][b][a] = checker(a+b) / nb^2 grid[p][y+b][x+a].
void launch_idg_splitter(const IdgGpuGeometry& g, const IdgGpuSubgrid* subgrids, int count,
                         const float2* grid, float2* uv, cudaStream_t stream);

// grid[p][y][x] *= checker(x + y), the centring of the grid FFT.
void launch_idg_checker(const IdgGpuGeometry& g, float2* grid, cudaStream_t stream);

// After the grid's backward FFT: image += grid checker(x+y) exp(-2 pi i w_z (n - 1)).
void launch_idg_accumulate_layer(const IdgGpuGeometry& g, double image_size, double w_centre,
                                 const float2* grid, float2* image, cudaStream_t stream);
// Before the grid's forward FFT: grid = model / taper checker(x+y) exp(+2 pi i w_z (n - 1)).
void launch_idg_model_to_layer(const IdgGpuGeometry& g, double image_size, double w_centre,
                               const double* image_taper, const float2* model, float2* grid,
                               cudaStream_t stream);
// image /= taper(x) taper(y), 0 where the taper is below 1e-6 (as the CPU engine).
void launch_idg_divide_taper(const IdgGpuGeometry& g, const double* image_taper, float2* image,
                             cudaStream_t stream);

// A model point: image[index] = value, index into [P][N][N].
struct IdgGpuPoint {
  long long index;
  float2 value;
};
// image[points[i].index] = points[i].value (one point per pixel), the rest untouched.
void launch_idg_scatter_points(const IdgGpuPoint* points, size_t count, float2* image,
                               cudaStream_t stream);
// out[i] = image[i].x * scale, a plane's real part normalised as the host would (one float
// product).
void launch_idg_real_part(const float2* image, size_t count, float scale, float* out,
                          cudaStream_t stream);

// Held visibilities (IdgEngine::hold): values[i] -= weights[i] predictions[i], weighted values
// becoming the residuals'; and out[i] = (weights[i], 0), the PSF's values.
void launch_idg_subtract_weighted(const float* weights, const float2* predictions, float2* values,
                                  size_t count, cudaStream_t stream);
void launch_idg_weights_as_values(const float* weights, float2* out, size_t count,
                                  cudaStream_t stream);

}  // namespace rapt::gpu
