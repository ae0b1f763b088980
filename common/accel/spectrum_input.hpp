// One input of a Fourier-domain search, read the way accelsearch reads it
// (create_accelobs() in PRESTO's src/accel_utils.c):
//   <root>.fft  + <root>.inf   the packed spectrum as stored (realfft, rednoise output)
//   <root>.dat  + <root>.inf   float32 samples: real FFT in process, packed, then dereddened
//   <root>.sdat + <root>.inf   int16 samples: the same
// Time-series input is dereddened with accelsearch's settings (deredden_for_accelsearch) and
// then, unless photon normalisation is asked for, bin 0 is set to 1 + 1i as accelsearch does.
// (accelsearch's -photon on a time series reads bin 0 after dereddening, i.e. 1.0.)
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "io/presto_inf.hpp"

namespace rapt {

enum class SpectrumSource { FftFile, TimeSeries };

struct AccelSpectrum {
  std::string root;  // the path without its .fft/.dat/.sdat suffix
  std::string path;  // the file read
  SpectrumSource source = SpectrumSource::FftFile;
  InfFile inf;       // <root>.inf
  std::vector<std::complex<float>> packed;  // PRESTO layout: bin 0 = (DC, Nyquist)
  int64_t numbins = 0;  // packed.size()
  double T_s = 0.0;     // N * dt from the .inf
  // What the reader let pass: a .dat's NaNs and infinities, replaced by the series' mean
  // (NonFiniteSamples), one line each.
  std::vector<std::string> warnings;
};

struct SpectrumInputOptions {
  bool photon = false;  // leave bin 0 of a time series as dereddening left it (-photon)
  bool deredden_time_series = true;  // false: the plain packed FFT of a .dat/.sdat
  int64_t lobin = 0;    // a .fft that starts at this Fourier bin (-lobin): N/2 - lobin values
};

// Throws DataError naming the file: unknown suffix, missing or unreadable .inf, a file size
// that disagrees with the .inf's N (.fft: N/2 complex values; .dat/.sdat: N samples), odd N,
// fewer than 16 samples, or a non-positive sampling time.
// The root of an input's PRESTO names: PATH without its .fft, .dat or .sdat. Throws DataError
// for any other suffix.
std::string accel_input_root(const std::string& path);

AccelSpectrum load_accel_spectrum(const std::string& path,
                                  const SpectrumInputOptions& options = {});

// Unnormalised forward real FFT of `samples` (even length >= 2) in PRESTO's packed layout,
// computed by FFTW in single precision (as PRESTO's realfft).
std::vector<std::complex<float>> packed_real_fft(const std::vector<float>& samples);

}  // namespace rapt
