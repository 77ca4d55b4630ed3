// Output files (see atomic_file.hpp).
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <streambuf>
#include <vector>

#include "util/errors.hpp"
#include "util/host_threads.hpp"

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
  // A block at least the buffer's size goes to the descriptor from the caller's
  // memory (what is buffered first): no copy through the buffer.
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < static_cast<std::streamsize>(sizeof buf_)) return std::streambuf::xsputn(s, n);
    if (flush_buf() != 0) return 0;
    write_all(s, static_cast<size_t>(n));
    return err_ == 0 ? n : 0;
  }
  int sync() override { return flush_buf(); }

 private:
  void write_all(const char* p, size_t len) {
    while (len > 0 && err_ == 0) {
      const ssize_t w = ::write(fd_, p, len);
      if (w < 0) {
        if (errno == EINTR) continue;
        err_ = errno;
      } else if (w == 0) {
        err_ = EIO;
      } else {
        p += w;
        len -= static_cast<size_t>(w);
      }
    }
  }
  int flush_buf() {
    write_all(pbase(), static_cast<size_t>(pptr() - pbase()));
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

std::string fail_text(const std::string& what, const std::string& path, int err) {
  return what + " '" + path + "': " + std::strerror(err);
}
std::string write_failed(const std::string& path, int err) {
  return "write to '" + path + "' failed: " + std::strerror(err);
}

// All of buf at offset off of fd (short writes and EINTR retried): 0, or the errno.
int pwrite_errno(int fd, const char* buf, size_t len, off_t off) {
  while (len > 0) {
    const ssize_t w = ::pwrite(fd, buf, len, off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w < 0 ? errno : EIO;
    buf += w;
    len -= static_cast<size_t>(w);
    off += w;
  }
  return 0;
}

// len bytes of buf at offset off of fd, whose blocks are reserved: pieces of
// mapped_write_bytes(), each mapped (MAP_SHARED), filled and unmapped by one of
// copy_threads(len) threads; a piece that cannot be mapped is written by pwrite.
void write_mapped(int fd, uint64_t off, const char* buf, size_t len, const std::string& path) {
  const size_t piece = AtomicOutput::mapped_write_bytes();
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const int64_t pieces = static_cast<int64_t>((len + piece - 1) / piece);
  std::atomic<int> failed{0};
  [[maybe_unused]] const int threads = copy_threads(len);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) {
    if (failed.load() != 0) continue;
    const uint64_t lo = off + static_cast<uint64_t>(i) * piece;
    const size_t here = std::min(piece, static_cast<size_t>(off + len - lo));
    const uint64_t at = lo / page * page;  // mappings start on a page
    const size_t span = here + static_cast<size_t>(lo - at);
    const char* src = buf + (lo - off);
    void* p = ::mmap(nullptr, span, PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(at));
    if (p == MAP_FAILED) {
      if (const int err = pwrite_errno(fd, src, here, static_cast<off_t>(lo))) failed.store(err);
      continue;
    }
    std::memcpy(static_cast<char*>(p) + (lo - at), src, here);
    ::munmap(p, span);
  }
  if (const int err = failed.load()) throw RuntimeError(write_failed(path, err));
}

}  // namespace

struct AtomicOutput::Impl {
  OutputTarget t;
  int fd = -1;
  bool file = false;
  bool tmpfile = false;  // unnamed (O_TMPFILE); else a named temporary in `tmp`
  bool done = false;
  std::string tmp;
  std::unique_ptr<FdBuf> buf;
  std::unique_ptr<std::ostream> os;

