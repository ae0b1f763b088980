// idg-grid's options: defaults, units of --scale, and the one-line errors of bad values.
#include <gtest/gtest.h>

#include <cmath>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "imaging/cell_size.hpp"
#include "imaging/idg_grid_options.hpp"
#include "imaging/image_names.hpp"
#include "imaging/imaging_samples.hpp"

namespace rapt {
namespace {

constexpr double kArcsec = 3.14159265358979323846 / 180 / 3600;

IdgGridOptions parse(std::vector<std::string> args) {
  auto options = program_options("idg-grid", "test");
  add_idg_grid_options(options);
  options.parse_positional({"files"});
  std::vector<char*> argv;
  args.insert(args.begin(), "idg-grid");
  for (std::string& a : args) argv.push_back(a.data());
  return idg_grid_options_from(parse_options(options, int(argv.size()), argv.data()).result);
}

std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CellSize, ReadsWscleanUnits) {
  EXPECT_NEAR(parse_cell_size_rad("20asec"), 20 * kArcsec, 1e-15);
  EXPECT_NEAR(parse_cell_size_rad("20arcsec"), 20 * kArcsec, 1e-15);
  EXPECT_NEAR(parse_cell_size_rad("1.5amin"), 90 * kArcsec, 1e-15);
  EXPECT_NEAR(parse_cell_size_rad("0.01deg"), 36 * kArcsec, 1e-15);
  EXPECT_NEAR(parse_cell_size_rad("0.01"), 36 * kArcsec, 1e-15);  // degrees, as in WSClean
  EXPECT_NEAR(parse_cell_size_rad("2e-5rad"), 2e-5, 1e-20);
  EXPECT_NEAR(parse_cell_size_rad("500mas"), 0.5 * kArcsec, 1e-17);
  for (const char* bad : {"", "asec", "-1asec", "0", "1parsec", "nan"})
    EXPECT_THROW(parse_cell_size_rad(bad), UsageError) << bad;
  EXPECT_EQ(describe_angle(20 * kArcsec), "20 asec");
  EXPECT_EQ(describe_angle(90 * kArcsec), "1.5 amin");
}

TEST(IdgGridOptions, DefaultsAndValues) {
  const IdgGridOptions d = parse({"--size", "512", "--scale", "1amin", "-o", "img", "x.ms"});
  EXPECT_EQ(d.input, "x.ms");
  EXPECT_EQ(d.nx, 512);
  EXPECT_NEAR(d.cell_rad, 60 * kArcsec, 1e-15);
  EXPECT_EQ(d.name, "img");
  EXPECT_EQ(d.polarisations, std::vector<std::string>{"I"});
  EXPECT_EQ(d.weighting.mode, WeightingMode::natural);
  EXPECT_TRUE(d.psf);
  EXPECT_EQ(d.channels_out, 1);
  EXPECT_EQ(d.subgrid_size, 32);
  EXPECT_EQ(d.kernel_size, 9);
  EXPECT_EQ(d.nwlayers, 0);
  EXPECT_EQ(d.padding, 1.2);  // WSClean's
  EXPECT_EQ(d.padded(512), 616);
  EXPECT_EQ(d.device.use_gpu, choose_device("auto").use_gpu);  // auto: the GPU where there is one

  const IdgGridOptions o = parse({"--size", "256", "--scale", "10asec", "--name", "n",
                                  "--pol", "xx,yy", "--weight", "briggs:0.5", "--no-psf",
                                  "--channels-out", "4", "--subgrid", "24", "--kernel-size", "11",
                                  "--max-timesteps-per-subgrid", "64",
                                  "--max-channels-per-subgrid", "8", "--wstep", "50",
                                  "--data-column", "CORRECTED_DATA", "--field", "1",
                                  "--data-desc-id", "2", "--device", "cpu", "--threads", "3",
                                  "y.uvfits"});
  EXPECT_EQ(o.polarisations, (std::vector<std::string>{"XX", "YY"}));
  EXPECT_DOUBLE_EQ(o.weighting.robustness, 0.5);
  EXPECT_FALSE(o.psf);
  EXPECT_EQ(o.channels_out, 4);
  EXPECT_EQ(o.subgrid_size, 24);
  EXPECT_EQ(o.kernel_size, 11);
  EXPECT_EQ(o.max_timesteps_per_subgrid, 64);
  EXPECT_EQ(o.max_channels_per_subgrid, 8);
  EXPECT_DOUBLE_EQ(o.wstep_lambda, 50);
  EXPECT_EQ(o.data_column, "CORRECTED_DATA");
  // Column names are matched as Measurement Sets spell them: upper case.
  EXPECT_EQ(parse({"--size", "256", "--scale", "10asec", "--data-column", "model_Data", "-o", "m",
                   "z.ms"})
                .data_column,
            "MODEL_DATA");
  EXPECT_EQ(o.field_id, 1);
  EXPECT_EQ(o.data_desc_id, 2);
  EXPECT_EQ(o.threads, 3);
  EXPECT_EQ(o.weighting.taper_fwhm_rad, 0.0);
  const IdgGridOptions tapered =
      parse({"--size", "256", "--scale", "10asec", "--taper", "1amin", "-o", "t", "y.uvfits"});
  EXPECT_NEAR(tapered.weighting.taper_fwhm_rad, M_PI / 180 / 60, 1e-15);
}

TEST(IdgGridOptions, RefusesBadValuesInOneLine) {
  const std::vector<std::string> base{"--scale", "1amin", "-o", "n", "x.ms"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), base.begin(), base.end());
    return usage_error(extra);
  };
  EXPECT_EQ(usage_error({"--scale", "1amin", "-o", "n", "x.ms"}),
            "--size is required (image size in pixels)");
  EXPECT_EQ(usage_error({"--size", "64", "-o", "n", "x.ms"}),
            "--scale is required (pixel size, e.g. 20asec)");
  EXPECT_EQ(with({"--size", "63"}), "--size must be even and at least 20");
  for (const char* bad : {"0.99", "2.01", "-1"})
    EXPECT_EQ(with({"--size", "64", "--padding", bad}), "--padding must be from 1 to 2") << bad;
  EXPECT_EQ(parse({"--size", "64", "--scale", "1amin", "--padding", "2", "-o", "n", "x.ms"}).padded(64),
            128);
  EXPECT_EQ(with({"--size", "48", "--subgrid", "32"}), "--subgrid (32) must be at most half of --size");
  // Without --subgrid a small image takes subgrids of half its size.
  EXPECT_EQ(with({"--size", "20"}), "no error");
  EXPECT_EQ(parse({"--size", "48", "--scale", "1amin", "-o", "n", "x.ms"}).subgrid_size, 24);
  EXPECT_EQ(with({"--size", "64", "--kernel-size", "7"}),
            "--kernel-size must be at least 8 (the taper's 7 pixels and room for the w-term)");
  EXPECT_EQ(with({"--size", "64", "--kernel-size", "32"}),
            "--subgrid (32; by default 32, or half of --size where that is less) must be an even "
            "number of pixels larger than --kernel-size (32)");
  // The smallest subgrid follows the kernel; a size too small is named as such, not through the
  // subgrid it would default to.
  EXPECT_EQ(with({"--size", "64", "--subgrid", "8"}),
            "--subgrid (8; by default 32, or half of --size where that is less) must be an even "
            "number of pixels larger than --kernel-size (9)");
  EXPECT_NE(with({"--size", "64", "--subgrid", "11"}).find("--subgrid (11; "), std::string::npos);
  // The default subgrid of a small image named as such.
  EXPECT_NE(with({"--size", "20", "--kernel-size", "10"}).find("--subgrid (10; by default"),
            std::string::npos);
  EXPECT_EQ(with({"--size", "64", "--subgrid", "10"}), "no error");
  EXPECT_EQ(with({"--size", "18"}), "--size must be even and at least 20");
  EXPECT_EQ(with({"--size", "64", "--wstep", "10", "--nwlayers", "4"}),
            "give --wstep or --nwlayers, not both");
  if (!choose_device("auto").use_gpu) {  // no GPU here: asking for one is a usage error
    EXPECT_NE(with({"--size", "64", "--device", "gpu"}), "no error");
  }
  EXPECT_EQ(with({"--size", "64", "--channels-out", "0"}), "--channels-out must be a positive number");
  EXPECT_NE(with({"--size", "64", "--pol", "IZ"}).find("--pol 'IZ'"), std::string::npos);
  EXPECT_NE(with({"--size", "64", "--weight", "robust"}).find("--weight must be"), std::string::npos);
  EXPECT_NE(with({"--size", "64", "--taper", "0asec"}).find("--taper"), std::string::npos);
  EXPECT_NE(with({"--size", "64", "--taper", "wide"}).find("--taper"), std::string::npos);
  EXPECT_EQ(with({"--size", "64", "--data-column", ""}),
            "--data-column must name a column, such as DATA, CORRECTED_DATA or MODEL_DATA (got '')");
  EXPECT_NE(with({"--size", "64", "--data-column", "DATA;1"}).find("--data-column must name"),
            std::string::npos);
  EXPECT_EQ(usage_error({"--size", "64", "--scale", "60deg", "-o", "n", "x.ms"}),
            "--size x --scale spans more than the whole sky (direction cosines -1..1)");
  // 64 pixels of 1.6 deg span 1.79 (in direction cosines), padded to 80: 2.23.
  EXPECT_EQ(usage_error({"--size", "64", "--scale", "1.6deg", "-o", "n", "x.ms"}),
            "--size x --scale, padded (--padding), spans more than the whole sky (direction "
            "cosines -1..1)");
  EXPECT_EQ(usage_error({"--size", "64", "--scale", "1.6deg", "--padding", "1", "-o", "n", "x.ms"}),
            "no error");
  EXPECT_EQ(usage_error({"--size", "64", "--scale", "1amin", "x.ms"}),
            "--name (-o) is required: images go to NAME-dirty.fits");
  EXPECT_EQ(usage_error({"--size", "64", "--scale", "1amin", "-o", "n"}),
            "give one Measurement Set or UVFITS file");
}

