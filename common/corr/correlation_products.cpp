#include "corr/correlation_products.hpp"

#include <stdexcept>

namespace rapt {

CorrelationProducts correlation_products(int npol, bool circular) {
  // AIPS numbers circular products from -1 (RR) and linear ones from -5 (XX); within each
  // group the order is the same: parallel hands, then 01, then 10.
  const int first = circular ? -1 : -5;
  if (npol == 1) return {{first}, {0}};
  if (npol == 2) return {{first, first - 1, first - 2, first - 3}, {0, 3, 1, 2}};
  throw std::invalid_argument("correlation_products: npol must be 1 or 2");
}

}  // namespace rapt
