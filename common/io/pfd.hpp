// prepfold's binary ".pfd": the fold of every (sub-integration, subband) plus the search grids
// and fit results. Written byte-for-byte as PRESTO (and presto.prepfold.pfd in Python) lays it
// out; read exactly, byte-swapped files included. Layout: shared reference formats.md 6.3.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace rapt {

// PRESTO's "position": a float written in an 8-byte slot, then three doubles.
struct PfdPosition {
  float pow = 0.0f;
  std::array<unsigned char, 4> padding{};  // the slot's other 4 bytes: kept as read, else zero
  double p1 = 0.0, p2 = 0.0, p3 = 0.0;     // topo/bary: P (s), P', P''; fold: f (Hz), f', f''
};

struct PfdOrbit {
  double p_s = 0.0;        // orbital period
  double e = 0.0;          // eccentricity
  double x_lts = 0.0;      // projected semi-major axis, light seconds
  double w_deg = 0.0;      // longitude of periastron
  double t = 0.0;          // time of periastron (PRESTO's orbitparams.t)
  double pd = 0.0;         // orbital period derivative
  double wd = 0.0;         // periastron advance
};

// Statistics of one (part, subband) fold: PRESTO's foldstats.
struct FoldStats {
  double numdata = 0.0, data_avg = 0.0, data_var = 0.0;
  double numprof = 0.0, prof_avg = 0.0, prof_var = 0.0;
  double redchi = 0.0;
};

struct Pfd {
  int nsub = 1;            // subbands
  int npart = 1;           // sub-integrations
  int proflen = 0;         // profile bins
  int numchan = 1;
  int pstep = 1, pdstep = 1, dmstep = 1;   // search steps (bins)
  int ndmfact = 1, npfact = 1;
  std::string filenm;      // input file
  std::string candnm;      // "ACCEL_Cand_2", "87.30ms_Cand", "PSR_..."
  std::string telescope;
  std::string pgdev;       // plot device string, "<root>.pfd.ps/CPS"
  std::string rastr;       // "hh:mm:ss.ssss", at most 16 bytes (NUL-padded on disk)
  std::string decstr;      // "dd:mm:ss.ssss"
  double dt_s = 0.0;
  double start_frac = 0.0, end_frac = 1.0;  // folded span as fractions of the observation
  double tepoch_mjd = 0.0, bepoch_mjd = 0.0;
  double avgvoverc = 0.0;
  double lofreq_mhz = 0.0;                  // centre of the lowest channel
  double chan_wid_mhz = 0.0;
  double bestdm = 0.0;
  PfdPosition topo, bary, fold;
  PfdOrbit orbit;
  std::vector<double> dms;                  // DM search grid; empty for time-series folds
  std::vector<double> periods;              // period search grid (s)
  std::vector<double> pdots;                // pdot search grid
  std::vector<double> rawfolds;             // [npart][nsub][proflen], last index fastest
  std::vector<FoldStats> stats;             // [npart][nsub]

  double& rawfold(int part, int sub, int bin) { return rawfolds[index(part, sub) * proflen + bin]; }
  double rawfold(int part, int sub, int bin) const {
    return rawfolds[index(part, sub) * proflen + bin];
  }
  FoldStats& stat(int part, int sub) { return stats[index(part, sub)]; }
  const FoldStats& stat(int part, int sub) const { return stats[index(part, sub)]; }
  // Sizes rawfolds and stats for the current npart, nsub, proflen (zero-filled).
  void allocate_folds();

 private:
  size_t index(int part, int sub) const {
    return static_cast<size_t>(part) * static_cast<size_t>(nsub) + static_cast<size_t>(sub);
  }
};

// The file's bytes, little-endian. Throws DataError if rawfolds/stats do not match
// npart * nsub (* proflen), or a string does not fit its field.
std::string format_pfd(const Pfd& pfd);
void write_pfd(const std::string& path, const Pfd& pfd, bool overwrite);

// Reads the whole buffer and nothing less: throws DataError naming `name` if the header counts
// are absurd, or if the buffer is shorter or longer than they imply. Big-endian files (whose
// counts only make sense byte-swapped) are read too.
Pfd parse_pfd(const std::string& bytes, const std::string& name);
Pfd read_pfd(const std::string& path);

}  // namespace rapt
