// PRESTO .inf metadata files (and the raw float32 .dat series beside them).
// Written byte-for-byte in PRESTO's layout; read leniently (by label, `=` anywhere).
// Layout facts: shared reference formats.md section 2.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rapt {

struct InfFile {
  std::string name;                    // "Data file name without suffix" (output root)
  std::string telescope = "Unknown";   // "None (Artificial Data Set)" = PRESTO's makedata mode
  std::string instrument = "Unknown";
  std::string object = "Unknown";
  double ra_deg = 0.0;                 // J2000, written as hh:mm:ss.ssss
  double dec_deg = 0.0;                // written as dd:mm:ss.ssss
  std::string observer = "Unknown";
  int mjd_int = 0;                     // epoch = mjd_int + mjd_frac (kept apart for precision)
  double mjd_frac = 0.0;
  bool barycentered = false;
  int64_t n = 0;                       // samples in the series
  double dt_s = 0.0;
  std::vector<std::pair<int64_t, int64_t>> onoff;  // valid-data bin pairs; empty = no breaks
  std::string band = "Radio";          // Radio, IR, Optical, UV, X-ray, Gamma
  double beam_diameter_arcsec = 0.0;   // radio
  double dm = 0.0;                     // radio
  double lofreq_mhz = 0.0;             // radio: centre of the lowest channel
  double bandwidth_mhz = 0.0;          // radio: nchan * chan_bw
  int num_channels = 1;                // radio
  double chan_bw_mhz = 0.0;            // radio, positive
  double fov_arcsec = 0.0;             // X-ray/Gamma/IR/Optical/UV
  double energy_kev = 0.0;             // X-ray/Gamma
  double energy_band_kev = 0.0;
  std::string filter = "Unknown";      // IR/Optical/UV
  double wavelength_nm = 0.0;
  double waveband_nm = 0.0;
  std::string analyzer = "Unknown";
  std::string notes;                   // may hold "\n    " for extra lines

  double epoch_mjd() const { return mjd_int + mjd_frac; }
  void set_epoch_mjd(double mjd);
};

// PRESTO's text, exactly as writeinf() lays it out.
std::string format_inf(const InfFile& inf);
// Parses .inf text; `name` is used in error messages. Throws DataError on missing required keys.
InfFile parse_inf(const std::string& text, const std::string& name);

InfFile read_inf(const std::string& path);
void write_inf(const std::string& path, const InfFile& inf, bool overwrite);

// "<root>_DM<dm %.2f>" — the name prepsubband gives each DM trial.
std::string dm_trial_root(const std::string& root, double dm);

// Path helpers: "dir/x_DM1.00.dat" -> "dir/x_DM1.00" (strips a known suffix).
std::string strip_suffix(const std::string& path, const std::string& suffix);

}  // namespace rapt
