// sift's command line: the options, declared once, the kind of input each file name says,
// and the translation into settings. The single-pulse options are snr's, with snr's defaults.
#pragma once
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "sift/accel_sifting.hpp"
#include "snr/candidate_clustering.hpp"

namespace rapt {

enum class SiftInputKind { kSinglePulse, kAccel };

struct SiftRunOptions {
  SiftInputKind kind = SiftInputKind::kSinglePulse;
  ClusterSettings cluster;   // .singlepulse inputs
  double threshold = 0.0;    // .singlepulse inputs: events below this S/N left out (0: none)
  std::string plot;          // .singlepulse inputs: PNG of the events ("" = none)
  AccelSiftSettings accel;   // ACCEL inputs
  std::string output = "-";  // "-" = stdout
  std::vector<std::string> files;
};

void add_sift_options(cxxopts::Options& options);

// The kind a file name says: "*.singlepulse", or "<root>_ACCEL_<zmax>[_JERK_<wmax>]". Throws
// UsageError for any other name (naming .cand and .txtcand files as such).
SiftInputKind sift_input_kind(const std::string& path);

// Throws UsageError for no files, files of both kinds, bad values, or options of the other
// kind of input.
SiftRunOptions read_sift_options(const cxxopts::ParseResult& result,
                                 const std::vector<std::string>& positional);

}  // namespace rapt
