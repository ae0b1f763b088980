// Imaging and prediction through A-terms (idg-grid --aterms): the A-terms act on 2 x 2
// matrices of correlations, so the four correlations of every sample are gridded together
// (npol 4, in the engine's order xx, xy, yx, yy, or rr, rl, lr, ll for circular feeds) and the
// images --pol asks for are formed afterwards from the four corrected planes, with the
// combinations of polarisation_selection.hpp. A correlation the file does not hold takes part
// with weight 0; those it holds share one weight per sample (the matrices mix them, so a sample
// is in all of them or in none).
#pragma once
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "idg/idg_engine.hpp"
#include "imaging/aterm_cube.hpp"
#include "imaging/imaging_samples.hpp"
#include "imaging/polarisation_selection.hpp"
#include "io/visibility_set.hpp"

namespace rapt {

// Where the four correlations lie among the file's products (-1: not in the file).
struct CorrelationProducts {
  std::array<int, 4> product = {-1, -1, -1, -1};
  bool circular = false;
};

// Throws DataError "path: ..." when the file holds Stokes parameters rather than correlations,
// or not both parallel-hand correlations (XX and YY, or RR and LL).
CorrelationProducts correlation_products(const std::vector<int>& file_stokes,
                                         const std::string& path);

// The four correlations as output polarisations (one term each; none for a missing one, which
// combine_products then weights 0), for make_imaging_samples.
std::vector<OutputPolarisation> correlation_outputs(const CorrelationProducts& correlations);

// Gives every correlation the file holds the smallest of their imaging weights in each sample
// of `samples` (made from correlation_outputs), 0 when any of them is flagged or has none.
void share_correlation_weights(const CorrelationProducts& correlations, ImagingSamples& samples);

// The PSF's combination for image `pol`: the mean of its correlations' PSFs weighted by the
// sizes of their coefficients (the signed combination of Q or V would cancel the PSF).
OutputPolarisation psf_combination(const OutputPolarisation& pol);

// The cube's FREQ plane nearest each of `freq_hz`, and the distinct planes among them in order:
// each plane's A-terms serve the channels nearest it.
struct ATermPlanes {
  std::vector<int> of_channel;  // [channel]
  std::vector<int> used;        // ascending
};
ATermPlanes aterm_planes(const ATermCube& cube, const std::vector<double>& freq_hz);

// The weights of plane `plane`'s pass: `weights` ([row][channel][4 correlations], `nchan`
// channels), with those of the channels nearest another plane set to 0.
std::vector<float> plane_pass_weights(const ATermPlanes& planes, int plane,
                                      const std::vector<float>& weights, size_t nchan);

// Plane `pol` (one of --pol's images, its terms over the file's products) from the four
// corrected correlation planes of `planes` into `out` (N x N).
void combine_correlation_planes(const OutputPolarisation& pol,
                                const CorrelationProducts& correlations, const IdgImage& planes,
                                std::complex<float>* out);

// The A-term cube of --aterms read and checked against the visibilities (phase centre,
// antennas, times), with the slot of every row.
struct ATermInput {
  ATermCube cube;
  std::vector<int> slot;  // [row]
};
ATermInput load_aterms(const std::string& path, const VisibilitySet& vs);

}  // namespace rapt