TEST(IdgGridOptions, CleanDefaultsValuesAndRefusals) {
  const std::vector<std::string> base{"--size", "64", "--scale", "1amin", "-o", "n", "x.ms"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), base.begin(), base.end());
    return extra;
  };
  IdgGridOptions o = parse(with({}));
  EXPECT_EQ(o.clean.niter, 0);
  EXPECT_DOUBLE_EQ(o.clean.gain, 0.1);
  EXPECT_DOUBLE_EQ(o.clean.mgain, 0.8);
  EXPECT_DOUBLE_EQ(o.clean.threshold, 0.0);
  o = parse(with({"--niter", "500", "--gain", "0.2", "--mgain", "0.6", "--threshold", "0.003"}));
  EXPECT_EQ(o.clean.niter, 500);
  EXPECT_DOUBLE_EQ(o.clean.gain, 0.2);
  EXPECT_DOUBLE_EQ(o.clean.mgain, 0.6);
  EXPECT_DOUBLE_EQ(o.clean.threshold, 0.003);
  EXPECT_EQ(usage_error(with({"--niter", "-5"})), "--niter must not be negative");
  EXPECT_EQ(usage_error(with({"--niter", "5", "--gain", "1.5"})), "--gain must lie in (0, 1]");
  EXPECT_EQ(usage_error(with({"--niter", "5", "--mgain", "0"})), "--mgain must lie in (0, 1]");
  EXPECT_EQ(usage_error(with({"--niter", "5", "--threshold", "-1"})),
            "--threshold must be a flux of 0 Jy/beam or more");
  EXPECT_EQ(usage_error(with({"--threshold", "0.1"})), "--threshold needs --niter");
  EXPECT_EQ(usage_error(with({"--niter", "5", "--aterms", "beam.fits"})),
            "--niter does not take --aterms: CLEAN works on images gridded without A-terms");
  EXPECT_EQ(usage_error({"--niter", "5", "--predict", "m.fits", "-o", "p.uvfits", "x.ms"}),
            "--niter does not apply to --predict");
}

