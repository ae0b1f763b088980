// accelsearch's text candidate files (<root>_DM<dm>_ACCEL_<zmax>) read the way PRESTO's sifting
// module reads them for ACCEL_sift.py (formats.md section 4.3): the DM from "DM<d>.<dd>" in the
// name; the observation length T = N dt from the appended .inf; fundamentals are the lines
// that start with a digit (fields 0 cand, 1 sigma, 2 summed power, 3 coherent power,
// 4 numharm, 7 r and 9 z before any "("); the first harmonic row of a candidate starts with a
// space and a digit (power in field 3), the rows after it carry the power in field 2. Sigma
// and summed power are then recomputed from the harmonics' powers as printed (single trial),
// so the sifted numbers are those ACCEL_sift prints.
#pragma once
#include <string>
#include <vector>

namespace rapt {

struct SiftHit {
  double dm = 0.0;
  double snr = 0.0;
  double sigma = 0.0;
};

struct SiftCandidate {
  std::string path;      // the ACCEL file as given
  std::string filename;  // its name without the directory
  int candnum = 0;       // 1-based number in the file (its .cand record)
  double dm = 0.0;       // the file's DM, 2 decimals
  double sigma = 0.0;    // single-trial sigma of the summed harmonic powers
  int numharm = 1;
  double ipow = 0.0;  // summed harmonic powers
  double cpow = 0.0;  // coherent power, from the table
  double r = 0.0;     // Fourier bin, as printed
  double z = 0.0;     // fdot T^2, as printed
  double T = 0.0;     // observation length (s)
  double snr = 0.0;   // sum over harmonics of sqrt(power - 1), negative terms 0
  std::vector<double> harm_pows;
  std::vector<SiftHit> hits;  // the DMs (file candidates) this candidate stands for

  double f() const { return r / T; }
  double p() const { return 1.0 / f(); }  // as sifting computes it
};

struct AccelSiftFile {
  std::string path;
  double dm = 0.0;
  double T = 0.0;
  std::vector<SiftCandidate> candidates;
};

// `name` is the file's path (its DM comes from the name; used in messages). `inf_fallback`:
// .inf text to take N and dt from when the ACCEL text has no .inf appended ("" = none).
// Throws DataError "name: ..." for text that cannot be read as sifting reads it.
AccelSiftFile parse_accel_sift_file(const std::string& text, const std::string& name,
                                    const std::string& inf_fallback = "");
// Reads `path`; when the text has no .inf appended, reads <root>.inf beside it (root = the
// name cut at "_ACCEL").
AccelSiftFile read_accel_sift_file(const std::string& path);

// "DM(\d+\.\d{2})" in the file name (not the directory): sifting's DM string; false if none.
bool accel_dm_from_name(const std::string& path, std::string& dm_text);

// sifting's parse_power(): the number before "(", times 10^(the text after "^") when there is
// one (10^5 when that text is not a number: PRESTO cut it off).
double parse_sift_power(const std::string& cell);

}  // namespace rapt
