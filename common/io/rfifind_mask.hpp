// rfifind .mask files (PRESTO src/mask.c layout, formats.md section 8): which channels to
// ignore in which time intervals. Channel numbers are in ascending-frequency order (channel 0
// is centred at lofreq_mhz), intervals are dtint_s long from the start of the data.
//
// Layout, native little-endian, no padding:
//   double timesigma, freqsigma, mjd, dtint, lofreq, dfreq
//   int32 numchan, numint, ptsperint
//   int32 num_zap_chans, int32 zap_chans[num_zap_chans]
//   int32 num_zap_ints,  int32 zap_ints[num_zap_ints]
//   int32 num_chans_per_int[numint]
//   for each interval with 0 < n < numchan: int32 chans[n]   (n == numchan: all, no list)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rapt {

struct RfifindMask {
  double time_sigma = 0.0;
  double freq_sigma = 0.0;
  double mjd = 0.0;         // epoch of the data the mask was made from
  double dtint_s = 0.0;     // interval length
  double lofreq_mhz = 0.0;  // centre of channel 0, the lowest
  double dfreq_mhz = 0.0;   // channel width
  int32_t num_chan = 0;
  int32_t num_int = 0;
  int32_t pts_per_int = 0;         // samples per interval
  std::vector<int32_t> zap_chans;  // channels masked in every interval
  std::vector<int32_t> zap_ints;   // intervals masked in every channel (ascending)
  // Per interval, num_int entries each: whether rfifind masked every channel there (stored in
  // the file as a count only, so reading costs nothing per channel), and otherwise the
  // channels it masked (ignored for a fully masked interval).
  std::vector<uint8_t> interval_all_masked;
  std::vector<std::vector<int32_t>> interval_chans;
};

// Parses the bytes of a .mask file; `name` is used in messages. Throws DataError when the data
// is truncated, has bytes left over, or holds counts or channel numbers out of range.
RfifindMask parse_rfifind_mask(const std::string& bytes, const std::string& name);
std::string serialize_rfifind_mask(const RfifindMask& mask);

RfifindMask read_rfifind_mask(const std::string& path);
void write_rfifind_mask(const std::string& path, const RfifindMask& mask, bool overwrite);

// True if `channel` is masked in `interval`: the interval is zapped, the channel is zapped, or
// the interval's own list holds it (PRESTO's check_mask rule). Throws std::out_of_range for a
// channel outside 0..num_chan-1 or an interval outside 0..num_int-1.
bool channel_masked(const RfifindMask& mask, int channel, int interval);
// The interval covering `time_s` seconds from the start, clamped to 0..num_int-1 (data a little
// longer than the mask uses the last interval).
int interval_at_time(const RfifindMask& mask, double time_s);
// Channels masked in every interval (zap_chans), ascending, without duplicates.
std::vector<int32_t> zapped_channels(const RfifindMask& mask);
// All channels masked in `interval` (the union of the three rules), ascending.
std::vector<int32_t> masked_channels(const RfifindMask& mask, int interval);

}  // namespace rapt
