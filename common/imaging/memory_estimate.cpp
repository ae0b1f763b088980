#include "imaging/memory_estimate.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rapt {

double idg_image_bytes(const IdgSettings& s, int threads) {
  const double pixels = double(s.grid_size) * s.grid_size;
  const double complex_bytes = 8;  // complex<float>
  const double grids = double(s.nr_w_layers) * s.npol * pixels * complex_bytes;
  const double image_and_taper = (s.npol + 1) * pixels * complex_bytes;
  const double subgrids =
      double(threads) * 2 * s.npol * double(s.subgrid_size) * s.subgrid_size * complex_bytes;
  return grids + image_and_taper + subgrids;
}

double available_memory_bytes() {
  FILE* f = std::fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  double kib = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "MemAvailable:", 13) == 0) {
      kib = std::strtod(line + 13, nullptr);
      break;
    }
  }
  std::fclose(f);
  return kib < 0 ? -1 : kib * 1024;
}

std::string describe_bytes(double bytes) {
  char text[48];
  if (bytes >= 1024.0 * 1024 * 1024)
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  else
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024));
  return text;
}

}  // namespace rapt
