// Kernel sources (embedded at build time, or from $OCL_SP_KERNEL_DIR during
// development) and program building with an on-disk binary cache keyed by source,
// options, platform/device name, driver version and ocl_sp version.
#pragma once
#include <string>

#include "cl/cl.hpp"

namespace ocl_sp {

// Text of kernels/<file>; UsageError-free: RuntimeError if unknown.
std::string kernel_source(const std::string& file);

struct BuiltProgram {
  cl::Program program;
  bool cache_hit = false;
  double seconds = 0;  // build or load time
};

// Builds `files` (concatenated in order, e.g. {"common.cl", "fw_blocked.cl"}) for
// one device with `options` ("-DBLOCK=64 ..."). Uses the cache folder
// ($OCL_SP_CACHE_DIR, else $XDG_CACHE_HOME/ocl_sp, else ~/.cache/ocl_sp) unless
// OCL_SP_NO_CACHE is set. A build failure throws RuntimeError carrying the device,
// the options and the build log.
BuiltProgram build_program(const cl::Context& ctx, const cl::Device& dev,
                           const std::vector<std::string>& files, const std::string& options);

std::string cache_dir();  // the folder used (may not exist yet)

}  // namespace ocl_sp
