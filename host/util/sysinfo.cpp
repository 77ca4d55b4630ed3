// Host facts (see sysinfo.hpp).
#include "util/sysinfo.hpp"

#include <sys/resource.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

namespace {

uint64_t g_limit = 0;  // --host-memory

// A "Key:  123 kB" field of /proc/meminfo or /proc/self/status, in bytes.
uint64_t kb_field(const char* file, const std::string& key) {
  std::ifstream f(file);
  std::string k, unit;
  uint64_t kb = 0;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    if (is >> k >> kb && k == key) return kb * 1024;
  }
  return 0;
}

bool read_u64(const std::string& file, uint64_t& v) {
  std::ifstream f(file);
  std::string s;
  if (!(f >> s) || s == "max") return false;
  try {
    v = std::stoull(s);
  } catch (...) {
    return false;
  }
  return true;
}

// Remaining bytes under the process's cgroup limit (v2, else v1); false if none.
bool cgroup_room(uint64_t& room) {
  std::ifstream cg("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cg, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  uint64_t limit = 0, used = 0;
  for (const std::string& base : {"/sys/fs/cgroup" + path, std::string("/sys/fs/cgroup")}) {
    if (read_u64(base + "/memory.max", limit)) {
      read_u64(base + "/memory.current", used);
      room = limit > used ? limit - used : 0;
      return true;
    }
  }
  if (read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes", limit) && limit < (uint64_t{1} << 60)) {
    read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes", used);
    room = limit > used ? limit - used : 0;
    return true;
  }
  return false;
}

}  // namespace

uint64_t available_host_memory() { return kb_field("/proc/meminfo", "MemAvailable:"); }

void set_host_memory_limit(uint64_t bytes) { g_limit = bytes; }

HostMemory host_memory() {
  HostMemory h;
  h.available = std::numeric_limits<uint64_t>::max();
  if (g_limit) {
    const uint64_t rss = kb_field("/proc/self/status", "VmRSS:");
    h.available = g_limit > rss ? g_limit - rss : 0;
    h.limited_by = "--host-memory";
    return h;
  }
  const auto take = [&](uint64_t v, const char* why) {
    if (v < h.available) {
      h.available = v;
      h.limited_by = why;
    }
  };
  if (const uint64_t a = available_host_memory()) take(a, "MemAvailable");
  uint64_t room = 0;
  if (cgroup_room(room)) take(room, "cgroup memory.max");
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    const uint64_t vm = kb_field("/proc/self/status", "VmSize:");
    const uint64_t lim = static_cast<uint64_t>(rl.rlim_cur);
    take(lim > vm ? lim - vm : 0, "RLIMIT_AS (ulimit -v)");
  }
  return h;
}

uint64_t host_memory_available() { return host_memory().available; }

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
  const HostMemory h = host_memory();
  if (bytes > h.available) {
    std::ostringstream m;
    m << what << " needs " << (bytes >> 20) << " MiB of host memory but only "
      << (h.available >> 20) << " MiB are available (limited by " << h.limited_by
      << "); use a smaller n, --type float32 is the same size, or --host-memory SIZE if "
         "more memory can really be had";
    throw RuntimeError(m.str());
  }
}

uint64_t parse_size(const std::string& s, const std::string& flag) {
  const std::string t = trim(s);
  size_t used = 0;
  double v = -1;
  try {
    v = std::stod(t, &used);
  } catch (...) {
    used = 0;
  }
  std::string unit = lower(t.substr(used));
  if (!unit.empty() && unit.back() == 'b') unit.pop_back();
  if (!unit.empty() && unit.back() == 'i') unit.pop_back();
  double mul = 1;
  if (unit == "k") mul = 1024.0;
  else if (unit == "m") mul = 1024.0 * 1024;
  else if (unit == "g") mul = 1024.0 * 1024 * 1024;
  else if (unit == "t") mul = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty()) used = 0;
  if (used == 0 || !(v > 0) || !std::isfinite(v * mul) || v * mul >= 1.8e19)
    throw UsageError(flag + " expects a size such as 512M, 20G or 1.5T, got '" + s + "'");
  return static_cast<uint64_t>(v * mul);
}

}  // namespace ocl_sp
