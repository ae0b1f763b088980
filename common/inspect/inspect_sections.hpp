// One describer per family of formats; inspect_file (inspect_report.cpp) picks one from the
// detected format. Each returns the header section and, unless settings.header_only, the
// statistics section; lenient-reader notes go to `warnings` ("path: ...").
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "geometry/array_layout.hpp"
#include "inspect/inspect_report.hpp"
#include "io/spectra_source.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

// A stream read once (standard input, "-", or a named pipe, `file` then closed): a SIGPROC
// filterbank or .tim, or GUPPI RAW, PSRDADA or VDIF voltages, told by its first bytes as a file
// is; standard input redirected from a file of any other format is that file.
std::string describe_stream(const std::string& name, std::FILE* file,
                            const InspectSettings& settings, std::vector<std::string>* warnings);

// SIGPROC filterbank/.tim and PSRFITS search mode.
std::string describe_spectra_file(const std::string& path, const InspectSettings& settings,
                                  std::vector<std::string>* warnings);
std::string describe_spectra(std::unique_ptr<SpectraSource> source,
                             const InspectSettings& settings, std::vector<std::string>* warnings);
// A PRESTO .inf, or a .dat/.sdat/.fft series through its .inf (suffix ".dat", ".sdat", ".fft").
std::string describe_inf_file(const std::string& path);
std::string describe_presto_series(const std::string& path, const std::string& suffix,
                                   const InspectSettings& settings);

// GUPPI RAW, PSRDADA (rapt's native multi-antenna files included) and VDIF.
std::string describe_voltage_file(const std::string& path, const InspectSettings& settings,
                                  std::vector<std::string>* warnings);
std::string describe_voltages(const std::string& path, std::unique_ptr<VoltageReader> reader,
                              const InspectSettings& settings, std::vector<std::string>* warnings);
// UVFITS and Measurement Sets.
std::string describe_uvfits_file(const std::string& path, const InspectSettings& settings,
                                 std::vector<std::string>* warnings);
std::string describe_measurement_set(const std::string& path, const InspectSettings& settings,
                                     std::vector<std::string>* warnings);
// A FITS sky image.
std::string describe_fits_image_file(const std::string& path, const InspectSettings& settings,
                                     std::vector<std::string>* warnings);
// An A-term cube of per-station Jones matrices (idg-grid --aterms).
std::string describe_aterm_cube_file(const std::string& path, const InspectSettings& settings);
// A plain-text array layout file, or a layout read already.
std::string describe_layout_file(const std::string& path);
std::string describe_layout(const std::string& path, const ArrayLayout& layout);
// accelsearch's ACCEL candidate table and prepfold's .pfd.
std::string describe_accel_file(const std::string& path);
std::string describe_pfd_file(const std::string& path);

}  // namespace rapt
