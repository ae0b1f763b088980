// Wall-clock seconds since a moment, for the accounts of where a run's time went (-v).
#pragma once
#include <chrono>

namespace rapt {

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace rapt
