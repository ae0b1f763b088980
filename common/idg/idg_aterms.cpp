#include "idg/idg_aterms.hpp"

#include <string>

#include "cli/errors.hpp"

namespace rapt {

IdgATerms identity_aterms(int nr_slots, int nr_stations, int subgrid_size) {
  IdgATerms a;
  a.nr_slots = nr_slots;
  a.nr_stations = nr_stations;
  a.subgrid_size = subgrid_size;
  const size_t matrices = size_t(nr_slots) * size_t(nr_stations) * a.matrices_per_station();
  a.jones.assign(matrices * 4, std::complex<float>(0.0f, 0.0f));
  for (size_t m = 0; m < matrices; ++m) a.jones[m * 4] = a.jones[m * 4 + 3] = 1.0f;
  return a;
}

void check_aterms(const IdgATerms& a, int npol, int subgrid_size) {
  if (npol != 4) throw UsageError("IDG A-terms need all four polarisations gridded (npol 4)");
  if (a.subgrid_size != subgrid_size)
    throw UsageError("IDG A-terms are sampled on " + std::to_string(a.subgrid_size) +
                     "-pixel subgrids, the plan's subgrids have " + std::to_string(subgrid_size));
  if (a.nr_slots < 1 || a.nr_stations < 1)
    throw UsageError("IDG A-terms need at least one time slot and one station");
  if (a.jones.size() != size_t(a.nr_slots) * size_t(a.nr_stations) * a.matrices_per_station() * 4)
    throw UsageError("IDG A-terms: the Jones array does not hold slots x stations x N-bar^2 matrices");
}

}  // namespace rapt
