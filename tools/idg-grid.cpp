// idg-grid: dirty images (and PSFs) of a Measurement Set or UVFITS file by image-domain
// gridding.
//
//   idg-grid --size 1024 --scale 10asec -o obs obs.ms              obs-dirty.fits, obs-psf.fits
//   idg-grid --size 512 --scale 1amin --weight briggs:0 --pol IQUV -o obs obs.uvfits
//   idg-grid --size 512 --scale 1amin --channels-out 4 -o cube obs.ms   cube-0000-dirty.fits ...
//   idg-grid --predict model.fits -o predicted.uvfits obs.ms          degrid a sky model
//
// Options, weighting formulas and file names as WSClean's users know them: see man/idg-grid.1.
#include "cli/file_contents.hpp"
#include "cli/program.hpp"
#include "imaging/idg_grid_options.hpp"
#include "imaging/idg_grid_run.hpp"
#include "imaging/model_prediction.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("idg-grid", [&] {
    auto options = rapt::program_options(
        "idg-grid", "Dirty images of visibilities by image-domain gridding");
    rapt::add_idg_grid_options(options);
    options.parse_positional({"files"});
    options.positional_help("VISIBILITIES");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    rapt::IdgGridOptions o = rapt::idg_grid_options_from(args.result);
    o.overwrite = args.force;
    if (!o.predict_model.empty()) {
      const rapt::IdgPredictSummary s = rapt::run_idg_predict(o, args.messages);
      args.messages.info(rapt::format_string(
          "%lld visibilities predicted into %s in %.3f s on %s: %.3g visibilities/s; %s",
          (long long)s.visibilities,
          (o.name.empty() ? "MODEL_DATA of " + o.input : o.name).c_str(), s.degridding_s, s.engine.c_str(),
          s.degridding_s > 0 ? s.visibilities / s.degridding_s : 0.0, s.energy.c_str()));
      if (!s.energy_note.empty()) args.messages.detail("energy not measured: " + s.energy_note);
      return 0;
    }
    const rapt::IdgGridSummary s = rapt::run_idg_grid(o, args.messages);
    args.messages.info(rapt::format_string(
        "%lld visibilities gridded into %d images in %.3f s on %s: %.3g visibilities/s; %s",
        (long long)s.visibilities, s.images, s.gridding_s, s.engine.c_str(),
        s.gridding_s > 0 ? s.visibilities / s.gridding_s : 0.0, s.energy.c_str()));
    if (!s.energy_note.empty()) args.messages.detail("energy not measured: " + s.energy_note);
    for (const std::string& path : s.outputs) args.messages.detail("wrote " + path);
    return 0;
  });
}
