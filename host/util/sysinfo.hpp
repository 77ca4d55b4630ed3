// Host facts used for memory checks and reports.
#pragma once
#include <cstdint>
#include <string>

namespace ocl_sp {
uint64_t available_host_memory();  // bytes (MemAvailable), 0 if unknown
std::string cpu_model_name();      // from /proc/cpuinfo, "cpu" if unknown

// What the process may still allocate, and what limits it: the least of
// MemAvailable, the cgroup's memory.max minus its usage, and RLIMIT_AS minus the
// process's address space; with set_host_memory_limit (--host-memory SIZE) that
// limit minus the process's resident memory instead of all of them (VMs whose
// MemTotal grows with use, or limits this cannot see).
struct HostMemory {
  uint64_t available = 0;  // bytes; UINT64_MAX when nothing could be read
  std::string limited_by;  // "MemAvailable", "cgroup memory.max", "RLIMIT_AS", "--host-memory"
};
HostMemory host_memory();
uint64_t host_memory_available();  // host_memory().available
void set_host_memory_limit(uint64_t bytes);  // 0: none

// Throws RuntimeError when `bytes` cannot fit in what host_memory() allows,
// naming the numbers, the limit and --host-memory.
void check_host_memory(uint64_t bytes, const std::string& what);

// "512M", "20G", "1.5T", "123456" (bytes) -> bytes; UsageError naming `flag` otherwise.
uint64_t parse_size(const std::string& s, const std::string& flag);
}  // namespace ocl_sp
