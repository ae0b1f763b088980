// How a VDIF file is to be read where its frames do not say: the sample rate (EDV 3 headers
// give it, else a second of frames), the sky frequency (never in the frames), the sideband and
// the code of the samples. rapt's programs take them as --vdif-rate, --vdif-freq, --vdif-lsb
// and --vdif-signed (cli/vdif_options.hpp).
#pragma once

namespace rapt {

struct VdifReadOptions {
  double sample_rate_hz = 0;     // complex or real samples per second of one channel; 0 = from
                                 // EDV 3 headers or from the frames per second in the file
  bool twos_complement = false;  // codes are signed integers, not offset binary
  double centre_freq_mhz = 0;    // sky frequency of the recorded band's centre; 0 = unknown
  bool lower_sideband = false;   // the band is inverted: channel 0 is its highest frequency
};

}  // namespace rapt
