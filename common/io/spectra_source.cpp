#include "io/spectra_source.hpp"

#include <algorithm>
#include <vector>

namespace rapt {

double ObservationInfo::lowest_freq_mhz() const {
  return std::min(channel_freq_mhz(0), channel_freq_mhz(nchans - 1));
}
double ObservationInfo::highest_freq_mhz() const {
  return std::max(channel_freq_mhz(0), channel_freq_mhz(nchans - 1));
}

const std::vector<std::string>& SpectraSource::warnings() const {
  static const std::vector<std::string> none;
  return none;
}

size_t SpectraSource::skip(size_t spectra) {
  std::vector<float> scratch(std::max(1, info().nchans) * size_t(1024));
  size_t done = 0;
  while (done < spectra) {
    const size_t want = std::min<size_t>(1024, spectra - done);
    const size_t got = read(scratch.data(), want);
    if (got == 0) break;
    done += got;
  }
  return done;
}

}  // namespace rapt
