// The files bf writes, one set per run with output root R:
//   R_B<n>.fil     detected beam n, SIGPROC filterbank: Stokes I (nifs 1) or IQUV (nifs 4),
//                  top channel first, src_raj/src_dej the beam's direction, ibeam n of nbeams
//   R_B<n>.dada    the complex beam n (--coherent): PSRDADA, one "antenna" B<n> at the array
//                  reference, float32 samples, the beam's direction as RA/DEC
//   R_IB.fil       the incoherent beam (--incoherent), Stokes I, the pointing's direction
//   R_beams.txt    a table of the beams: index, name, RA, Dec, l, m, file
// A root of "-" sends a run's one file (one beam, detected or complex, or the incoherent beam
// alone) to standard output, without the table.
// <n> has at least three digits (B000, B001, ...). Every file appears under its name only when
// the run completes.
//
// 8-bit filterbanks: each beam, Stokes parameter and channel is scaled as
//   stored = 64 + 16 (x - mean) / rms, rounded and clipped to 0..255,
// with mean and rms measured on that channel over the first blocks, until they hold
// kScalingSamples output samples (or kScalingHeldBytes of them, or the run ends): the blocks
// are held until then, so the scale does not depend on where the weights' updates end the
// first block (the scaling is printed and written to R_beams.txt). 32-bit output is the float
// value itself.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "bf/beam_directions.hpp"
#include "bf/beamformer_engine.hpp"
#include "io/sigproc.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

struct BeamOutputSettings {
  std::string root;
  int nbits = 32;           // detected filterbanks: 8 or 32
  bool overwrite = false;   // --force
  std::string input_name;   // written as rawdatafile
};

// 8-bit output: the output samples the scale is measured on, at least (a first block longer
// than this is measured whole), and the most bytes of detected samples held for it.
inline constexpr int64_t kScalingSamples = 4096;
inline constexpr size_t kScalingHeldBytes = size_t(256) << 20;

class BeamOutputs {
 public:
  // Opens every output (temporaries); throws DataError naming the file that cannot be created
  // or already exists, or when the files would pass the open-file limit.
  BeamOutputs(const BeamformerShape& shape, const VoltageHeader& voltages,
              const std::vector<BeamDirection>& beams, const SkyDirection& pointing,
              const BeamOutputSettings& settings);
  ~BeamOutputs();
  BeamOutputs(const BeamOutputs&) = delete;
  BeamOutputs& operator=(const BeamOutputs&) = delete;

  // Appends one block (as the engine returned it); 8-bit filterbanks hold it until the scale
  // is measured.
  void write(const BeamBlockOutput& block);
  // Writes what is held, then renames every file into place.
  void commit();
  // Final names of every file, in the order written to R_beams.txt ("-" for standard output).
  const std::vector<std::string>& paths() const { return paths_; }
  // The 8-bit scaling as applied (and the number of output samples it was measured on), or "".
  std::string scaling_note() const;
  // 8-bit output: the output samples the scale was measured on.
  int64_t scaling_samples() const { return scaling_samples_; }

 private:
  // Mean and rms of every channel of every detected beam over the held blocks.
  void measure_scaling();
  // Writes the held blocks (the scale measured first) and lets them go.
  void release_held();
  // One block's filterbanks (8-bit: scaled).
  void write_detected(const BeamBlockOutput& block);
  std::string beams_table() const;

  BeamformerShape shape_;
  VoltageHeader voltages_;
  std::vector<BeamDirection> beams_;
  SkyDirection pointing_;
  BeamOutputSettings settings_;
  bool reversed_ = false;                  // channels written top first, reversed from input
  bool to_stdout_ = false;                 // root "-": the one file to standard output
  std::vector<std::unique_ptr<SigprocWriter>> filterbanks_;
  std::unique_ptr<SigprocWriter> incoherent_;
  std::vector<std::unique_ptr<VoltageWriter>> coherent_;
  std::vector<std::string> paths_;
  std::vector<float> mean_, scale_;        // 8-bit: per [beam + incoherent][stokes][chan_out]
  int64_t scaling_samples_ = 0;
  std::vector<BeamBlockOutput> held_;      // 8-bit: blocks waiting for the scale (no voltages)
  int64_t held_samples_ = 0;
  size_t held_bytes_ = 0;
  std::vector<float> spectra_;             // one beam's block in output channel order
  int64_t voltage_samples_written_ = 0;   // the complex beams' output samples so far
};

// "R_B007.fil"-style names: the beam index with at least three digits.
std::string beam_file_name(const std::string& root, int beam, int nbeams, const std::string& ext);

}  // namespace rapt
