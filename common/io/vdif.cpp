// VDIF: frame header parsing and the reader.
#include "io/vdif.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cli/errors.hpp"
#include "cli/file_contents.hpp"
#include "io/voltage_samples.hpp"
#include "io/voltage_text.hpp"

namespace rapt {

namespace {

uint32_t word_at(const uint8_t* data, int index) {
  const uint8_t* p = data + 4 * index;
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint32_t bits_of(uint32_t word, int low, int count) {
  return (word >> low) & ((count == 32 ? 0u : (1u << count)) - 1u);
}

// The 2-bit offset-binary levels of the VDIF specification.
constexpr float kTwoBitLevels[4] = {-3.3359f, -1.0f, 1.0f, 3.3359f};

float decode_code(uint32_t code, int bits, bool twos_complement) {
  if (twos_complement) {
    const uint32_t sign = 1u << (bits - 1);
    return float(int32_t(code ^ sign) - int32_t(sign));
  }
  switch (bits) {
    case 1: return code ? 1.0f : -1.0f;
    case 2: return kTwoBitLevels[code];
    case 4: return float(code) - 8.0f;
    default: return float(code) - 127.5f;
  }
}

}  // namespace

int64_t VdifFrameHeader::samples_per_frame() const {
  const int64_t values_per_word = 32 / bits;
  return payload_bytes() / 4 * values_per_word / (int64_t(nchan) * (complex_samples ? 2 : 1));
}

VdifFrameHeader parse_vdif_frame_header(const uint8_t* data, size_t size, const std::string& name) {
  if (size < 16) throw file_error(name, "VDIF frame header cut short (" + std::to_string(size) + " bytes)");
  VdifFrameHeader h;
  const uint32_t w0 = word_at(data, 0), w1 = word_at(data, 1), w2 = word_at(data, 2),
                 w3 = word_at(data, 3);
  h.invalid = bits_of(w0, 31, 1) != 0;
  h.legacy = bits_of(w0, 30, 1) != 0;
  h.seconds = bits_of(w0, 0, 30);
  h.ref_epoch = int(bits_of(w1, 24, 6));
  h.frame_nr = bits_of(w1, 0, 24);
  h.version = int(bits_of(w2, 29, 3));
  const uint32_t log2_nchan = bits_of(w2, 24, 5);
  if (log2_nchan > 24)  // 2^31 would not even fit an int; no recorder comes near 2^24
    throw file_error(name, "VDIF header says 2^" + std::to_string(log2_nchan) + " channels");
  h.nchan = 1 << log2_nchan;
  h.frame_bytes = int64_t(bits_of(w2, 0, 24)) * 8;
  h.complex_samples = bits_of(w3, 31, 1) != 0;
  h.bits = int(bits_of(w3, 26, 5)) + 1;
  h.thread_id = int(bits_of(w3, 16, 10));
  h.station_id = int(bits_of(w3, 0, 16));
  if (!h.legacy) {
    if (size < 32) throw file_error(name, "VDIF frame header cut short (" + std::to_string(size) + " bytes)");
    const uint32_t w4 = word_at(data, 4);
    h.edv = int(bits_of(w4, 24, 8));
    if (h.edv == 3) {
      // Words 4-5 of EDV 3 give the bandwidth of one channel; real sampling is at twice it.
      const double bandwidth_hz = bits_of(w4, 0, 23) * (bits_of(w4, 23, 1) ? 1e6 : 1e3);
      h.edv3_sample_rate_hz = h.complex_samples ? bandwidth_hz : 2 * bandwidth_hz;
    }
  }
  if (h.frame_bytes <= h.header_bytes())
    throw file_error(name, "VDIF frame length " + std::to_string(h.frame_bytes) +
                               " bytes leaves no payload after the " +
                               std::to_string(h.header_bytes()) + "-byte header");
  return h;
}

int64_t vdif_epoch_mjd(int ref_epoch) {
  return mjd_from_calendar(2000 + ref_epoch / 2, ref_epoch % 2 ? 7 : 1, 1);
}

VdifReader::VdifReader(const std::string& path, const VdifReadOptions& options)
    : VdifReader(std::make_unique<ByteStream>(path), options) {}

VdifReader::VdifReader(const std::string& name, FILE* file, std::vector<uint8_t> consumed,
                       const VdifReadOptions& options)
    : VdifReader(std::make_unique<ByteStream>(name, file, std::move(consumed)), options) {}

VdifReader::VdifReader(std::unique_ptr<ByteStream> in, const VdifReadOptions& options)
    : in_(std::move(in)), path_(in_->name()), options_(options) {
  uint8_t bytes[32];
  const size_t got = in_->read(bytes, sizeof bytes);
  first_ = parse_vdif_frame_header(bytes, got, path_);
  if (in_->seekable()) {
    nframes_ = in_->size() / first_.frame_bytes;
    if (nframes_ == 0)
      throw file_error(path_, "file size " + std::to_string(in_->size()) +
                                  " bytes is less than one VDIF frame of " +
                                  std::to_string(first_.frame_bytes) + " bytes");
    if (const int64_t rest = in_->size() % first_.frame_bytes) note_part_frame(rest);
  } else {
    in_->unread(std::vector<uint8_t>(bytes, bytes + got));
    if (!queue_frame())
      throw file_error(path_, "the stream ends inside its first VDIF frame of " +
                                  std::to_string(first_.frame_bytes) + " bytes");
  }
  const bool bits_ok = options.twos_complement
                           ? (first_.bits == 2 || first_.bits == 4 || first_.bits == 8)
                           : (first_.bits == 1 || first_.bits == 2 || first_.bits == 4 || first_.bits == 8);
  if (!bits_ok)
    throw file_error(path_, "VDIF samples of " + std::to_string(first_.bits) + " bits are not supported");
  spf_ = first_.samples_per_frame();
  if (spf_ < 1) throw file_error(path_, "VDIF frames hold no whole sample");
  find_threads();
  if (int64_t(thread_index_.size()) * first_.nchan > (int64_t(1) << 24))
    throw file_error(path_, "VDIF threads x channels exceed 2^24");
  const double rate_hz = find_sample_rate(options);
  if (in_->seekable()) in_->seek(0);  // the frames are read in order from here on
  const int dim = first_.complex_samples ? 2 : 1;
  VoltageHeader& h = header_;
  h.format = "VDIF";
  h.pointing_known = false;  // VDIF frames name no direction
  h.instrument = format_string("VDIF station 0x%04x", first_.station_id);
  h.nant = 1;
  h.nchan = int(thread_index_.size()) * first_.nchan;
  h.npol = 1;
  h.complex_samples = first_.complex_samples;
  h.nbits = first_.bits;
  h.tsamp_s = 1.0 / rate_hz;
  h.bandwidth_mhz = h.nchan * rate_hz / (3 - dim) / 1e6 * (options.lower_sideband ? -1 : 1);
  h.centre_freq_mhz = options.centre_freq_mhz;
  if (!(options.centre_freq_mhz > 0))
    warnings_.push_back("VDIF carries no sky frequency: the channels are at baseband "
                        "frequencies unless one is given (--vdif-freq of bf, corr, channelize and inspect)");
  // Frame numbers are 24 bits: a rate needing more frames a second cannot be numbered, and
  // its steps are not checked (nor are those of a rate of no whole frames a second).
  const double steps_per_second = rate_hz / double(spf_);
  if (steps_per_second <= double(1 << 24) &&
      std::fabs(steps_per_second - std::round(steps_per_second)) < 1e-9 * steps_per_second)
    steps_per_second_ = std::llround(steps_per_second);
  // A file's time steps run from its first frame's to its last one's, lost ones included.
  int64_t nsteps = ngroups_;
  if (ngroups_ > 0 && steps_per_second_ > 0) {
    const int64_t last = (ngroups_ - 1) * int64_t(thread_index_.size());
    last_file_step_ = step_index(frame_header_at(last));
    const int64_t span = last_file_step_ - step_index(first_) + 1;
    if (span - ngroups_ > kLongestGap_s * steps_per_second_)
      throw file_error(path_, format_string("VDIF frames run from second %u to second %u, %.6g s "
                                            "more than they hold: more than %lld s of frames "
                                            "lost, or a damaged header", first_.seconds,
                                            frame_header_at(last).seconds,
                                            double(span - ngroups_) / double(steps_per_second_),
                                            (long long)kLongestGap_s));
    nsteps = std::max(span, ngroups_);  // (fewer: frames out of order, refused as read)
    in_->seek(0);
  }
  h.nsamples = ngroups_ >= 0 ? nsteps * spf_ : -1;
  h.start_mjd_day = int(vdif_epoch_mjd(first_.ref_epoch));
  h.start_mjd_seconds = double(first_.seconds) + double(first_.frame_nr) * spf_ / rate_hz;
  normalise_mjd(h.start_mjd_day, h.start_mjd_seconds);
}

VdifReader::~VdifReader() = default;

VdifFrameHeader VdifReader::frame_header_at(int64_t frame) {
  if (!in_->seekable()) {  // a pipe: the frames read ahead so far, and more as needed
    if (!have_frame(frame))
      throw file_error(path_, "the stream ends before VDIF frame " + std::to_string(frame));
    const std::vector<uint8_t>& f = queue_[size_t(frame)];
    return parse_vdif_frame_header(f.data(), f.size(), path_);
  }
  uint8_t bytes[32];
  in_->seek(frame * first_.frame_bytes);
  const size_t got = in_->read(bytes, sizeof bytes);
  return parse_vdif_frame_header(bytes, got, path_);
}

bool VdifReader::queue_frame() {
  std::vector<uint8_t> frame(size_t(first_.frame_bytes));
  const size_t got = in_->read(frame.data(), frame.size());
  if (got < frame.size()) {
    if (got > 0) note_part_frame(int64_t(got));  // (a file's was noted when it was opened)
    return false;
  }
  queued_bytes_ += first_.frame_bytes;
  queue_.push_back(std::move(frame));
  return true;
}

bool VdifReader::next_frame(std::vector<uint8_t>& frame) {
  if (queue_.empty() && !queue_frame()) return false;
  frame = std::move(queue_.front());
  queue_.pop_front();
  return true;
}

void VdifReader::note_part_step(int64_t frames) {
  warnings_.push_back(std::to_string(frames) + " frames at the end do not make a whole time step of " +
                      std::to_string(thread_index_.size()) + " threads; ignored");
}

void VdifReader::note_part_frame(int64_t bytes) {
  // A recording cut short (an interrupted copy, head -c) ends in part of a frame: its whole
  // frames are read, as a filterbank's whole spectra are, and the rest is reported.
  warnings_.push_back("ignored " + std::to_string(bytes) + " bytes at the end (less than one " +
                      "VDIF frame of " + std::to_string(first_.frame_bytes) + " bytes)");
}

// Whether frame f (counted from the start) exists: always within a file's whole frames; in a
// pipe, once read ahead into the queue.
bool VdifReader::have_frame(int64_t f) {
  if (in_->seekable()) return f < nframes_;
  while (int64_t(queue_.size()) <= f)
    if (!queue_frame()) return false;
  return true;
}

void VdifReader::find_threads() {
  // The first time step: the frames at the start that share the first frame's time.
  for (int64_t f = 0; have_frame(f); ++f) {
    const VdifFrameHeader h = f == 0 ? first_ : frame_header_at(f);
    if (h.seconds != first_.seconds || h.frame_nr != first_.frame_nr) break;
    if (!thread_index_.emplace(h.thread_id, 0).second)
      throw file_error(path_, "VDIF frame " + std::to_string(f) + " repeats thread " +
                                  std::to_string(h.thread_id) + " within one time step");
    if (queued_bytes_ > kMostReadAhead)
      throw file_error(path_, "VDIF stream's first time step passes " +
                                  std::to_string(kMostReadAhead >> 20) + " MiB");
  }
  int index = 0;
  for (auto& entry : thread_index_) entry.second = index++;
  const int64_t nthreads = int64_t(thread_index_.size());
  if (!in_->seekable()) return;  // a pipe's length is known only at its end (load_group)
  ngroups_ = nframes_ / nthreads;
  if (nframes_ % nthreads != 0) note_part_step(nframes_ % nthreads);
}

double VdifReader::find_sample_rate(const VdifReadOptions& options) {
  if (options.sample_rate_hz > 0) return options.sample_rate_hz;
  if (first_.edv3_sample_rate_hz > 0) return first_.edv3_sample_rate_hz;
  const int64_t nthreads = int64_t(thread_index_.size());
  const std::string remedy = "; give it (--vdif-rate)";
  const std::string unknown =
      "VDIF sample rate unknown: the headers (EDV " + std::to_string(first_.edv) + ") do not give it";
  uint32_t max_frame_nr = 0;
  if (!in_->seekable()) {
    // A pipe: frames per second from the largest frame number of its first two seconds (the
    // first may lack frames at either end, the second whole unless frames were lost), read ahead
    // and kept for reading until a third second starts, or of its first second where the
    // stream ends in its second. Later frames are checked against it (load_group).
    std::vector<uint32_t> largest;  // of each second met
    uint32_t second = 0;
    for (int64_t g = 0;; ++g) {
      if (!have_frame(g * nthreads)) break;
      const VdifFrameHeader h = frame_header_at(g * nthreads);
      if (largest.empty() || h.seconds != second) {
        if (largest.size() == 2) break;
        largest.push_back(0);
        second = h.seconds;
      }
      largest.back() = std::max(largest.back(), h.frame_nr);
      if (queued_bytes_ > kMostReadAhead)
        throw file_error(path_, unknown + " and the stream's first two seconds pass " +
                                    std::to_string(kMostReadAhead >> 20) + " MiB" + remedy);
    }
    if (largest.size() < 2)
      throw file_error(path_, unknown + " and the stream holds no whole second" + remedy);
    frames_per_second_ = int64_t(std::max(largest[0], largest[1])) + 1;
    return double(frames_per_second_) * double(spf_);
  }
  // A file: frames per second from the largest frame number of the seconds before the last:
  // each of those ended within the file, since a later second follows.
  const uint32_t last_seconds = frame_header_at((ngroups_ - 1) * nthreads).seconds;
  for (int64_t g = 0; g < ngroups_; ++g) {
    const VdifFrameHeader h = frame_header_at(g * nthreads);
    if (h.seconds == last_seconds) break;
    max_frame_nr = std::max(max_frame_nr, h.frame_nr);
  }
  if (last_seconds == first_.seconds)
    throw file_error(path_, unknown + " and the file holds no whole second" + remedy);
  return double(max_frame_nr + 1) * double(spf_);
}

void VdifReader::decode_frame(const std::vector<uint8_t>& frame, int thread_index) {
  const int dim = first_.complex_samples ? 2 : 1;
  // Complex samples of a lower sideband hold each channel's spectrum reversed: conjugated, they
  // are in the sky sense rapt(7) gives complex voltages (real ones are turned by the channeliser).
  const bool conjugate = first_.complex_samples && options_.lower_sideband;
  const int64_t per_word = 32 / first_.bits;
  const int64_t values = spf_ * first_.nchan * dim;
  const uint8_t* payload = frame.data() + first_.header_bytes();
  for (int64_t i = 0; i < values; ++i) {
    const uint32_t word = word_at(payload, int(i / per_word));
    const uint32_t code = bits_of(word, int(i % per_word) * first_.bits, first_.bits);
    const int64_t k = i % dim;
    const int64_t c = i / dim % first_.nchan;
    const int64_t t = i / dim / first_.nchan;
    const int64_t chan = int64_t(thread_index) * first_.nchan + c;
    const float value = decode_code(code, first_.bits, options_.twos_complement);
    samples_[size_t((chan * spf_ + t) * dim + k)] = conjugate && k == 1 ? -value : value;
  }
}

int64_t VdifReader::step_index(const VdifFrameHeader& h) const {
  return steps_per_second_ > 0 ? int64_t(h.seconds) * steps_per_second_ + int64_t(h.frame_nr) : 0;
}

int64_t VdifReader::steps_to(const VdifFrameHeader& h, int64_t frame) const {
  if (steps_per_second_ == 0) return 1;
  // In a file, the time steps still to read must fit before its last one (so it reads no more
  // than its length says).
  if (last_file_step_ >= 0 && step_index(h) + (ngroups_ - 1 - group_) > last_file_step_)
    throw file_error(path_, format_string("VDIF frame %lld (second %u, frame %u) leaves no room "
                                          "for the %lld time steps after it before the file's "
                                          "last: frames out of order, or a damaged header",
                                          (long long)frame, h.seconds, h.frame_nr,
                                          (long long)(ngroups_ - 1 - group_)));
  if (last_step_ < 0) return 1;
  const int64_t steps = step_index(h) - last_step_;
  if (steps < 1)
    throw file_error(path_, format_string("VDIF frame %lld (second %u, frame %u) is not later "
                                          "than the time step before it: frames repeated or "
                                          "out of order", (long long)frame, h.seconds, h.frame_nr));
  if (lost_steps_ + steps - 1 > kLongestGap_s * steps_per_second_)
    throw file_error(path_, format_string("VDIF frame %lld (second %u, frame %u) comes %.6g s "
                                          "after the time step before it: more than %lld s of "
                                          "frames lost in all, or a damaged header",
                                          (long long)frame, h.seconds, h.frame_nr,
                                          double(steps) / double(steps_per_second_),
                                          (long long)kLongestGap_s));
  return steps;
}

bool VdifReader::load_group() {
  const int64_t nthreads = int64_t(thread_index_.size());
  const int dim = first_.complex_samples ? 2 : 1;
  samples_.assign(size_t(header_.nchan * spf_ * dim), 0.0f);
  if (lost_pending_ > 0) {  // a time step of lost frames: zeros
    --lost_pending_;
    ++last_step_;
    chunk_pos_ = 0;
    chunk_ntime_ = spf_;
    return true;
  }
  if (ended_ || (ngroups_ >= 0 && group_ >= ngroups_)) {
    ended_ = true;
    return false;
  }
  std::vector<uint8_t> frame;
  VdifFrameHeader step;
  for (int64_t i = 0; i < nthreads; ++i) {
    const int64_t f = group_ * nthreads + i;
    if (!next_frame(frame)) {
      if (ngroups_ >= 0) throw file_error(path_, "read failed at byte " + std::to_string(f * first_.frame_bytes));
      if (i > 0) note_part_step(i);  // a pipe ending inside a time step
      ended_ = true;
      return false;
    }
    const VdifFrameHeader h = parse_vdif_frame_header(frame.data(), frame.size(), path_);
    if (i == 0) {
      step = h;
      // Frames lost before this time step: it is read again after their zeros.
      const int64_t steps = steps_to(h, f);
      if (steps > 1) {
        lost_steps_ += steps - 1;
        lost_pending_ = steps - 1;
        queue_.push_front(std::move(frame));
        return load_group();
      }
    }
    if (frames_per_second_ > 0 && int64_t(h.frame_nr) >= frames_per_second_)
      throw file_error(path_, "VDIF frame " + std::to_string(f) + " is number " +
                                  std::to_string(h.frame_nr) + " of its second, past the " +
                                  std::to_string(frames_per_second_) +
                                  " frames a second the stream's first seconds gave: frames were "
                                  "lost there; give the sample rate (--vdif-rate)");
    const auto thread = thread_index_.find(h.thread_id);
    if (h.seconds != step.seconds || h.frame_nr != step.frame_nr || thread == thread_index_.end() ||
        h.frame_bytes != first_.frame_bytes || h.nchan != first_.nchan || h.bits != first_.bits ||
        h.complex_samples != first_.complex_samples)
      throw file_error(path_, "VDIF frame " + std::to_string(f) + " (thread " +
                                  std::to_string(h.thread_id) +
                                  ") does not fit the time step or layout of the first frames");
    if (h.invalid) {
      ++invalid_frames_;  // its samples stay 0
      continue;
    }
    decode_frame(frame, thread->second);
  }
  last_step_ = step_index(step);
  ++group_;
  chunk_pos_ = 0;
  chunk_ntime_ = spf_;
  return true;
}

int64_t VdifReader::read(int64_t nsamples, VoltageBlock& block) {
  const int64_t nrows = header_.nchan;
  const int64_t per_time = header_.values_per_sample();
  nsamples = std::max<int64_t>(nsamples, 0);
  block.first_sample = next_sample_;
  block.data.resize(header_.block_values(nsamples));
  const int64_t done = fill_time_rows(samples_, chunk_ntime_, chunk_pos_,
                                      [this] { return load_group(); }, nsamples, nrows, per_time,
                                      block.data.data());
  if (done < nsamples) block.data.resize(header_.block_values(done));
  if (done < nsamples && ended_ && !invalid_noted_) {
    if (invalid_frames_ > 0)
      warnings_.push_back(std::to_string(invalid_frames_) + " frames marked invalid read as zeros");
    if (lost_steps_ > 0)
      warnings_.push_back(format_string("%lld time steps of frames missing (lost: the frame "
                                        "numbers jump) read as zeros, %.6g s",
                                        (long long)lost_steps_,
                                        double(lost_steps_) / double(steps_per_second_)));
    invalid_noted_ = true;
  }
  block.nsamples = done;
  next_sample_ += done;
  return done;
}

}  // namespace rapt
