#include "imaging/polarisation_selection.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "cli/errors.hpp"
#include "inspect/report_text.hpp"  // stokes_name

namespace rapt {
namespace {

struct StokesCode {
  const char* name;
  int code;
};
constexpr StokesCode kCodes[] = {{"I", 1},   {"Q", 2},   {"U", 3},   {"V", 4},
                                 {"RR", -1}, {"LL", -2}, {"RL", -3}, {"LR", -4},
                                 {"XX", -5}, {"YY", -6}, {"XY", -7}, {"YX", -8}};

int code_of(const std::string& name) {
  for (const StokesCode& c : kCodes)
    if (name == c.name) return c.code;
  return 0;
}

using C = std::complex<float>;
const C kHalf(0.5f, 0.f);
const C kMinusHalf(-0.5f, 0.f);
const C kMinusHalfI(0.f, -0.5f);
const C kHalfI(0.f, 0.5f);

// One way of making a Stokes parameter: (code a, coefficient a), (code b, coefficient b).
struct Recipe {
  int stokes;
  int a;
  C ca;
  int b;
  C cb;
};
const Recipe kRecipes[] = {
    {1, -5, kHalf, -6, kHalf},       {1, -1, kHalf, -2, kHalf},        // I
    {2, -5, kHalf, -6, kMinusHalf},  {2, -3, kHalf, -4, kHalf},        // Q
    {3, -7, kHalf, -8, kHalf},       {3, -3, kMinusHalfI, -4, kHalfI}, // U
    {4, -7, kMinusHalfI, -8, kHalfI}, {4, -1, kHalf, -2, kMinusHalf},  // V
};

std::string product_list(const std::vector<int>& codes) {
  std::string text;
  for (int c : codes) text += (text.empty() ? "" : ", ") + stokes_name(c);
  return text.empty() ? "none" : text;
}

// A --pol value this file can give, for the message when the wanted one cannot be made.
std::string suggestion(const std::vector<int>& codes) {
  for (int c : codes)
    if (c < 0 && c >= -8) return " (try --pol " + stokes_name(c) + ")";
  return "";
}

int index_of(const std::vector<int>& codes, int code) {
  const auto it = std::find(codes.begin(), codes.end(), code);
  return it == codes.end() ? -1 : int(it - codes.begin());
}

}  // namespace

std::vector<std::string> parse_polarisation_list(const std::string& text) {
  std::string letters;
  for (char ch : text)
    if (ch != ',' && !std::isspace(static_cast<unsigned char>(ch)))
      letters += char(std::toupper(static_cast<unsigned char>(ch)));
  std::vector<std::string> names;
  for (size_t i = 0; i < letters.size();) {
    // Two-letter products first: "XX", "RL"; then the one-letter Stokes parameters.
    std::string name = letters.substr(i, 2);
    if (name.size() != 2 || code_of(name) >= 0) name = letters.substr(i, 1);
    if (code_of(name) == 0)
      throw UsageError("--pol '" + text + "': expected I, Q, U, V, XX, YY, XY, YX, RR, LL, RL or "
                       "LR (or a list such as IQUV or xx,yy)");
    if (std::find(names.begin(), names.end(), name) != names.end())
      throw UsageError("--pol '" + text + "' names " + name + " twice");
    names.push_back(name);
    i += name.size();
  }
  if (names.empty()) throw UsageError("--pol must not be empty");
  return names;
}

std::vector<OutputPolarisation> select_polarisations(const std::vector<std::string>& wanted,
                                                     const std::vector<int>& file_stokes,
                                                     const std::string& path) {
  std::vector<OutputPolarisation> out;
  for (const std::string& name : wanted) {
    OutputPolarisation pol;
    pol.name = name;
    pol.fits_stokes = code_of(name);
    const int direct = index_of(file_stokes, pol.fits_stokes);
    if (direct >= 0) {
      pol.terms.push_back({direct, C(1.f, 0.f)});
    } else {
      for (const Recipe& r : kRecipes) {
        if (r.stokes != pol.fits_stokes) continue;
        const int a = index_of(file_stokes, r.a), b = index_of(file_stokes, r.b);
        if (a < 0 || b < 0) continue;
        pol.terms = {{a, r.ca}, {b, r.cb}};
        break;
      }
    }
    if (pol.terms.empty())
      throw file_error(path, "cannot make " + name + ": the file holds " +
                                 product_list(file_stokes) + suggestion(file_stokes));
    out.push_back(pol);
  }
  return out;
}

CombinedSample combine_products(const OutputPolarisation& pol, const std::complex<float>* products,
                                const float* weights, const uint8_t* flags) {
  CombinedSample s;
  if (pol.terms.empty()) return s;  // a product the file does not hold
  double coefficients = 0;  // sum of |c|^2
  float smallest = INFINITY;
  for (const ProductTerm& t : pol.terms) {
    const float w = weights[t.product];
    if (flags[t.product] || !(w > 0) || !std::isfinite(w) || !std::isfinite(products[t.product].real()) ||
        !std::isfinite(products[t.product].imag()))
      return CombinedSample{};
    s.value += t.coefficient * products[t.product];
    coefficients += double(std::norm(t.coefficient));
    smallest = std::min(smallest, w);
  }
  s.weight = float(smallest / coefficients);
  return s;
}

}  // namespace rapt
