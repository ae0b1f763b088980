#include "inspect/inspect_report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "inspect/running_stats.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

namespace {

std::string line(const char* label, const std::string& value) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "  %-28s %s\n", label, value.c_str());
  return buffer;
}

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// "hh:mm:ss.ssss" / "+dd:mm:ss.sss" for display.
std::string sexagesimal(double value, bool is_ra) {
  const double scaled = is_ra ? value / 15.0 : std::fabs(value);
  int whole = int(scaled);
  int minutes = int((scaled - whole) * 60.0);
  double seconds = ((scaled - whole) * 60.0 - minutes) * 60.0;
  char buffer[32];
  if (is_ra)
    std::snprintf(buffer, sizeof buffer, "%02d:%02d:%07.4f", whole, minutes, seconds);
  else
    std::snprintf(buffer, sizeof buffer, "%c%02d:%02d:%06.3f", value < 0 ? '-' : '+', whole,
                  minutes, seconds);
  return buffer;
}

std::string describe_observation(const ObservationInfo& info) {
  std::string out;
  out += info.path + " (" + info.format + ")\n";
  out += line("Source name", info.source_name.empty() ? "Unknown" : info.source_name);
  out += line("Telescope", info.telescope);
  out += line("Instrument", info.instrument);
  out += line("RA (J2000)", sexagesimal(info.ra_deg, true));
  out += line("Dec (J2000)", sexagesimal(info.dec_deg, false));
  out += line("Start MJD (UTC)", number("%.12f", info.tstart_mjd));
  out += line("Sample time (us)", number("%.6g", info.tsamp_s * 1e6));
  out += line("Bits per sample", std::to_string(info.nbits));
  out += line("Channels", std::to_string(info.nchans));
  out += line("Channel 0 centre (MHz)", number("%.6f", info.fch1_mhz));
  out += line("Channel width (MHz)", number("%.6f", info.foff_mhz));
  out += line("Lowest channel (MHz)", number("%.6f", info.lowest_freq_mhz()));
  out += line("Highest channel (MHz)", number("%.6f", info.highest_freq_mhz()));
  out += line("Polarisations summed", std::to_string(info.npol_summed));
  out += line("Barycentric", info.barycentric ? "yes" : "no");
  if (info.nspectra >= 0) {
    out += line("Spectra", std::to_string(info.nspectra));
    out += line("Duration (s)", number("%.6f", info.duration_s()));
  } else {
    out += line("Spectra", "unknown (stream)");
  }
  return out;
}

std::string stats_line(const char* label, const RunningStats& s) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "  %-28s mean %.6g  stddev %.6g  min %.6g  max %.6g\n",
                label, s.mean, s.stddev(), s.min, s.max);
  return buffer;
}

std::string describe_spectra_statistics(SpectraSource& source, const InspectSettings& settings) {
  const int nchans = source.info().nchans;
  const size_t block = std::max<size_t>(1, (size_t(1) << 22) / size_t(nchans));
  std::vector<float> data(block * nchans);
  std::vector<RunningStats> channel(nchans);
  RunningStats all, zero_dm;
  int64_t spectra = 0;
  for (;;) {
    size_t want = block;
    if (settings.max_spectra > 0)
      want = std::min<size_t>(want, size_t(settings.max_spectra - spectra));
    if (want == 0) break;
    const size_t got = source.read(data.data(), want);
    if (got == 0) break;
    for (size_t s = 0; s < got; ++s) {
      const float* spectrum = &data[s * nchans];
      double sum = 0.0;
      for (int c = 0; c < nchans; ++c) {
        channel[c].add(spectrum[c]);
        sum += spectrum[c];
      }
      zero_dm.add(sum);
    }
    spectra += int64_t(got);
  }
  for (const RunningStats& c : channel) all.merge(c);
  std::string out = "Statistics of " + std::to_string(spectra) + " spectra:\n";
  out += stats_line("All samples", all);
  out += stats_line("Channel sum (DM 0)", zero_dm);
  if (settings.per_channel) {
    out += "  channel  freq_MHz      mean          stddev\n";
    for (int c = 0; c < nchans; ++c) {
      char buffer[128];
      std::snprintf(buffer, sizeof buffer, "  %7d  %-12.6f  %-12.6g  %-12.6g\n", c,
                    source.info().channel_freq_mhz(c), channel[c].mean, channel[c].stddev());
      out += buffer;
    }
  }
  return out;
}

bool looks_like_inf(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first.rfind(" Data file name without suffix", 0) == 0;
}

