#include "accel/fourier_props.hpp"

#include <cmath>
#include <complex>
#include <sstream>

#include "cli/errors.hpp"

namespace rapt {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTiny = 1e-14;  // PRESTO's DBLCORRECT

}  // namespace

FourierProps fourier_props(const FourierDerivs& derivs, double r, double z, double w) {
  if (std::fabs(derivs.pow) < kTiny || derivs.locpow < kTiny) {
    std::ostringstream message;
    message << "Fourier peak at r = " << r << ", z = " << z << ": power " << derivs.pow
            << " or local power " << derivs.locpow << " is zero";
    throw DataError(message.str());
  }
  const double p = derivs.pow / derivs.locpow;
  const double d2p = derivs.d2pow / derivs.locpow;
  FourierProps props;
  props.pur = std::sqrt(1.5 * std::fabs(d2p) / p) / kPi;
  if (std::fabs(p) < kTiny) props.pur = 1.0;
  props.purerr = 1.0 / (props.pur * std::sqrt(10.0 * p));
  props.r = r;
  props.rerr = 3.0 / (kPi * props.pur * std::sqrt(6.0 * p));
  props.z = z;
  props.zerr = 3.0 * std::sqrt(10.0) / (kPi * props.pur * props.pur * std::sqrt(p));
  props.w = w;
  props.werr = 6.0 * std::sqrt(105.0) / (kPi * props.pur * props.pur * props.pur * std::sqrt(p));
  props.pow = p;
  props.powerr = std::sqrt(2.0 * p);
  props.sig = std::sqrt(2.0 * p - std::log(kPi * p));
  props.rawpow = derivs.pow;
  props.phs = derivs.phs;
  props.phserr = 1.0 / props.powerr;
  props.cen = -derivs.dphs / (2.0 * kPi);
  props.cenerr = 1.0 / std::sqrt(24.0 * p);
  props.locpow = derivs.locpow;
  return props;
}

double coherent_power(const std::vector<FourierDerivs>& harmonics, double photons) {
  if (harmonics.empty()) return 0.0;
  const double phs0 = harmonics[0].phs;
  std::complex<double> sum = 0.0;
  for (size_t j = 0; j < harmonics.size(); ++j) {
    const FourierDerivs& h = harmonics[j];
    const double amplitude = std::sqrt(h.pow / (photons > 0.0 ? photons : h.locpow));
    const double correction = phs0 - std::fmod((j + 1.0) * phs0, 2.0 * kPi);
    sum += std::polar(amplitude, h.phs + correction);
  }
  return std::norm(sum);
}

}  // namespace rapt
