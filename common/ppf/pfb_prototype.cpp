// The prototype low-pass filter of the polyphase filterbank: a windowed sinc one fine channel
// wide, or coefficients from a file, scaled to unit noise gain.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "cli/text_words.hpp"
#include "ppf/channeliser.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The window's value at k of n (symmetric: w[k] = w[n - 1 - k], so the filter's centre is the
// sinc's). `beta` is Kaiser's.
using Window = double (*)(int k, int n, double beta);

double hamming(int k, int n, double) {
  return n == 1 ? 1.0 : 0.54 - 0.46 * std::cos(2 * kPi * k / (n - 1));
}

// The 4-term Blackman-Harris window (Harris 1978), sidelobes below -92 dB.
double blackman_harris(int k, int n, double) {
  if (n == 1) return 1.0;
  const double x = 2 * kPi * k / (n - 1);
  return 0.35875 - 0.48829 * std::cos(x) + 0.14128 * std::cos(2 * x) - 0.01168 * std::cos(3 * x);
}

double kaiser(int k, int n, double beta) {
  if (n == 1) return 1.0;
  const double r = 2.0 * k / (n - 1) - 1.0;
  return std::cyl_bessel_i(0.0, beta * std::sqrt(std::max(0.0, 1 - r * r))) /
         std::cyl_bessel_i(0.0, beta);
}

// "kaiser:BETA" -> BETA; UsageError for anything that is not a number from 0 to 50 (beyond
// that I0 overflows nothing, but no filterbank wants it).
double kaiser_beta(const std::string& window) {
  const std::string text = window.substr(7);
  const std::optional<double> beta = finite_number(text);
  if (!beta || *beta < 0 || *beta > 50)
    throw UsageError("--window " + window + ": kaiser:BETA needs BETA from 0 to 50");
  return *beta;
}

Window window_named(const std::string& window, double& beta) {
  const std::string name = lowercase(window);
  if (name == "hamming") return hamming;
  if (name == "blackman-harris" || name == "blackmanharris") return blackman_harris;
  if (name.rfind("kaiser:", 0) == 0) {
    beta = kaiser_beta(window);
    return kaiser;
  }
  if (name == "kaiser") throw UsageError("--window kaiser needs its beta: kaiser:BETA (e.g. kaiser:8)");
  throw UsageError("--window '" + window + "' is not known; expected hamming, blackman-harris or "
                   "kaiser:BETA");
}

double sinc(double x) { return x == 0 ? 1.0 : std::sin(kPi * x) / (kPi * x); }

// One number per line ('#' comments and blank lines skipped).
std::vector<double> coefficients_in(const std::string& text, const std::string& path) {
  std::vector<double> values;
  for_each_content_line(text, path, [&](int line, const std::string& content) {
    const std::vector<std::string> w = words(content);
    const std::optional<double> value = w.size() == 1 ? finite_number(w[0]) : std::nullopt;
    if (!value)
      throw file_error(path, "line " + std::to_string(line) + ": expected one finite number, got '" +
                                 content + "'");
    values.push_back(*value);
  });
  return values;
}

// Scales to sum h^2 = 1; a filter of zeros is refused (it would pass nothing). The squares are
// summed after dividing by the largest magnitude, so neither tiny nor huge (finite) values
// overflow or lose their precision.
std::vector<float> unit_noise_gain(const std::vector<double>& h, const std::string& what) {
  double largest = 0;
  for (double v : h) largest = std::max(largest, std::fabs(v));
  if (!(largest > 0) || !std::isfinite(largest))
    throw DataError(what + ": the coefficients are all zero");
  double sum2 = 0;
  for (double v : h) sum2 += (v / largest) * (v / largest);
  const double norm = std::sqrt(sum2);
  std::vector<float> out(h.size());
  for (size_t k = 0; k < h.size(); ++k) out[k] = float((h[k] / largest) / norm);
  return out;
}

}  // namespace

std::vector<float> parse_pfb_coefficients(const std::string& text, const std::string& path,
                                          const ChanneliserShape& shape) {
  shape.validate();
  const int frame = shape.frame();
  const std::vector<double> h = coefficients_in(text, path);
  if (h.empty() || h.size() % size_t(frame) != 0)
    throw file_error(path, "holds " + std::to_string(h.size()) + " coefficients; a filter of " +
                               std::to_string(frame) + "-sample frames (" +
                               std::string(shape.real_input ? "2 x --nchan, real input"
                                                            : "--nchan") +
                               ") needs a whole number of frames, one per tap");
  if (h.size() / size_t(frame) > size_t(kMaxPfbTaps))
    throw file_error(path, "holds more than " + std::to_string(kMaxPfbTaps) + " taps");
  return unit_noise_gain(h, path);
}

void check_pfb_window(const std::string& window) {
  double beta = 0;
  window_named(window, beta);
}

std::vector<float> pfb_prototype(const PfbDesign& design, const ChanneliserShape& shape) {
  shape.validate();
  const int frame = shape.frame();
  if (!design.coeffs_path.empty())
    return parse_pfb_coefficients(read_file_contents(design.coeffs_path), design.coeffs_path,
                                  shape);
  if (design.ntaps < 1 || design.ntaps > kMaxPfbTaps)
    throw UsageError("--ntaps must be from 1 to " + std::to_string(kMaxPfbTaps) + " (got " +
                     std::to_string(design.ntaps) + ")");
  double beta = 0;
  const Window window = window_named(design.window, beta);
  const int n = design.ntaps * frame;
  std::vector<double> h(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k)
    h[size_t(k)] = window(k, n, beta) * sinc((k - (n - 1) / 2.0) / frame);
  return unit_noise_gain(h, "--window " + design.window);
}

}  // namespace rapt
