// accelsearch's candidate files: the text table "<root>_ACCEL_<zmax>" (fundamentals, harmonics,
// then the .inf appended), the binary ".cand" (88-byte fourierprops records, one per candidate)
// and the ".txtcand" running log. Writers reproduce PRESTO's bytes; readers are lenient.
// Layout facts: shared reference formats.md section 4.
#pragma once
#include <string>
#include <vector>

namespace rapt {

// One harmonic's measured Fourier properties: PRESTO's `fourierprops`, field for field (the
// .cand record). r, z, w are Fourier bins, averaged over the observation; pow is normalised.
// All fields are doubles here; the .cand file stores every field except r, z, w as float32, so
// values read from it are exact and values written to it are rounded to float.
struct FourierProps {
  double r = 0.0;
  double rerr = 0.0;
  double z = 0.0;
  double zerr = 0.0;
  double w = 0.0;
  double werr = 0.0;
  double pow = 0.0;
  double powerr = 0.0;
  double sig = 0.0;
  double rawpow = 0.0;
  double phs = 0.0;      // rad
  double phserr = 0.0;
  double cen = 0.0;      // centroid, 0..1
  double cenerr = 0.0;
  double pur = 0.0;      // purity, <p> = 1
  double purerr = 0.0;
  double locpow = 0.0;   // local power level the power was normalised by
};

constexpr int kCandRecordBytes = 88;

struct AccelHarmonic {
  FourierProps props;   // this harmonic's own optimised r, z, w and measurements
  double sigma = 0.0;   // single-trial sigma shown in the harmonics table (not props.sig)
};

struct AccelCandidate {
  double sigma = 0.0;           // with the search's trials factor
  double summed_power = 0.0;    // incoherently summed normalised power
  double coherent_power = 0.0;  // phase-aligned harmonic sum
  int numharm = 1;
  double r = 0.0;               // fundamental: average Fourier bin
  double z = 0.0;               // average fdot * T^2
  double w = 0.0;               // fddot * T^3
  std::string notes;            // at most 20 characters shown; "" = PRESTO's blank note
  std::vector<AccelHarmonic> harmonics;  // [0] = fundamental; numharm entries in the table
};

struct AccelCandidates {
  std::vector<AccelCandidate> candidates;  // in table order (1-based numbers in the file)
  double obs_length_s = 0.0;    // T = N * dt: converts r, z to frequency, fdot, acceleration
  bool jerk = false;            // the FFT 'w' columns (runs with -wmax)
  bool photon = false;          // harmonics' power title "NumPhot" instead of "Loc Pow"
  std::string inf_text;         // the .inf appended verbatim after the tables
};

// The whole ACCEL text file: fundamentals (P, f, fdot, accel derived from r, z and obs_length_s,
// with the grid errors 0.5, 2, 20 / numharm), harmonics, then inf_text. Throws DataError if
// obs_length_s <= 0 or a candidate does not hold numharm harmonics.
std::string format_accel_text(const AccelCandidates& accel);
void write_accel_text(const std::string& path, const AccelCandidates& accel, bool overwrite);

// Reads the ACCEL text. Numbers come back as rounded in the text, so P, f, fdot and accel are
// not read (they follow from r, z and obs_length_s). Cells PRESTO cut to the column width are
// read as far as they go (parse_value_error: NaN where the cut took the exponent). The text does
// not hold props.sig and props.locpow (NaN), nor w without jerk columns (0). obs_length_s comes
// from the appended .inf (0 if it is missing). apply_cand_records restores full precision for
// what the .cand file holds. Throws DataError naming `name` for text that is not an ACCEL file.
AccelCandidates parse_accel_text(const std::string& text, const std::string& name);
AccelCandidates read_accel_text(const std::string& path);

// .cand: the record PRESTO stores per candidate: the fundamental harmonic's props with r, z, w
// replaced by the candidate's and the errors by the search grid's (0.5, 2, 20) / numharm.
// Requires a non-empty harmonics vector.
FourierProps cand_record(const AccelCandidate& candidate);
// Records as stored: little-endian, 88 bytes each, alignment padding written as zero.
std::string format_cand_records(const std::vector<FourierProps>& records);
// Throws DataError naming `name` if the size is not a whole number of records.
std::vector<FourierProps> parse_cand_records(const std::string& bytes, const std::string& name);
std::vector<FourierProps> read_cand_file(const std::string& path);
void write_cand_file(const std::string& path, const std::vector<FourierProps>& records,
                     bool overwrite);
// Puts a .cand file's full-precision numbers back into candidates read from the text: each
// candidate's r, z, w and its fundamental's measurements (pow ... locpow). Throws DataError
// naming `name` if the counts differ.
void apply_cand_records(AccelCandidates& accel, const std::vector<FourierProps>& records,
                        const std::string& name);

// .txtcand: one raw candidate per line as found during the search (before optimisation).
struct AccelTextLogEntry {
  double power = 0.0;
  double sigma = 0.0;
  int numharm = 1;
  double r = 0.0;
  double freq_hz = 0.0;
  double z = 0.0;
  double w = 0.0;
};

std::string format_txtcand_line(const AccelTextLogEntry& entry);  // ends with '\n'
// Throws DataError naming `name` and the line number for a line without 7 numeric fields.
std::vector<AccelTextLogEntry> parse_txtcand(const std::string& text, const std::string& name);

}  // namespace rapt
