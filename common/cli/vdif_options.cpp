#include "cli/vdif_options.hpp"

#include <cmath>

#include "cli/errors.hpp"

namespace rapt {

void add_vdif_options(cxxopts::Options& options, const std::string& group) {
  options.add_options(group)
      ("vdif-rate", "VDIF input: samples per second per channel, for frames that do not say",
       cxxopts::value<double>()->default_value("0"))
      ("vdif-freq", "VDIF input: sky frequency of the recorded band's centre, MHz (the frames "
       "do not carry it)", cxxopts::value<double>())
      ("vdif-lsb", "VDIF input: the band is a lower sideband (channel 0 is its highest "
       "frequency, and each channel's spectrum is inverted)")
      ("vdif-signed", "VDIF input: samples are two's-complement integers, not offset binary "
       "(2, 4 or 8 bits)");
}

VdifReadOptions vdif_options_from(const cxxopts::ParseResult& r) {
  VdifReadOptions o;
  o.sample_rate_hz = r["vdif-rate"].as<double>();
  if (!(o.sample_rate_hz >= 0) || !std::isfinite(o.sample_rate_hz))
    throw UsageError("--vdif-rate must be a positive number of samples per second");
  if (r.count("vdif-freq")) {
    o.centre_freq_mhz = r["vdif-freq"].as<double>();
    if (!(o.centre_freq_mhz > 0) || !std::isfinite(o.centre_freq_mhz))
      throw UsageError("--vdif-freq must be a positive frequency in MHz");
  }
  o.lower_sideband = r.count("vdif-lsb") > 0;
  o.twos_complement = r.count("vdif-signed") > 0;
  return o;
}

}  // namespace rapt
