#include "bf/beam_outputs.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

namespace rapt {
namespace {

constexpr double kRadToDeg = 57.295779513082320876798154814105;
constexpr float kEightBitOffset = 64.0f;
constexpr float kEightBitPerRms = 16.0f;

// Raises the soft open-file limit to what `needed` files (plus a margin for the input and the
// standard streams) ask, up to the hard limit; throws when even that is too small.
void ensure_open_file_limit(size_t needed, const std::string& root) {
  const rlim_t want = rlim_t(needed + 32);
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= want) return;
  if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= want) {
    limit.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &limit) == 0) return;
  }
  throw file_error(root, format_string("%zu output files need more open files than this "
                                       "process may have (%llu); form fewer beams per run or "
                                       "raise 'ulimit -n'",
                                       needed, (unsigned long long)limit.rlim_max));
}

std::string degrees_text(double rad) { return format_string("%.6f", rad * kRadToDeg); }

}  // namespace

std::string beam_file_name(const std::string& root, int beam, int nbeams, const std::string& ext) {
  int digits = 3;
  for (int n = nbeams - 1; n >= 1000; n /= 10) ++digits;
  return root + format_string("_B%0*d", digits, beam) + ext;
}

BeamOutputs::BeamOutputs(const BeamformerShape& shape, const VoltageHeader& voltages,
                         const std::vector<BeamDirection>& beams, const SkyDirection& pointing,
                         const BeamOutputSettings& settings)
    : shape_(shape), voltages_(voltages), beams_(beams), pointing_(pointing), settings_(settings) {
  const bool detected = shape_.detection != BeamDetection::none;
  const int nfiles = (detected ? shape_.nbeams : 0) + (shape_.coherent ? shape_.nbeams : 0) +
                     (shape_.incoherent ? 1 : 0);
  // "-": the run's one file (and no table of beams) to standard output, for a pipe into a
  // search (bf -o - ... | snr --realtime -).
  to_stdout_ = settings_.root == "-";
  if (to_stdout_ && nfiles != 1) {
    std::string files;
    const auto add = [&](int n, const char* what) {
      if (n > 0) files += (files.empty() ? "" : ", ") + format_string("%d %s", n, what);
    };
    add(detected ? shape_.nbeams : 0, detected && shape_.nbeams == 1 ? "filterbank" : "filterbanks");
    add(shape_.coherent ? shape_.nbeams : 0,
        shape_.nbeams == 1 ? "complex beam" : "complex beams");
    add(shape_.incoherent ? 1 : 0, "incoherent beam");
    throw UsageError(format_string("--output -: standard output takes one file, and this run "
                                   "writes %d (%s); give a root for the file names",
                                   nfiles, files.c_str()));
  }
  ensure_open_file_limit(size_t(nfiles), settings_.root);
  const auto file_name = [&](const std::string& name) { return to_stdout_ ? "-" : name; };
  // Output channel g sums input channels g*fscrunch ... ; SIGPROC files here run top first.
  const double bw = voltages_.bandwidth_mhz;
  const int nco = shape_.nchan_out();
  reversed_ = bw > 0;
  SigprocHeader h;
  h.rawdatafile = settings_.input_name;
  h.source_name = voltages_.source.empty() ? "BEAM" : voltages_.source;
  h.telescope_id = sigproc_telescope_id(voltages_.telescope);
  h.data_type = 1;
  h.tstart = voltages_.start_mjd();
  h.tsamp = voltages_.tsamp_s * shape_.tint;
  h.nbits = settings_.nbits;
  h.nchans = nco;
  h.nifs = shape_.nstokes();
  h.foff = -std::fabs(bw) / nco;
  h.fch1 = voltages_.centre_freq_mhz + std::fabs(bw) / 2 + h.foff / 2;
  h.nbeams = shape_.nbeams;
  auto position = [](SigprocHeader& header, const SkyDirection& d) {
    header.src_raj = deg_to_sigproc_ra(d.ra_rad * kRadToDeg);
    header.src_dej = deg_to_sigproc_dec(d.dec_rad * kRadToDeg);
  };
  for (int b = 0; b < shape_.nbeams; ++b) {
    SigprocHeader beam = h;
    beam.ibeam = b;
    position(beam, beams_[size_t(b)].direction);
    if (detected) {
      paths_.push_back(file_name(beam_file_name(settings_.root, b, shape_.nbeams, ".fil")));
      filterbanks_.push_back(std::make_unique<SigprocWriter>(paths_.back(), beam, settings_.overwrite));
    }
  }
  if (shape_.incoherent) {
    SigprocHeader ib = h;
    ib.nifs = 1;
    ib.ibeam = shape_.nbeams;
    ib.nbeams = shape_.nbeams + 1;
    position(ib, pointing_);
    paths_.push_back(file_name(settings_.root + "_IB.fil"));
    incoherent_ = std::make_unique<SigprocWriter>(paths_.back(), ib, settings_.overwrite);
  }
  if (shape_.coherent) {
    for (int b = 0; b < shape_.nbeams; ++b) {
      VoltageHeader v = voltages_;
      v.format = "PSRDADA";
      v.nant = 1;
      v.nbits = 32;
      v.float_samples = true;
      v.ra_deg = beams_[size_t(b)].direction.ra_rad * kRadToDeg;
      v.dec_deg = beams_[size_t(b)].direction.dec_rad * kRadToDeg;
      v.nsamples = -1;
      v.array.antennas = {Antenna{format_string("B%d", b), voltages_.array.reference_itrf_m, 0.0}};
      paths_.push_back(file_name(beam_file_name(settings_.root, b, shape_.nbeams, ".dada")));
      coherent_.push_back(make_psrdada_writer(paths_.back(), v, settings_.overwrite));
    }
  }
  if (to_stdout_) return;
  paths_.push_back(settings_.root + "_beams.txt");
  // Checked now, with the other outputs, not only when it is written after them all.
  check_replaceable_output(paths_.back(), settings_.overwrite);
}

