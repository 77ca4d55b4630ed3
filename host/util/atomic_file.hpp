// Output files that never destroy what they should not. A regular file (or a new
// path) is written to a temporary file in its folder and renamed over it only
// after a successful close, so a failure leaves no partial file and never clobbers
// an older one. A symlink is followed (its target is replaced, the link stays);
// character devices, FIFOs and `-` / /dev/stdout are written in place, never
// replaced by a regular file.
#pragma once
#include <sys/types.h>

#include <functional>
#include <ostream>
#include <string>

namespace ocl_sp {

// Where an output path leads, decided before any work.
struct OutputTarget {
  enum class Kind { file, stream, stdout_stream };
  Kind kind = Kind::file;
  std::string path;      // as given
  std::string resolved;  // symlinks followed (file: the path renamed over)
  bool exists = false;   // resolved path exists (then dev/ino are set)
  dev_t dev = 0;
  ino_t ino = 0;
  bool is_stdout() const { return kind == Kind::stdout_stream; }
};

// Classifies `path`: UsageError for a folder, a missing parent folder, a symlink
// loop or a socket. `-`, /dev/stdout and /dev/fd/1 are standard output.
OutputTarget resolve_output(const std::string& path);

// True when the two name the same existing file (device + inode), or the same
// path once symlinks are followed.
bool same_file(const OutputTarget& a, const OutputTarget& b);

// Writes through fill(stream) to the target as resolve_output classifies it.
// Errors (ENOSPC, EPIPE, ...) become RuntimeError naming the path; for files the
// temporary is removed and the old file is untouched.
void write_output(const OutputTarget& target, const std::function<void(std::ostream&)>& fill);

// write_output(resolve_output(path), fill): every file ocl_sp writes goes here.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);

}  // namespace ocl_sp
