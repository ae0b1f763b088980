// bf on the command line: every option declared once here, read into BfOptions, checked
// against each other (man/bf.1 lists them).
#pragma once
#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "bf/beam_directions.hpp"
#include "bf/beamformer_engine.hpp"
#include "cli/stream_options.hpp"

namespace rapt {

struct BfOptions {
  std::string input;                  // voltage file, "-" = PSRDADA on stdin
  std::string output_root;            // -o
  std::string layout_path;            // --layout: "" = the voltages' own antenna positions
  std::optional<std::string> ra, dec; // --ra/--dec: pointing, else the voltages' header
  std::string beams_path;             // --beams
  std::optional<BeamTiling> tiling;   // --tiling
  double spacing_deg = 0;             // --spacing
  int nbeams = 1;                     // --nbeams (tiling)
  std::string weights_path;           // --weights
  bool fringe_stopped = false;
  double delay_interval_s = 0;       // 0 = automatic (bf_run.cpp)
  std::string flags_path;
  double flag_thresh = 0.1;
  BeamDetection detection = BeamDetection::stokes_i;  // --stokes I | IQUV; --no-filterbank
  int tint = 1;
  int fscrunch = 1;
  int nbits = 32;
  bool coherent = false;
  bool incoherent = false;
  BeamPrecision precision = BeamPrecision::fp32;
  StreamOptions stream;               // --gulp, --max-block-mib, --vdif-rate, --device, --threads
  bool overwrite = false;
};

void add_bf_options(cxxopts::Options& options);

// Throws UsageError naming the option for a bad value or a bad combination.
BfOptions bf_options_from(const cxxopts::ParseResult& result);

}  // namespace rapt
