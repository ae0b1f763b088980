// corr on the command line: every option declared once here (the channeliser's through
// ppf/pfb_options.hpp), read into CorrOptions and checked against each other (man/corr.1 lists
// them).
#pragma once
#include <cxxopts.hpp>
#include <optional>
#include <string>

#include "cli/stream_options.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {

enum class VisibilityFormat { uvfits, ms };
enum class PrecisionChoice { automatic, fp32, fp16, int8 };

struct CorrOptions {
  std::string input;                     // voltage file, "-" = PSRDADA on stdin
  std::string output;                    // -o
  VisibilityFormat format = VisibilityFormat::uvfits;
  std::string layout_path;               // --layout: "" = the voltages' own antenna positions
  std::optional<std::string> phase_centre;  // --phase-centre "RA DEC"
  bool fringe_stopped = false;
  double delay_interval_s = 0;           // 0 = automatic (corr_run.cpp)
  std::string flags_path;
  double tint_s = 1.0;                   // --tint, unless nint > 0
  int64_t nint = 0;                      // --nint samples
  int chan_avg = 1;
  bool autos = true;
  bool drop_partial = false;
  bool channelise = false;               // --nchan given (real input is always channelised)
  bool pfb_options_given = false;        // --ntaps, --window, --coeffs, --delays or --bandpass
  PfbOptions pfb;
  PrecisionChoice precision = PrecisionChoice::automatic;
  StreamOptions stream;                  // --gulp (correlated samples), --max-block-mib, --vdif-rate,
                                         // --device, --threads
  bool overwrite = false;
};

void add_corr_options(cxxopts::Options& options);

// Throws UsageError naming the option for a bad value or a bad combination.
CorrOptions corr_options_from(const cxxopts::ParseResult& result);

// --format, or else the output's name: .uvfits, .uvf, .fits (UVFITS) or .ms (Measurement Set).
// Throws UsageError when neither says.
VisibilityFormat visibility_format_of(const std::string& path, const std::string& format);

}  // namespace rapt
