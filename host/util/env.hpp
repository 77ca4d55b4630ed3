// Environment switches and numbers: OCL_SP_* variables that turn a behaviour on
// or off or set a size, and the launchers' rank variables.
#pragma once
#include <cstdlib>
#include <cstring>

namespace ocl_sp {

// True when the variable is set to something other than "" or "0".
inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

// The variable as a whole decimal integer in [lo, hi]; `fallback` when it is
// unset, empty, not a whole number or out of that range.
inline int env_int(const char* name, int fallback, int lo, int hi) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return end && *end == '\0' && x >= lo && x <= hi ? static_cast<int>(x) : fallback;
}

}  // namespace ocl_sp
