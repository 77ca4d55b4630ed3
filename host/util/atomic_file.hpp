// Output files that never destroy what they should not. A regular file (or a new
// path) is written into an unnamed file of its folder (O_TMPFILE) and linked into
// place (linkat) only after the last byte, so a failure, or a kill -9 at any
// moment, leaves no partial file and no orphan, and never clobbers an older one
// (an existing file is replaced by a rename from a name that lives only for that
// instant). Where the filesystem has no O_TMPFILE, a named temporary
// (PATH.tmp.PID.N) renamed over the path is the fallback. A symlink is followed (its target is replaced, the link stays);
// character devices, FIFOs and `-` / /dev/stdout are written in place, never
// replaced by a regular file.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
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

// One output being written: open() at construction, stream() to fill, commit()
// to put the file in place (streams: flush). Destroyed without commit(), a file
// output leaves nothing behind. Write errors become RuntimeError naming the path.
// Streamed writers (sparse/stream_sink.hpp) keep one open across a solve.
class AtomicOutput {
 public:
  explicit AtomicOutput(const OutputTarget& target);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  std::ostream& stream();
  // Throws RuntimeError on the first write error seen so far (ENOSPC, EPIPE).
  void check();
  void commit();
  // Positioned writes (write_at) for a file output, once what the stream holds
  // is written: true for files, false for streams (standard output, FIFOs,
  // character devices), which take the stream only. A positioned write leaves
  // the stream's offset where it was: after the first one, every byte goes by
  // write_at.
  bool positioned();
  // len bytes of buf at byte offset off of the file (a file output only);
  // RuntimeError naming the path on a write error (ENOSPC). Blocks of at least
  // mapped_write_bytes() are reserved (fallocate) and filled through mappings,
  // pieces of that size on several threads, where the file system allows.
  void write_at(uint64_t off, const char* buf, size_t len);
  // 64 MiB; OCL_SP_MAPPED_WRITE_BYTES=K sets K (tests: pieces that straddle pages).
  static size_t mapped_write_bytes();
  // "O_TMPFILE" or "named temporary" (files), "stream" otherwise: for tests.
  const char* method() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Bytes free for an unprivileged writer in the folder of `target` (statvfs), or
// UINT64_MAX for streams and when unknown.
uint64_t free_disk_bytes(const OutputTarget& target);
// RuntimeError (exit 1) naming the numbers when `bytes` cannot fit there.
void check_free_disk(const OutputTarget& target, uint64_t bytes, const std::string& what);

// All of buf at offset off of fd (short writes and EINTR retried); RuntimeError
// naming path.
void pwrite_all(int fd, const char* buf, size_t len, off_t off, const std::string& path);

// write_output(resolve_output(path), fill): every file ocl_sp writes goes here.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);
// The same with the whole AtomicOutput to fill (its stream, or positioned writes),
// committed after fill returns.
void write_file_atomically_to(const std::string& path, const std::function<void(AtomicOutput&)>& fill);

}  // namespace ocl_sp