  std::string temp_name() const {
    std::random_device rd;
    return t.resolved + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
  }
  void close_stream() {
    os.reset();
    buf.reset();
    if (fd >= 0 && fd != 1) ::close(fd);
    fd = -1;
  }
  // The unnamed file under `name`: through /proc (any user), else AT_EMPTY_PATH
  // (needs CAP_DAC_READ_SEARCH); errno of the last try on failure.
  bool link_as(const std::string& name) const {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0)
      return true;
    if (errno == EEXIST) return false;
    return ::linkat(fd, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH) == 0;
  }
  // No way to link the unnamed file: its bytes copied into a named temporary.
  void copy_to(const std::string& name) const {
    const int out = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (out < 0) throw RuntimeError(fail_text("cannot write", t.path, errno));
    std::vector<char> b(1 << 20);
    off_t at = 0;
    int err = 0;
    for (;;) {
      const ssize_t r = ::pread(fd, b.data(), b.size(), at);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        if (r < 0) err = errno;
        break;
      }
      for (ssize_t w = 0; w < r && err == 0;) {
        const ssize_t k = ::write(out, b.data() + w, static_cast<size_t>(r - w));
        if (k < 0 && errno != EINTR) err = errno;
        if (k > 0) w += k;
      }
      if (err) break;
      at += r;
    }
    if (::close(out) != 0 && err == 0) err = errno;
    if (err) {
      ::unlink(name.c_str());
      throw RuntimeError(write_failed(t.path, err));
    }
  }
};

