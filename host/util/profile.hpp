// OCL_SP_PROFILE=1 (anything but "" or "0"): host phase timings on stderr, one
// "profile: <phase> <ms> ms" line each (device enumeration, context, program,
// generation and its passes, upload, kernels, download, report;
// docs/performance/startup.md).
#pragma once
#include <cstdio>
#include <iostream>
#include <string>

#include "util/env.hpp"

namespace ocl_sp {

inline bool profiling() {
  static const bool on = env_flag("OCL_SP_PROFILE");
  return on;
}

inline void profile(const std::string& phase, double seconds) {
  if (!profiling()) return;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", seconds * 1e3);
  std::cerr << "profile: " << phase << " " << ms << " ms" << std::endl;
}

}  // namespace ocl_sp
