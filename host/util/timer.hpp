// Wall-clock stopwatch for host-side phases (T_o, end-to-end totals). Kernel time
// T_k comes from OpenCL profiling events, never from this.
#pragma once
#include <chrono>

namespace ocl_sp {

class Stopwatch {
 public:
  Stopwatch() : t0_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  void reset() { t0_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace ocl_sp
