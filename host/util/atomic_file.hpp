// Atomic file writing: data goes to a temporary file in the target folder and is
// renamed over the target only after a successful close, so a failure leaves no
// partial file and never clobbers an older one.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace ocl_sp {

// Calls fill(stream); on any exception or write error removes the temporary and
// rethrows (I/O errors become RuntimeError naming the path).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);

}  // namespace ocl_sp
