// Output file names as WSClean gives them, so scripts written for WSClean find idg-grid's
// images: NAME[-CCCC][-POL]-dirty.fits and NAME[-CCCC]-psf.fits, the channel group (4 digits)
// only with several groups, the polarisation only with several polarisations.
#pragma once
#include <string>

namespace rapt {

// kind: "dirty" or "psf". channel_group < 0 or polarisation "" leave that part out.
std::string wsclean_image_name(const std::string& name, int channel_group,
                               const std::string& polarisation, const std::string& kind);
// The image of the whole band made of several channel groups' (--channels-out):
// NAME-MFS[-POL]-KIND.fits.
std::string wsclean_mfs_image_name(const std::string& name, const std::string& polarisation,
                                   const std::string& kind);

}  // namespace rapt
