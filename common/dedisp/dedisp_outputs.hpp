// Where dedispersed series go: PRESTO .dat/.inf pairs named as prepsubband names them
// ("<root>_DM<dm %.2f>"), SIGPROC .tim files with the same names, or one series as raw float32
// on stdout. Files appear under their names only when the whole run has succeeded.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/atomic_output.hpp"
#include "dedisp/dedisp_runner.hpp"
#include "io/presto_inf.hpp"

namespace rapt {

// What the .inf notes and the .tim header need beyond ObservationInfo.
struct DedispOutputContext {
  std::string program_version;
  double dm_const = kDispersionConstantPresto;
  std::vector<std::string> extra_notes;  // e.g. "zero-DM filtered", "mask obs.mask"
};

class PrestoSeriesSink : public DedispSink {
 public:
  PrestoSeriesSink(std::string root, bool overwrite, DedispOutputContext context);
  void begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) override;
  void append(size_t trial, const float* samples, size_t count) override;
  void finish(const std::vector<TrialSummary>& summaries) override;
  const std::vector<std::string>& written() const { return written_; }

 private:
  std::string root_;
  bool overwrite_;
  DedispOutputContext context_;
  ObservationInfo info_;
  std::vector<DedispTrial> trials_;
  std::vector<AtomicOutputFile> dat_files_;
  std::vector<std::string> written_;
};

class SigprocTimSink : public DedispSink {
 public:
  SigprocTimSink(std::string root, bool overwrite, DedispOutputContext context);
  ~SigprocTimSink() override;
  void begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) override;
  void append(size_t trial, const float* samples, size_t count) override;
  void finish(const std::vector<TrialSummary>& summaries) override;
  const std::vector<std::string>& written() const { return written_; }

 private:
  struct Files;
  std::string root_;
  bool overwrite_;
  DedispOutputContext context_;
  std::unique_ptr<Files> files_;
  std::vector<std::string> written_;
};

// One trial's samples as native float32 on `stream` (stdout). Refuses more than one trial.
class RawStreamSink : public DedispSink {
 public:
  explicit RawStreamSink(FILE* stream) : stream_(stream) {}
  void begin(const ObservationInfo& info, const std::vector<DedispTrial>& trials) override;
  void append(size_t trial, const float* samples, size_t count) override;
  void finish(const std::vector<TrialSummary>&) override;

 private:
  FILE* stream_;
};

// The .inf PRESTO would write for one trial (name = root_DM..., padding as on/off pairs).
InfFile dedisp_inf(const ObservationInfo& info, const std::string& root, const DedispTrial& trial,
                   const TrialSummary& summary, const DedispOutputContext& context);

// Full-width beam at the band centre, 1.2 lambda / D, for telescopes of known dish diameter;
// 0 when the telescope is unknown.
double beam_diameter_arcsec(const std::string& telescope, double centre_freq_mhz);

}  // namespace rapt
