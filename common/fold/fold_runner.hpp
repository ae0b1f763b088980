// The whole fold of one input: open it, fold every candidate in one pass, search each fold,
// and build the .pfd and .bestprof (written by write_fold_product). tools/fold.cpp is this plus
// option parsing; tests drive it directly.
#pragma once
#include <string>
#include <vector>

#include "cli/program.hpp"
#include "fold/fold_options.hpp"
#include "fold/fold_outputs.hpp"

namespace rapt {

struct FoldProduct {
  FoldOutputNames names;
  Pfd pfd;
  Bestprof bestprof;
  FoldSearchResult result;
};

// Throws DataError naming the file for bad input (before anything is folded where it can:
// unknown candidates, periods under two samples, outputs that exist without `force`) and
// UsageError for options the input cannot take.
std::vector<FoldProduct> run_fold(const FoldOptions& options, bool force, const Messages& messages);
void write_fold_product(const FoldProduct& product, bool force);

}  // namespace rapt
