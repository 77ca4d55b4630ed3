// Host facts (see sysinfo.hpp).
#include "util/sysinfo.hpp"

#include <fstream>
#include <sstream>

#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

uint64_t available_host_memory() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (f >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::string cpu_model_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return trim(line.substr(p + 1));
    }
  return "cpu";
}

void check_host_memory(uint64_t bytes, const std::string& what) {
  const uint64_t avail = available_host_memory();
  if (avail != 0 && bytes > avail) {
    std::ostringstream m;
    m << what << " needs " << (bytes >> 20) << " MiB of host memory but only " << (avail >> 20)
      << " MiB are available";
    throw RuntimeError(m.str());
  }
}

}  // namespace ocl_sp
