// Kernel sources (embedded at build time, or from $OCL_SP_KERNEL_DIR during
// development) and program building with an on-disk binary cache keyed by source,
// options, platform/device name, driver version and ocl_sp version.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cl/cl.hpp"

namespace ocl_sp {

// Text of kernels/<file>; UsageError-free: RuntimeError if unknown.
std::string kernel_source(const std::string& file);

struct BuiltProgram {
  cl::Program program;
  bool cache_hit = false;
  double seconds = 0;         // build or load time
  std::string cache = "n/a";  // hit | miss | n/a (cache disabled), as SolverInfo::cache
  std::string cache_file;     // the entry read or written; empty when disabled
  std::string cache_note;     // why a present entry was not used, or why writing failed
};

// Builds `files` (concatenated in order, e.g. {"common.cl", "fw_blocked.cl"}) for
// one device with `options` ("-DBLOCK=64 ..."). Uses the cache folder
// ($OCL_SP_CACHE_DIR, else $XDG_CACHE_HOME/ocl_sp, else ~/.cache/ocl_sp) unless
// OCL_SP_NO_CACHE is set. A build failure throws RuntimeError carrying the device,
// the options and the build log.
BuiltProgram build_program(const cl::Context& ctx, const cl::Device& dev,
                           const std::vector<std::string>& files, const std::string& options);

std::string cache_dir();  // the folder used (may not exist yet)

// True unless OCL_SP_NO_CACHE is set (to anything but "" or "0").
bool cache_enabled();

// Register caps for NVIDIA's PTX (pure; unit-tested). A kernel file asks for one
// with a line "// ocl_sp:nvidia-maxnreg ENTRY N" (the near-far kernels: the driver
// ignores -cl-nv-maxrregcount where reqd_work_group_size is given, and leaves
// them one work-group of 1024 a compute unit). `ptx_register_caps` reads those
// lines from a program's source; `cap_ptx_registers` writes ".maxnreg N" into
// each named .entry of the PTX text (replacing a .maxnreg there) and returns how
// many entries it capped. Other vendors' binaries are never touched.
struct PtxRegisterCap {
  std::string entry;
  int registers = 0;
};
std::vector<PtxRegisterCap> ptx_register_caps(const std::string& source);
int cap_ptx_registers(std::string& ptx, const std::vector<PtxRegisterCap>& caps);

// 64-bit FNV-1a, the cache key hash.
uint64_t fnv1a64(const std::string& s);

// A cache entry file's bytes (format in program.cpp) for `key` and `binary`, and
// its pure parser: true and the binary when `file` is a well-formed entry for
// exactly `key`, else false (`binary` untouched) and the reason in `why` ("bad
// header", "key differs (stale entry)", "checksum mismatch", ...). No OpenCL and
// no I/O involved; fuzzed by tests/fuzz/fuzz_program_cache.cpp.
std::string format_cache_entry(const std::string& key, const std::string& binary);
bool parse_cache_entry(const std::string& file, const std::string& key, std::string& binary,
                       std::string& why);

}  // namespace ocl_sp
