// A kernel's allowance of dynamic shared memory above the default 48 KiB.
//
// The allowance is set to all the device gives a block, whatever one launch needs. Several host
// threads may launch one kernel on one device with different sizes (the parts of a search that
// share a GPU); were each to set the allowance to its own size, one could lower it between
// another's setting and launching, and that launch would fail.
#pragma once
#include <cstddef>

namespace rapt::cuda {

// Lets KERNEL (a __global__ function) launch with up to the current device's limit of shared
// memory a block; a DataError naming KERNEL_NAME where BYTES exceeds that limit.
void allow_dynamic_shared_memory(const void* kernel, size_t bytes, const char* kernel_name);

}  // namespace rapt::cuda
