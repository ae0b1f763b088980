// The correlation products corr writes, and where each comes from in the engine's sums.
//
// The engines give p1 p2 = 00 01 10 11 (XX XY YX YY, or RR RL LR LL for circular feeds:
// correlator_engine.hpp). UVFITS wants Stokes codes that step by one along its axis, so the
// files hold XX YY XY YX (-5 -6 -7 -8) or RR LL RL LR (-1 -2 -3 -4): engine products 0 3 1 2.
// One polarisation gives XX (-5), or RR (-1) for circular feeds. Measurement Sets get the same
// order, labelled, so both files hold the same array.
#pragma once
#include <vector>

namespace rapt {

struct CorrelationProducts {
  std::vector<int> stokes;          // FITS/AIPS Stokes codes, file order
  std::vector<int> engine_product;  // [file product] -> engine product p1 * npol + p2
};

// Throws std::invalid_argument for npol other than 1 or 2.
CorrelationProducts correlation_products(int npol, bool circular);

}  // namespace rapt
