#include "io/rfifind_mask.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli/atomic_output.hpp"
#include "cli/errors.hpp"
#include "cli/file_contents.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rfifind masks are little-endian; this reader assumes a little-endian host"
#endif

namespace rapt {

namespace {

// Reads native values off the front of a byte string, naming what is missing when it ends.
class MaskCursor {
 public:
  MaskCursor(const std::string& bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  template <typename T>
  T take(const char* what) {
    need(sizeof(T), 1, what);
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }

  std::vector<int32_t> take_ints(int64_t count, const char* what) {
    need(sizeof(int32_t), count, what);
    std::vector<int32_t> values(static_cast<size_t>(count));
    if (values.empty()) return values;
    std::memcpy(values.data(), bytes_.data() + offset_, values.size() * sizeof(int32_t));
    offset_ += values.size() * sizeof(int32_t);
    return values;
  }

  size_t left() const { return bytes_.size() - offset_; }

 private:
  void need(size_t element_bytes, int64_t count, const char* what) const {
    const int64_t wanted = static_cast<int64_t>(element_bytes) * count;
    if (static_cast<int64_t>(left()) < wanted)
      throw file_error(name_, "truncated rfifind mask: " + std::to_string(bytes_.size()) +
                                  " bytes end inside " + what + " (at byte " +
                                  std::to_string(offset_) + ", " + std::to_string(wanted) +
                                  " more needed)");
  }

  const std::string& bytes_;
  const std::string& name_;
  size_t offset_ = 0;
};

int32_t take_count(MaskCursor& in, const char* what, const std::string& name) {
  const int32_t count = in.take<int32_t>(what);
  if (count < 0)
    throw file_error(
        name, std::string("rfifind mask has a negative ") + what + ": " + std::to_string(count));
  return count;
}

void read_interval_lists(MaskCursor& in, RfifindMask& mask, const std::string& name) {
  const std::vector<int32_t> counts = in.take_ints(mask.num_int, "the channel counts per interval");
  mask.interval_all_masked.assign(counts.size(), 0);
  mask.interval_chans.assign(counts.size(), {});
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0 || counts[i] > mask.num_chan)
      throw file_error(name, "rfifind mask interval " + std::to_string(i) + " claims " +
                                 std::to_string(counts[i]) + " masked channels of " +
                                 std::to_string(mask.num_chan));
    if (counts[i] == mask.num_chan) {
      mask.interval_all_masked[i] = 1;
      continue;
    }
    std::vector<int32_t>& chans = mask.interval_chans[i];
    chans = in.take_ints(counts[i], "the masked channel lists");
    for (int32_t c : chans)
      if (c < 0 || c >= mask.num_chan)
        throw file_error(name, "rfifind mask interval " + std::to_string(i) + " lists channel " +
                                   std::to_string(c) + " of " + std::to_string(mask.num_chan));
  }
}

// The count written for an interval: num_chan when all of it is masked.
int32_t interval_count(const RfifindMask& mask, size_t i) {
  if (mask.interval_all_masked[i]) return mask.num_chan;
  if (mask.interval_chans[i].size() > static_cast<size_t>(mask.num_chan))
    throw std::invalid_argument("rfifind mask: an interval lists more than num_chan channels");
  return static_cast<int32_t>(mask.interval_chans[i].size());
}

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_ints(std::string& out, const std::vector<int32_t>& values) {
  if (values.empty()) return;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int32_t));
}

bool contains(const std::vector<int32_t>& values, int32_t x) {
  return std::find(values.begin(), values.end(), x) != values.end();
}

}  // namespace

RfifindMask parse_rfifind_mask(const std::string& bytes, const std::string& name) {
  MaskCursor in(bytes, name);
  RfifindMask mask;
  mask.time_sigma = in.take<double>("the header");
  mask.freq_sigma = in.take<double>("the header");
  mask.mjd = in.take<double>("the header");
  mask.dtint_s = in.take<double>("the header");
  mask.lofreq_mhz = in.take<double>("the header");
  mask.dfreq_mhz = in.take<double>("the header");
  mask.num_chan = in.take<int32_t>("the header");
  mask.num_int = in.take<int32_t>("the header");
  mask.pts_per_int = in.take<int32_t>("the header");
  if (mask.num_chan <= 0 || mask.num_int < 0 || mask.pts_per_int < 0 || !(mask.dtint_s >= 0))
    throw file_error(name,
                     "not an rfifind mask: header says numchan=" + std::to_string(mask.num_chan) +
                         ", numint=" + std::to_string(mask.num_int) +
                         ", ptsperint=" + std::to_string(mask.pts_per_int));
  mask.zap_chans =
      in.take_ints(take_count(in, "zapped channel count", name), "the zapped channels");
  mask.zap_ints =
      in.take_ints(take_count(in, "zapped interval count", name), "the zapped intervals");
  read_interval_lists(in, mask, name);
  if (in.left() != 0)
    throw file_error(name, "rfifind mask has " + std::to_string(in.left()) +
                               " unexpected bytes after its last channel list");
  return mask;
}

