// Environment switches: OCL_SP_* variables that turn a behaviour on or off.
#pragma once
#include <cstdlib>
#include <cstring>

namespace ocl_sp {

// True when the variable is set to something other than "" or "0".
inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace ocl_sp
