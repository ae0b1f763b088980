// channelize on the command line: every option declared once here (the channeliser's own
// through ppf/pfb_options.hpp), read into ChannelizeOptions and checked against each other
// (man/channelize.1 lists them).
#pragma once
#include <cxxopts.hpp>
#include <string>

#include "gpu_device.hpp"
#include "io/vdif_read_options.hpp"
#include "ppf/pfb_options.hpp"

namespace rapt {

struct ChannelizeOptions {
  std::string input;             // voltage file, "-" = PSRDADA on stdin
  std::string output;            // -o: a PSRDADA file or (--detect) a filterbank; "-" = stdout
  PfbOptions pfb;
  int out_bits = 32;             // voltages: 8, 16 or 32 (float); --detect: 8 or 32
  double scale = 0;              // --scale: voltages multiplied by it; 0 = automatic (8, 16 bits)
  bool detect = false;           // --detect: Stokes I filterbank instead of voltages
  std::string antenna;           // --antenna: one antenna's Stokes I ("" = summed over all)
  int tavg = 1;                  // --tavg: output samples averaged into one filterbank sample
  VdifReadOptions vdif;          // --vdif-rate, --vdif-freq, --vdif-lsb, --vdif-signed
  int64_t gulp = 0;              // input samples per block; 0 = from --max-block-mib
  double max_block_mib = 256;
  DeviceChoice device;
  int threads = 0;
  bool overwrite = false;
};

void add_channelize_options(cxxopts::Options& options);

// Throws UsageError naming the option for a bad value or a bad combination.
ChannelizeOptions channelize_options_from(const cxxopts::ParseResult& result);

}  // namespace rapt
