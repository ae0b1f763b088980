// Gaussian noise and the receiver bandpass.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rapt {

// Writes standard normal deviates number first .. first + count - 1 of the stream `key` to out.
// Deviate i is a pure function of (key, i): any range can be made alone and gives the same
// values as a longer range that contains it. Deviates 2k and 2k + 1 are the Box-Muller pair of
// the k-th counter-based random word (31 bits for the radius, 24 for the angle), so the tails
// are exact out to 6.6 sigma (probability 4e-11 beyond).
void fill_standard_normal(uint64_t key, uint64_t first, size_t count, float* out);

// The gain of each channel (peak 1): a gently rippled band with smooth roll-off over the outer
// ~5% at each edge, down to 0.15 at the outermost channels. All ones when `flat`.
std::vector<float> bandpass_gains(int nchans, bool flat);

}  // namespace rapt
