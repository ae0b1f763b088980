#include "imaging/idg_grid_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/stopwatch.hpp"
#include "idg/idg_engine.hpp"
#include "idg/idg_host_passes.hpp"
#include "imaging/aterm_imaging.hpp"
#include "imaging/cell_size.hpp"
#include "imaging/clean_cycles.hpp"
#include "imaging/dirty_image_output.hpp"
#include "imaging/energy_meter.hpp"
#include "imaging/image_padding.hpp"
#include "imaging/image_names.hpp"
#include "imaging/imaging_samples.hpp"
#include "imaging/memory_estimate.hpp"
#include "imaging/mfs_images.hpp"
#include "imaging/visibility_input.hpp"
#include "imaging/w_layers.hpp"
#include "inspect/report_text.hpp"  // stokes_name

namespace rapt {
namespace {

// The grid is padded (--padding); the images written are its centre (written_image).
IdgSettings base_settings(const IdgGridOptions& o) {
  IdgSettings s;
  s.grid_size = o.padded(o.nx);
  s.image_size = s.grid_size * o.cell_rad;
  s.subgrid_size = o.subgrid_size;
  s.kernel_size = o.kernel_size;
  s.max_timesteps_per_subgrid = o.max_timesteps_per_subgrid;
  s.max_channels_per_subgrid = o.max_channels_per_subgrid;
  s.npol = 1;  // one polarisation per call: any mix of --pol images
  s.validate();
  return s;
}

// Refuses a grid the machine cannot hold, naming both sizes.
// image_size: --size (the grid is padded).
void check_memory(const IdgSettings& s, int image_size, int threads, double other_bytes) {
  const double needed = idg_image_bytes(s, threads) + other_bytes;
  const double available = available_memory_bytes();
  if (available > 0 && needed > available)
    throw UsageError(format_string(
        "--size %d, padded to %d: gridding needs %s of memory (%d w-layer%s of %d x %d complex "
        "pixels), only %s is available", image_size, s.grid_size, describe_bytes(needed).c_str(),
        s.nr_w_layers,
        s.nr_w_layers == 1 ? "" : "s", s.grid_size, s.grid_size,
        describe_bytes(available).c_str()));
}

// The extent of the samples with weight in any polarisation.
UvExtent weighted_extent(const VisibilitySet& vs, const ImagingSamples& s) {
  return uv_extent(vs.uvw_m, s.freq_hz, [&](size_t row, size_t c) {
    for (size_t p = 0; p < s.npol; ++p)
      if (s.weight[s.index(row, c, p)] > 0) return true;
    return false;
  });
}

// The plan's unplaced visibilities are an error: an image without them would be silently wrong.
void check_plan(const IdgPlan& plan, const IdgGridOptions& o, const UvExtent& extent) {
  const IdgSettings& s = plan.settings;
  if (plan.unplaced_off_grid > 0) {
    const double holds = (s.grid_size - s.subgrid_size) / (2 * s.image_size);
    throw file_error(o.input, format_string(
        "%lld visibilities fall off the grid: the largest |u| or |v| is %.0f wavelengths, the "
        "grid (--size %d at --scale %s) holds about %.0f; use a smaller --scale or a larger "
        "--size, or leave the longer baselines out (--maxuv-l)", (long long)plan.unplaced_off_grid,
        extent.max_uv_lambda, o.nx,
        describe_angle(s.cell_rad()).c_str(), holds));
  }
  if (plan.unplaced_w > 0)
    throw file_error(o.input, format_string(
        "%lld visibilities have a w (up to %.0f wavelengths) too far from their w-layer for "
        "--kernel-size %d (%d layer%s of %.4g wavelengths); use more --nwlayers, a thinner "
        "--wstep or a larger --kernel-size", (long long)plan.unplaced_w, extent.max_w_lambda,
        s.kernel_size, s.nr_w_layers, s.nr_w_layers == 1 ? "" : "s", s.w_step_lambda));
}

// A view of one polarisation of the samples, for the engine.
IdgVisibilities view_of(const VisibilitySet& vs, const ImagingSamples& s, size_t pol) {
  IdgVisibilities v;
  v.nrows = vs.nrows();
  v.nchan = s.freq_hz.size();
  v.products = s.npol;
  v.product_index = {int(pol), 0, 0, 0};
  v.antenna1 = vs.antenna1.data();
  v.antenna2 = vs.antenna2.data();
  v.uvw_m = vs.uvw_m.data();
  v.freq_hz = s.freq_hz.data();
  v.vis = s.vis.data();
  v.weight = s.weight.data();
  return v;
}

// The image written of a padded plane (or of CLEAN's padded images): its central --size pixels.
FitsImage written_image(const IdgGridOptions& o, const std::complex<float>* plane,
                        const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes) {
  return sky_image(central_part(plane, o.padded(o.nx), o.nx).data(), o.nx, o.cell_rad, vs,
                   freq_hz, stokes);
}
FitsImage written_image(const IdgGridOptions& o, const std::vector<float>& plane,
                        const VisibilitySet& vs, const std::vector<double>& freq_hz, int stokes) {
  return sky_image(central_part(plane, o.padded(o.nx), o.nx), o.nx, o.cell_rad, vs, freq_hz,
                   stokes);
}

struct OutputPlan {
  std::vector<ChannelGroup> groups;
  std::vector<OutputPolarisation> pols;
  std::vector<std::string> names;  // every image's path
};

std::string dirty_name(const IdgGridOptions& o, const OutputPlan& out, size_t g, size_t p) {
  return wsclean_image_name(o.name, out.groups.size() > 1 ? int(g) : -1,
                            out.pols.size() > 1 ? out.pols[p].name : "", "dirty");
}
std::string psf_name(const IdgGridOptions& o, const OutputPlan& out, size_t g) {
  return wsclean_image_name(o.name, out.groups.size() > 1 ? int(g) : -1, "", "psf");
}
// kind: "model", "residual" or "image" (restored), as WSClean names CLEAN's images.
std::string clean_name(const IdgGridOptions& o, const OutputPlan& out, size_t g, size_t p,
                       const char* kind) {
  return wsclean_image_name(o.name, out.groups.size() > 1 ? int(g) : -1,
                            out.pols.size() > 1 ? out.pols[p].name : "", kind);
}
constexpr const char* kCleanKinds[] = {"model", "residual", "image"};
// kind: "dirty" or one of kCleanKinds, of the whole band (several channel groups).
std::string mfs_name(const IdgGridOptions& o, const OutputPlan& out, size_t p, const char* kind) {
  return wsclean_mfs_image_name(o.name, out.pols.size() > 1 ? out.pols[p].name : "", kind);
}

// The images the options ask for of these data; refuses (before any work) names that exist.
OutputPlan plan_outputs(const IdgGridOptions& o, const VisibilitySet& vs) {
  OutputPlan out;
  out.pols = select_polarisations(o.polarisations, vs.stokes, o.input);
  out.groups = split_channels(int(vs.nchan()), o.channels_out);
  for (size_t g = 0; g < out.groups.size(); ++g) {
    for (size_t p = 0; p < out.pols.size(); ++p) {
      out.names.push_back(dirty_name(o, out, g, p));
      if (o.clean.niter > 0)
        for (const char* kind : kCleanKinds) out.names.push_back(clean_name(o, out, g, p, kind));
    }
    if (o.psf) out.names.push_back(psf_name(o, out, g));
  }
  if (out.groups.size() > 1) {
    for (size_t p = 0; p < out.pols.size(); ++p) {
      out.names.push_back(mfs_name(o, out, p, "dirty"));
      if (o.clean.niter > 0)
        for (const char* kind : kCleanKinds) out.names.push_back(mfs_name(o, out, p, kind));
    }
    if (o.psf) out.names.push_back(wsclean_mfs_image_name(o.name, "", "psf"));
  }
  check_outputs(out.names, o.overwrite);
  return out;
}

void describe_input(const IdgGridOptions& o, const VisibilitySet& vs, const Messages& messages) {
  std::string products;
  for (int c : vs.stokes) products += (products.empty() ? "" : ",") + stokes_name(c);
  messages.detail(format_string(
      "%s: %zu rows, %zu channels (%.6g-%.6g MHz), products %s; %d x %d pixels of %s (on a "
      "grid of %d), %s", o.input.c_str(), vs.nrows(), vs.nchan(),
      vs.channel_freq_hz.front() / 1e6, vs.channel_freq_hz.back() / 1e6, products.c_str(), o.nx,
      o.ny, describe_angle(o.cell_rad).c_str(), o.padded(o.nx),
      describe_weighting(o.weighting).c_str()));
}

// What gridding every channel group leaves: the images, in memory until all are made.
struct GriddedImages {
  std::vector<PendingImage> images;
  std::vector<std::string> empty;  // warnings for empty images, said only if any image is not
  int64_t placed = 0;              // visibilities on the dirty images
  int64_t gridded = 0;             // the same plus those of the PSFs
  std::string engine;
  // For the MFS images (several channel groups): the imaging weight of each image's group and
  // polarisation, by the image's path; and (only with several groups) each group's PSF of the
  // first polarisation, written or not, with its weight (the MFS beam is fitted to their mean).
  std::map<std::string, double> weight_of;
  std::vector<WeightedPlane> psfs;
};

// The sum of an image's weights over its planes (0 when the engine left none).
double image_weight(const IdgImage& image) {
  double sum = 0;
  for (double w : image.weight_sum) sum += w;
  return sum;
}

// The beam fitted to an n x n PSF, or nothing where its centre holds no positive value (no
// visibilities).
std::optional<CleanBeam> psf_beam(const std::vector<float>& psf, int n) {
  if (!(psf[size_t(n / 2) * size_t(n) + size_t(n / 2)] > 0)) return std::nullopt;
  return fit_clean_beam(psf, n);
}

// BMAJ, BMIN and BPA of `beam` (pixels of cell_rad) in the image's header.
void set_beam(FitsImage& image, const CleanBeam& beam, double cell_rad) {
  image.beam_major_deg = beam.major_px * cell_rad * 180 / M_PI;
  image.beam_minor_deg = beam.minor_px * cell_rad * 180 / M_PI;
  image.beam_pa_deg = beam.pa_rad * 180 / M_PI;
}

// As WSClean does, the beam fitted to a channel group's PSF (of the first polarisation) goes into
// the headers of its dirty images and PSF: `images`, indices into result.images.
void set_group_beam(const std::vector<size_t>& images, const std::optional<CleanBeam>& beam,
                    double cell_rad, GriddedImages& result) {
  if (!beam) return;
  for (size_t i : images) set_beam(result.images[i].image, *beam, cell_rad);
}

// The w-layers one channel group's samples need, and the channels a subgrid can take on them,
// with its settings checked against memory.
IdgSettings layered_settings(const IdgGridOptions& o, IdgSettings settings, const UvExtent& extent,
                             const std::vector<double>& freq_hz) {
  settings = with_w_layers(settings, extent.max_uv_lambda, extent.max_w_lambda, o.nwlayers,
                           o.wstep_lambda, freq_hz);
  settings.validate();
  check_memory(settings, o.nx, o.thread_count(), 0);
  return settings;
}

void describe_group(const IdgGridOptions& o, const ChannelGroup& group, const IdgSettings& settings,
                    const UvExtent& extent, const Messages& messages) {
  // One layer at w = 0 has no thickness to give.
  std::string layers =
      settings.nr_w_layers == 1 && settings.w_step_lambda == 0
          ? std::string("one w-layer")
          : format_string("%d w-layer%s of %.4g wavelengths", settings.nr_w_layers,
                          settings.nr_w_layers == 1 ? "" : "s", settings.w_step_lambda);
  if (settings.max_channels_per_subgrid < o.max_channels_per_subgrid && group.count > 1)
    layers += format_string(", subgrids of at most %d channel%s (u, v and w spread with frequency)",
                            settings.max_channels_per_subgrid,
                            settings.max_channels_per_subgrid == 1 ? "" : "s");
  messages.detail(format_string("channels %d-%d: |u|,|v| up to %.0f, |w| up to %.0f wavelengths; %s",
                                group.first, group.first + group.count - 1, extent.max_uv_lambda,
                                extent.max_w_lambda, layers.c_str()));
}

void note_empty(const IdgGridOptions& o, const ChannelGroup& group, const std::string& pol,
                GriddedImages& result) {
  result.empty.push_back(format_string(
      "%s: channels %d-%d hold no unflagged %s visibilities: %s is empty", o.input.c_str(),
      group.first, group.first + group.count - 1, pol.c_str(), result.images.back().path.c_str()));
}

// The A-term pass of one FREQ plane: the channels nearest it (with several planes, the others'
// weights set to 0) gridded through its matrices into `image`. Returns its plan.
IdgPlan grid_aterm_plane(const IdgGridOptions& o, const VisibilitySet& vs,
                         const ATermInput& aterms, int plane, const ATermPlanes& planes,
                         const IdgVisibilities& all, const std::vector<float>& weights,
                         IdgEngine& engine, const UvExtent& extent, IdgImage& image) {
  const IdgSettings& settings = engine.settings();
  std::vector<float> own;
  IdgVisibilities view = all;
  if (planes.used.size() > 1) {
    own = plane_pass_weights(planes, plane, weights, all.nchan);
    view.weight = own.data();
  }
  const IdgATerms sampled = sample_aterms(aterms.cube, settings, aterms.cube.freq_hz[size_t(plane)],
                                          int(vs.array.antennas.size()));
  view.aterms = &sampled;
  IdgPlan plan = make_idg_plan(settings, view, engine.host_threads());
  check_plan(plan, o, extent);
  engine.grid(plan, view, image);
  return plan;
}

// sum += image x its weight sum, per correlation; `weight_sum` adds them up.
void add_weighted(const IdgImage& image, IdgImage& sum, std::vector<double>& weight_sum) {
  const size_t n = size_t(image.size) * image.size;
  for (int k = 0; k < image.npol; ++k) {
    const double w = image.weight_sum[size_t(k)];
    if (w == 0) continue;
    std::complex<float>* to = sum.plane(k);
    const std::complex<float>* from = image.plane(k);
    for (size_t i = 0; i < n; ++i) to[i] += from[i] * float(w);
    weight_sum[size_t(k)] += w;
  }
}

// One channel group through the A-terms: the four correlations gridded at once, in one pass
// per FREQ plane of the cube that is nearest some of the group's channels (with several, the
// passes' images added by their weights: a second image's memory), then each --pol image formed
// from them; the PSF is the weighted mean of the first image's correlations' PSFs, made without
// the A-terms.
void grid_channel_group_through_aterms(const IdgGridOptions& o, const VisibilitySet& vs,
                                       const OutputPlan& out, size_t g, IdgSettings settings,
                                       const ATermInput& aterms, const Messages& messages,
                                       GriddedImages& result) {
  const ChannelGroup& group = out.groups[g];
  std::vector<size_t> dirty_and_psf;  // indices into result.images: they take the PSF's beam
  const CorrelationProducts correlations = correlation_products(vs.stokes, o.input);
  ImagingSamples samples =
      make_imaging_samples(vs, group, correlation_outputs(correlations), o.weighting,
                           o.padded(o.nx), o.padded(o.ny), o.cell_rad);
  share_correlation_weights(correlations, samples);
  const UvExtent extent = weighted_extent(vs, samples);
  settings.npol = 4;
  settings = layered_settings(o, settings, extent, samples.freq_hz);
  const ATermPlanes planes = aterm_planes(aterms.cube, samples.freq_hz);
  const size_t pixels = size_t(settings.grid_size) * settings.grid_size;
  if (planes.used.size() > 1) check_memory(settings, o.nx, o.thread_count(), double(pixels) * 4 * 8);
  std::unique_ptr<IdgEngine> engine = make_idg_engine(o, settings);
  result.engine = engine->name();
  describe_group(o, group, settings, extent, messages);

  IdgVisibilities view = view_of(vs, samples, 0);
  view.product_index = {0, 1, 2, 3};
  view.aterm_slot = aterms.slot.data();
  IdgImage sum, part;
  IdgPlan plan;  // of every channel: the one pass's, or made for the PSF below
  int64_t placed = 0;
  if (planes.used.size() == 1) {
    plan = grid_aterm_plane(o, vs, aterms, planes.used[0], planes, view, samples.weight, *engine,
                            extent, sum);
    placed = plan.visibilities_placed;
  } else {
    sum.npol = 4;
    sum.size = settings.grid_size;
    sum.pixels.assign(4 * pixels, {0.0f, 0.0f});
    std::vector<double> weight_sum(4, 0.0);
    for (int plane : planes.used) {
      placed += grid_aterm_plane(o, vs, aterms, plane, planes, view, samples.weight, *engine,
                                 extent, part).visibilities_placed;
      add_weighted(part, sum, weight_sum);
    }
    for (int k = 0; k < 4; ++k)
      if (weight_sum[size_t(k)] > 0)
        idg_scale(sum.plane(k), pixels, float(1.0 / weight_sum[size_t(k)]), o.thread_count());
    sum.weight_sum = weight_sum;  // the group's weight in the MFS images
  }
  result.placed += placed;
  result.gridded += placed;
  std::vector<std::complex<float>> image(pixels);
  for (size_t p = 0; p < out.pols.size(); ++p) {
    combine_correlation_planes(out.pols[p], correlations, sum, image.data());
    dirty_and_psf.push_back(result.images.size());
    result.images.push_back({dirty_name(o, out, g, p), written_image(o, image.data(), vs,
                                                                     samples.freq_hz, out.pols[p].fits_stokes)});
    result.weight_of[dirty_name(o, out, g, p)] = image_weight(sum);
    if (placed == 0) note_empty(o, group, out.pols[p].name, result);
  }
  if (o.psf) {
    if (planes.used.size() > 1) plan = make_idg_plan(settings, view, engine->host_threads());
    engine->psf(plan, view, sum);  // the dirty images are made: its memory serves again
    result.gridded += plan.visibilities_placed;
    combine_correlation_planes(psf_combination(out.pols[0]), correlations, sum, image.data());
    dirty_and_psf.push_back(result.images.size());
    result.images.push_back({psf_name(o, out, g), written_image(o, image.data(), vs,
                                                                samples.freq_hz, out.pols[0].fits_stokes)});
    const std::vector<float>& pixels = result.images.back().image.pixels;
    if (out.groups.size() > 1) result.psfs.push_back({pixels, image_weight(sum)});
    set_group_beam(dirty_and_psf, psf_beam(pixels, o.nx), o.cell_rad, result);
  }
}

constexpr double kArcsecPerRad = 180.0 / M_PI * 3600.0;

double model_flux(const std::vector<float>& model) {
  double sum = 0;
  for (float v : model) sum += v;
  return sum;
}

// The images of CLEAN where there was nothing to clean (n x n, the padded size): all zero, no
// beam.
CleanResult empty_clean(int n) {
  CleanResult r;
  r.model.assign(size_t(n) * n, 0.0f);
  r.residual = r.restored = r.model;
  return r;
}

// CLEAN's model (Jy/pixel), residual and restored image (with the beam in its header) of
// channel group g, polarisation p.
void add_clean_images(const IdgGridOptions& o, const OutputPlan& out, size_t g, size_t p,
                      const CleanResult& r, const VisibilitySet& vs,
                      const std::vector<double>& freq_hz, double weight, GriddedImages& result) {
  const std::vector<float>* planes[] = {&r.model, &r.residual, &r.restored};
  for (int k = 0; k < 3; ++k) {
    FitsImage image = written_image(o, *planes[k], vs, freq_hz, out.pols[p].fits_stokes);
    if (k == 0) image.bunit = "JY/PIXEL";
    if (k == 2 && r.beam.major_px > 0) set_beam(image, r.beam, o.cell_rad);
    result.weight_of[clean_name(o, out, g, p, kCleanKinds[k])] = weight;
    result.images.push_back({clean_name(o, out, g, p, kCleanKinds[k]), std::move(image)});
  }
}

// One channel group: weights, w-layers, and per polarisation its plan, dirty image, (for the
// first) PSF, and with --niter its CLEAN (hold, then the major cycles of clean_cycles.hpp).
void grid_channel_group(const IdgGridOptions& o, const VisibilitySet& vs, const OutputPlan& out,
                        size_t g, IdgSettings settings, const Messages& messages,
                        GriddedImages& result) {
  const ChannelGroup& group = out.groups[g];
  const ImagingSamples samples =
      make_imaging_samples(vs, group, out.pols, o.weighting, o.padded(o.nx), o.padded(o.ny),
                           o.cell_rad);
  const UvExtent extent = weighted_extent(vs, samples);
  settings = layered_settings(o, settings, extent, samples.freq_hz);
  std::unique_ptr<IdgEngine> engine = make_idg_engine(o, settings);
  result.engine = engine->name();
  describe_group(o, group, settings, extent, messages);
  IdgImage dirty, psf;  // kept between calls: a fresh image costs page faults of its own
  const bool clean = o.clean.niter > 0;
  std::vector<size_t> dirty_and_psf;  // indices into result.images: they take the PSF's beam
  std::optional<CleanBeam> beam;
  for (size_t p = 0; p < out.pols.size(); ++p) {
    const IdgVisibilities view = view_of(vs, samples, p);
    const IdgPlan plan = make_idg_plan(settings, view, engine->host_threads());
    check_plan(plan, o, extent);
    // CLEAN's major cycles work on the visibilities the engine holds (on a GPU: in its memory).
    if (clean) {
      engine->hold(plan, view);
      engine->grid_held(dirty);
    } else {
      engine->grid(plan, view, dirty);
    }
    result.placed += plan.visibilities_placed;
    result.gridded += plan.visibilities_placed;
    const int stokes = out.pols[p].fits_stokes;
    dirty_and_psf.push_back(result.images.size());
    result.images.push_back(
        {dirty_name(o, out, g, p), written_image(o, dirty.plane(0), vs, samples.freq_hz, stokes)});
    result.weight_of[dirty_name(o, out, g, p)] = image_weight(dirty);
    if (plan.visibilities_placed == 0) note_empty(o, group, out.pols[p].name, result);
    if ((p == 0 && o.psf) || clean) {
      if (clean)
        engine->psf_held(psf);
      else
        engine->psf(plan, view, psf);
      result.gridded += plan.visibilities_placed;
      if (p == 0) {
        FitsImage image = written_image(o, psf.plane(0), vs, samples.freq_hz, stokes);
        if (out.groups.size() > 1) result.psfs.push_back({image.pixels, image_weight(psf)});
        beam = psf_beam(image.pixels, o.nx);
        if (o.psf) {
          dirty_and_psf.push_back(result.images.size());
          result.images.push_back({psf_name(o, out, g), std::move(image)});
        }
      }
    }
    if (clean) {
      const bool any = plan.visibilities_placed > 0;
      // The minor cycles run where the gridding does.
      const int minor_gpu = o.device.use_gpu ? o.device.gpu_index : -1;
      const CleanResult r =
          any ? clean_held(*engine, dirty, psf, o.clean, o.thread_count(), minor_gpu)
              : empty_clean(settings.grid_size);
      engine->release_held();
      result.gridded += 2 * r.major_cycles * plan.visibilities_placed;
      add_clean_images(o, out, g, p, r, vs, samples.freq_hz, image_weight(dirty), result);
      if (r.diverged)
        messages.warning(format_string(
            "%s: CLEAN diverged: major cycle %d left the residual's peak at %.3g Jy/beam, above "
            "the %.3g its minor cycle began from; stopped there with %d components (a lower "
            "--gain or --mgain, or a --threshold, may help)",
            clean_name(o, out, g, p, "image").c_str(), r.major_cycles, r.diverged_to,
            r.diverged_from, r.components));
      if (any)
        messages.detail(format_string(
            "%s: %d CLEAN components in %d major cycle%s; %.4g Jy in the model, %.3g Jy/beam "
            "left; beam %.3g\" x %.3g\" at %.1f deg", clean_name(o, out, g, p, "image").c_str(),
            r.components, r.major_cycles, r.major_cycles == 1 ? "" : "s", model_flux(r.model),
            r.peak, r.beam.major_px * o.cell_rad * kArcsecPerRad,
            r.beam.minor_px * o.cell_rad * kArcsecPerRad, r.beam.pa_rad * 180 / M_PI));
    }
  }
  set_group_beam(dirty_and_psf, beam, o.cell_rad, result);
}

// With several channel groups, WSClean's MFS images: of each polarisation the dirty image (and
// CLEAN's model and residual) as the mean of the groups' weighted by their imaging weights, the
// PSF likewise, and CLEAN's restored image as the MFS residual plus the MFS model convolved with
// the beam fitted to the MFS PSF; each described as an image of the whole band.
void add_mfs_images(const IdgGridOptions& o, const VisibilitySet& vs, const OutputPlan& out,
                    GriddedImages& result) {
  if (out.groups.size() < 2) return;
  std::map<std::string, const FitsImage*> by_path;
  for (const PendingImage& i : result.images) by_path[i.path] = &i.image;
  std::vector<PendingImage> mfs;
  auto mean_of = [&](const std::vector<std::string>& paths) {
    std::vector<WeightedPlane> planes;
    for (const std::string& path : paths)
      planes.push_back({by_path.at(path)->pixels, result.weight_of.at(path)});
    return weighted_mean_plane(planes);
  };
  // The groups' PSFs are made with --psf (the default) or --niter.
  const std::vector<float> psf =
      result.psfs.empty() ? std::vector<float>() : weighted_mean_plane(result.psfs);
  const bool clean = o.clean.niter > 0;
  // No beam where no group has data: psf_beam finds the PSF's centre empty.
  const CleanBeam beam = psf.empty() ? CleanBeam{} : psf_beam(psf, o.nx).value_or(CleanBeam{});
  if (o.psf) {
    mfs.push_back({wsclean_mfs_image_name(o.name, "", "psf"),
                   sky_image(psf, o.nx, o.cell_rad, vs, vs.channel_freq_hz, out.pols[0].fits_stokes)});
    if (beam.major_px > 0) set_beam(mfs.back().image, beam, o.cell_rad);
  }
  for (size_t p = 0; p < out.pols.size(); ++p) {
    const int stokes = out.pols[p].fits_stokes;
    std::vector<std::string> dirty;
    for (size_t g = 0; g < out.groups.size(); ++g) dirty.push_back(dirty_name(o, out, g, p));
    mfs.push_back({mfs_name(o, out, p, "dirty"),
                   sky_image(mean_of(dirty), o.nx, o.cell_rad, vs, vs.channel_freq_hz, stokes)});
    if (beam.major_px > 0) set_beam(mfs.back().image, beam, o.cell_rad);
    if (!clean) continue;
    std::vector<float> planes[2];  // model, residual
    for (int k = 0; k < 2; ++k) {
      std::vector<std::string> paths;
      for (size_t g = 0; g < out.groups.size(); ++g)
        paths.push_back(clean_name(o, out, g, p, kCleanKinds[k]));
      planes[k] = mean_of(paths);
    }
    FitsImage model = sky_image(planes[0], o.nx, o.cell_rad, vs, vs.channel_freq_hz, stokes);
    model.bunit = "JY/PIXEL";
    FitsImage residual = sky_image(planes[1], o.nx, o.cell_rad, vs, vs.channel_freq_hz, stokes);
    FitsImage restored =
        sky_image(beam.major_px > 0 ? restore_image(planes[0], planes[1], o.nx, beam) : planes[1],
                  o.nx, o.cell_rad, vs, vs.channel_freq_hz, stokes);
    if (beam.major_px > 0) set_beam(restored, beam, o.cell_rad);
    mfs.push_back({mfs_name(o, out, p, "model"), std::move(model)});
    mfs.push_back({mfs_name(o, out, p, "residual"), std::move(residual)});
    mfs.push_back({mfs_name(o, out, p, "image"), std::move(restored)});
  }
  for (PendingImage& i : mfs) result.images.push_back(std::move(i));
}

}  // namespace

IdgGridSummary run_idg_grid(const IdgGridOptions& o, const Messages& messages) {
  const Stopwatch started;
  const IdgSettings settings = base_settings(o);
  check_memory(settings, o.nx, o.thread_count(), 0);  // before reading: the grid alone must fit

  std::vector<std::string> warnings;
  const VisibilitySet vs = read_visibility_file(o.input, o.selection(), &warnings);
  for (const std::string& w : warnings) messages.warning(w);
  const OutputPlan out = plan_outputs(o, vs);
  describe_input(o, vs, messages);
  ATermInput aterms;
  if (!o.aterms.empty()) {
    aterms = load_aterms(o.aterms, vs);
    correlation_products(vs.stokes, o.input);  // refused before any gridding
  }

  EnergyMeter meter;
  meter.start();
  const Stopwatch gridding;
  GriddedImages gridded;
  for (size_t g = 0; g < out.groups.size(); ++g) {
    if (o.aterms.empty())
      grid_channel_group(o, vs, out, g, settings, messages, gridded);
    else
      grid_channel_group_through_aterms(o, vs, out, g, settings, aterms, messages, gridded);
    if (messages.progress)
      std::fprintf(stderr, "\r%s: channel group %zu of %zu gridded", messages.program.c_str(),
                   g + 1, out.groups.size());
  }
  if (messages.progress) std::fputc('\n', stderr);
  IdgGridSummary summary;
  summary.gridding_s = gridding.seconds();
  meter.stop();
  if (gridded.placed == 0)
    throw file_error(o.input, o.weighting.min_uv_lambda > 0 || o.weighting.max_uv_lambda > 0
                                  ? "every visibility is flagged or outside --minuv-l .. --maxuv-l: "
                                    "nothing to image"
                                  : "every visibility is flagged: nothing to image");
  add_mfs_images(o, vs, out, gridded);
  for (const std::string& w : gridded.empty) messages.warning(w);
  write_images(gridded.images, o.overwrite);

  for (const PendingImage& i : gridded.images) summary.outputs.push_back(i.path);
  summary.visibilities = gridded.gridded;
  summary.images = int(gridded.images.size());
  summary.engine = gridded.engine;
  summary.energy = meter.report();
  summary.energy_note = meter.unavailable();
  summary.wall_s = started.seconds();
  return summary;
}

}  // namespace rapt
