// inspect's report for pulsar search data: SIGPROC, PSRFITS and PRESTO files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"
#include "io/header_validation.hpp"
#include "io/presto_inf.hpp"
#include "io/presto_series.hpp"
#include "io/sigproc.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

namespace {


std::string describe_observation(const ObservationInfo& info) {
  std::string out;
  out += info.path + " (" + info.format + ")\n";
  out += report_line("Source name", info.source_name.empty() ? "Unknown" : info.source_name);
  out += report_line("Telescope", info.telescope);
  out += report_line("Instrument", info.instrument);
  out += report_line("RA (J2000)", sexagesimal(info.ra_deg, true));
  out += report_line("Dec (J2000)", sexagesimal(info.dec_deg, false));
  out += report_line("Start MJD (UTC)", report_number("%.12f", info.tstart_mjd));
  out += report_line("Sample time (us)", report_number("%.6g", info.tsamp_s * 1e6));
  out += report_line("Bits per sample", std::to_string(info.nbits));
  out += report_line("Channels", std::to_string(info.nchans));
  out += report_line("Channel 0 centre (MHz)", report_number("%.6f", info.fch1_mhz));
  out += report_line("Channel width (MHz)", report_number("%.6f", info.foff_mhz));
  out += report_line("Lowest channel (MHz)", report_number("%.6f", info.lowest_freq_mhz()));
  out += report_line("Highest channel (MHz)", report_number("%.6f", info.highest_freq_mhz()));
  out += report_line("Polarisations summed", std::to_string(info.npol_summed));
  out += report_line("Barycentric", info.barycentric ? "yes" : "no");
  if (info.nspectra >= 0) {
    out += report_line("Spectra", std::to_string(info.nspectra));
    out += report_line("Duration (s)", report_number("%.6f", info.duration_s()));
  } else {
    out += report_line("Spectra", "unknown (stream)");
  }
  return out;
}

std::string stats_line(const char* label, const RunningStats& s) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "  %-28s mean %.6g  stddev %.6g  min %.6g  max %.6g\n",
                label, s.mean, s.stddev(), s.min, s.max);
  return buffer;
}

std::string non_finite_line(int64_t count) {
  return report_line("Non-finite samples",
                     std::to_string(count) + " (NaN or infinite; left out of the statistics)");
}

std::string describe_spectra_statistics(SpectraSource& source, const InspectSettings& settings) {
  const int nchans = source.info().nchans;
  const size_t block = std::max<size_t>(1, (size_t(1) << 22) / size_t(nchans));
  std::vector<float> data(block * nchans);
  std::vector<RunningStats> channel(nchans);
  RunningStats all, zero_dm;
  int64_t spectra = 0, non_finite = 0;
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
        // A NaN or infinity in float data would make every figure NaN: count it instead.
        if (!std::isfinite(spectrum[c])) {
          ++non_finite;
          continue;
        }
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
  if (non_finite > 0) out += non_finite_line(non_finite);
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

std::string describe_inf_fields(const InfFile& inf) {
  std::string out;
  out += report_line("Data file root", inf.name);
  out += report_line("Telescope", inf.telescope);
  out += report_line("Instrument", inf.instrument);
  out += report_line("Object", inf.object);
  out += report_line("RA (J2000)", sexagesimal(inf.ra_deg, true));
  out += report_line("Dec (J2000)", sexagesimal(inf.dec_deg, false));
  out += report_line("Epoch (MJD)", report_number("%.12f", inf.epoch_mjd()));
  out += report_line("Barycentric", inf.barycentered ? "yes" : "no");
  out += report_line("Samples", std::to_string(inf.n));
  out += report_line("Sample time (s)", report_number("%.15g", inf.dt_s));
  out += report_line("Duration (s)", report_number("%.6f", inf.n * inf.dt_s));
  out += report_line("DM (pc cm^-3)", report_number("%.12g", inf.dm));
  out += report_line("Band", inf.band);
  // The radio fields fold and the searches take the band from.
  if (inf.band == "Radio") {
    out += report_line("Lowest channel (MHz)", report_number("%.6f", inf.lofreq_mhz));
    out += report_line("Channels", std::to_string(inf.num_channels));
    out += report_line("Channel width (MHz)", report_number("%.6f", inf.chan_bw_mhz));
    out += report_line("Total bandwidth (MHz)", report_number("%.6f", inf.bandwidth_mhz));
  }
  std::string pairs;
  for (const auto& p : inf.onoff)
    pairs += "(" + std::to_string(p.first) + ", " + std::to_string(p.second) + ") ";
  out += report_line("Valid data (on/off pairs)", pairs.empty() ? "all" : pairs);
  return out;
}

// Statistics of a .dat (float32) or .sdat (int16) series.
template <typename Sample>
std::string describe_series_statistics(const std::string& path) {
  RawSeriesReader<Sample> reader(path);
  std::vector<Sample> block(size_t(1) << 20);
  RunningStats stats;
  int64_t non_finite = 0;
  for (size_t got; (got = reader.read(block.data(), block.size())) > 0;) {
    for (size_t i = 0; i < got; ++i) {
      if (std::isfinite(double(block[i])))
        stats.add(double(block[i]));
      else
        ++non_finite;
    }
  }
  std::string out = "Statistics of " + std::to_string(stats.count + non_finite) + " samples:\n";
  out += stats_line("Samples", stats);
  if (non_finite > 0) out += non_finite_line(non_finite);
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
  out += report_line("DC (sum of samples)", report_number("%.9g", dc));
  out += report_line("Nyquist", report_number("%.9g", nyquist));
  out += stats_line("Raw power |X|^2", power);
  if (best_power >= 0)
    out += report_line("Strongest bin", std::to_string(best_bin) + " (" +
                                    report_number("%.6f", tobs_s > 0 ? best_bin / tobs_s : 0.0) +
                                    " Hz), " + report_number("%.3f", best_power / power.mean) +
                                    " x mean power");
  return out;
}

// The series must hold what its .inf promises: N samples in a .dat or .sdat, N/2 packed
// complex bins in a .fft. Checked even for a header-only report, which would otherwise describe
// a file that no program can use.
template <typename Sample>
void check_series_length(const std::string& path, const std::string& inf_path,
                         const std::string& field, int64_t promised) {
  const RawSeriesReader<Sample> reader(path);
  validate_series_length(inf_path, field, promised, path, reader.size());
}

}  // namespace

