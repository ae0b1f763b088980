// inspect: the header and basic statistics of any file rapt reads, like PRESTO's readfile:
// filterbank, PSRFITS and PRESTO files (series, ACCEL tables, .pfd), voltages (GUPPI RAW,
// PSRDADA, VDIF), visibilities (UVFITS, Measurement Sets), FITS images and array layout files,
// recognised by content.
//
//   inspect obs.fil              header and whole-file statistics
//   inspect --header-only *.fil  headers only (fast)
//   inspect --channels obs.fits  per-channel mean and standard deviation too
//   inspect obs.uvfits obs.ms    visibility summary and amplitudes per polarisation product
//
// Bad files are reported one line each and the loop goes on; the exit status is 1 if any file
// could not be read.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "cli/vdif_options.hpp"
#include "inspect/inspect_report.hpp"

int main(int argc, char** argv) {
  return rapt::run_program("inspect", [&] {
    auto options = rapt::program_options(
        "inspect",
        "print the header and statistics of pulsar, voltage, visibility, image and layout files");
    options.add_options()
        ("header-only", "print the header only; do not read the data")
        ("channels", "also print the mean and standard deviation of every channel")
        ("max-spectra",
         "read at most this many spectra (voltages: time samples) for the statistics (0 = all)",
         cxxopts::value<long long>()->default_value("0"))
        ("layout", "read every file as a plain-text array layout file")
        ("files", "input files ('-' = stdin)", cxxopts::value<std::vector<std::string>>());
    rapt::add_vdif_options(options, "VDIF");
    options.parse_positional({"files"});
    options.positional_help("FILE... (- reads standard input)");
    const rapt::ParsedOptions args = rapt::parse_options(options, argc, argv);
    if (args.positional.empty()) throw rapt::UsageError("no input files");

    rapt::InspectSettings settings;
    settings.header_only = args.result.count("header-only") > 0;
    settings.per_channel = args.result.count("channels") > 0;
    settings.max_spectra = args.result["max-spectra"].as<long long>();
    if (settings.max_spectra < 0) throw rapt::UsageError("--max-spectra must be >= 0");
    settings.layout = args.result.count("layout") > 0;
    settings.vdif = rapt::vdif_options_from(args.result);

    int status = 0;
    for (size_t i = 0; i < args.positional.size(); ++i) {
      const std::string& path = args.positional[i];
      try {
        std::vector<std::string> warnings;
        const std::string report = rapt::inspect_file(path, settings, &warnings);
        std::fputs(report.c_str(), stdout);
        std::fflush(stdout);
        // A damaged file can note something in every block; the first few tell the story.
        const size_t shown = std::min<size_t>(warnings.size(), 10);
        for (size_t w = 0; w < shown; ++w) args.messages.warning(warnings[w]);
        if (warnings.size() > shown)
          args.messages.warning(path + ": " + std::to_string(warnings.size() - shown) +
                                " more warnings not shown");
        if (i + 1 < args.positional.size()) std::fputs("\n", stdout);
      } catch (const rapt::DataError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "inspect: %s\n", e.what());
        status = 1;
      }
    }
    return status;
  });
}
