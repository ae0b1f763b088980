// rfifind masks for dedisp (kept apart: the only part of dedisp that reads masks).
#include <cmath>
#include <cstdio>

#include "cli/errors.hpp"
#include "dedisp/dedisp_options.hpp"
#include "io/rfifind_mask.hpp"

namespace rapt {

void apply_rfifind_mask(const RfifindMask& mask, const std::string& mask_path,
                        const ObservationInfo& info, std::vector<bool>* zapped,
                        SpectraPreparation* preparation) {
  if (mask.num_chan != info.nchans)
    throw file_error(mask_path, "made for " + std::to_string(mask.num_chan) +
                                    " channels, but " + info.path + " has " +
                                    std::to_string(info.nchans) +
                                    " (a mask from another observation?)");
  if (mask.pts_per_int <= 0 || mask.num_int <= 0)
    throw file_error(mask_path, "holds no intervals");
  // Channel numbers index the zap table below: one past the band would write outside it.
  for (int32_t p : zapped_channels(mask))
    if (p < 0 || p >= mask.num_chan)
      throw file_error(mask_path, "zaps channel " + std::to_string(p) + "; the mask has " +
                                      std::to_string(mask.num_chan) + " channels (0 to " +
                                      std::to_string(mask.num_chan - 1) + ")");
  zapped->resize(info.nchans, false);
  for (int32_t p : zapped_channels(mask)) (*zapped)[stored_channel(info, p)] = true;
  preparation->interval_spectra = size_t(mask.pts_per_int);
  preparation->masked_channels.assign(size_t(mask.num_int), {});
  bool any = false;
  for (int i = 0; i < mask.num_int; ++i)
    for (int32_t p : masked_channels(mask, i)) {
      const int c = stored_channel(info, p);
      if ((*zapped)[c]) continue;
      preparation->masked_channels[i].push_back(c);
      any = true;
    }
  if (!any) preparation->masked_channels.clear();  // nothing beyond whole channels
}

}  // namespace rapt