std::string describe_inf_fields(const InfFile& inf) {
  std::string out;
  out += line("Data file root", inf.name);
  out += line("Telescope", inf.telescope);
  out += line("Object", inf.object);
  out += line("Epoch (MJD)", number("%.12f", inf.epoch_mjd()));
  out += line("Samples", std::to_string(inf.n));
  out += line("Sample time (s)", number("%.15g", inf.dt_s));
  out += line("Duration (s)", number("%.6f", inf.n * inf.dt_s));
  out += line("DM (pc cm^-3)", number("%.12g", inf.dm));
  out += line("Band", inf.band);
  std::string pairs;
  for (const auto& p : inf.onoff)
    pairs += "(" + std::to_string(p.first) + ", " + std::to_string(p.second) + ") ";
  out += line("Valid data (on/off pairs)", pairs.empty() ? "all" : pairs);
  return out;
}

std::string describe_inf(const std::string& path) {
  return path + " (PRESTO .inf)\n" + describe_inf_fields(read_inf(path));
}

// Statistics of a .dat (float32) or .sdat (int16) series.
template <typename Sample>
std::string describe_series_statistics(const std::string& path) {
  RawSeriesReader<Sample> reader(path);
  std::vector<Sample> block(size_t(1) << 20);
  RunningStats stats;
  for (size_t got; (got = reader.read(block.data(), block.size())) > 0;)
    for (size_t i = 0; i < got; ++i) stats.add(double(block[i]));
  std::string out = "Statistics of " + std::to_string(stats.count) + " samples:\n";
  out += stats_line("Samples", stats);
  return out;
}

// The strongest Fourier bins of a .fft, as raw powers |X_k|^2 (DC and Nyquist reported apart).
std::string describe_fft_statistics(const std::string& path, const InfFile& inf) {
  FftReader reader(path);
  std::vector<Complex64> block(size_t(1) << 20);
  RunningStats power;
  double best_power = -1.0;
  int64_t best_bin = 0, index = 0;
  float dc = 0.0f, nyquist = 0.0f;
  for (size_t got; (got = reader.read(block.data(), block.size())) > 0;) {
    for (size_t i = 0; i < got; ++i, ++index) {
      if (index == 0) {
        dc = block[i].real();
        nyquist = block[i].imag();
        continue;
      }
      const double p = std::norm(std::complex<double>(block[i]));
      power.add(p);
      if (p > best_power) { best_power = p; best_bin = index; }
    }
  }
  const double tobs_s = inf.n * inf.dt_s;
  std::string out = "Spectrum of " + std::to_string(index) + " packed bins:\n";
  out += line("DC (sum of samples)", number("%.9g", dc));
  out += line("Nyquist", number("%.9g", nyquist));
  out += stats_line("Raw power |X|^2", power);
  if (best_power >= 0)
    out += line("Strongest bin", std::to_string(best_bin) + " (" +
                                    number("%.6f", tobs_s > 0 ? best_bin / tobs_s : 0.0) +
                                    " Hz), " + number("%.3f", best_power / power.mean) +
                                    " x mean power");
  return out;
}

bool has_suffix(const std::string& path, const std::string& suffix) {
  return path.size() > suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// PRESTO series files carry no header; like PRESTO, recognise them by suffix and their .inf.
std::string describe_presto_series(const std::string& path, const std::string& suffix,
                                   const InspectSettings& settings) {
  const std::string inf_path = strip_suffix(path, suffix) + ".inf";
  if (!path_exists(inf_path))
    throw file_error(path, "PRESTO series without its .inf (" + inf_path + " not found)");
  const InfFile inf = read_inf(inf_path);
  std::string out = path + " (PRESTO " + suffix + ", metadata from " + inf_path + ")\n";
  out += describe_inf_fields(inf);
  if (settings.header_only) return out;
  if (suffix == ".dat") return out + describe_series_statistics<float>(path);
  if (suffix == ".sdat") return out + describe_series_statistics<int16_t>(path);
  return out + describe_fft_statistics(path, inf);
}

}  // namespace

std::string inspect_file(const std::string& path, const InspectSettings& settings) {
  if (path != "-" && !path_exists(path)) throw file_error(path, "no such file");
  if (path != "-" && looks_like_inf(path)) return describe_inf(path);
  for (const char* suffix : {".dat", ".sdat", ".fft"})
    if (has_suffix(path, suffix)) return describe_presto_series(path, suffix, settings);
  std::unique_ptr<SpectraSource> source = open_spectra_source(path);
  std::string out = describe_observation(source->info());
  if (!settings.header_only) out += describe_spectra_statistics(*source, settings);
  return out;
}

}  // namespace rapt
