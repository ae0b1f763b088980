// Red-noise removal ("whitening") of a packed real-FFT spectrum, as PRESTO's `rednoise`
// program and accelsearch's in-memory deredden() do it.
//
// The spectrum is cut into consecutive blocks starting at bin 1; each block's level is its
// median power / ln 2 (the mean of exponential noise). Block lengths grow as
// startwidth * ln(first bin of the block), truncated to an integer, up to endwidth; above
// endfreq_hz every block is endwidth long. Between block centres the level is interpolated
// linearly, before the first centre it is the first block's level, after the last centre the
// last slope is carried on. Amplitudes are divided by sqrt(level); bin 0 (DC and Nyquist)
// becomes 1 + 0i. Arithmetic is in float, as in PRESTO, so results agree to rounding.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "io/presto_inf.hpp"

namespace rapt {

struct RedNoiseOptions {
  int startwidth = 6;       // length of the first block, bins
  int endwidth = 100;       // longest block, bins
  double endfreq_hz = 6.0;  // blocks are endwidth long from this frequency up
};

// The fewest packed bins deredden() accepts: bin 0 and one first block.
size_t min_bins_to_deredden(const RedNoiseOptions& options);

// PRESTO `rednoise` (src/rednoise.c) on a whole packed spectrum of an observation T_s long.
// Differences from the C program, both outside its normal use: a block is never longer than
// endwidth (rednoise overruns its buffer there), and the bins after the last block centre keep
// their imaginary parts (rednoise writes the real part into both).
// Throws std::invalid_argument for bad options or fewer than min_bins_to_deredden() bins.
void deredden(std::vector<std::complex<float>>& packed, double T_s,
              const RedNoiseOptions& options = {});

// accelsearch's deredden() (src/accel_utils.c), applied to .dat/.sdat input: startwidth 6,
// endwidth 200, no endfreq; a last block shorter than its nominal length is not measured (the
// slope of the last full block carries on to the end).
void deredden_for_accelsearch(std::vector<std::complex<float>>& packed);

// "<root>_red": where `rednoise root.fft` puts its output.
std::string red_noise_output_root(const std::string& root);

// The .inf that goes with a dereddened spectrum: `inf` with its data name set to `name`
// (rednoise writes the input's name + "_red").
InfFile dereddened_inf(const InfFile& inf, const std::string& name);

// Writes `<out_root>.fft` (the packed spectrum) and `<out_root>.inf` (`inf` as given). Both
// appear only when both are complete. Throws DataError naming the file that fails.
void write_dereddened(const std::string& out_root, const std::vector<std::complex<float>>& packed,
                      const InfFile& inf, bool overwrite);

}  // namespace rapt