std::string describe_spectra_file(const std::string& path, const InspectSettings& settings,
                                  std::vector<std::string>* warnings) {
  return describe_spectra(open_spectra_source(path), settings, warnings);
}

std::string describe_spectra(std::unique_ptr<SpectraSource> source,
                             const InspectSettings& settings, std::vector<std::string>* warnings) {
  // Samples that are not finite are counted here (and left out of the statistics), not
  // replaced as the searches have them.
  source->keep_non_finite_samples();
  std::string out = describe_observation(source->info());
  // A dedispersed .tim says its DM (refdm): the first thing to check in one.
  const auto* sigproc = dynamic_cast<const SigprocReader*>(source.get());
  if (sigproc && sigproc->header().refdm)
    out += report_line("DM (pc cm^-3)", report_number("%.12g", *sigproc->header().refdm));
  if (!settings.header_only) out += describe_spectra_statistics(*source, settings);
  // The readers' notes (bytes left over after the last whole spectrum, header values replaced)
  // are what someone inspecting a damaged file needs to see; they are collected after the data,
  // as a pipe's partial last spectrum is found only there.
  if (warnings) {
    const std::vector<std::string>& notes = source->warnings();
    warnings->insert(warnings->end(), notes.begin(), notes.end());
  }
  return out;
}

std::string describe_inf_file(const std::string& path) {
  return path + " (PRESTO .inf)\n" + describe_inf_fields(read_inf(path));
}

// PRESTO series files carry no header; like PRESTO, recognise them by suffix and their .inf.
std::string describe_presto_series(const std::string& path, const std::string& suffix,
                                   const InspectSettings& settings) {
  const std::string inf_path = strip_suffix(path, suffix) + ".inf";
  if (!path_exists(inf_path))
    throw file_error(path, "PRESTO series without its .inf (" + inf_path + " not found)");
  const InfFile inf = read_inf(inf_path);
  if (suffix == ".dat") check_series_length<float>(path, inf_path, "N", inf.n);
  else if (suffix == ".sdat") check_series_length<int16_t>(path, inf_path, "N", inf.n);
  else check_series_length<Complex64>(path, inf_path, "N/2", inf.n / 2);
  std::string out = path + " (PRESTO " + suffix + ", metadata from " + inf_path + ")\n";
  out += describe_inf_fields(inf);
  if (settings.header_only) return out;
  if (suffix == ".dat") return out + describe_series_statistics<float>(path);
  if (suffix == ".sdat") return out + describe_series_statistics<int16_t>(path);
  return out + describe_fft_statistics(path, inf);
}

}  // namespace rapt
