// VDIF (VLBI Data Interchange Format, release 1.1.1) files from one station.
//
// Frames carry 32-byte headers (16 bytes when the legacy bit is set) and payloads of 32-bit
// little-endian words filled from the least significant bit, all channels of one time step
// together, complex values as I then Q. Threads are independent streams interleaved frame by
// frame; the reader groups frames that share (seconds, frame number) into one time step and
// puts thread t's channel c at canonical channel (index of t among the file's thread ids,
// in increasing order) x channels per frame + c. So the reader gives one antenna and one
// polarisation; which thread holds which polarisation or band is not in the headers, and the
// sky frequency neither: it comes from the options (centre_freq_mhz 0 and a warning without
// it; bandwidth_mhz = channels x channel bandwidth, negative for a lower sideband).
//
// Sample values: offset binary as the VDIF specification says, unless twos_complement is set:
//   1 bit: -1, +1; 2 bits: -3.3359, -1, +1, +3.3359; 4 bits: code - 8; 8 bits: code - 127.5
// twos_complement (2, 4 or 8 bits) reads the codes as signed integers, as some recorders
// (MWA tied-array beams) write them.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/byte_stream.hpp"
#include "io/vdif_read_options.hpp"
#include "io/voltage_stream.hpp"

namespace rapt {

struct VdifFrameHeader {
  bool invalid = false;
  bool legacy = false;        // 16-byte header
  uint32_t seconds = 0;       // since the reference epoch
  int ref_epoch = 0;          // half-years since 2000-01-01
  uint32_t frame_nr = 0;      // within the second
  int version = 0;
  int nchan = 1;
  int64_t frame_bytes = 0;    // header included
  bool complex_samples = false;
  int bits = 1;               // per real component
  int thread_id = 0;
  int station_id = 0;
  int edv = 0;
  double edv3_sample_rate_hz = 0;  // EDV 3 only; 0 when the header does not say

  int header_bytes() const { return legacy ? 16 : 32; }
  int64_t payload_bytes() const { return frame_bytes - header_bytes(); }
  // Time samples in one frame's payload (whole ones; samples never straddle a word).
  int64_t samples_per_frame() const;
};

// Parses the frame header at `data` (at least 16 bytes; 32 unless legacy). Throws DataError
// "name: ..." when `size` is too small or the frame length is shorter than its header.
VdifFrameHeader parse_vdif_frame_header(const uint8_t* data, size_t size, const std::string& name);

// MJD of the first day of reference epoch `ref_epoch` (1 January or 1 July).
int64_t vdif_epoch_mjd(int ref_epoch);


// Reads a file by name, or any stream: a pipe is read once, in order, its first frames read ahead
// to learn the threads (and, when neither the options nor EDV 3 give it, the sample rate from
// the frame numbers of its first two seconds); its length is then unknown (nsamples -1).
// Time steps missing between frames (lost frames: the frame numbers jump) are read as zeros,
// the mark of lost data, and counted in a warning; a file's length includes them. Frames
// repeated or out of time order are refused.
class VdifReader : public VoltageReader {
 public:
  VdifReader(const std::string& path, const VdifReadOptions& options);
  // Reads `file` under `name` (closed at the end unless stdin), whose first bytes, `consumed`,
  // were read already to tell its format: a pipe's cannot be read again.
  VdifReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed,
             const VdifReadOptions& options);
  VdifReader(std::unique_ptr<ByteStream> in, const VdifReadOptions& options);
  ~VdifReader() override;
  VdifReader(const VdifReader&) = delete;
  VdifReader& operator=(const VdifReader&) = delete;

  const VoltageHeader& header() const override { return header_; }
  const VdifFrameHeader& first_frame() const { return first_; }
  [[nodiscard]] int64_t read(int64_t nsamples, VoltageBlock& block) override;
  const std::vector<std::string>& warnings() const override { return warnings_; }

  // Most bytes of a pipe read ahead to find its sample rate.
  static constexpr int64_t kMostReadAhead = int64_t(1) << 30;
  // Most seconds of lost frames read as zeros (in all); more is taken for a damaged header.
  static constexpr int64_t kLongestGap_s = 60;

 private:
  VdifFrameHeader frame_header_at(int64_t frame);
  bool queue_frame();       // reads one more frame ahead; false at the end
  bool next_frame(std::vector<uint8_t>& frame);  // the next frame in order; false at the end
  bool have_frame(int64_t frame);
  void note_part_frame(int64_t bytes);  // warnings: the data end inside a frame,
  void note_part_step(int64_t frames);  // or inside a time step
  void find_threads();
  double find_sample_rate(const VdifReadOptions& options);
  bool load_group();
  void decode_frame(const std::vector<uint8_t>& frame, int thread_index);
  // A time step's place since the first (seconds x frames a second + frame number), where the
  // frames a second are known to be whole; 0 otherwise.
  int64_t step_index(const VdifFrameHeader& h) const;
  // The time steps from the last one read to the one that starts with `h`: 1 in order, more
  // where frames were lost (read as zeros); refused when `h` is not later (frames repeated or
  // out of order) or when the frames lost would pass kLongestGap_s in all.
  int64_t steps_to(const VdifFrameHeader& h, int64_t frame) const;

  std::unique_ptr<ByteStream> in_;
  std::string path_;
  VdifReadOptions options_;
  VdifFrameHeader first_;
  VoltageHeader header_;
  std::vector<std::string> warnings_;
  std::map<int, int> thread_index_;  // thread id -> index in increasing id order
  std::deque<std::vector<uint8_t>> queue_;  // a pipe's frames read ahead, in order
  int64_t queued_bytes_ = 0;
  int64_t nframes_ = 0;              // a file's whole frames
  int64_t ngroups_ = -1;             // a file's whole time steps; -1 for a pipe
  int64_t spf_ = 0;                  // samples per frame
  int64_t frames_per_second_ = 0;    // a pipe's, where the frame numbers gave its rate
  int64_t group_ = 0;                // next group to load
  bool ended_ = false;               // the data ended
  int64_t invalid_frames_ = 0;
  bool invalid_noted_ = false;
  int64_t steps_per_second_ = 0;     // frames a second of each thread, where whole; else 0
  int64_t last_step_ = -1;           // step_index of the last time step read
  int64_t last_file_step_ = -1;      // a file's: step_index of its last time step
  int64_t lost_steps_ = 0;           // time steps missing between frames, read as zeros
  int64_t lost_pending_ = 0;         // of those, still to be read
  std::vector<float> samples_;       // current group, canonical order
  int64_t chunk_pos_ = 0;
  int64_t chunk_ntime_ = 0;
  int64_t next_sample_ = 0;
};

}  // namespace rapt