AtomicOutput::AtomicOutput(const OutputTarget& target) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.t = target;
  if (target.kind != OutputTarget::Kind::file) {
    // A closed reader must give EPIPE, not kill the process.
    std::signal(SIGPIPE, SIG_IGN);
    m.fd = 1;
    if (!target.is_stdout()) {
      m.fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC);
      if (m.fd < 0) throw RuntimeError(fail_text("cannot open", target.path, errno));
    }
  } else {
    m.file = true;
    const char* no_tmpfile = std::getenv("OCL_SP_NO_TMPFILE");  // tests: the fallback
    if (!(no_tmpfile && *no_tmpfile && std::string(no_tmpfile) != "0")) {
      m.fd = ::open(parent_of(target.resolved).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
      m.tmpfile = m.fd >= 0;
    }
    if (!m.tmpfile) {
      m.tmp = m.temp_name();
      m.fd = ::open(m.tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (m.fd < 0) throw RuntimeError(fail_text("cannot write", target.path, errno));
    }
  }
  m.buf = std::make_unique<FdBuf>(m.fd);
  m.os = std::make_unique<std::ostream>(m.buf.get());
}

AtomicOutput::~AtomicOutput() {
  Impl& m = *impl_;
  if (m.done) return;
  m.close_stream();  // an unnamed file vanishes with its descriptor
  if (m.file && !m.tmp.empty()) ::unlink(m.tmp.c_str());
}

std::ostream& AtomicOutput::stream() { return *impl_->os; }

const char* AtomicOutput::method() const {
  return !impl_->file ? "stream" : impl_->tmpfile ? "O_TMPFILE" : "named temporary";
}

void AtomicOutput::check() {
  const int err = impl_->buf ? impl_->buf->error() : 0;
  if (err != 0) throw RuntimeError(write_failed(impl_->t.path, err));
}

bool AtomicOutput::positioned() {
  impl_->os->flush();
  check();
  return impl_->file;
}

size_t AtomicOutput::mapped_write_bytes() {
  static const size_t bytes = [] {
    const char* e = std::getenv("OCL_SP_MAPPED_WRITE_BYTES");
    const long long v = e && *e ? std::atoll(e) : 0;
    return v > 0 ? static_cast<size_t>(v) : size_t{64} << 20;
  }();
  return bytes;
}

void AtomicOutput::write_at(uint64_t off, const char* buf, size_t len) {
  if (!impl_->file) throw std::logic_error("AtomicOutput::write_at on a stream");
  Impl& m = *impl_;
  // Large blocks: the file's blocks reserved first (fallocate: a full disk is an
  // error here, never a SIGBUS later), then the pages filled through mappings,
  // piece by piece on several threads. A buffered write() holds the file's lock
  // and copies on one core (~2 GB/s into the page cache); mapped pieces fault in
  // and fill in parallel. Where the file system cannot reserve or map, pwrite.
  if (len >= mapped_write_bytes()) {
    const off_t o = static_cast<off_t>(off), l = static_cast<off_t>(len);
    int err = 0;
    while (::fallocate(m.fd, 0, o, l) != 0 && (err = errno) == EINTR) err = 0;
    if (err == 0) {
      write_mapped(m.fd, off, buf, len, m.t.path);
      return;
    }
    if (err != EOPNOTSUPP && err != ENOSYS && err != EINVAL) throw RuntimeError(write_failed(m.t.path, err));
  }
  pwrite_all(m.fd, buf, len, static_cast<off_t>(off), m.t.path);
}

void pwrite_all(int fd, const char* buf, size_t len, off_t off, const std::string& path) {
  if (const int err = pwrite_errno(fd, buf, len, off)) throw RuntimeError(write_failed(path, err));
}

void AtomicOutput::commit() {
  Impl& m = *impl_;
  m.os->flush();
  check();
  m.os.reset();
  m.buf.reset();
  const OutputTarget& t = m.t;
  if (!m.file) {
    const int fd = m.fd;
    m.fd = -1;
    m.done = true;
    if (fd != 1 && ::close(fd) != 0)
      throw RuntimeError(write_failed(t.path, errno));
    return;
  }
  const std::string& path = t.resolved;
  // Keep the permissions of the file being replaced.
  struct stat st {};
  const bool replacing = ::stat(path.c_str(), &st) == 0;
  if (replacing) ::fchmod(m.fd, st.st_mode & 07777);
  if (m.tmpfile) {
    // A new path gets the file in one step; an existing one through a rename from
    // a name that exists only between these two calls.
    if (!replacing && m.link_as(path)) {
      m.close_stream();
      m.done = true;
      return;
    }
    m.tmp = m.temp_name();
    if (!m.link_as(m.tmp)) m.copy_to(m.tmp);
  }
  const int fd = m.fd;
  m.fd = -1;
  if (::close(fd) != 0)
    throw RuntimeError(write_failed(t.path, errno));
  if (std::rename(m.tmp.c_str(), path.c_str()) != 0)
    throw RuntimeError(fail_text("cannot rename temporary file to", t.path, errno));
  m.done = true;
}

uint64_t free_disk_bytes(const OutputTarget& target) {
  if (target.kind != OutputTarget::Kind::file) return UINT64_MAX;
  struct statvfs vs {};
  if (::statvfs(parent_of(target.resolved).c_str(), &vs) != 0) return UINT64_MAX;
  return static_cast<uint64_t>(vs.f_bavail) * static_cast<uint64_t>(vs.f_frsize);
}

void check_free_disk(const OutputTarget& target, uint64_t bytes, const std::string& what) {
  const uint64_t free = free_disk_bytes(target);
  if (bytes <= free) return;
  auto gib = [](uint64_t b) {
    char s[32];
    std::snprintf(s, sizeof s, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
    return std::string(s);
  };
  throw RuntimeError("not enough disk space for '" + target.path + "': " + what + " needs " +
                     gib(bytes) + ", the filesystem of '" + parent_of(target.resolved) +
                     "' has " + gib(free) + " free");
}

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

namespace {
// The one way a whole file is written: opened beside its target, filled,
// committed (renamed over it); an exception leaves the old file and no temporary.
void fill_and_commit(const OutputTarget& target, const std::function<void(AtomicOutput&)>& fill) {
  AtomicOutput out(target);
  fill(out);
  out.commit();
}
}  // namespace

void write_output(const OutputTarget& target, const std::function<void(std::ostream&)>& fill) {
  fill_and_commit(target, [&](AtomicOutput& out) { fill(out.stream()); });
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  write_file_atomically_to(path, [&](AtomicOutput& out) { fill(out.stream()); });
}

void write_file_atomically_to(const std::string& path, const std::function<void(AtomicOutput&)>& fill) {
  OutputTarget t;
  try {
    t = resolve_output(path);
  } catch (const UsageError& e) {
    // At write time a bad path is a failure of the run (exit 1), not of the usage.
    throw RuntimeError(std::string("cannot write: ") + e.what());
  }
  fill_and_commit(t, fill);
}

}  // namespace ocl_sp
