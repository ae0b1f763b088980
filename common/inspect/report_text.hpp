// The pieces every inspect report is written with: aligned "label value" lines, numbers,
// angles, UTC dates and polarisation names, so that all formats read alike.
#pragma once
#include <string>

#include "inspect/running_stats.hpp"

namespace rapt {

// "  <label padded to 28>  <value>\n".
std::string report_line(const std::string& label, const std::string& value);

// printf-style formatting of one number.
std::string report_number(const char* format, double value);

// "hh:mm:ss.ssss" (RA, from degrees) or "+dd:mm:ss.sss" (Dec, from degrees).
std::string sexagesimal(double value_deg, bool is_ra);

// "hh:mm:ss.ssss  +dd:mm:ss.sss  (ra_deg, dec_deg)" for a position given in degrees.
std::string sky_position(double ra_deg, double dec_deg);

// "YYYY-MM-DD hh:mm:ss.ssssss" (UTC) of an MJD given as a whole day and seconds into it.
std::string utc_date_time(long long mjd_day, double seconds_of_day);

// The same from a fractional MJD (about 10 us resolution near the present epoch).
std::string utc_date_time(double mjd);

// Name of a FITS/AIPS Stokes code: 1..4 I Q U V, -1..-4 RR LL RL LR, -5..-8 XX YY XY YX;
// anything else "code N".
std::string stokes_name(int code);

// "mean 1.5  rms 2  min 0  max 3" of a stream of values (rms about zero).
std::string stats_summary(const RunningStats& stats);

// Root mean square about zero of the values in `stats`.
double rms_about_zero(const RunningStats& stats);

}  // namespace rapt
