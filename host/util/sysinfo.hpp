// Host facts used for memory checks and reports.
#pragma once
#include <cstdint>
#include <string>

namespace ocl_sp {
uint64_t available_host_memory();  // bytes (MemAvailable), 0 if unknown
std::string cpu_model_name();      // from /proc/cpuinfo, "cpu" if unknown
// Throws RuntimeError when `bytes` cannot fit in available host memory.
void check_host_memory(uint64_t bytes, const std::string& what);
}  // namespace ocl_sp
