// Atomic file writing (see atomic_file.hpp).
#include "util/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "util/errors.hpp"

namespace ocl_sp {

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& fill) {
  std::random_device rd;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw RuntimeError("cannot write '" + path + "': " + std::strerror(errno));
      fill(out);
      out.flush();
      if (!out) throw RuntimeError("write to '" + path + "' failed: " + std::strerror(errno));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw RuntimeError("cannot rename temporary file to '" + path + "': " + std::strerror(errno));
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace ocl_sp
