// Which images --pol asks for, and how each is made from the correlation products a file holds.
//
// Conventions (WSClean's and AIPS's): linear feeds XX = I + Q, YY = I - Q, XY = U + iV,
// YX = U - iV; circular feeds RR = I + V, LL = I - V, RL = Q + iU, LR = Q - iU. So from linear
// products I = (XX + YY)/2, Q = (XX - YY)/2, U = (XY + YX)/2, V = -i(XY - YX)/2, and from
// circular ones I = (RR + LL)/2, V = (RR - LL)/2, Q = (RL + LR)/2, U = -i(RL - LR)/2.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

struct ProductTerm {
  int product = 0;                  // index into the file's list of products
  std::complex<float> coefficient;  // of that product in the combination
};

struct OutputPolarisation {
  std::string name;  // "I", "XX", ... as in file names and messages
  int fits_stokes = 1;  // FITS/AIPS code: 1..4 I Q U V, -1..-4 RR LL RL LR, -5..-8 XX YY XY YX
  std::vector<ProductTerm> terms;
};

// Splits a --pol value into names: "I", "iquv", "xx,yy", "XX YY", "IQUV" (case-insensitive;
// commas and blanks optional). Throws UsageError for anything else or a repeated name.
std::vector<std::string> parse_polarisation_list(const std::string& text);

// The combinations for `wanted` (names from parse_polarisation_list) out of `file_stokes`
// (the file's FITS codes in file order). Throws DataError "path: ..." naming the products the
// file has when one cannot be made (and suggesting a --pol it can make).
std::vector<OutputPolarisation> select_polarisations(const std::vector<std::string>& wanted,
                                                     const std::vector<int>& file_stokes,
                                                     const std::string& path);

// A visibility and its weight from the products of one sample: the terms' combination, and
// min_k(w_k) / sum_k |c_k|^2, the inverse variance of the combination if every product had the
// smallest of their weights (I = (XX + YY)/2 gets 2 min(w_XX, w_YY)). WSClean weights Stokes I
// by 4 min(w_XX, w_YY), the same up to a factor that the image's normalisation removes.
// Weight 0 when any product is flagged, has no weight or is not finite, or there are no terms.
struct CombinedSample {
  std::complex<float> value;
  float weight = 0;
};
CombinedSample combine_products(const OutputPolarisation& pol, const std::complex<float>* products,
                                const float* weights, const uint8_t* flags);

}  // namespace rapt