TEST(ImageNames, FollowWscleanNaming) {
  EXPECT_EQ(wsclean_image_name("obs", -1, "", "dirty"), "obs-dirty.fits");
  EXPECT_EQ(wsclean_image_name("obs", -1, "", "psf"), "obs-psf.fits");
  EXPECT_EQ(wsclean_image_name("obs", 3, "", "dirty"), "obs-0003-dirty.fits");
  EXPECT_EQ(wsclean_image_name("d/obs", 12, "Q", "dirty"), "d/obs-0012-Q-dirty.fits");
  EXPECT_EQ(wsclean_image_name("obs", -1, "XX", "dirty"), "obs-XX-dirty.fits");
  EXPECT_EQ(wsclean_mfs_image_name("obs", "", "dirty"), "obs-MFS-dirty.fits");
  EXPECT_EQ(wsclean_mfs_image_name("d/obs", "Q", "image"), "d/obs-MFS-Q-image.fits");
  EXPECT_EQ(wsclean_mfs_image_name("obs", "", "psf"), "obs-MFS-psf.fits");
}

TEST(ChannelGroups, SplitLikeWscleanChannelsOut) {
  const std::vector<ChannelGroup> g = split_channels(11, 4);
  ASSERT_EQ(g.size(), 4u);
  // floor(g 11 / 4): 0, 2, 5, 8.
  EXPECT_EQ(g[0].first, 0);
  EXPECT_EQ(g[0].count, 2);
  EXPECT_EQ(g[1].first, 2);
  EXPECT_EQ(g[2].first, 5);
  EXPECT_EQ(g[3].first, 8);
  EXPECT_EQ(g[3].count, 3);
  EXPECT_THROW(split_channels(3, 4), UsageError);
}

}  // namespace
}  // namespace rapt
