#include "dedisp_self_check.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace rapt::gpu {
namespace {

float input_sample(const SpectraBlock& in, int nchans, size_t t, int c) {
  const auto* bytes = static_cast<const uint8_t*>(in.data);
  if (in.nbits == 32) {
    float v;
    std::memcpy(&v, bytes + (t * size_t(nchans) + size_t(c)) * 4, 4);
    return v;
  }
  const size_t bit = size_t(c) * size_t(in.nbits);
  const uint32_t byte = bytes[t * (size_t(nchans) * size_t(in.nbits) / 8) + bit / 8];
  return float((byte >> (bit % 8)) & ((1u << in.nbits) - 1u));
}

bool agree(float got, float want, double bound) {
  if (got == want || (std::isnan(got) && std::isnan(want))) return true;
  return std::fabs(double(got) - double(want)) <= bound;
}

}  // namespace

std::string check_output_samples(const DedispPlan& plan, const DedispDelays& d,
                                 const SpectraBlock& in, const float* out, size_t out_stride) {
  const size_t ds = size_t(plan.downsamp);
  const size_t nout = (in.nspectra - size_t(d.max_delay)) / ds;
  const int nactive = d.nactive();
  for (int j : {0, d.ndm() - 1})
    for (size_t k : {size_t(0), nout - 1}) {
      // Integer input: the exact sum, rounded once (what the GPU computes, and what a float
      // sum gives below 2^24). Float input: summed in the engines' order.
      float want = 0.0f;
      uint64_t exact = 0;
      double magnitude = 0.0;
      for (size_t i = 0; i < ds; ++i) {
        float sum = 0.0f;
        for (int a = 0; a < nactive; ++a) {
          const float x =
              input_sample(in, plan.nchans, k * ds + i + size_t(d.delays[size_t(j) * nactive + a]),
                           d.active_channels[size_t(a)]);
          sum += x;
          if (in.nbits != 32) exact += uint64_t(x);
          magnitude += std::fabs(double(x));
        }
        want += sum;
      }
      if (in.nbits != 32) want = float(exact);
      const int dm = d.dm_order[size_t(j)];
      const float got = out[size_t(dm) * out_stride + k];
      if (!agree(got, want, in.nbits == 32 ? 1e-6 * magnitude : 0.0)) {
        std::ostringstream text;
        text << "DM " << plan.dms[size_t(dm)] << ", sample " << k << ": GPU " << got << ", CPU "
             << want;
        return text.str();
      }
    }
  return "";
}

}  // namespace rapt::gpu