std::string serialize_rfifind_mask(const RfifindMask& mask) {
  if (mask.interval_chans.size() != static_cast<size_t>(mask.num_int) ||
      mask.interval_all_masked.size() != static_cast<size_t>(mask.num_int))
    throw std::invalid_argument(
        "rfifind mask: interval_chans and interval_all_masked must hold num_int entries");
  std::string out;
  for (double x :
       {mask.time_sigma, mask.freq_sigma, mask.mjd, mask.dtint_s, mask.lofreq_mhz, mask.dfreq_mhz})
    put(out, x);
  put(out, mask.num_chan);
  put(out, mask.num_int);
  put(out, mask.pts_per_int);
  put(out, static_cast<int32_t>(mask.zap_chans.size()));
  put_ints(out, mask.zap_chans);
  put(out, static_cast<int32_t>(mask.zap_ints.size()));
  put_ints(out, mask.zap_ints);
  for (size_t i = 0; i < mask.interval_chans.size(); ++i) put(out, interval_count(mask, i));
  for (size_t i = 0; i < mask.interval_chans.size(); ++i) {
    const int32_t count = interval_count(mask, i);
    if (count > 0 && count < mask.num_chan) put_ints(out, mask.interval_chans[i]);
  }
  return out;
}

RfifindMask read_rfifind_mask(const std::string& path) {
  return parse_rfifind_mask(read_file_contents(path), path);
}

void write_rfifind_mask(const std::string& path, const RfifindMask& mask, bool overwrite) {
  write_file_atomically(path, serialize_rfifind_mask(mask), overwrite);
}

namespace {

void check_interval(const RfifindMask& mask, int interval) {
  if (interval < 0 || interval >= mask.num_int ||
      static_cast<size_t>(interval) >= mask.interval_chans.size() ||
      static_cast<size_t>(interval) >= mask.interval_all_masked.size())
    throw std::out_of_range("rfifind mask: interval " + std::to_string(interval) + " of " +
                            std::to_string(mask.num_int));
}

}  // namespace

bool channel_masked(const RfifindMask& mask, int channel, int interval) {
  if (channel < 0 || channel >= mask.num_chan)
    throw std::out_of_range("rfifind mask: channel " + std::to_string(channel) + " of " +
                            std::to_string(mask.num_chan));
  check_interval(mask, interval);
  const size_t i = static_cast<size_t>(interval);
  return mask.interval_all_masked[i] || contains(mask.zap_ints, interval) ||
         contains(mask.zap_chans, channel) || contains(mask.interval_chans[i], channel);
}

int interval_at_time(const RfifindMask& mask, double time_s) {
  if (mask.num_int <= 0 || !(mask.dtint_s > 0) || !(time_s > 0)) return 0;
  const double index = std::floor(time_s / mask.dtint_s);
  return index >= mask.num_int - 1 ? mask.num_int - 1 : static_cast<int>(index);
}

std::vector<int32_t> zapped_channels(const RfifindMask& mask) {
  std::vector<int32_t> channels = mask.zap_chans;
  std::sort(channels.begin(), channels.end());
  channels.erase(std::unique(channels.begin(), channels.end()), channels.end());
  return channels;
}

std::vector<int32_t> masked_channels(const RfifindMask& mask, int interval) {
  check_interval(mask, interval);
  const bool whole_interval =
      mask.interval_all_masked[static_cast<size_t>(interval)] || contains(mask.zap_ints, interval);
  std::vector<char> masked(static_cast<size_t>(mask.num_chan), whole_interval ? 1 : 0);
  const auto mark = [&](const std::vector<int32_t>& channels) {
    for (int32_t c : channels)
      if (c >= 0 && c < mask.num_chan) masked[static_cast<size_t>(c)] = 1;
  };
  mark(mask.zap_chans);
  mark(mask.interval_chans[static_cast<size_t>(interval)]);
  std::vector<int32_t> channels;
  for (int32_t c = 0; c < mask.num_chan; ++c)
    if (masked[static_cast<size_t>(c)]) channels.push_back(c);
  return channels;
}

}  // namespace rapt
