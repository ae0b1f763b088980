#include "dedisp/dedisp_outputs.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "cli/errors.hpp"
#include "io/sigproc.hpp"

namespace rapt {
namespace {

struct Dish {
  const char* telescope;  // lower case
  double diameter_m;
};

// Dish diameters of single-dish telescopes whose beams a .inf can describe.
constexpr Dish kDishes[] = {{"arecibo", 305.0}, {"effelsberg", 100.0}, {"fast", 300.0},
                            {"gbt", 100.0},     {"gmrt", 45.0},        {"jodrell", 76.0},
                            {"lovell", 76.0},   {"meerkat", 13.5},     {"parkes", 64.0},
                            {"srt", 64.0},      {"wsrt", 25.0}};

double dish_diameter_m(const std::string& telescope) {
  std::string key;
  for (char ch : telescope) key += char(std::tolower(static_cast<unsigned char>(ch)));
  for (const Dish& dish : kDishes)
    if (key == dish.telescope) return dish.diameter_m;
  return 0.0;
}

std::string user_name() {
  const passwd* entry = getpwuid(getuid());
  return entry && entry->pw_name && *entry->pw_name ? entry->pw_name : "Unknown";
}

std::string or_unknown(const std::string& text) { return text.empty() ? "Unknown" : text; }

// Refuses two trials that would write the same file (DMs equal to 2 decimals).
void check_distinct_names(const std::string& root, const std::vector<DedispTrial>& trials) {
  std::map<std::string, double> seen;
  for (const DedispTrial& trial : trials) {
    const std::string name = dm_trial_root(root, trial.dm);
    const auto [it, inserted] = seen.emplace(name, trial.dm);
    if (!inserted) {
      char text[160];
      std::snprintf(text, sizeof text, "DMs %.6g and %.6g would both be written as %s", it->second,
                    trial.dm, name.c_str());
      throw UsageError(text);
    }
  }
}

std::string notes_text(const ObservationInfo& info, const DedispTrial& trial,
                       const DedispOutputContext& context) {
  char text[400];
  std::snprintf(text, sizeof text,
                "Dedispersed by rapt dedisp %s from %s (%s, %d-bit samples%s).\n    "
                "Delays k DM (f^-2 - f_top^-2), k = %.7g s MHz^2 cm^3/pc, rounded to the "
                "nearest %.6g us sample.",
                context.program_version.c_str(), info.path.c_str(), info.format.c_str(),
                info.nbits, info.npol_summed > 1 ? ", polarisations summed" : "",
                context.dm_const, info.tsamp_s * 1e6);
  std::string notes = text;
  if (trial.downsamp > 1) notes += "\n    Downsampled by " + std::to_string(trial.downsamp) + ".";
  for (const std::string& extra : context.extra_notes) notes += "\n    " + extra;
  return notes;
}

}  // namespace

double beam_diameter_arcsec(const std::string& telescope, double centre_freq_mhz) {
  const double diameter = dish_diameter_m(telescope);
  if (diameter <= 0.0 || centre_freq_mhz <= 0.0) return 0.0;
  const double wavelength_m = 299792458.0 / (centre_freq_mhz * 1e6);
  return 1.2 * wavelength_m / diameter * (180.0 / M_PI) * 3600.0;
}

InfFile dedisp_inf(const ObservationInfo& info, const std::string& root, const DedispTrial& trial,
                   const TrialSummary& summary, const DedispOutputContext& context) {
  InfFile inf;
  inf.name = dm_trial_root(root, trial.dm);
  inf.telescope = or_unknown(info.telescope);
  inf.instrument = or_unknown(info.instrument);
  inf.object = or_unknown(info.source_name);
  inf.ra_deg = info.ra_deg;
  inf.dec_deg = info.dec_deg;
  inf.set_epoch_mjd(info.tstart_mjd);
  inf.barycentered = info.barycentric;
  inf.n = summary.nsamples;
  inf.dt_s = trial.tsamp_s;
  // As prepsubband: the real data, then a one-bin pair closing the padded tail.
  if (summary.real_samples < summary.nsamples)
    inf.onoff = {{0, summary.real_samples - 1}, {summary.nsamples - 1, summary.nsamples - 1}};
  inf.band = "Radio";
  const double centre = 0.5 * (info.lowest_freq_mhz() + info.highest_freq_mhz());
  inf.beam_diameter_arcsec = beam_diameter_arcsec(info.telescope, centre);
  inf.dm = trial.dm;
  inf.lofreq_mhz = info.lowest_freq_mhz();
  inf.chan_bw_mhz = std::fabs(info.foff_mhz);
  inf.num_channels = info.nchans;
  inf.bandwidth_mhz = info.nchans * inf.chan_bw_mhz;
  inf.analyzer = user_name();
  inf.notes = notes_text(info, trial, context);
  return inf;
}

PrestoSeriesSink::PrestoSeriesSink(std::string root, bool overwrite, DedispOutputContext context)
    : root_(std::move(root)), overwrite_(overwrite), context_(std::move(context)) {}

void PrestoSeriesSink::begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) {
  check_distinct_names(root_, trials);
  info_ = info;
  trials_ = trials;
  dat_files_.clear();
  dat_files_.reserve(trials.size());
  for (const DedispTrial& trial : trials)
    dat_files_.emplace_back(dm_trial_root(root_, trial.dm) + ".dat", overwrite_);
}

