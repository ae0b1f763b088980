// Voltages read one block ahead: the next block is read and decoded on a thread of its own while
// the caller works on the current one (bf, corr). Two blocks are held.
#pragma once
#include <cstdint>
#include <functional>
#include <future>

#include "io/voltage_stream.hpp"

namespace rapt {

class PrefetchingVoltageReader {
 public:
  // `block_size(position)`: how many samples the block that starts at sample `position` may hold
  // (> 0), so that callers can end blocks where their work changes (weight updates,
  // integrations). The first read starts at once.
  PrefetchingVoltageReader(VoltageReader& reader, std::function<int64_t(int64_t)> block_size);
  // Waits for a read still in flight (its errors are dropped: the caller is already failing).
  ~PrefetchingVoltageReader();
  PrefetchingVoltageReader(const PrefetchingVoltageReader&) = delete;
  PrefetchingVoltageReader& operator=(const PrefetchingVoltageReader&) = delete;

  // The next block, or nullptr at the end of the data; valid until the following call, which
  // also starts reading the block after it. Rethrows what the read threw (DataError).
  VoltageBlock* next();
  // Seconds spent in next() waiting for reads to finish.
  double waiting_s() const { return waiting_s_; }

 private:
  void start_read(int which);
  VoltageReader& reader_;
  std::function<int64_t(int64_t)> block_size_;
  VoltageBlock blocks_[2];
  std::future<int64_t> pending_;
  int pending_block_ = 0;
  int64_t position_ = 0;
  double waiting_s_ = 0;
};

}  // namespace rapt
