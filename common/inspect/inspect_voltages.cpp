// inspect's report for complex (or real) voltage files: GUPPI RAW, PSRDADA, VDIF.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "inspect/inspect_sections.hpp"
#include "inspect/report_text.hpp"
#include "io/guppi_raw.hpp"
#include "io/psrdada.hpp"
#include "io/vdif.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

namespace {

std::string pol_name(const VoltageHeader& h, int p) {
  if (h.npol == 2 && p < 2) return h.pol_basis == "CIRC" ? (p == 0 ? "R" : "L") : (p == 0 ? "X" : "Y");
  return std::to_string(p);
}

std::string sample_kind(const VoltageHeader& h) {
  std::string kind = h.complex_samples ? "complex, " : "real, ";
  kind += std::to_string(h.nbits) + "-bit ";
  kind += h.float_samples ? "IEEE float" : "integers";
  if (h.complex_samples) kind += " per component";
  return kind;
}

// Antenna names, several to a line, so that 64 antennas take a few lines.
std::string antenna_names(const ArrayLayout& array) {
  std::string out;
  std::string row;
  for (int a = 0; a < array.size(); ++a) {
    if (!row.empty()) row += ' ';
    row += array.antennas[size_t(a)].name;
    if (row.size() > 60 || a + 1 == array.size()) {
      out += report_line(out.empty() ? "Antenna names" : "", row);
      row.clear();
    }
  }
  return out;
}

std::string describe_voltage_header(const std::string& path, const VoltageHeader& h) {
  std::string out = path + " (" + h.format + ")\n";
  out += report_line("Telescope", h.telescope.empty() ? "unknown" : h.telescope);
  out += report_line("Instrument", h.instrument.empty() ? "unknown" : h.instrument);
  out += report_line("Source", h.source.empty() ? "unknown" : h.source);
  // VDIF headers carry neither pointing nor sky frequency: say so rather than print zeros.
  const bool vdif = h.format == "VDIF";
  const std::string not_in_headers = "unknown (not in VDIF headers)";
  const std::string pointing = h.pointing_known ? sky_position(h.ra_deg, h.dec_deg)
                               : vdif           ? not_in_headers
                                                : "unknown (no RA and DEC in the header)";
  out += report_line("RA, Dec (J2000)", pointing);
  if (h.start_known()) {
    out += report_line("Start (UTC)", utc_date_time(h.start_mjd_day, h.start_mjd_seconds));
    out += report_line("Start MJD (UTC)", report_number("%.12f", h.start_mjd()) + " (day " +
                                              std::to_string(h.start_mjd_day) + " + " +
                                              report_number("%.6f", h.start_mjd_seconds) + " s)");
  } else {  // MJD 0: the header gives no start (not the year 1858)
    out += report_line("Start (UTC)",
                       std::string("unknown (no ") + start_time_keys(h) + " in the header)");
  }
  out += report_line("Sample time (us)", report_number("%.9g", h.tsamp_s * 1e6));
  const bool sky_frequency_known = !(vdif && h.centre_freq_mhz == 0);
  const std::string offset_note = sky_frequency_known ? "" : " (from the band centre)";
  out += report_line("Centre frequency (MHz)", sky_frequency_known
                                                   ? report_number("%.6f", h.centre_freq_mhz)
                                                   : not_in_headers);
  out += report_line("Bandwidth (MHz)", report_number("%.6f", h.bandwidth_mhz));
  out += report_line("Channels", std::to_string(h.nchan));
  out += report_line("Channel width (MHz)", report_number("%.6f", h.bandwidth_mhz / h.nchan));
  out += report_line("First channel centre (MHz)",
                     report_number("%.6f", h.channel_freq_mhz(0)) + offset_note);
  out += report_line("Last channel centre (MHz)",
                     report_number("%.6f", h.channel_freq_mhz(h.nchan - 1)) + offset_note);
  out += report_line("Polarisations", std::to_string(h.npol) + " (" + h.pol_basis + ")");
  out += report_line("Antennas", std::to_string(h.nant));
  out += report_line("Samples", sample_kind(h));
  if (h.nsamples >= 0) {
    out += report_line("Time samples", std::to_string(h.nsamples));
    out += report_line("Duration (s)", report_number("%.6f", double(h.nsamples) * h.tsamp_s));
  } else {
    out += report_line("Time samples", "unknown (stream)");
  }
  if (h.array.size() > 0) out += antenna_names(h.array);
  return out;
}

// Plain sums over one block, folded into RunningStats once per block: a voltage file has many
// values per statistic, and a division per value (RunningStats::add) would dominate.
struct BlockSums {
  int64_t count = 0;
  double sum = 0, sum_squares = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    sum += x;
    sum_squares += x * x;
    min = std::min(min, x);
    max = std::max(max, x);
  }
  // Adds these values to `stats` and starts again from empty.
  void fold_into(RunningStats& stats) {
    if (count == 0) return;
    RunningStats part;
    part.count = count;
    part.mean = sum / double(count);
    part.m2 = std::max(0.0, sum_squares - sum * part.mean);
    part.min = min;
    part.max = max;
    stats.merge(part);
    *this = BlockSums{};
  }
};

