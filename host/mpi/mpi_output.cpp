// The distributed solve's output without a gather (see mpi_output.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <random>
#include <type_traits>

#include "util/errors.hpp"

namespace ocl_sp::mpi {

namespace {

// count values little-endian into dst (what the single-process writers emit).
template <typename T>
void to_le(const T* src, size_t count, char* dst) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::memcpy(dst, src, count * sizeof(T));
#else
  for (size_t k = 0; k < count; ++k) {
    std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> v;
    std::memcpy(&v, src + k, sizeof v);
    for (size_t b = 0; b < sizeof v; ++b)
      dst[sizeof v * k + b] = static_cast<char>((v >> (8 * b)) & 0xff);
  }
#endif
}

// All of buf at offset off of fd (short writes and EINTR retried).
void pwrite_all(int fd, const char* buf, size_t len, off_t off, const std::string& path) {
  while (len > 0) {
    const ssize_t w = ::pwrite(fd, buf, len, off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      throw RuntimeError("write to '" + path + "' failed: " + std::strerror(w < 0 ? errno : EIO));
    buf += w;
    len -= static_cast<size_t>(w);
    off += w;
  }
}

// The temporary file's name, rank 0's to every rank.
std::string bcast_string(std::string s) {
  long long len = static_cast<long long>(s.size());
  MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  s.resize(static_cast<size_t>(len));
  MPI_Bcast(s.data(), static_cast<int>(len), MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

// This rank's rows of its panels into the open file at their offsets.
template <typename T>
void write_own_rows(const Layout& lay, const std::vector<T>& local, int fd, size_t header,
                    const std::string& path) {
  const int64_t p = lay.p, mc = lay.mc();
  std::vector<char> buf(static_cast<size_t>(lay.pc == 1 ? lay.n : p) * sizeof(T));
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li];
    for (int64_t a = 0; a < lay.real(i); ++a) {
      const int64_t v = i * p + a;
      const T* row = local.data() + (static_cast<int64_t>(li) * p + a) * mc;
      // One process column: the rank's row is the whole row (padding at its end).
      const int64_t runs = lay.pc == 1 ? 1 : static_cast<int64_t>(lay.cols.size());
      for (int64_t lj = 0; lj < runs; ++lj) {
        const int64_t u0 = lay.cols[static_cast<size_t>(lj)] * p;
        const int64_t cnt = lay.pc == 1 ? lay.n : std::max<int64_t>(0, std::min(p, lay.n - u0));
        if (cnt <= 0) continue;
        to_le(row + lj * p, static_cast<size_t>(cnt), buf.data());
        pwrite_all(fd, buf.data(), static_cast<size_t>(cnt) * sizeof(T),
                   static_cast<off_t>(header + static_cast<size_t>(v * lay.n + u0) * sizeof(T)),
                   path);
      }
    }
  }
}

// The direct way: returns false (nothing written, nothing left) when some rank
// cannot open rank 0's temporary file, so the caller streams instead.
template <typename T>
bool write_in_place(const Layout& lay, const std::vector<T>& local, const OutputTarget* target,
                    OutputFormat fmt, const Session& s, int& code) {
  Outcome out;
  std::string tmp;
  const std::string header = matrix_file_header<T>(fmt, lay.n);
  const auto remove_tmp = [&] {
    if (s.rank == 0 && !tmp.empty()) ::unlink(tmp.c_str());
  };
  out.step([&] {
    if (s.rank != 0) return;
    std::random_device rd;
    tmp = target->resolved + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      tmp.clear();
      throw RuntimeError("cannot write '" + target->path + "': " + std::strerror(errno));
    }
    const off_t size = static_cast<off_t>(header.size() + static_cast<size_t>(lay.n * lay.n) * sizeof(T));
    int err = 0;
    try {
      pwrite_all(fd, header.data(), header.size(), 0, target->path);
      if (::ftruncate(fd, size) != 0) err = errno;
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err) throw RuntimeError("cannot write '" + target->path + "': " + std::strerror(err));
  });
  if ((code = agree(out, s))) {
    remove_tmp();
    return true;
  }
  tmp = bcast_string(tmp);
  // Every rank opens it; a rank that cannot (ENOENT: another file system) makes
  // everyone stream instead.
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
  int opened = fd >= 0 ? 1 : 0, all = 0;
  MPI_Allreduce(&opened, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (fd >= 0) ::close(fd);
    MPI_Barrier(MPI_COMM_WORLD);  // closed everywhere before rank 0 removes it
    remove_tmp();
    return false;
  }
  out.step([&] {
    const int f = fd;
    fd = -1;
    try {
      write_own_rows(lay, local, f, header.size(), target ? target->path : tmp);
    } catch (...) {
      ::close(f);
      throw;
    }
    if (::close(f) != 0)
      throw RuntimeError("write to '" + tmp + "' failed: " + std::strerror(errno));
  });
  if ((code = agree(out, s))) {
    remove_tmp();
    return true;
  }
  out.step([&] {
    if (s.rank != 0) return;
    if (target->exists) {  // keep the permissions of the file being replaced
      struct stat st {};
      if (::stat(target->resolved.c_str(), &st) == 0) ::chmod(tmp.c_str(), st.st_mode & 07777);
    }
    if (std::rename(tmp.c_str(), target->resolved.c_str()) != 0)
      throw RuntimeError("cannot rename temporary file to '" + target->path +
                         "': " + std::strerror(errno));
    tmp.clear();
  });
  code = agree(out, s);
  remove_tmp();
  return true;
}

// The streamed way: per panel row, rank 0 says go (or stop: its file could not be
// opened, or writing failed), the blocks' owners send them, rank 0 writes the rows.
template <typename T>
int write_streamed(const Layout& lay, const std::vector<T>& local, const OutputTarget* target,
                   OutputFormat fmt, const Session& s, double& bytes) {
  Outcome out;
  if (s.rank != 0) {
    out.step([&] {
      for (int64_t i = 0; i < lay.q; ++i) {
        int go = 0;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!go) break;
        if (!lay.has_row(i)) continue;
        const int64_t count = lay.p * lay.mc();
        if (count > 0) send_chunks(local.data() + lay.lrow(i) * count, count, 0);
      }
    });
    return agree(out, s);
  }
  int64_t sent_rows = 0;  // panel rows announced (go = 1) to the others
  std::vector<T> strip, block;
  out.step([&] {
    strip.assign(static_cast<size_t>(lay.p * lay.n), T(0));
    write_output(*target, [&](std::ostream& os) {
      std::exception_ptr failed;  // formatting failed: keep receiving, rethrow at the end
      for (int64_t i = 0; i < lay.q; ++i) {
        int go = 1;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        ++sent_rows;
        for (int b = 0; b < lay.pc; ++b) {
          const int src = lay.rank_of(static_cast<int>(i % lay.pr), b);
          const int64_t count = lay.p * lay.cols_of(b) * lay.p;
          if (count <= 0) continue;
          const T* blk = local.data() + (src == 0 ? lay.lrow(i) * lay.p * lay.mc() : 0);
          if (src != 0) {
            block.resize(static_cast<size_t>(count));
            recv_chunks(block.data(), count, src);
            blk = block.data();
            bytes += static_cast<double>(count) * sizeof(T);
          }
          unpack_block(lay, i, b, blk, strip.data());
        }
        if (failed) continue;
        try {
          write_matrix_rows(os, fmt, strip.data(), lay.real(i), lay.n);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      if (failed) std::rethrow_exception(failed);
    });
  });
  if (sent_rows < lay.q) {  // the others wait for a word on the next panel row
    int go = 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  return agree(out, s);
}

}  // namespace

template <typename T>
int write_distributed(const Layout& lay, const std::vector<T>& local, const OutputTarget* target,
                      OutputFormat fmt, const Session& s, OutputStats& st) {
  int direct = s.rank == 0 && target->kind == OutputTarget::Kind::file && fmt != OutputFormat::csv;
  MPI_Bcast(&direct, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (direct) {
    int code = 0;
    if (write_in_place(lay, local, target, fmt, s, code)) {
      st.mode = "each rank wrote its panels";
      return code;
    }
  }
  st.mode = "panel rows streamed to rank 0";
  return write_streamed(lay, local, target, fmt, s, st.bytes_to_root);
}

template int write_distributed<int32_t>(const Layout&, const std::vector<int32_t>&,
                                        const OutputTarget*, OutputFormat, const Session&,
                                        OutputStats&);
template int write_distributed<float>(const Layout&, const std::vector<float>&, const OutputTarget*,
                                      OutputFormat, const Session&, OutputStats&);
template int write_distributed<double>(const Layout&, const std::vector<double>&, const OutputTarget*,
                                      OutputFormat, const Session&, OutputStats&);
template int write_distributed<int64_t>(const Layout&, const std::vector<int64_t>&, const OutputTarget*,
                                      OutputFormat, const Session&, OutputStats&);

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
