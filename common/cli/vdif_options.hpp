// The options of every program that reads voltages, for VDIF files, whose frames give neither
// the sky frequency nor always the sample rate: --vdif-rate, --vdif-freq, --vdif-lsb and
// --vdif-signed. Declared once here (bf, corr, channelize, inspect).
#pragma once
#include <cxxopts.hpp>
#include <string>

#include "io/vdif_read_options.hpp"

namespace rapt {

void add_vdif_options(cxxopts::Options& options, const std::string& group);

// Throws UsageError naming the option for a bad value.
VdifReadOptions vdif_options_from(const cxxopts::ParseResult& result);

}  // namespace rapt
