// idg-grid on the command line: every option declared once here, read into IdgGridOptions and
// checked against each other (man/idg-grid.1 lists them).
#pragma once
#include <cxxopts.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gpu_device.hpp"
#include "idg/idg_engine.hpp"
#include "imaging/hogbom_clean.hpp"
#include "imaging/imaging_weights.hpp"
#include "io/measurement_set.hpp"

namespace rapt {

struct IdgGridOptions {
  std::string input;                  // Measurement Set directory or UVFITS file
  std::string data_column = "DATA";   // --data-column (Measurement Sets)
  int data_desc_id = -1;              // --data-desc-id; -1 = the one the rows use
  int field_id = -1;                  // --field; -1 = the lowest the rows use
  std::vector<std::string> polarisations{"I"};  // --pol, parsed
  Weighting weighting;                // --weight

  int nx = 0, ny = 0;                 // --size
  double cell_rad = 0;                // --scale
  std::string name;                   // -o/--name: NAME-dirty.fits, NAME-psf.fits; with
                                      // --predict the output visibility file ("" = the
                                      // input MS's MODEL_DATA)
  std::string predict_model;          // --predict MODEL.fits; "" = make images
  bool psf = true;                    // --no-psf
  int channels_out = 1;               // --channels-out
  CleanSettings clean;                // --niter, --gain, --mgain, --threshold

  double padding = 1.2;               // --padding: the grid's size over the image's
  int subgrid_size = 32;              // --subgrid
  int kernel_size = 9;                // --kernel-size
  int max_timesteps_per_subgrid = 128;  // --max-timesteps-per-subgrid
  int max_channels_per_subgrid = 16;    // --max-channels-per-subgrid
  double wstep_lambda = 0;            // --wstep (wavelengths); 0 = from --nwlayers
  std::string aterms;                 // --aterms FILE; "" = none
  int nwlayers = 0;                   // --nwlayers; 0 = as few as the kernel allows

  DeviceChoice device;                // --device
  int threads = 0;                    // --threads; 0 = every core
  bool overwrite = false;             // --force

  // --threads, or the number of cores when it is 0.
  int thread_count() const;
  // The Measurement Set rows and column to read (--data-column, --data-desc-id, --field).
  MeasurementSetSelection selection() const;
  // The grid an n-pixel image is made on (--padding; image_padding.hpp).
  int padded(int n) const;
};

// The IDG engine of `settings` on the device --device names (--threads of them on the CPU).
std::unique_ptr<IdgEngine> make_idg_engine(const IdgGridOptions& o, const IdgSettings& settings);

void add_idg_grid_options(cxxopts::Options& options);

// Throws UsageError naming the option for a bad value or a bad combination.
IdgGridOptions idg_grid_options_from(const cxxopts::ParseResult& result);

}  // namespace rapt
