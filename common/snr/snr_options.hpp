// snr's command line: the options, declared once, and their translation into settings.
#pragma once
#include <cxxopts.hpp>
#include <string>
#include <vector>

#include "cli/work_part.hpp"
#include "dedisp/dedisp_options.hpp"
#include "dedisp/dm_plan_options.hpp"
#include "snr/candidate_clustering.hpp"
#include "snr/snr_settings.hpp"

namespace rapt {

enum class SnrMode { kBoxcar, kPeak };

struct SnrRunOptions {
  SnrSettings search;
  ClusterSettings cluster;
  SnrMode mode = SnrMode::kBoxcar;
  int64_t chunk_len = 0;      // peak mode; 0 = the detrend length
  std::string device = "auto";
  int threads = 0;            // 0 = all cores
  std::string outdir;         // "" = beside each input
  std::string cands = "-";    // clustered candidates; "-" = stdout
  std::string plot;           // PNG path, "" = none
  double lodm = 0.0, dmstep = 1.0;  // fused mode (a filterbank input)
  int numdms = 0;
  DmPlanSettings plan;        // fused mode: --plan instead of --dmstep and --numdms
  SpectraCleaning cleaning;   // fused and real-time modes: --mask, --ignorechan, --zerodm
  double max_width_s = 0.0;   // -m: widths follow from the series' sampling time
  bool realtime = false;      // --realtime: chunk by chunk as the data arrive
  int64_t realtime_chunk = 0; // --chunk (0 = default)
  std::string json;           // --json: real-time timing summary; "" = none
  std::vector<std::string> files;  // positional inputs plus --glob matches, in order
  WorkPart part;              // --part K/N: this share of the files (or of the fused DM trials)
};

void add_snr_options(cxxopts::Options& options);

// The clustering options (--cluster-dm-trials, --cluster-gap, --cluster-width-ratio), declared
// once for snr and sift (`help_prefix` leads each help line), and read with their checks.
void add_cluster_options(cxxopts::Options& options, const std::string& help_prefix);
ClusterSettings read_cluster_options(const cxxopts::ParseResult& result);
// Reads the parsed options; throws UsageError for bad values. `positional` are the file
// arguments; --glob patterns are expanded here (a pattern that matches nothing is an error).
SnrRunOptions read_snr_options(const cxxopts::ParseResult& result,
                               const std::vector<std::string>& positional);

// "300" -> widths up to 300 samples; seconds (PRESTO's -m) need the sampling time.
std::vector<int> widths_for_max_seconds(double max_width_s, double dt_s);

}  // namespace rapt
