// deredden: whiten the spectrum of a time series, as PRESTO's rednoise (and realfft -rednoise)
// do: divide the Fourier amplitudes by the square root of a running-median power level.
//
//   deredden obs_DM56.00.fft                 obs_DM56.00_red.fft + obs_DM56.00_red.inf
//   deredden obs_DM*.dat                     FFT each series first, then the same
//   deredden --endwidth 200 -o white x.fft   white.fft + white.inf
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "accel/red_noise.hpp"
#include "accel/spectrum_input.hpp"
#include "cli/errors.hpp"
#include "cli/program.hpp"
#include "io/presto_inf.hpp"

namespace {

cxxopts::Options deredden_options() {
  auto options = rapt::program_options(
      "deredden", "remove red noise from PRESTO spectra (.fft, or .dat/.sdat transformed first)");
  options.add_options()
      ("startwidth", "length of the first median block (bins)",
       cxxopts::value<int>()->default_value("6"))
      ("endwidth", "longest median block (bins)", cxxopts::value<int>()->default_value("100"))
      ("endfreq", "frequency (Hz) from which blocks are --endwidth long",
       cxxopts::value<double>()->default_value("6"))
      ("o,output", "output root (one input only): ROOT.fft and ROOT.inf",
       cxxopts::value<std::string>())
      ("files", "input files", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"files"});
  options.positional_help("FILE...");
  return options;
}

rapt::RedNoiseOptions red_noise_options(const cxxopts::ParseResult& r) {
  rapt::RedNoiseOptions o;
  o.startwidth = r["startwidth"].as<int>();
  o.endwidth = r["endwidth"].as<int>();
  o.endfreq_hz = r["endfreq"].as<double>();
  if (o.startwidth < 1) throw rapt::UsageError("--startwidth must be >= 1");
  if (o.endwidth < o.startwidth) throw rapt::UsageError("--endwidth must be >= --startwidth");
  if (!(o.endfreq_hz > 0.0)) throw rapt::UsageError("--endfreq must be positive");
  return o;
}

// A block of zero power (constant or zero-filled data) divides by zero: refused, not written.
void require_finite_amplitudes(const std::vector<std::complex<float>>& packed,
                               const std::string& path) {
  size_t bad = 0;
  for (const std::complex<float>& value : packed)
    if (!std::isfinite(value.real()) || !std::isfinite(value.imag())) ++bad;
  if (bad == 0) return;
  throw rapt::file_error(path, std::to_string(bad) + " of " + std::to_string(packed.size()) +
                                   " Fourier amplitudes lie in blocks of zero power (constant "
                                   "data?); nothing written");
}

void deredden_file(const std::string& path, const std::string& out_root,
                   const rapt::RedNoiseOptions& options, const rapt::ParsedOptions& args) {
  rapt::SpectrumInputOptions input;
  input.deredden_time_series = false;  // .dat/.sdat: just the real FFT, as realfft would give
  rapt::AccelSpectrum spectrum = rapt::load_accel_spectrum(path, input);
  for (const std::string& warning : spectrum.warnings) args.messages.warning(warning);
  if (spectrum.packed.size() < rapt::min_bins_to_deredden(options))
    throw rapt::file_error(path, std::to_string(spectrum.packed.size()) +
                                     " Fourier bins; --startwidth " +
                                     std::to_string(options.startwidth) + " needs at least " +
                                     std::to_string(rapt::min_bins_to_deredden(options)));
  rapt::deredden(spectrum.packed, spectrum.T_s, options);
  require_finite_amplitudes(spectrum.packed, path);
  const std::string name =
      out_root.empty() ? rapt::red_noise_output_root(spectrum.inf.name) : out_root;
  const std::string root = out_root.empty() ? rapt::red_noise_output_root(spectrum.root) : out_root;
  rapt::write_dereddened(root, spectrum.packed, rapt::dereddened_inf(spectrum.inf, name),
                         args.force);
  args.messages.detail(path + " -> " + root + ".fft, " + root + ".inf");
}

}  // namespace

int main(int argc, char** argv) {
  return rapt::run_program("deredden", [&] {
    auto options = deredden_options();
    const rapt::ParsedOptions args =
        rapt::parse_options(options, argc, argv, {"startwidth", "endwidth", "endfreq"});
    const rapt::RedNoiseOptions red = red_noise_options(args.result);
    if (args.positional.empty()) throw rapt::UsageError("no input files (see --help)");
    const std::string out_root =
        args.result.count("output") ? args.result["output"].as<std::string>() : "";
    if (!out_root.empty() && args.positional.size() > 1)
      throw rapt::UsageError("-o/--output names one output; give one input file");
    int status = 0;
    for (const std::string& path : args.positional) {
      try {
        deredden_file(path, out_root, red, args);
      } catch (const rapt::DataError& e) {
        std::fprintf(stderr, "deredden: %s\n", e.what());
        status = 1;
      }
    }
    return status;
  });
}
