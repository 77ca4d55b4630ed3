// Ends the process once a solve's results are out (output file renamed into
// place, report flushed) without running the destructors of what it leaves: the
// OpenCL context, device buffers, pinned memory and the host matrix. Releasing
// them one by one cost ~130 ms of a 0.7 s `ocl_sp --device nvidia --n 10000` on
// the H100 (docs/performance/startup.md); the operating system and the driver
// reclaim them at exit either way. Not in sanitizer builds (their leak check runs
// at normal exit) nor with OCL_SP_CLEAN_EXIT=1 (measurements, debugging).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "util/env.hpp"

namespace ocl_sp {

#if defined(__SANITIZE_ADDRESS__)
#define OCL_SP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define OCL_SP_SANITIZED 1
#endif
#endif

// Returns (so the caller unwinds normally) where a fast exit is not allowed.
inline void fast_exit_after_output(int code) {
#ifndef OCL_SP_SANITIZED
  if (env_flag("OCL_SP_CLEAN_EXIT")) return;
  std::cout.flush();
  std::cerr.flush();
  // A stream that failed: unwind as before (the exit code does not change here).
  if (std::fflush(nullptr) != 0 || std::cout.fail()) return;
  std::_Exit(code);
#else
  (void)code;
#endif
}

}  // namespace ocl_sp
