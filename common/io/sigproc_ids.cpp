// What a SIGPROC header means: telescope and backend names for its ids (formats.md 1.6), its
// packed sexagesimal coordinates (1.3), and the format-independent ObservationInfo.
#include <cctype>
#include <cmath>
#include <cstdint>

#include "io/sigproc.hpp"

namespace rapt {

namespace {

struct IdName {
  int id;
  const char* name;
};

// PRESTO's table; ids that only SIGPROC knows are added where PRESTO has no entry (82, and
// backends 8, 9, 10, 14), never where the two disagree.
constexpr IdName kTelescopes[] = {
    {0, "Fake"},   {1, "Arecibo"},  {2, "Ooty"},   {3, "Nancay"},     {4, "Parkes"},
    {5, "Jodrell"}, {6, "GBT"},     {7, "GMRT"},   {8, "Effelsberg"}, {9, "ATA"},
    {10, "SRT"},   {11, "LOFAR"},   {12, "VLA"},   {20, "CHIME"},     {21, "FAST"},
    {30, "MWA"},   {64, "MeerKAT"}, {65, "KAT-7"}, {82, "eMerlin"},
};

constexpr IdName kMachines[] = {
    {0, "FAKE"},       {1, "PSPM"},       {2, "WAPP"},      {3, "AOFTM"},
    {4, "BPP"},        {5, "OOTY"},       {6, "SCAMP"},     {7, "SPIGOT"},
    {8, "PULSAR2000"}, {9, "PARSPEC"},    {10, "BPSR"},     {11, "BG/P"},
    {12, "PDEV"},      {14, "GMRTNEW"},   {20, "CHIME+PSR"}, {30, "MWA-VCS"},
    {31, "MWAX-VCS"},  {32, "MWAX-RTB"},  {64, "KAT"},      {65, "KAT-DC2"},
};

template <size_t N>
std::string name_for(const IdName (&table)[N], int id) {
  for (const IdName& entry : table)
    if (entry.id == id) return entry.name;
  return "Unknown";
}

bool same_name(const std::string& a, const char* b) {
  size_t i = 0;
  for (; i < a.size() && b[i]; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return i == a.size() && !b[i];
}

// |packed| = aa*10000 + mm*100 + ss.s  ->  aa + mm/60 + ss.s/3600
double unpack_sexagesimal(double packed) {
  const double a = std::fabs(packed);
  const double whole = std::floor(a / 1e4);
  const double minutes = std::floor((a - whole * 1e4) / 100.0);
  const double seconds = a - whole * 1e4 - minutes * 100.0;
  return whole + minutes / 60.0 + seconds / 3600.0;
}

// Split in whole nanoseconds (of time or arc) of the last field: a value a rounding error below
// a whole minute (4 h computed as 3.99999999999999 h) is then written 040000.0, never 035960.0,
// which readers would show as 03:59:60.
double pack_sexagesimal(double value) {
  const int64_t ns = std::llround(std::fabs(value) * 3600.0 * 1e9);
  const int64_t per_minute = int64_t(60) * 1000000000, per_unit = 60 * per_minute;
  const int64_t whole = ns / per_unit, minutes = ns % per_unit / per_minute;
  const double seconds = double(ns % per_minute) * 1e-9;
  return double(whole) * 1e4 + double(minutes) * 100.0 + seconds;
}

}  // namespace

std::string sigproc_telescope_name(int telescope_id) { return name_for(kTelescopes, telescope_id); }
std::string sigproc_machine_name(int machine_id) { return name_for(kMachines, machine_id); }

int sigproc_telescope_id(const std::string& name) {
  for (const IdName& entry : kTelescopes)
    if (same_name(name, entry.name)) return entry.id;
  return -1;
}

double sigproc_ra_to_deg(double hhmmss) { return 15.0 * unpack_sexagesimal(hhmmss); }

// The sign belongs to the whole number, so -00:30:15.5 (-3015.5) stays negative.
double sigproc_dec_to_deg(double ddmmss) {
  const double deg = unpack_sexagesimal(ddmmss);
  return ddmmss < 0.0 ? -deg : deg;
}

double deg_to_sigproc_ra(double ra_deg) {
  double wrapped = std::fmod(ra_deg, 360.0);
  if (wrapped < 0.0) wrapped += 360.0;
  return pack_sexagesimal(wrapped / 15.0);
}

double deg_to_sigproc_dec(double dec_deg) {
  const double packed = pack_sexagesimal(dec_deg);
  return dec_deg < 0.0 ? -packed : packed;
}

ObservationInfo observation_from_sigproc(const SigprocHeader& header, const std::string& path) {
  ObservationInfo info;
  info.path = path;
  info.format = header.data_type == 2 ? "SIGPROC time series" : "SIGPROC filterbank";
  info.source_name = header.source_name;
  info.telescope_id = header.telescope_id;
  info.machine_id = header.machine_id;
  info.telescope = sigproc_telescope_name(header.telescope_id);
  info.instrument = sigproc_machine_name(header.machine_id);
  info.ra_deg = sigproc_ra_to_deg(header.src_raj);
  info.dec_deg = sigproc_dec_to_deg(header.src_dej);
  info.az_start_deg = header.az_start;
  info.za_start_deg = header.za_start;
  info.tstart_mjd = header.tstart;
  info.tsamp_s = header.tsamp;
  info.fch1_mhz = header.fch1;
  info.foff_mhz = header.foff;
  info.nchans = header.nchans;
  info.nbits = header.nbits;
  info.npol_summed = header.nifs;
  info.barycentric = header.barycentric;
  info.nspectra = -1;
  return info;
}

}  // namespace rapt
