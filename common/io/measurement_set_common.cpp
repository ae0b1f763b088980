// Stokes code conversions and the build-time support switch for Measurement Sets.
#include <algorithm>
#include <cctype>

#include "io/measurement_set.hpp"
#include "io/measurement_set_internal.hpp"

namespace rapt {

bool measurement_set_supported() {
#ifdef RAPT_WITH_CASACORE
  return true;
#else
  return false;
#endif
}

// MS CORR_TYPE follows casacore's Stokes enum; FITS/AIPS orders the circular and linear
// products differently (RR LL RL LR, XX YY XY YX), so the map is a table, not an offset.
namespace {
struct StokesPair {
  int corr_type;
  int fits;
};
constexpr StokesPair kStokesPairs[] = {
    {1, 1},  {2, 2},  {3, 3},  {4, 4},   {5, -1},  {6, -3},
    {7, -4}, {8, -2}, {9, -5}, {10, -7}, {11, -8}, {12, -6},
};
}  // namespace

int fits_stokes_from_ms_corr_type(int corr_type) {
  for (const StokesPair& p : kStokesPairs)
    if (p.corr_type == corr_type) return p.fits;
  return 0;
}

int ms_corr_type_from_fits_stokes(int fits_stokes) {
  for (const StokesPair& p : kStokesPairs)
    if (p.fits == fits_stokes) return p.corr_type;
  return 0;
}

namespace ms_detail {

UsageError no_support_error(const std::string& path) {
  return UsageError(path +
                    ": this build of rapt has no Measurement Set support (built without "
                    "casacore; install casacore-dev and rebuild)");
}

std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace ms_detail
}  // namespace rapt