// Streaming statistics per channel, polarisation and component, and per antenna.
struct VoltageStatistics {
  std::vector<RunningStats> by_channel;  // [chan][pol][component]
  std::vector<RunningStats> by_antenna;  // all values of one antenna
  int64_t samples = 0;
};

void accumulate(const VoltageHeader& h, const VoltageBlock& block, VoltageStatistics& stats) {
  const size_t per_time = size_t(h.npol) * h.values_per_sample();
  std::vector<BlockSums> channel(per_time);
  std::vector<BlockSums> antenna(size_t(h.nant));
  const float* x = block.data.data();
  for (int c = 0; c < h.nchan; ++c) {
    for (int a = 0; a < h.nant; ++a)
      for (int64_t t = 0; t < block.nsamples; ++t)
        for (size_t k = 0; k < per_time; ++k, ++x) {
          channel[k].add(*x);
          antenna[size_t(a)].add(*x);
        }
    for (size_t k = 0; k < per_time; ++k)
      channel[k].fold_into(stats.by_channel[size_t(c) * per_time + k]);
  }
  for (int a = 0; a < h.nant; ++a) antenna[size_t(a)].fold_into(stats.by_antenna[size_t(a)]);
  stats.samples += block.nsamples;
}

std::string component_label(const VoltageHeader& h, int p, int k) {
  std::string label = "Pol " + pol_name(h, p);
  if (h.complex_samples) label += k == 0 ? " real" : " imag";
  return label;
}

std::string channel_table(const VoltageHeader& h, const VoltageStatistics& stats) {
  const int values = h.values_per_sample();
  std::string out = h.complex_samples
                        ? "  channel  freq_MHz        pol  re_mean      re_rms       im_mean      im_rms\n"
                        : "  channel  freq_MHz        pol  mean         rms\n";
  for (int c = 0; c < h.nchan; ++c)
    for (int p = 0; p < h.npol; ++p) {
      char buffer[200];
      const size_t at = (size_t(c) * h.npol + p) * values;
      int n = std::snprintf(buffer, sizeof buffer, "  %7d  %-14.6f  %-3s", c, h.channel_freq_mhz(c),
                            pol_name(h, p).c_str());
      for (int k = 0; k < values; ++k)
        n += std::snprintf(buffer + n, sizeof buffer - size_t(n), "  %-11.6g  %-11.6g",
                           stats.by_channel[at + k].mean, rms_about_zero(stats.by_channel[at + k]));
      out += std::string(buffer) + "\n";
    }
  return out;
}

std::string describe_voltage_statistics(VoltageReader& reader, const InspectSettings& settings) {
  const VoltageHeader& h = reader.header();
  const int values = h.values_per_sample();
  VoltageStatistics stats;
  stats.by_channel.resize(size_t(h.nchan) * h.npol * values);
  stats.by_antenna.resize(size_t(h.nant));
  const int64_t per_sample = int64_t(h.block_values(1));
  const int64_t gulp = std::max<int64_t>(1, (int64_t(1) << 22) / std::max<int64_t>(1, per_sample));
  VoltageBlock block;
  for (;;) {
    int64_t want = gulp;
    if (settings.max_spectra > 0) want = std::min<int64_t>(want, settings.max_spectra - stats.samples);
    if (want <= 0 || reader.read(want, block) == 0) break;
    accumulate(h, block, stats);
  }
  std::string out = "Statistics of " + std::to_string(stats.samples) + " time samples:\n";
  for (int p = 0; p < h.npol; ++p)
    for (int k = 0; k < values; ++k) {
      RunningStats all;
      for (int c = 0; c < h.nchan; ++c)
        all.merge(stats.by_channel[(size_t(c) * h.npol + p) * values + k]);
      out += report_line(component_label(h, p, k), stats_summary(all));
    }
  if (h.nant > 1)
    for (int a = 0; a < h.nant; ++a) {
      const std::string name = a < h.array.size() ? h.array.antennas[size_t(a)].name
                                                   : std::to_string(a);
      out += report_line("Antenna " + name, stats_summary(stats.by_antenna[size_t(a)]));
    }
  if (settings.per_channel) out += channel_table(h, stats);
  return out;
}

}  // namespace

std::string describe_voltage_file(const std::string& path, const InspectSettings& settings,
                                  std::vector<std::string>* warnings) {
  return describe_voltages(path, open_voltage_file(path, settings.vdif), settings, warnings);
}

std::string describe_voltages(const std::string& path, std::unique_ptr<VoltageReader> reader,
                              const InspectSettings& settings, std::vector<std::string>* warnings) {
  std::string out = describe_voltage_header(path, reader->header());
  if (!settings.header_only) out += describe_voltage_statistics(*reader, settings);
  if (warnings)
    for (const std::string& note : voltage_warnings(*reader, path)) warnings->push_back(note);
  return out;
}

}  // namespace rapt
