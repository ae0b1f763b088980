#include "imaging/aterm_imaging.hpp"

#include <algorithm>
#include <cmath>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "inspect/report_text.hpp"  // stokes_name

namespace rapt {
namespace {

// FITS codes of the four correlations in the engine's order.
constexpr std::array<int, 4> kLinear = {-5, -7, -8, -6};    // XX XY YX YY
constexpr std::array<int, 4> kCircular = {-1, -3, -4, -2};  // RR RL LR LL

int find(const std::vector<int>& codes, int code) {
  const auto it = std::find(codes.begin(), codes.end(), code);
  return it == codes.end() ? -1 : int(it - codes.begin());
}

}  // namespace

CorrelationProducts correlation_products(const std::vector<int>& file_stokes,
                                         const std::string& path) {
  CorrelationProducts c;
  const bool linear = find(file_stokes, -5) >= 0 && find(file_stokes, -6) >= 0;
  const bool circular = find(file_stokes, -1) >= 0 && find(file_stokes, -2) >= 0;
  if (!linear && !circular) {
    std::string have;
    for (int code : file_stokes) have += (have.empty() ? "" : ",") + stokes_name(code);
    throw file_error(path, "--aterms needs the parallel-hand correlations (XX and YY, or RR and "
                           "LL) to apply Jones matrices to; the file holds " + have);
  }
  c.circular = !linear;
  const std::array<int, 4>& codes = linear ? kLinear : kCircular;
  for (int k = 0; k < 4; ++k) c.product[size_t(k)] = find(file_stokes, codes[size_t(k)]);
  return c;
}

std::vector<OutputPolarisation> correlation_outputs(const CorrelationProducts& c) {
  const std::array<int, 4>& codes = c.circular ? kCircular : kLinear;
  std::vector<OutputPolarisation> out(4);
  for (size_t k = 0; k < 4; ++k) {
    out[k].name = stokes_name(codes[k]);
    out[k].fits_stokes = codes[k];
    if (c.product[k] >= 0) out[k].terms.push_back({c.product[k], {1.0f, 0.0f}});
  }
  return out;
}

void combine_correlation_planes(const OutputPolarisation& pol, const CorrelationProducts& c,
                                const IdgImage& planes, std::complex<float>* out) {
  const size_t n = size_t(planes.size) * planes.size;
  std::fill(out, out + n, std::complex<float>(0.0f, 0.0f));
  for (const ProductTerm& t : pol.terms) {
    const auto k = std::find(c.product.begin(), c.product.end(), t.product);
    if (k == c.product.end()) continue;  // select_polarisations only names correlations
    const std::complex<float>* plane = planes.plane(int(k - c.product.begin()));
    for (size_t i = 0; i < n; ++i) out[i] += t.coefficient * plane[i];
  }
}

void share_correlation_weights(const CorrelationProducts& c, ImagingSamples& samples) {
  const size_t nsamples = samples.weight.size() / std::max<size_t>(samples.npol, 1);
  for (size_t i = 0; i < nsamples; ++i) {
    float* w = &samples.weight[i * samples.npol];
    float shared = INFINITY;
    for (size_t k = 0; k < 4; ++k)
      if (c.product[k] >= 0) shared = std::min(shared, w[k]);
    if (!(shared > 0) || !std::isfinite(shared)) shared = 0;
    for (size_t k = 0; k < 4; ++k)
      if (c.product[k] >= 0) w[k] = shared;
  }
}

OutputPolarisation psf_combination(const OutputPolarisation& pol) {
  OutputPolarisation psf = pol;
  double total = 0;
  for (const ProductTerm& t : pol.terms) total += std::abs(t.coefficient);
  for (ProductTerm& t : psf.terms)
    t.coefficient = total > 0 ? float(std::abs(t.coefficient) / total) : 0.0f;
  return psf;
}

ATermPlanes aterm_planes(const ATermCube& cube, const std::vector<double>& freq_hz) {
  ATermPlanes planes;
  for (double f : freq_hz) planes.of_channel.push_back(nearest_aterm_freq(cube, f));
  planes.used = planes.of_channel;
  std::sort(planes.used.begin(), planes.used.end());
  planes.used.erase(std::unique(planes.used.begin(), planes.used.end()), planes.used.end());
  return planes;
}

std::vector<float> plane_pass_weights(const ATermPlanes& planes, int plane,
                                      const std::vector<float>& weights, size_t nchan) {
  std::vector<float> own = weights;
  for (size_t i = 0; i < own.size(); ++i)
    if (planes.of_channel[(i / 4) % nchan] != plane) own[i] = 0.0f;
  return own;
}

ATermInput load_aterms(const std::string& path, const VisibilitySet& vs) {
  ATermInput in;
  in.cube = read_aterm_cube(path);
  check_aterm_centre(in.cube, vs.phase_centre_ra_rad, vs.phase_centre_dec_rad);
  if (in.cube.nr_antennas < int(vs.array.antennas.size()))
    throw file_error(path, format_string("holds A-terms of %d antennas, the visibilities have %zu",
                                         in.cube.nr_antennas, vs.array.antennas.size()));
  in.slot = aterm_slots(in.cube, vs.time_mjd);
  return in;
}

}  // namespace rapt
