// How much memory gridding an image takes, and whether the machine has it: refused up front
// with the numbers, rather than found out by the kernel's OOM killer.
#pragma once
#include <cstdint>
#include <string>

#include "idg/idg_settings.hpp"

namespace rapt {

// Bytes the engine holds for one image: every w-layer's complex grid, the image and the
// taper correction beside it, and the subgrids of the threads at work.
double idg_image_bytes(const IdgSettings& settings, int threads);

// MemAvailable from /proc/meminfo (bytes), or a negative number where it cannot be read.
double available_memory_bytes();

// "1.5 GiB"
std::string describe_bytes(double bytes);

}  // namespace rapt
