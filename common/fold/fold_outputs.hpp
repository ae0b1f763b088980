// fold's outputs, named and laid out as prepfold's: "<root>_<candidate>.pfd" (the folds, the
// search grids and the best P, P', DM) and "<root>_<candidate>.pfd.bestprof" (the best profile
// with its statistics). Both go through the existing PRESTO-exact writers (io/pfd.hpp,
// io/bestprof.hpp); a plot, if wanted, is drawn from the same Pfd.
#pragma once
#include <string>

#include "fold/fold_candidate.hpp"
#include "fold/fold_engine.hpp"
#include "fold/fold_input.hpp"
#include "fold/fold_search.hpp"
#include "io/bestprof.hpp"
#include "io/pfd.hpp"

namespace rapt {

struct FoldOutputNames {
  std::string pfd;       // <root>_<candidate>.pfd
  std::string bestprof;  // <root>_<candidate>.pfd.bestprof
};
FoldOutputNames fold_output_names(const std::string& root, const std::string& candidate);

// The .pfd as folded, before the search: header from the observation and candidate, the
// cube's sums as rawfolds (each bin brought to the part's mean exposure), and per (part,
// subband) the statistics prepfold's fold() keeps.
// `dm` is the DM the subbands were formed at (a time series: its .inf DM).
Pfd make_pfd(const FoldObservation& obs, const FoldCandidate& candidate, const FoldLayout& layout,
             const FoldCube& cube, double dm, const std::string& pfd_path);

// The .bestprof of a searched Pfd. N/A for the epochs and periods PRESTO would not know.
Bestprof make_bestprof(const Pfd& pfd, const FoldSearchResult& result);

}  // namespace rapt
