#include "io/large_buffer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

namespace rapt {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

}  // namespace

void* allocate_large_bytes(size_t bytes) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages, small ones serve
#endif
  return p;
}

void release_large_bytes(void* p) noexcept { std::free(p); }

LargeBuffer::LargeBuffer(size_t bytes)
    : data_(bytes ? static_cast<uint8_t*>(allocate_large_bytes(bytes)) : nullptr), size_(bytes) {}

LargeBuffer::~LargeBuffer() { release_large_bytes(data_); }

LargeBuffer::LargeBuffer(LargeBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

LargeBuffer& LargeBuffer::operator=(LargeBuffer&& other) noexcept {
  if (this != &other) {
    release_large_bytes(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

}  // namespace rapt
