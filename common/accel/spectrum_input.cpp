#include "accel/spectrum_input.hpp"

#include <fftw3.h>

#include <memory>
#include <stdexcept>

#include "accel/red_noise.hpp"
#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "io/non_finite_samples.hpp"
#include "io/presto_series.hpp"

namespace rapt {
namespace {

constexpr int64_t kMinSamples = 16;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

InfFile read_companion_inf(const std::string& root, const std::string& path) {
  const std::string inf_path = root + ".inf";
  if (!path_exists(inf_path))
    throw file_error(path, "no .inf beside it (" + inf_path + ")");
  InfFile inf = read_inf(inf_path);
  if (!(inf.dt_s > 0.0)) throw file_error(inf_path, "sampling time must be positive");
  if (inf.n < kMinSamples)
    throw file_error(inf_path, "N = " + std::to_string(inf.n) + " samples; at least " +
                                   std::to_string(kMinSamples) + " needed");
  if (inf.n % 2 != 0)
    throw file_error(inf_path, "N = " + std::to_string(inf.n) +
                                   " is odd; a real FFT search needs an even number of samples");
  return inf;
}

std::vector<float> read_time_series(const std::string& path, bool shorts, int64_t n,
                                    std::vector<std::string>& warnings) {
  std::vector<float> samples = shorts ? read_sdat_as_float(path) : read_dat(path);
  if (static_cast<int64_t>(samples.size()) != n)
    throw file_error(path, "holds " + std::to_string(samples.size()) +
                               " samples; its .inf says N = " + std::to_string(n));
  // A NaN would make the whole spectrum NaN, and the search find nothing.
  const std::string said = replace_non_finite_in_series(samples, path);
  if (!said.empty()) warnings.push_back(said);
  return samples;
}

}  // namespace

std::vector<std::complex<float>> packed_real_fft(const std::vector<float>& samples) {
  if (samples.size() < 2 || samples.size() % 2 != 0)
    throw std::invalid_argument("packed_real_fft needs an even number (>= 2) of samples");
  const size_t num_packed = samples.size() / 2;
  std::vector<float> input(samples);  // FFTW may overwrite its input while planning
  std::vector<std::complex<float>> bins(num_packed + 1);
  const std::unique_ptr<fftwf_plan_s, decltype(&fftwf_destroy_plan)> plan(
      fftwf_plan_dft_r2c_1d(static_cast<int>(input.size()), input.data(),
                            reinterpret_cast<fftwf_complex*>(bins.data()), FFTW_ESTIMATE),
      &fftwf_destroy_plan);
  if (!plan) throw std::runtime_error("FFTW could not plan a real FFT");
  fftwf_execute(plan.get());
  pack_half_spectrum(bins.data(), num_packed);
  bins.resize(num_packed);
  return bins;
}

std::string accel_input_root(const std::string& path) {
  for (const char* suffix : {".fft", ".dat", ".sdat"})
    if (ends_with(path, suffix)) return strip_suffix(path, suffix);
  throw file_error(path, "input must be a .fft, .dat or .sdat file");
}

AccelSpectrum load_accel_spectrum(const std::string& path, const SpectrumInputOptions& options) {
  AccelSpectrum spectrum;
  spectrum.path = path;
  spectrum.root = accel_input_root(path);
  const bool shorts = ends_with(path, ".sdat");
  if (!ends_with(path, ".fft")) spectrum.source = SpectrumSource::TimeSeries;
  if (!path_exists(path)) throw file_error(path, "no such file");
  spectrum.inf = read_companion_inf(spectrum.root, path);
  spectrum.T_s = spectrum.inf.n * spectrum.inf.dt_s;
  if (spectrum.source == SpectrumSource::FftFile) {
    spectrum.packed = read_fft(path);
    // A spectrum cut from a longer one (-lobin) holds the bins from lobin on.
    const int64_t expected = spectrum.inf.n / 2 - options.lobin;
    if (static_cast<int64_t>(spectrum.packed.size()) != expected)
      throw file_error(path, "holds " + std::to_string(spectrum.packed.size()) +
                                 " complex values; its .inf says N = " +
                                 std::to_string(spectrum.inf.n) + " samples, i.e. " +
                                 std::to_string(expected) +
                                 (options.lobin ? " from bin " + std::to_string(options.lobin)
                                                : std::string()));
  } else {
    // A series' spectrum starts at bin 0: -lobin would shift every candidate's r.
    if (options.lobin > 0)
      throw UsageError("-lobin " + std::to_string(options.lobin) + " names the first bin of a "
                       "cut .fft; " + path + " is a time series, whose spectrum starts at 0");
    spectrum.packed =
        packed_real_fft(read_time_series(path, shorts, spectrum.inf.n, spectrum.warnings));
    if (options.deredden_time_series) {
      deredden_for_accelsearch(spectrum.packed);
      if (!options.photon) spectrum.packed[0] = std::complex<float>(1.0f, 1.0f);
    }
  }
  spectrum.numbins = static_cast<int64_t>(spectrum.packed.size());
  return spectrum;
}

}  // namespace rapt
