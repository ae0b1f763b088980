#include "imaging/image_names.hpp"

#include <cstdio>

namespace rapt {

std::string wsclean_image_name(const std::string& name, int channel_group,
                               const std::string& polarisation, const std::string& kind) {
  std::string path = name;
  if (channel_group >= 0) {
    char group[16];
    std::snprintf(group, sizeof group, "-%04d", channel_group);
    path += group;
  }
  if (!polarisation.empty()) path += "-" + polarisation;
  return path + "-" + kind + ".fits";
}

std::string wsclean_mfs_image_name(const std::string& name, const std::string& polarisation,
                                   const std::string& kind) {
  return name + "-MFS" + (polarisation.empty() ? "" : "-" + polarisation) + "-" + kind + ".fits";
}

}  // namespace rapt
