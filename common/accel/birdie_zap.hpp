// Birdie zapping as PRESTO's accelsearch -zaplist/-baryv does it for in-memory (.dat/.sdat)
// input, and as zapbirds -zap does it to a .fft (src/zapping.c, src/misc_utils.c get_birdies,
// src/accelsearch.c).
//
// Zaplist text: one birdie per line, "freq_Hz width_Hz" (topocentric), or "B freq_Hz width_Hz"
// (already barycentric: no -baryv correction). Lines starting with '#' are comments; blank
// lines and anything after the second number (or after a '#') are ignored here, where PRESTO
// would miscount them.
#pragma once
#include <complex>
#include <string>
#include <vector>

namespace rapt {

struct ZapEntry {
  double freq_hz = 0.0;
  double width_hz = 0.0;
  bool barycentric = false;  // a 'B' line
};

// Throws DataError "name:line: ..." for a line that does not start with two numbers.
std::vector<ZapEntry> parse_zaplist(const std::string& text, const std::string& name);
std::vector<ZapEntry> read_zaplist(const std::string& path);

// A birdie's Fourier-bin interval in the spectrum to zap.
struct BirdieBins {
  double lobin = 0.0;
  double hibin = 0.0;
};

// PRESTO's get_birdies(): lobin, hibin = (freq -/+ width/2) * T_s, times (1 + baryv) for
// topocentric entries (baryv = v/c towards the source, so a topocentric birdie sits at
// f (1 + baryv) in a barycentred series). Intervals narrower than one bin are widened to one
// bin about their centre. Sorted by lobin.
std::vector<BirdieBins> birdie_bins(const std::vector<ZapEntry>& entries, double T_s,
                                    double baryv);

// zapbirds(): replaces bins floor(lobin) .. ceil(hibin) - 1 by (a, 0), where
// a = sqrt((m_lo + m_hi) / 2 / ln 2) from the median powers m_lo of the 200 bins
// [lobin - 300, lobin - 100) and m_hi of the 200 bins [hibin - 100, hibin + 100) (window
// starts truncated to integers). Nothing is done when lobin - 300 <= 1. Windows running past
// the end of the spectrum are cut there (PRESTO reads beyond its array). Returns whether it
// zapped.
bool zap_birdie(std::vector<std::complex<float>>& packed, double lobin, double hibin);

// accelsearch's loop: birdies in lobin order, stopping at the first with lobin >= numbins;
// hibin is capped at numbins - 1. Returns how many were zapped.
int zap_birdies(std::vector<std::complex<float>>& packed, const std::vector<BirdieBins>& birdies);

}  // namespace rapt
