// Text and time helpers shared by the voltage-file headers (GUPPI cards, DADA key lines):
// lenient numbers, sexagesimal angles and MJD <-> calendar dates.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rapt {

// `text` without leading and trailing blanks (spaces, tabs, CR, LF, NUL).
std::string trim_blanks(std::string_view text);

// A finite number from `text`, leniently: surrounding blanks and one pair of single or double
// quotes are ignored (GUPPI writers quote some numbers). Nothing if anything else is left over.
std::optional<double> parse_lenient_number(std::string_view text);

// As parse_lenient_number, but the value must be an integer within int64 range.
std::optional<int64_t> parse_lenient_integer(std::string_view text);

// "hh:mm:ss.s" / "-dd:mm:ss.s" (or a plain number) -> hours or degrees; nothing if malformed.
std::optional<double> parse_sexagesimal_value(std::string_view text);

// value (hours or degrees) as "[-]hh:mm:ss.ssss" with `decimals` decimals on the seconds.
std::string format_sexagesimal_value(double value, int decimals);
// A right ascension in degrees as hh:mm:ss.s (`decimals` places), in 0 .. 24 h: a value that
// rounds up to 24:00:00 is written as 00:00:00, which readers accept.
std::string format_right_ascension(double ra_deg, int decimals);

// Modified Julian Day of a proleptic Gregorian calendar date.
int64_t mjd_from_calendar(int year, int month, int day);
// The calendar date of an MJD.
void calendar_from_mjd(int64_t mjd, int& year, int& month, int& day);

// True when day + seconds, normalised, is a day in 0 .. 9999999 and 0 <= seconds < 86400.
bool mjd_in_range(int day, double seconds);

// Moves whole days from `seconds` into `day` so that 0 <= seconds < 86400.
void normalise_mjd(int& day, double& seconds);

// MJD day 0 is the readers' "no start time" (VoltageHeader::start_known): a normalised start
// within it (1858, before any observation) is cleared to that, its seconds set to 0, rather
// than kept as a time no program would use. Returns whether it was.
bool clear_start_in_day_zero(int day, double& seconds);

}  // namespace rapt
