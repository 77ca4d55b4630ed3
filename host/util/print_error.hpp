// How a message of the errors.hpp kinds reaches the user.
#pragma once
#include <unistd.h>

#include <cerrno>
#include <string>

namespace ocl_sp {

// "error: <message>\n" on stderr in one write: under mpirun the launcher forwards
// each rank's output as it reads it and prints its own abort notice beside it, so
// a message written in pieces (std::cerr writes each << unbuffered) can come out
// split by another line.
inline void print_error(const std::string& message) {
  const std::string line = "error: " + message + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t k = ::write(2, line.data() + done, line.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    done += static_cast<size_t>(k);
  }
}

}  // namespace ocl_sp
