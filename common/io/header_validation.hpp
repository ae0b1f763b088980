// One place for the checks every reader applies to the header values that a computation
// divides by, takes a logarithm of, or sizes memory from: finite, in a physical range, and
// consistent with the file. Each failure is one DataError line naming the file, the field and
// the value, in one shape:
//   "obs.fil: header field foff = 0 MHz; must be non-zero"
// Readers call these right after parsing, so no program ever computes with such a value.
#pragma once
#include <cstdint>
#include <string>

namespace rapt {

// Physical limits: generous enough for any real instrument, tight enough that products and
// squares of these values stay finite and sample counts fit in memory.
inline constexpr double kMinSampleTime_s = 1e-10;   // 10 GHz sampling
inline constexpr double kMaxSampleTime_s = 1e4;     // hours-long integrations
inline constexpr double kMaxSkyFreq_mhz = 1e7;      // 10 THz, far above any radio receiver
inline constexpr double kMaxDm = 1e6;               // pc cm^-3

// "<file>: header field <field> = <value> <unit>; <requirement>" as a DataError.
[[noreturn]] void throw_header_field_error(const std::string& file, const std::string& field,
                                           double value, const std::string& unit,
                                           const std::string& requirement);

// Each throws the error above unless the value passes; `unit` may be empty.
void require_finite(const std::string& file, const std::string& field, double value,
                    const std::string& unit);
void require_positive(const std::string& file, const std::string& field, double value,
                      const std::string& unit);
void require_nonzero(const std::string& file, const std::string& field, double value,
                     const std::string& unit);
void require_in_range(const std::string& file, const std::string& field, double value,
                      const std::string& unit, double lowest, double highest);

// A sampling time: finite and within [kMinSampleTime_s, kMaxSampleTime_s].
void validate_sample_time(const std::string& file, const std::string& field, double tsamp_s);

// A band of `nchans` evenly spaced channels, channel 0 at fch1_mhz, step foff_mhz: every
// channel at a finite positive frequency below kMaxSkyFreq_mhz, and a non-zero step when
// there is more than one channel. A single channel may give fch1 = 0 ("not recorded").
void validate_channel_band(const std::string& file, const std::string& fch1_field,
                           double fch1_mhz, const std::string& foff_field, double foff_mhz,
                           int nchans);

// A series whose header promises `promised` samples but whose data file holds `present`:
// fewer is a truncated file ("x.dat: holds 100 samples but x.inf says N = 4000; the file is
// truncated"), more a header that does not describe the file; none at all is an empty file.
void validate_series_length(const std::string& header_file, const std::string& field,
                            int64_t promised, const std::string& data_file, int64_t present);

// A FITS header (the HDU numbered `hdu`, starting `offset` bytes into `path`) must be printable
// ASCII cards up to END. CFITSIO copies some header values into fixed buffers without checking
// their length once they hold other bytes, so readers check each header from the file itself
// before CFITSIO reads it: "x.sf: header of HDU 2 holds a byte that is not printable ASCII
// (not FITS)". A header cut short has the bytes present checked; the cut itself is left
// for CFITSIO to report.
void require_ascii_fits_header(const std::string& path, long long offset, int hdu);

}  // namespace rapt
