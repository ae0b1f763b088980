#include "sim/visibility_simulator.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

#include "cli/errors.hpp"
#include "sim/counter_rng.hpp"
#include "sim/noise.hpp"

namespace rapt {

namespace {

constexpr uint64_t kVisibilityNoiseStream = 3;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

struct ProductName {
  const char* name;
  int code;
};
constexpr ProductName kProducts[] = {{"I", 1},   {"Q", 2},   {"U", 3},   {"V", 4},
                                     {"RR", -1}, {"LL", -2}, {"RL", -3}, {"LR", -4},
                                     {"XX", -5}, {"YY", -6}, {"XY", -7}, {"YX", -8}};

// The baselines of one integration, in row order.
std::vector<std::pair<int, int>> baselines(int nant, bool autocorrelations) {
  std::vector<std::pair<int, int>> pairs;
  for (int a1 = 0; a1 < nant; ++a1)
    for (int a2 = autocorrelations ? a1 : a1 + 1; a2 < nant; ++a2) pairs.emplace_back(a1, a2);
  return pairs;
}

VisibilitySet empty_set(const VisibilityPlan& plan) {
  VisibilitySet set;
  set.telescope = plan.layout.telescope.empty() ? "SIMULATED" : plan.layout.telescope;
  set.instrument = "RAPT-SIMULATE";
  set.object = plan.object;
  set.phase_centre_ra_rad = plan.phase_centre.ra_rad;
  set.phase_centre_dec_rad = plan.phase_centre.dec_rad;
  set.array = plan.layout;
  for (int c = 0; c < plan.nchan; ++c) set.channel_freq_hz.push_back(plan.channel_freq_mhz(c) * 1e6);
  set.channel_width_hz = plan.bandwidth_mhz * 1e6 / plan.nchan;
  set.stokes = plan.stokes;
  return set;
}

}  // namespace

std::vector<int> parse_products(const std::string& text) {
  std::vector<int> codes;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string name;
    for (char ch : text.substr(start, comma - start))
      if (!std::isspace(static_cast<unsigned char>(ch)))
        name += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    int code = 0;
    for (const ProductName& p : kProducts)
      if (name == p.name) code = p.code;
    if (code == 0)
      throw UsageError("--products \"" + text + "\": unknown product \"" + name +
                       "\"; known: XX YY XY YX RR LL RL LR I Q U V");
    for (int seen : codes)
      if (seen == code) throw UsageError("--products \"" + text + "\": " + name + " given twice");
    codes.push_back(code);
    start = comma + 1;
  }
  // One kind of product a file: its polarisation table has one feed basis.
  auto kind = [](int code) { return code > 0 ? 0 : code >= -4 ? 1 : 2; };
  for (int code : codes)
    if (kind(code) != kind(codes[0]))
      throw UsageError("--products \"" + text + "\": mixes Stokes (I Q U V), circular (RR LL RL "
                       "LR) and linear (XX YY XY YX) products; give products of one kind");
  return codes;
}

bool product_sees_total_intensity(int code) {
  return code == 1 || code == -1 || code == -2 || code == -5 || code == -6;
}

void VisibilityPlan::validate() const {
  if (layout.antennas.empty()) throw UsageError("the array has no antennas (give --layout FILE)");
  if (layout.size() < 2 && !autocorrelations)
    throw UsageError("one antenna makes no baselines; give --autocorrelations or a larger layout");
  if (nchan < 1 || nchan > (1 << 20))
    throw UsageError("--nchans must be between 1 and 1048576 (got " + std::to_string(nchan) + ")");
  if (!(centre_freq_mhz > 0) || !std::isfinite(centre_freq_mhz))
    throw UsageError("--freq must be a positive centre frequency in MHz (got " + number(centre_freq_mhz) + ")");
  if (!(bandwidth_mhz != 0) || !std::isfinite(bandwidth_mhz))
    throw UsageError("--bw must be non-zero (got " + number(bandwidth_mhz) + ")");
  if (!(centre_freq_mhz - std::fabs(bandwidth_mhz) / 2 > 0))
    throw UsageError("--freq " + number(centre_freq_mhz) + " with --bw " + number(bandwidth_mhz) +
                     " reaches below 0 MHz");
  if (!(integration_s > 0) || !(integration_s <= 86400))
    throw UsageError("--int-time must be above 0 and at most 86400 s (got " + number(integration_s) + ")");
  if (nintegrations < 1 || nintegrations > 10000000)
    throw UsageError("--nints must be between 1 and 1e7 (got " + std::to_string(nintegrations) + ")");
  if (stokes.empty()) throw UsageError("--products names no product");
  if (!(noise_jy >= 0) || !std::isfinite(noise_jy))
    throw UsageError("--vis-noise must be >= 0 Jy (got " + number(noise_jy) + ")");
  if (!std::isfinite(start.mjd())) throw UsageError("--tstart must be a finite MJD");
}

VisibilitySet simulate_visibilities(const VisibilityPlan& plan) {
  plan.validate();
  VisibilitySet set = empty_set(plan);
  const std::vector<std::pair<int, int>> pairs = baselines(plan.layout.size(), plan.autocorrelations);
  const size_t nchan = set.nchan(), nprod = set.nstokes();
  const size_t nrows = pairs.size() * static_cast<size_t>(plan.nintegrations);
  set.vis.assign(nrows * nchan * nprod, {0.0f, 0.0f});
  set.weight.assign(nrows * nchan * nprod, 1.0f);
  set.flag.assign(nrows * nchan * nprod, 0);
  std::vector<Vector3> lmn;
  for (const PointSourceSpec& s : plan.sources) lmn.push_back(direction_lmn(s.direction, plan.phase_centre));
  const uint64_t noise_key = stream_key(plan.seed, kVisibilityNoiseStream);
  std::vector<float> noise(2 * nchan * nprod);
  for (int i = 0; i < plan.nintegrations; ++i) {
    UtcInstant centre = plan.start;
    centre.seconds += (i + 0.5) * plan.integration_s;
    const std::vector<Vector3> uvw = antenna_uvw_m(plan.layout, plan.phase_centre, centre);
    for (const auto& [a1, a2] : pairs) {
      const size_t row = set.nrows();
      set.time_mjd.push_back(centre.mjd());
      set.integration_s.push_back(static_cast<float>(plan.integration_s));
      set.antenna1.push_back(a1);
      set.antenna2.push_back(a2);
      const Vector3 b{uvw[a1][0] - uvw[a2][0], uvw[a1][1] - uvw[a2][1], uvw[a1][2] - uvw[a2][2]};
      set.uvw_m.push_back(b);
      if (plan.noise_jy > 0)
        fill_standard_normal(noise_key, row * noise.size(), noise.size(), noise.data());
      for (size_t c = 0; c < nchan; ++c) {
        std::complex<double> total = 0.0;
        for (size_t s = 0; s < plan.sources.size(); ++s) {
          const double flux = plan.sources[s].flux_at(plan.channel_freq_mhz(static_cast<int>(c)),
                                                      plan.centre_freq_mhz);
          total += point_source_visibility(flux, b, set.channel_freq_hz[c], lmn[s]);
        }
        for (size_t p = 0; p < nprod; ++p) {
          std::complex<double> v = product_sees_total_intensity(set.stokes[p]) ? total : 0.0;
          if (plan.noise_jy > 0)
            v += plan.noise_jy * std::complex<double>(noise[2 * (c * nprod + p)],
                                                      noise[2 * (c * nprod + p) + 1]);
          set.vis[set.index(row, c, p)] = std::complex<float>(v);
        }
      }
    }
  }
  return set;
}

}  // namespace rapt