void PrestoSeriesSink::append(size_t trial, const float* samples, size_t count) {
  dat_files_[trial].write(samples, count * sizeof(float));
}

// Every .inf is prepared before any file is committed, so a failure leaves nothing behind.
void PrestoSeriesSink::finish(const std::vector<TrialSummary>& summaries) {
  std::vector<AtomicOutputFile> inf_files;
  inf_files.reserve(trials_.size());
  for (size_t i = 0; i < trials_.size(); ++i) {
    const InfFile inf = dedisp_inf(info_, root_, trials_[i], summaries[i], context_);
    inf_files.emplace_back(inf.name + ".inf", overwrite_);
    inf_files.back().write(format_inf(inf));
  }
  for (size_t i = 0; i < trials_.size(); ++i) {
    dat_files_[i].commit();
    inf_files[i].commit();
    written_.push_back(dat_files_[i].path());
  }
}

struct SigprocTimSink::Files {
  std::vector<std::unique_ptr<SigprocWriter>> writers;
};

SigprocTimSink::SigprocTimSink(std::string root, bool overwrite, DedispOutputContext context)
    : root_(std::move(root)), overwrite_(overwrite), context_(std::move(context)) {}

SigprocTimSink::~SigprocTimSink() = default;

void SigprocTimSink::begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) {
  check_distinct_names(root_, trials);
  SigprocHeader header;
  header.rawdatafile = info.path;
  header.source_name = info.source_name;
  header.telescope_id = info.telescope_id >= 0 ? info.telescope_id
                                               : sigproc_telescope_id(info.telescope);
  header.machine_id = info.machine_id;
  header.src_raj = deg_to_sigproc_ra(info.ra_deg);
  header.src_dej = deg_to_sigproc_dec(info.dec_deg);
  header.az_start = info.az_start_deg;
  header.za_start = info.za_start_deg;
  header.data_type = 2;
  header.fch1 = info.highest_freq_mhz();  // the frequency the series is referred to
  header.foff = -std::fabs(info.foff_mhz) * info.nchans;
  header.nchans = 1;
  header.nbits = 32;
  header.nifs = 1;
  header.barycentric = info.barycentric;
  header.tstart = info.tstart_mjd;
  files_ = std::make_unique<Files>();
  for (const DedispTrial& trial : trials) {
    header.refdm = trial.dm;
    header.tsamp = trial.tsamp_s;
    const std::string path = dm_trial_root(root_, trial.dm) + ".tim";
    files_->writers.push_back(std::make_unique<SigprocWriter>(path, header, overwrite_));
    written_.push_back(path);
  }
}

void SigprocTimSink::append(size_t trial, const float* samples, size_t count) {
  files_->writers[trial]->write(samples, count);
}

void SigprocTimSink::finish(const std::vector<TrialSummary>&) {
  for (auto& writer : files_->writers) writer->commit();
}

void RawStreamSink::begin(const ObservationInfo&, const std::vector<DedispTrial>& trials) {
  if (trials.size() != 1)
    throw UsageError("standard output takes one DM trial's series; " +
                     std::to_string(trials.size()) + " were asked for");
}

void RawStreamSink::append(size_t, const float* samples, size_t count) {
  if (std::fwrite(samples, sizeof(float), count, stream_) != count)
    throw DataError("standard output: " + errno_text());
}

void RawStreamSink::finish(const std::vector<TrialSummary>&) {
  if (std::fflush(stream_) != 0) throw DataError("standard output: " + errno_text());
}

}  // namespace rapt
