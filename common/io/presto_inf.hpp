// PRESTO .inf metadata files (the raw float32 .dat series beside them: io/presto_series.hpp).
// Written byte-for-byte in PRESTO's layout; read leniently (by label, `=` anywhere).
// Layout facts: shared reference formats.md section 2.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rapt {

// The telescope name that puts an .inf in PRESTO's "makedata" mode: no observation lines,
// no band block.
inline constexpr const char* kMakedataTelescope = "None (Artificial Data Set)";

// PRESTO's readinf() fails at MAXNUMONOFF (40) pairs, so 39 is the most a file can carry.
inline constexpr int kMaxOnOffPairs = 39;

using BinRange = std::pair<int64_t, int64_t>;  // first and last bin, inclusive

struct InfFile {
  std::string name;                   // "Data file name without suffix" (output root)
  std::string telescope = "Unknown";  // kMakedataTelescope = PRESTO's makedata mode
  std::string instrument = "Unknown";
  std::string object = "Unknown";
  double ra_deg = 0.0;   // J2000, written as hh:mm:ss.ssss
  double dec_deg = 0.0;  // written as dd:mm:ss.ssss
  std::string observer = "Unknown";
  int mjd_int = 0;  // epoch = mjd_int + mjd_frac (kept apart for precision)
  double mjd_frac = 0.0;
  bool barycentered = false;
  int64_t n = 0;  // samples in the series
  double dt_s = 0.0;
  std::vector<BinRange> onoff;        // valid-data bin pairs; empty = no breaks
  std::string band = "Radio";         // Radio, IR, Optical, UV, X-ray, Gamma
  double beam_diameter_arcsec = 0.0;  // radio
  double dm = 0.0;                    // radio
  double lofreq_mhz = 0.0;            // radio: centre of the lowest channel
  double bandwidth_mhz = 0.0;         // radio: nchan * chan_bw
  int num_channels = 1;               // radio
  double chan_bw_mhz = 0.0;           // radio, positive
  double fov_arcsec = 0.0;            // X-ray/Gamma/IR/Optical/UV
  double energy_kev = 0.0;            // X-ray/Gamma
  double energy_band_kev = 0.0;
  std::string filter = "Unknown";  // IR/Optical/UV
  double wavelength_nm = 0.0;
  double waveband_nm = 0.0;
  std::string analyzer = "Unknown";
  std::string notes;  // may hold "\n    " for extra lines

  double epoch_mjd() const { return mjd_int + mjd_frac; }
  void set_epoch_mjd(double mjd);
  bool is_makedata() const { return telescope == kMakedataTelescope; }
  // The on/off pairs, or the single pair (0, n-1) when the file records no breaks.
  std::vector<BinRange> valid_bin_ranges() const;
};

// PRESTO's text, exactly as writeinf() lays it out.
std::string format_inf(const InfFile& inf);
// Parses .inf text; `name` is used in error messages. Throws DataError on missing required keys.
InfFile parse_inf(const std::string& text, const std::string& name);

InfFile read_inf(const std::string& path);
// Throws DataError naming `path` when the on/off pairs exceed kMaxOnOffPairs.
void write_inf(const std::string& path, const InfFile& inf, bool overwrite);

// "hh:mm:ss.ssss" and "[-]dd:mm:ss.ssss" as in .inf files (seconds rounded to 4 decimals with
// carries, so 59.99996 s never prints as 60.0000).
std::string format_ra_hms(double ra_deg);
std::string format_dec_dms(double dec_deg);
// Inverse of the above; accepts 1 to 3 colon-separated fields. Throws DataError naming `name`.
double parse_ra_hms(const std::string& text, const std::string& name);
double parse_dec_dms(const std::string& text, const std::string& name);

// "<root>_DM<dm %.2f>" — the name prepsubband gives each DM trial. Plain C rounding of the
// binary value: 0.005 -> "0.01", 0.015 -> "0.01", -0.001 -> "-0.00".
std::string dm_trial_root(const std::string& root, double dm);

// Path helpers: "dir/x_DM1.00.dat" -> "dir/x_DM1.00" (strips a known suffix; a path without
// that suffix comes back unchanged).
std::string strip_suffix(const std::string& path, const std::string& suffix);

}  // namespace rapt
