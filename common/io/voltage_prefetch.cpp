#include "io/voltage_prefetch.hpp"

#include <chrono>
#include <utility>

namespace rapt {

PrefetchingVoltageReader::PrefetchingVoltageReader(VoltageReader& reader,
                                                   std::function<int64_t(int64_t)> block_size)
    : reader_(reader), block_size_(std::move(block_size)) {
  start_read(0);
}

PrefetchingVoltageReader::~PrefetchingVoltageReader() {
  if (!pending_.valid()) return;
  try {
    pending_.get();
  } catch (...) {
  }
}

void PrefetchingVoltageReader::start_read(int which) {
  pending_block_ = which;
  const int64_t n = block_size_(position_);
  pending_ = std::async(std::launch::async,
                        [this, which, n] { return reader_.read(n, blocks_[which]); });
}

VoltageBlock* PrefetchingVoltageReader::next() {
  if (!pending_.valid()) return nullptr;  // the end was reached before
  const auto t = std::chrono::steady_clock::now();
  const int which = pending_block_;
  const int64_t n = pending_.get();
  waiting_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  if (n == 0) return nullptr;
  position_ += n;
  start_read(which ^ 1);
  return &blocks_[which];
}

}  // namespace rapt
