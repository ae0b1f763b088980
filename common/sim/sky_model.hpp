// The sky of the array simulators: point sources of constant flux with power-law spectra, and
// the direction keys that place a pulsar or a burst on the sky.
//
//   --source "ra=05:34:31.9,dec=+22:00:52,flux=10,index=-0.7,fref=1400"
//   --pulsar "P=0.0331,DM=56.8,snr=30,ra=05:34:31.9,dec=+22:00:52"
//
// ra and dec take "hh:mm:ss.s" / "+dd:mm:ss.s" or decimal degrees (parse_ra_rad,
// parse_dec_rad). Flux convention (man page, rapt(7)): `flux` is Stokes I in Jy of an
// unpolarised source; each of the two polarisations of an antenna receives I (so XX = YY = I
// and I = (XX + YY) / 2, as CASA, AIPS and WSClean form it).
#pragma once
#include <optional>
#include <string>

#include "geometry/interferometer_geometry.hpp"

namespace rapt {

struct PointSourceSpec {
  std::string text;             // as given, for messages
  SkyDirection direction;
  double flux_jy = 0.0;         // Stokes I at ref_freq_mhz
  double spectral_index = 0.0;  // flux ~ (f / fref)^index
  double ref_freq_mhz = 0.0;    // 0 = the band's centre frequency

  // Flux at `freq_mhz`; `centre_mhz` stands in for an unset fref.
  double flux_at(double freq_mhz, double centre_mhz) const;
};

// Parses "ra=,dec=,flux=[,index=][,fref=]" (keys case-insensitive). Throws UsageError
// `--source "text": problem` for a missing or unknown key, a bad number or a bad angle.
PointSourceSpec parse_point_source_spec(const std::string& text);

// A pulsar or burst text with its optional ra=/dec= keys taken out: `rest` goes to
// parse_pulsar_spec / parse_burst_spec, the direction defaults to `phase_centre`.
struct DirectedSignalText {
  std::string rest;
  SkyDirection direction;
};
DirectedSignalText split_direction_keys(const std::string& option, const std::string& text,
                                        const SkyDirection& phase_centre);

}  // namespace rapt
