// Runs fn(item, worker) for item in [0, nitems) on up to `nthreads` threads (the caller is
// worker 0), handing out items one at a time so uneven items still balance. `worker` lets each
// thread use its own scratch buffer. The first exception thrown by any item is rethrown in the
// caller after every thread has stopped.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rapt {

template <typename Fn>
void parallel_for(int nthreads, size_t nitems, Fn&& fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&](int worker) {
    for (size_t item = next++; item < nitems; item = next++) {
      try {
        fn(item, worker);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = nitems;
      }
    }
  };
  const int nworkers = int(std::min<size_t>(size_t(std::max(nthreads, 1)), std::max<size_t>(nitems, 1)));
  std::vector<std::thread> threads;
  threads.reserve(nworkers - 1);
  for (int w = 1; w < nworkers; ++w) threads.emplace_back(work, w);
  work(0);
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace rapt
