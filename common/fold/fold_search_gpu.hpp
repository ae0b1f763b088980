// The DM x P x P' shift-and-add search of fold_search.cpp on a GPU. Defined in gpu/ and linked
// only in builds with RAPT_WITH_CUDA; search_fold() calls it when FoldSearchOptions::gpu >= 0.
// It computes every trial's reduced chi^2 with the CPU search's arithmetic (the same float sums
// in the same order, the same double chi^2), so both find the same best trial.
#pragma once
#include <vector>

namespace rapt {

struct FoldGridInput {
  int nbins = 0, npart = 0;
  std::vector<float> centred;     // [searched DM][part][2 nbins + 8]: mean-subtracted profiles,
                                  // twice, in the order of `dms`
  std::vector<double> variance;   // [searched DM]: sum of the parts' profile variances
  std::vector<double> times_s;    // [part]: start of each part
  std::vector<double> df_hz;      // [p trial]
  std::vector<double> dfdot;      // [pd trial]
  std::vector<int> dms, pds, ps;  // the trials searched (grid indices), in loop order
  double shift_offset = 0.0;      // the CPU search's whole-profile offset for rounding shifts
};

struct FoldGridBest {
  double redchi = -1.0;
  int dm = 0, p = 0, pd = 0;  // indices into the grids (as in dms/pds/ps values)
};

// True when the GPU search handles this shape (bins and the parts' profiles fit its blocks).
bool fold_grid_gpu_supported(int nbins, int npart);
FoldGridBest search_fold_grid_gpu(const FoldGridInput& input, int gpu_index);

}  // namespace rapt
