// Output files (see atomic_file.hpp).
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <streambuf>

#include "util/errors.hpp"

namespace ocl_sp {

namespace {

std::string parent_of(const std::string& p) {
  const auto slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

// An unbuffered-by-the-kernel stream over a file descriptor that remembers the
// first write error (errno), so EPIPE / ENOSPC reach the caller.
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  ~FdBuf() override { sync(); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type c) override {
    if (flush_buf() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return flush_buf(); }

 private:
  int flush_buf() {
    const char* p = pbase();
    while (p < pptr() && err_ == 0) {
      const ssize_t w = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (w < 0) {
        if (errno == EINTR) continue;
        err_ = errno;
      } else if (w == 0) {
        err_ = EIO;
      } else {
        p += w;
      }
    }
    setp(buf_, buf_ + sizeof buf_);
    return err_ == 0 ? 0 : -1;
  }
  int fd_;
  int err_ = 0;
  char buf_[1 << 16];
};

bool names_stdout(const std::string& p) {
  return p == "-" || p == "/dev/stdout" || p == "/dev/fd/1" || p == "/proc/self/fd/1";
}

void write_stream(const OutputTarget& t, const std::function<void(std::ostream&)>& fill) {
  // A closed reader must give EPIPE, not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  int fd = 1;
  if (!t.is_stdout()) {
    fd = ::open(t.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw RuntimeError("cannot open '" + t.path + "': " + std::strerror(errno));
  }
  int err = 0;
  {
    FdBuf buf(fd);
    std::ostream out(&buf);
    try {
      fill(out);
    } catch (...) {
      if (fd != 1) ::close(fd);
      throw;
    }
    out.flush();
    err = buf.error();
  }
  if (fd != 1 && ::close(fd) != 0 && err == 0) err = errno;
  if (err != 0)
    throw RuntimeError("write to '" + t.path + "' failed: " + std::strerror(err));
}

void write_file(const OutputTarget& t, const std::function<void(std::ostream&)>& fill) {
  const std::string& path = t.resolved;
  std::random_device rd;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw RuntimeError("cannot write '" + t.path + "': " + std::strerror(errno));
      fill(out);
      out.flush();
      if (!out) throw RuntimeError("write to '" + t.path + "' failed: " + std::strerror(errno));
      out.close();
      if (!out) throw RuntimeError("write to '" + t.path + "' failed: " + std::strerror(errno));
    }
    // Keep the permissions of the file being replaced.
    if (t.exists) {
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0) ::chmod(tmp.c_str(), st.st_mode & 07777);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw RuntimeError("cannot rename temporary file to '" + t.path + "': " + std::strerror(errno));
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace

OutputTarget resolve_output(const std::string& path) {
  OutputTarget t;
  t.path = path;
  if (path.empty()) throw UsageError("empty output path");
  if (names_stdout(path)) {
    t.kind = OutputTarget::Kind::stdout_stream;
    t.resolved = "-";
    struct stat st {};
    if (::fstat(1, &st) == 0) {
      t.exists = true;
      t.dev = st.st_dev;
      t.ino = st.st_ino;
    }
    return t;
  }
  // Follow symlinks by hand (the final target may not exist yet: a dangling
  // link names the file to create).
  std::string p = path;
  for (int hops = 0;; ++hops) {
    if (hops > 40) throw UsageError("output '" + path + "': too many levels of symbolic links");
    struct stat lst {};
    if (::lstat(p.c_str(), &lst) != 0) {
      if (errno != ENOENT)
        throw UsageError("output '" + path + "': " + std::string(std::strerror(errno)));
      break;  // a new file
    }
    if (!S_ISLNK(lst.st_mode)) break;
    std::string target(4096, '\0');
    const ssize_t len = ::readlink(p.c_str(), target.data(), target.size());
    if (len < 0) throw UsageError("output '" + path + "': " + std::string(std::strerror(errno)));
    target.resize(static_cast<size_t>(len));
    if (names_stdout(target)) return resolve_output(target);
    p = target[0] == '/' ? target : parent_of(p) + "/" + target;
  }
  // Canonical folder + name, so "d/./x" and "d/x" compare equal before x exists.
  {
    const auto slash = p.find_last_of('/');
    const std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
    char* dir = ::realpath(parent_of(p).c_str(), nullptr);
    if (dir != nullptr && !name.empty() && name != "." && name != "..") {
      p = std::string(dir) + (std::string(dir) == "/" ? "" : "/") + name;
    }
    std::free(dir);
  }
  t.resolved = p;
  struct stat st {};
  if (::stat(p.c_str(), &st) == 0) {
    t.exists = true;
    t.dev = st.st_dev;
    t.ino = st.st_ino;
    if (S_ISDIR(st.st_mode)) throw UsageError("output '" + path + "' is a folder");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      t.kind = OutputTarget::Kind::stream;
      return t;
    }
    if (!S_ISREG(st.st_mode))
      throw UsageError("output '" + path + "' is neither a regular file, a character device nor a FIFO");
    return t;
  }
  const std::string dir = parent_of(p);
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
    throw UsageError("output folder '" + dir + "' does not exist");
  return t;
}

bool same_file(const OutputTarget& a, const OutputTarget& b) {
  if (a.exists && b.exists) return a.dev == b.dev && a.ino == b.ino;
  return a.resolved == b.resolved && a.kind == OutputTarget::Kind::file;
}

void write_output(const OutputTarget& target, const std::function<void(std::ostream&)>& fill) {
  if (target.kind == OutputTarget::Kind::file)
    write_file(target, fill);
  else
    write_stream(target, fill);
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  OutputTarget t;
  try {
    t = resolve_output(path);
  } catch (const UsageError& e) {
    // At write time a bad path is a failure of the run (exit 1), not of the usage.
    throw RuntimeError(std::string("cannot write: ") + e.what());
  }
  write_output(t, fill);
}

}  // namespace ocl_sp
