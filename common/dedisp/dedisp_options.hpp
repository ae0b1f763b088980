// Turning dedisp's option values into plans: DM lists, channel lists, rfifind masks.
#pragma once
#include <string>
#include <vector>

#include "dedisp/spectra_preparer.hpp"
#include "io/spectra_source.hpp"

namespace rapt {

struct RfifindMask;

// DMs from the text of a --dm-list file: numbers separated by white space or commas, '#' to the
// end of a line is a comment. `name` is used in messages. Throws UsageError for a token that is
// not a number or a list with no DMs (negative DMs are refused later, by the plan).
std::vector<double> parse_dm_list(const std::string& text, const std::string& name);

// Channels from an --ignorechan value: "0:10,34,100:120" (ranges inclusive). Channel numbers
// count as PRESTO counts them: 0 is the lowest frequency. Throws UsageError for malformed text
// or a channel outside 0..nchans-1.
std::vector<int> parse_channel_list(const std::string& spec, int nchans);

// PRESTO channel p (0 = lowest frequency) as a channel of the data as stored.
int stored_channel(const ObservationInfo& info, int presto_channel);

// What a mask means for this observation: channels zapped everywhere (into `zapped`, file
// order) and, per interval, the other channels to replace. Throws DataError naming
// `mask_path` when the mask was made for another channel count.
void apply_rfifind_mask(const RfifindMask& mask, const std::string& mask_path,
                        const ObservationInfo& info, std::vector<bool>* zapped,
                        SpectraPreparation* preparation);

// The cleaning options dedisp takes (and snr's fused and real-time modes with it).
struct SpectraCleaning {
  std::string mask_path;        // --mask: an rfifind mask; "" = none
  std::string ignorechan;       // --ignorechan: channels to leave out; "" = none
  bool zerodm = false;          // --zerodm
  bool normalise = false;       // --normalise
  double clip_sigma = 0.0;      // --clip
  size_t interval_spectra = 4096;  // --stats-interval
};

// The cleaning for this observation, and the channels to leave out (file order) into
// `zapped`. Throws UsageError for a bad channel list or clip, DataError for a bad mask; either
// when no channel is left.
SpectraPreparation spectra_preparation(const SpectraCleaning& cleaning,
                                       const ObservationInfo& info, std::vector<bool>* zapped);

// The DM constant from --dm-const: a number, or "presto" (1/2.41e-4) or "sigproc" (4148.808).
double parse_dm_const(const std::string& value);

}  // namespace rapt