BeamOutputs::~BeamOutputs() = default;

// Mean and rms of every channel of every beam (and the incoherent beam) over the held blocks.
void BeamOutputs::measure_scaling() {
  const int nst = shape_.nstokes(), nco = shape_.nchan_out();
  const int nrows = (shape_.detection != BeamDetection::none ? shape_.nbeams : 0) + (shape_.incoherent ? 1 : 0);
  mean_.assign(size_t(nrows) * nst * nco, 0.0f);
  scale_.assign(mean_.size(), 1.0f);
  std::vector<double> sum(mean_.size(), 0.0), sum2(mean_.size(), 0.0);
  for (const BeamBlockOutput& block : held_) {
    const int64_t nt = block.nsamples_out;
    for (int r = 0; r < nrows; ++r) {
      const bool ib = shape_.incoherent && r == nrows - 1;
      const float* data = ib ? block.incoherent.data() : block.detected.data() + size_t(r) * nt * nst * nco;
      const int stride = ib ? nco : nst * nco;
      for (int k = 0; k < (ib ? 1 : nst); ++k)
        for (int c = 0; c < nco; ++c) {
          const size_t at = (size_t(r) * nst + k) * nco + c;
          for (int64_t t = 0; t < nt; ++t) {
            const double v = data[size_t(t) * stride + size_t(k) * nco + c];
            sum[at] += v;
            sum2[at] += v * v;
          }
        }
    }
  }
  const int64_t n = held_samples_;
  scaling_samples_ = n;
  for (size_t at = 0; at < mean_.size(); ++at) {
    const double mean = n ? sum[at] / double(n) : 0.0;
    const double rms = n ? std::sqrt(std::max(0.0, sum2[at] / double(n) - mean * mean)) : 0.0;
    mean_[at] = float(mean);
    scale_[at] = rms > 0 ? float(kEightBitPerRms / rms) : 1.0f;
  }
}

void BeamOutputs::release_held() {
  if (held_.empty()) return;
  measure_scaling();
  for (const BeamBlockOutput& block : held_) write_detected(block);
  held_.clear();
  held_.shrink_to_fit();
}

