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
bool write_in_place(const RankWriter& w, const OutputTarget* target, const Session& s, int& code) {
  Outcome out;
  std::string tmp;
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
    int err = 0;
    try {
      pwrite_all(fd, w.header.data(), w.header.size(), 0, target->path);
      if (::ftruncate(fd, static_cast<off_t>(w.bytes)) != 0) err = errno;
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
      w.write_mine(f, target ? target->path : tmp);
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

// The streamed way: per step, rank 0 says go (or stop: its file could not be
// opened, or writing failed), every rank exchanges, rank 0 writes the step.
int write_streamed(const RankWriter& w, const OutputTarget* target, const Session& s) {
  Outcome out;
  if (s.rank != 0) {
    out.step([&] {
      for (int64_t k = 0; k < w.steps; ++k) {
        int go = 0;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!go) break;
        w.exchange(k);
      }
    });
    return agree(out, s);
  }
  int64_t announced = 0;  // steps announced (go = 1) to the others
  out.step([&] {
    write_output(*target, [&](std::ostream& os) {
      std::exception_ptr failed;  // formatting failed: keep exchanging, rethrow at the end
      try {
        os.write(w.header.data(), static_cast<std::streamsize>(w.header.size()));
      } catch (...) {
        failed = std::current_exception();
      }
      for (int64_t k = 0; k < w.steps; ++k) {
        int go = 1;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
        ++announced;
        w.exchange(k);
        if (failed) continue;
        try {
          w.write(k, os);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      if (failed) std::rethrow_exception(failed);
    });
  });
  if (announced < w.steps) {  // the others wait for a word on the next step
    int go = 0;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  return agree(out, s);
}

}  // namespace

int write_ranked(const RankWriter& w, const OutputTarget* target, OutputFormat fmt, const Session& s,
                 OutputStats& st) {
  int direct = s.rank == 0 && target->kind == OutputTarget::Kind::file && fmt != OutputFormat::csv;
  MPI_Bcast(&direct, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (direct) {
    int code = 0;
    if (write_in_place(w, target, s, code)) {
      st.mode = w.in_place_mode;
      return code;
    }
  }
  st.mode = w.streamed_mode;
  if (w.before_stream) {
    Outcome out;
    out.step(w.before_stream);
    if (int code = agree(out, s)) return code;
  }
  return write_streamed(w, target, s);
}

template <typename T>
int write_distributed(const Layout& lay, const std::vector<T>& local, const OutputTarget* target,
                      OutputFormat fmt, const Session& s, OutputStats& st) {
  RankWriter w;
  w.header = matrix_file_header<T>(fmt, lay.n);
  w.bytes = w.header.size() + static_cast<uint64_t>(lay.n) * static_cast<uint64_t>(lay.n) * sizeof(T);
  w.write_mine = [&](int fd, const std::string& path) {
    write_own_rows(lay, local, fd, w.header.size(), path);
  };
  // Streamed: panel row by panel row, the owners send their blocks to rank 0,
  // which holds one P x n strip.
  std::vector<T> strip, block;
  w.steps = lay.q;
  w.exchange = [&](int64_t i) {
    if (s.rank != 0) {
      const int64_t count = lay.p * lay.mc();
      if (lay.has_row(i) && count > 0) send_chunks(local.data() + lay.lrow(i) * count, count, 0);
      return;
    }
    strip.resize(static_cast<size_t>(lay.p * lay.n));
    for (int b = 0; b < lay.pc; ++b) {
      const int src = lay.rank_of(static_cast<int>(i % lay.pr), b);
      const int64_t count = lay.p * lay.cols_of(b) * lay.p;
      if (count <= 0) continue;
      const T* blk = local.data() + (src == 0 ? lay.lrow(i) * lay.p * lay.mc() : 0);
      if (src != 0) {
        block.resize(static_cast<size_t>(count));
        recv_chunks(block.data(), count, src);
        blk = block.data();
        st.bytes_to_root += static_cast<double>(count) * sizeof(T);
      }
      unpack_block(lay, i, b, blk, strip.data());
    }
  };
  w.write = [&](int64_t i, std::ostream& os) { write_matrix_rows(os, fmt, strip.data(), lay.real(i), lay.n); };
  w.in_place_mode = "each rank wrote its panels";
  w.streamed_mode = "panel rows streamed to rank 0";
  return write_ranked(w, target, fmt, s, st);
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