void BeamOutputs::write_detected(const BeamBlockOutput& block) {
  const int nst = shape_.nstokes(), nco = shape_.nchan_out();
  const int64_t nt = block.nsamples_out;
  // One beam's block into output order (channels reversed when the input runs upwards), 8-bit
  // values scaled.
  auto emit = [&](SigprocWriter& out, const float* data, int nifs, int row) {
    spectra_.resize(size_t(nt) * nifs * nco);
    for (int64_t t = 0; t < nt; ++t)
      for (int k = 0; k < nifs; ++k)
        for (int c = 0; c < nco; ++c) {
          float v = data[(size_t(t) * nifs + k) * nco + c];
          if (settings_.nbits == 8) {
            const size_t at = (size_t(row) * nst + k) * nco + c;
            v = kEightBitOffset + (v - mean_[at]) * scale_[at];
          }
          spectra_[(size_t(t) * nifs + k) * nco + (reversed_ ? nco - 1 - c : c)] = v;
        }
    out.write(spectra_.data(), size_t(nt));
  };
  for (size_t b = 0; b < filterbanks_.size(); ++b)
    emit(*filterbanks_[b], block.detected.data() + b * size_t(nt) * nst * nco, nst, int(b));
  if (incoherent_) emit(*incoherent_, block.incoherent.data(), 1, int(filterbanks_.size()));
}

void BeamOutputs::write(const BeamBlockOutput& block) {
  const int64_t nt = block.nsamples_out;
  if (nt == 0) return;
  if (!coherent_.empty()) {
    const size_t per_beam = size_t(shape_.nchan) * nt * shape_.tint * shape_.npol * 2;
    VoltageBlock v;
    v.first_sample = voltage_samples_written_ * shape_.tint;
    v.nsamples = nt * shape_.tint;
    for (size_t b = 0; b < coherent_.size(); ++b) {
      v.data.assign(block.coherent.begin() + b * per_beam, block.coherent.begin() + (b + 1) * per_beam);
      coherent_[b]->write(v);
    }
    voltage_samples_written_ += nt;
  }
  if (filterbanks_.empty() && !incoherent_) return;
  const bool scaled = settings_.nbits == 8;
  if (!scaled || !mean_.empty()) {
    write_detected(block);
    return;
  }
  // Held until the scale can be measured on enough samples (the complex beams are not).
  BeamBlockOutput copy;
  copy.nsamples_out = nt;
  copy.detected = block.detected;
  copy.incoherent = block.incoherent;
  held_bytes_ += (copy.detected.size() + copy.incoherent.size()) * sizeof(float);
  held_samples_ += nt;
  held_.push_back(std::move(copy));
  if (held_samples_ >= kScalingSamples || held_bytes_ >= kScalingHeldBytes) release_held();
}

std::string BeamOutputs::scaling_note() const {
  if (settings_.nbits != 8) return "";
  return format_string("8-bit scaling: stored = 64 + 16 (x - mean) / rms, clipped to 0..255, "
                       "mean and rms per beam, Stokes parameter and channel from the first "
                       "%lld output samples",
                       (long long)scaling_samples_);
}

std::string BeamOutputs::beams_table() const {
  std::string text = "# bf beams of " + settings_.input_name + "\n";
  const std::string note = scaling_note();
  if (!note.empty()) text += "# " + note + "\n";
  text += "# beam name ra_deg dec_deg l_deg m_deg file\n";
  for (int b = 0; b < shape_.nbeams; ++b) {
    const BeamDirection& beam = beams_[size_t(b)];
    // A beam's file: its filterbank, else its complex voltages, else none ("-").
    const std::string file =
        shape_.detection != BeamDetection::none
            ? beam_file_name(settings_.root, b, shape_.nbeams, ".fil")
            : shape_.coherent ? beam_file_name(settings_.root, b, shape_.nbeams, ".dada") : "-";
    text += format_string("%d %s %s %s %.8f %.8f %s\n", b, beam.name.c_str(),
                          degrees_text(beam.direction.ra_rad).c_str(),
                          degrees_text(beam.direction.dec_rad).c_str(), beam.l * kRadToDeg,
                          beam.m * kRadToDeg, file.c_str());
  }
  if (incoherent_)
    text += format_string("IB incoherent %s %s 0 0 %s_IB.fil\n", degrees_text(pointing_.ra_rad).c_str(),
                          degrees_text(pointing_.dec_rad).c_str(), settings_.root.c_str());
  return text;
}

void BeamOutputs::commit() {
  release_held();  // a run shorter than kScalingSamples: the scale from all of it
  for (auto& f : filterbanks_) f->commit();
  if (incoherent_) incoherent_->commit();
  for (auto& c : coherent_) c->commit();
  if (!to_stdout_) write_file_atomically(paths_.back(), beams_table(), settings_.overwrite);
}

}  // namespace rapt
