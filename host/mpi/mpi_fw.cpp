// Distributed blocked Floyd-Warshall over MPI ranks (see mpi_fw.hpp).
//
// Layout: n vertices, panel edge P, q = ceil(n / P) panels per dimension, padded to
// qP (padding vertices isolated: INF, 0 on their diagonal). The R ranks form a
// pr x pc process grid (rank = prow * pc + pcol); panel (i, j) belongs to rank
// (i mod pr, j mod pc). A rank keeps its panels as one dense local matrix of
// mr x mc values (mr = P x its panel rows, mc = P x its panel columns, row-major):
// its local panel row li is the contiguous P x mc block at li * P * mc.
// Round r (blocked FW over panels):
//  1. the owner of (r, r) closes it and broadcasts it along its process row and
//     process column (MPI_Ibcast on the row / column communicators);
//  2. process row r mod pr updates the row panels D[r][j] = D*[r][r] (x) D[r][j]
//     and broadcasts them down the process columns; process column r mod pc
//     updates the column panels D[i][r] = D[i][r] (x) D*[r][r] and broadcasts them
//     along the process rows (host buffers, two of each: round r + 1's are in
//     flight while round r computes);
//  3. every rank: D[i][j] = min(D[i][j], D[i][r] (x) D[r][j]) on its panels.
// Look-ahead: a rank first updates its panels of row and column r + 1 with round r,
// then (pivot owner) closes (r+1, r+1) and posts its broadcast, then runs the rest
// of round r in chunks of one local panel row, polling MPI between chunks: as soon
// as round r + 1's pivot arrives it runs round r + 1's step 2 and posts those
// broadcasts, so the next round's panels travel during this round's GEMMs.
// pr = R, pc = 1 is the 1D row-cyclic layout (one P x n pivot strip per round).
//
// Errors: set-up steps (options, devices, graph, scatter) end in a collective
// agreement (MPI_Allreduce of the exit code): every rank leaves with the same code,
// the lowest failing rank prints its error. A failure inside the rounds (where a
// peer may be blocked in a broadcast) prints the error and calls MPI_Abort: no
// hang, and rank 0 has written nothing (the output is written after the rounds,
// atomically).
#include "mpi/mpi_fw.hpp"

#include "mpi/mpi_env.hpp"
#include "util/errors.hpp"

#ifndef OCL_SP_HAVE_MPI

namespace ocl_sp::mpi {

int run_solve(const MpiSolveOptions&, const Stopwatch&) {
  throw UsageError("launched by mpirun with " + std::to_string(launched_world_size()) +
                   " ranks, but this ocl_sp was built without MPI (install libopenmpi-dev and "
                   "configure with -DOCL_SP_MPI=ON), or run it without mpirun");
}

}  // namespace ocl_sp::mpi

#else

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <thread>
#include <type_traits>
#include <utility>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "cl/device.hpp"
#include "graph/io.hpp"
#include "report/json.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"
#include "solvers/verify.hpp"
#include "util/atomic_file.hpp"
#include "util/cancel.hpp"
#include "util/parallel_copy.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp::mpi {

namespace {

// Largest element count of one MPI call (counts are int; 1 GiB of int32).
constexpr int64_t kMaxChunk = int64_t{1} << 28;

template <typename T>
MPI_Datatype mpi_type() {
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_INT;
}

// The exit code an exception maps to, as main() maps it.
int exit_code_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const NegativeCycleError&) {
    return kExitNegativeCycle;
  } catch (const UsageError&) {
    return kExitUsage;
  } catch (const CancelledError&) {
    return 128 + (cancel_flag().load() ? cancel_flag().load() : 2);
  } catch (...) {
    return kExitRuntime;
  }
}

std::string message_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const cl::Error& x) {
    return std::string("OpenCL call ") + x.what() + " failed: " + cl_error_name(x.err());
  } catch (const std::bad_alloc&) {
    return "out of host memory";
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "unknown error";
  }
}

// The MPI session: MPI_Init on construction, MPI_Finalize on destruction.
class Session {
 public:
  Session() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  ~Session() { MPI_Finalize(); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank = 0, size = 1;
};

// A set-up step's outcome on this rank; agree() makes it everyone's.
struct Outcome {
  int code = 0;
  std::exception_ptr error;
  template <typename F>
  void step(F&& f) {
    if (code) return;
    try {
      f();
    } catch (...) {
      error = std::current_exception();
      code = exit_code_of(error);
    }
  }
};

// Every rank learns the highest exit code any rank has; the lowest failing rank
// prints its message. Returns the agreed code (0: all fine).
int agree(Outcome& out, const Session& s) {
  int code = out.code, worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!worst) return 0;
  int mine = out.code ? s.rank : INT_MAX, first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == s.rank && out.error) {
    std::cerr << "error: " << (s.rank ? "rank " + std::to_string(s.rank) + ": " : std::string())
              << message_of(out.error) << std::endl;
  }
  return worst;
}

// Inside the rounds: a peer may wait in a broadcast for this rank, so a failure
// ends the job at once.
[[noreturn]] void abort_job(const Session& s, std::exception_ptr e) {
  std::cerr << "error: rank " << s.rank << ": " << message_of(e) << " (aborting all ranks)"
            << std::endl;
  MPI_Abort(MPI_COMM_WORLD, exit_code_of(e));
  std::abort();
}

// ---- the layout -------------------------------------------------------------

struct Layout {
  int64_t n = 0, p = 0, q = 0;
  int pr = 1, pc = 1, prow = 0, pcol = 0;  // the process grid, this rank's place
  std::vector<int64_t> rows, cols;         // owned panel rows / columns, increasing

  void place(int64_t n_, int64_t p_, int pr_, int pc_, int rank) {
    n = n_;
    p = p_;
    q = (n + p - 1) / p;
    pr = pr_;
    pc = pc_;
    prow = rank / pc;
    pcol = rank % pc;
    rows.clear();
    cols.clear();
    for (int64_t i = prow; i < q; i += pr) rows.push_back(i);
    for (int64_t j = pcol; j < q; j += pc) cols.push_back(j);
  }
  int64_t mr() const { return static_cast<int64_t>(rows.size()) * p; }
  int64_t mc() const { return static_cast<int64_t>(cols.size()) * p; }
  // Panel columns of process column b (all ranks of a process column agree).
  int64_t cols_of(int b) const { return q > b ? (q - b + pc - 1) / pc : 0; }
  int64_t rows_of(int a) const { return q > a ? (q - a + pr - 1) / pr : 0; }
  bool has_row(int64_t i) const { return i % pr == prow; }
  bool has_col(int64_t j) const { return j % pc == pcol; }
  int64_t lrow(int64_t i) const { return i / pr; }  // local index of an owned panel row
  int64_t lcol(int64_t j) const { return j / pc; }
  int rank_of(int a, int b) const { return a * pc + b; }
  int64_t real(int64_t i) const { return std::max<int64_t>(0, std::min(p, n - i * p)); }
  size_t local_elems() const { return static_cast<size_t>(mr() * mc()); }
};

// [0, count) without the indices in skip (at most two, -1 = none), as ranges.
std::vector<std::pair<int64_t, int64_t>> ranges_without(int64_t count, int64_t s1, int64_t s2) {
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t a = 0;
  for (int64_t x = 0; x <= count; ++x)
    if (x == count || x == s1 || x == s2) {
      if (x > a) out.emplace_back(a, x);
      a = x + 1;
    }
  return out;
}

// ---- backends: the primitives on this rank's panels --------------------------

template <typename T>
class RankBackend {
 public:
  virtual ~RankBackend() = default;
  virtual std::string describe() const = 0;
  // The local matrix (host, padded) is the input: take it.
  virtual void load() = 0;
  // Owner of (r, r): close it; `out` (P x P) holds it once pivot_ready().
  virtual void close_pivot(int64_t r, T* out) = 0;
  virtual bool pivot_ready() = 0;
  // Ranks in the pivot's process row or column (not the owner): the received pivot.
  virtual void set_pivot(int64_t r, const T* piv) = 0;
  // Step 2 of round r with the pivot `piv` (host): this rank's row panels of row r
  // (it is in process row r mod pr) into row_out (P x mc), its column panels of
  // column r into col_out (mr x P); both hold the results once phase2_ready().
  virtual void phase2(int64_t r, const T* piv, T* row_out, T* col_out) = 0;
  virtual bool phase2_ready() = 0;
  // Round r's row panels (P x mc) and column panels (mr x P) in host memory,
  // received or (this rank's own) written by phase2.
  virtual void set_panels(int64_t r, const T* row, const T* col) = 0;
  // Step 3 of round r on the local panels (li, lj), lj in [lj0, lj1).
  virtual void update(int64_t r, int64_t li, int64_t lj0, int64_t lj1) = 0;
  // update() calls enqueued and not yet run (asynchronous backends: the caller
  // keeps this small so the next round's step 2 never waits behind a whole round).
  virtual int backlog() { return 0; }
  // Everything enqueued has run.
  virtual bool idle() = 0;
  // The local matrix holds the final values.
  virtual void store() = 0;
  virtual double kernel_seconds() { return 0; }
};

// ---- OpenMP: host memory -------------------------------------------------------

// One tile of gemm_acc_cpu: rows [i0, ie) x columns [ja, je), 4 rows at a time
// so each loaded b vector serves four accumulating rows.
template <typename T>
inline __attribute__((always_inline)) void gemm_tile(T* c, int64_t ldc, const T* a, int64_t lda,
                                                     const T* b, int64_t ldb, int64_t i0, int64_t ie,
                                                     int64_t kdim, int64_t ja, int64_t je) {
  const T inf = ValueTraits<T>::inf;
  int64_t i = i0;
  for (; i + 4 <= ie; i += 4) {
    T* __restrict c0 = c + i * ldc;
    T* __restrict c1 = c0 + ldc;
    T* __restrict c2 = c1 + ldc;
    T* __restrict c3 = c2 + ldc;
    const T* a0 = a + i * lda;
    for (int64_t m = 0; m < kdim; ++m) {
      const T x0 = a0[m], x1 = a0[lda + m], x2 = a0[2 * lda + m], x3 = a0[3 * lda + m];
      if (x0 == inf && x1 == inf && x2 == inf && x3 == inf) continue;
      const T* __restrict bm = b + m * ldb;
#pragma omp simd
      for (int64_t j = ja; j < je; ++j) {
        const T v = bm[j];
        const T s0 = x0 + v, s1 = x1 + v, s2 = x2 + v, s3 = x3 + v;
        c0[j] = s0 < c0[j] ? s0 : c0[j];
        c1[j] = s1 < c1[j] ? s1 : c1[j];
        c2[j] = s2 < c2[j] ? s2 : c2[j];
        c3[j] = s3 < c3[j] ? s3 : c3[j];
      }
    }
  }
  for (; i < ie; ++i) {
    T* __restrict ci = c + i * ldc;
    for (int64_t m = 0; m < kdim; ++m) {
      const T x = a[i * lda + m];
      if (x == inf) continue;
      const T* __restrict bm = b + m * ldb;
#pragma omp simd
      for (int64_t j = ja; j < je; ++j) {
        const T s = x + bm[j];
        ci[j] = s < ci[j] ? s : ci[j];
      }
    }
  }
  for (int64_t r = i0; r < ie; ++r) {
    T* ci = c + r * ldc;
#pragma omp simd
    for (int64_t j = ja; j < je; ++j) ci[j] = ValueTraits<T>::norm(ci[j]);
  }
}

// Compiled per instruction set (GCC picks one at load time), as host/cpu does.
#if defined(__x86_64__)
#define OCL_SP_MPI_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OCL_SP_MPI_CLONES
#endif
OCL_SP_MPI_CLONES void gemm_tile_isa(int32_t* c, int64_t ldc, const int32_t* a, int64_t lda,
                                     const int32_t* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}
OCL_SP_MPI_CLONES void gemm_tile_isa(float* c, int64_t ldc, const float* a, int64_t lda,
                                     const float* b, int64_t ldb, int64_t i0, int64_t ie,
                                     int64_t kdim, int64_t ja, int64_t je) {
  gemm_tile(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
}

// c[i][j] = norm(min(c[i][j], min_m a[i][m] + b[m][j])), i < rows, m < kdim,
// j in [j0, j1). c never aliases a or b. Operands are normalised values, so no
// sum overflows; the store rule is applied once per tile at the end (exact:
// norm(min(x, y)) = min(norm x, norm y)).
template <typename T>
void gemm_acc_cpu(T* c, int64_t ldc, const T* a, int64_t lda, const T* b, int64_t ldb,
                  int64_t rows, int64_t kdim, int64_t j0, int64_t j1) {
  if (rows <= 0 || j1 <= j0) return;
  constexpr int64_t RB = 16, JB = 512;
  const int64_t row_blocks = (rows + RB - 1) / RB, col_blocks = (j1 - j0 + JB - 1) / JB;
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t ib = 0; ib < row_blocks; ++ib)
    for (int64_t jb = 0; jb < col_blocks; ++jb) {
      const int64_t i0 = ib * RB, ie = std::min(rows, i0 + RB);
      const int64_t ja = j0 + jb * JB, je = std::min(j1, ja + JB);
      gemm_tile_isa(c, ldc, a, lda, b, ldb, i0, ie, kdim, ja, je);
    }
}

// Floyd-Warshall in place on the p x p block at d (leading dimension ld), every
// store normalised (rows are operands of later steps).
template <typename T>
void close_cpu(T* d, int64_t ld, int64_t p) {
  const T inf = ValueTraits<T>::inf;
  for (int64_t k = 0; k < p; ++k) {
    T* dk = d + k * ld;
    {
      const T x = dk[k];  // row k first, alone: the others read it
      if (x != inf)
        for (int64_t j = 0; j < p; ++j) dk[j] = ValueTraits<T>::norm(std::min(dk[j], x + dk[j]));
    }
#pragma omp parallel for schedule(static) if (p >= 256)
    for (int64_t i = 0; i < p; ++i) {
      if (i == k) continue;
      T* di = d + i * ld;
      const T x = di[k];
      if (x == inf) continue;
#pragma omp simd
      for (int64_t j = 0; j < p; ++j) di[j] = ValueTraits<T>::norm(std::min(di[j], x + dk[j]));
    }
  }
}

// memcpy of `count` values, nothing (no pointer use) when count is 0: a rank
// without panel columns has an empty local matrix, whose data() may be null.
template <typename T>
void copy_values(T* dst, const T* src, int64_t count) {
  if (count > 0) std::memcpy(dst, src, sizeof(T) * static_cast<size_t>(count));
}

template <typename T>
class CpuBackend final : public RankBackend<T> {
 public:
  CpuBackend(const Layout& lay, std::vector<T>& local)
      : lay_(lay), d_(local),
        tmp_(static_cast<size_t>(std::max(lay.p * lay.mc(), lay.mr() * lay.p))) {}
  std::string describe() const override {
    return "openmp (" + std::to_string(omp_get_max_threads()) + " threads)";
  }
  void load() override {}
  T* block(int64_t li, int64_t lj) { return d_.data() + (li * lay_.mc() + lj) * lay_.p; }

  void close_pivot(int64_t r, T* out) override {
    const int64_t p = lay_.p, mc = lay_.mc();
    T* piv = block(lay_.lrow(r), lay_.lcol(r));
    close_cpu(piv, mc, p);
    for (int64_t a = 0; a < p; ++a) copy_values(out + a * p, piv + a * mc, p);
  }
  bool pivot_ready() override { return true; }
  void set_pivot(int64_t, const T*) override {}

  void phase2(int64_t r, const T* piv, T* row_out, T* col_out) override {
    const int64_t p = lay_.p, mc = lay_.mc(), mr = lay_.mr();
    if (lay_.has_row(r)) {
      // Row panels: D[r][j] = D*[r][r] (x) D[r][j] (through a copy), j != r.
      T* c = block(lay_.lrow(r), 0);
      copy_values(tmp_.data(), c, p * mc);
      const int64_t skip = lay_.has_col(r) ? lay_.lcol(r) : -1;
      for (const auto& [a, b] : ranges_without(static_cast<int64_t>(lay_.cols.size()), skip, -1))
        gemm_acc_cpu(c, mc, piv, p, tmp_.data(), mc, lay_.real(r), p, a * p, b * p);
      copy_values(row_out, c, p * mc);
    }
    if (lay_.has_col(r)) {
      // Column panels: D[i][r] = D[i][r] (x) D*[r][r] (through a copy), i != r.
      const int64_t lj = lay_.lcol(r);
      for (int64_t x = 0; x < mr; ++x)
        copy_values(tmp_.data() + x * p, d_.data() + x * mc + lj * p, p);
      for (size_t li = 0; li < lay_.rows.size(); ++li) {
        const int64_t i = lay_.rows[li];
        if (i == r) continue;
        gemm_acc_cpu(block(static_cast<int64_t>(li), lj), mc, tmp_.data() + static_cast<int64_t>(li) * p * p, p,
                     piv, p, lay_.real(i), p, 0, p);
      }
      for (int64_t x = 0; x < mr; ++x)
        copy_values(col_out + x * p, d_.data() + x * mc + lj * p, p);
    }
  }
  bool phase2_ready() override { return true; }
  void set_panels(int64_t, const T* row, const T* col) override {
    row_ = row;
    col_ = col;
  }
  void update(int64_t, int64_t li, int64_t lj0, int64_t lj1) override {
    const int64_t p = lay_.p, mc = lay_.mc();
    gemm_acc_cpu(block(li, 0), mc, col_ + li * p * p, p, row_, mc,
                 lay_.real(lay_.rows[static_cast<size_t>(li)]), p, lj0 * p, lj1 * p);
  }
  bool idle() override { return true; }
  void store() override {}

 private:
  const Layout& lay_;
  std::vector<T>& d_;
  std::vector<T> tmp_;
  const T* row_ = nullptr;
  const T* col_ = nullptr;
};

// ---- OpenCL: the rank's device, the panel engine's FwDevice primitives ----------

// Panels resident on the device (one buffer each), the received row and column
// panels and pivot in their own buffers; everything on the in-order compute queue.
template <typename T>
class ClBackend final : public RankBackend<T> {
 public:
  ClBackend(const Layout& lay, std::vector<T>& local, std::unique_ptr<detail::PanelDevice> dev)
      : lay_(lay), d_(local), dev_(std::move(dev)), core_(dev_->core()),
        nr_(static_cast<int64_t>(lay.rows.size())), nc_(static_cast<int64_t>(lay.cols.size())) {
    const size_t pb = static_cast<size_t>(lay.p * lay.p) * sizeof(T);
    detail::with_cl_errors("cannot allocate the panels on '" + core_.device().name + "'", [&] {
      for (int64_t k = 0; k < nr_ * nc_; ++k) own_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pr > 1)
        for (int64_t k = 0; k < nc_; ++k) rowp_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pc > 1)
        for (int64_t k = 0; k < nr_; ++k) colp_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      if (lay.pr * lay.pc > 1) piv_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
      tmp_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
    });
    core_.begin_solve();
  }
  std::string describe() const override { return core_.device().name; }

  cl::Buffer& own(int64_t li, int64_t lj) { return own_[static_cast<size_t>(li * nc_ + lj)]; }
  T* host(int64_t li, int64_t lj) { return d_.data() + (li * lay_.mc() + lj) * lay_.p; }
  size_t pitch() const { return static_cast<size_t>(lay_.p) * sizeof(T); }
  void put(cl::Buffer& buf, const T* h, int64_t host_ld) {
    core_.write_rect(detail::OpenClCore::kCompute, buf, pitch(), h, static_cast<size_t>(host_ld) * sizeof(T),
                     pitch(), static_cast<size_t>(lay_.p));
  }
  cl::Event get(cl::Buffer& buf, T* h, int64_t host_ld) {
    return core_.read_rect(detail::OpenClCore::kCompute, buf, pitch(), h,
                           static_cast<size_t>(host_ld) * sizeof(T), pitch(), static_cast<size_t>(lay_.p));
  }
  // Whole panels between the rank's matrix and the device (load, store): through
  // the single buffer's pinned stager (small chunks: pinning the panel engine's
  // 4 x 256 MiB costs ~0.7 s at ~1.4 GB/s on NVIDIA), not rectangular pageable
  // copies (H200, one rank, n = 20 000: solve 1.60 s against 0.98 s for the
  // single-process solve; bench/NOTES.md "MPI ranks").
  void put_staged(cl::Buffer& buf, const T* h, int64_t host_ld) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .upload(detail::OpenClCore::kCompute, buf, {static_cast<size_t>(lay_.p), row, row},
                [h, host_ld, row](void* chunk, size_t r0, size_t r1) {
                  copy_rows(chunk, row, h + static_cast<int64_t>(r0) * host_ld,
                            static_cast<size_t>(host_ld) * sizeof(T), r1 - r0, row);
                });
  }
  void get_staged(cl::Buffer& buf, T* h, int64_t host_ld) {
    const size_t row = pitch();
    core_.matrix_stager(pitch())
        .download(detail::OpenClCore::kCompute, buf, {static_cast<size_t>(lay_.p), row, row},
                  [h, host_ld, row](const void* chunk, size_t r0, size_t r1) {
                    copy_rows(h + static_cast<int64_t>(r0) * host_ld,
                              static_cast<size_t>(host_ld) * sizeof(T), chunk, row, r1 - r0, row);
                  });
  }
  cl::CommandQueue& queue() { return core_.queue(detail::OpenClCore::kCompute); }
  void guarded(const std::function<void()>& f) {
    core_.run_guarded("rank solve on '" + core_.device().name + "' failed", f);
  }
  // Whether e has run; an error status throws.
  static bool complete(const cl::Event& e) {
    if (!e()) return true;
    const cl_int st = e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
    if (st < 0) throw RuntimeError("a command of the rank's solve failed (" + cl_error_name(st) + ")");
    return st == CL_COMPLETE;
  }
  bool ready(const cl::Event& e) {
    bool done = false;
    guarded([&] { done = complete(e); });
    return done;
  }

  void load() override {
    guarded([&] {
      Stopwatch sw;
      for (int64_t li = 0; li < nr_; ++li)
        for (int64_t lj = 0; lj < nc_; ++lj) put_staged(own(li, lj), host(li, lj), lay_.mc());
      queue().flush();
      if (profiling()) {  // OCL_SP_PROFILE=1: the rank's phases, waited for
        queue().finish();
        profile("rank load (pinned chunks)", sw.seconds());
      }
    });
  }
  void close_pivot(int64_t r, T* out) override {
    guarded([&] {
      cl::Buffer& b = own(lay_.lrow(r), lay_.lcol(r));
      dev_->close_panel(b, lay_.p, std::max<int64_t>(1, lay_.real(r)));
      // The host copy is only for the other ranks of the pivot's process row and
      // column: none on a 1 x 1 grid.
      if (lay_.pr * lay_.pc > 1) piv_read_ = get(b, out, lay_.p);
      queue().flush();
    });
  }
  bool pivot_ready() override { return ready(piv_read_); }
  void set_pivot(int64_t, const T* piv) override {
    guarded([&] {
      put(piv_, piv, lay_.p);
      queue().flush();
    });
  }
  void phase2(int64_t r, const T*, T* row_out, T* col_out) override {
    guarded([&] {
      const size_t pb = static_cast<size_t>(lay_.p * lay_.p) * sizeof(T);
      const bool owner = lay_.has_row(r) && lay_.has_col(r);
      cl::Buffer& pv = owner ? own(lay_.lrow(r), lay_.lcol(r)) : piv_;
      if (lay_.has_row(r)) {
        const int64_t li = lay_.lrow(r);
        for (int64_t lj = 0; lj < nc_; ++lj) {
          if (owner && lj == lay_.lcol(r)) continue;
          core_.copy_buffer(own(li, lj), tmp_, pb, {});
          dev_->gemm_acc(own(li, lj), pv, tmp_, lay_.p, lay_.real(r));
        }
        // Row panels go down the process column: read back only if it has others.
        if (lay_.pr > 1)
          for (int64_t lj = 0; lj < nc_; ++lj) p2_read_ = get(own(li, lj), row_out + lj * lay_.p, lay_.mc());
      }
      if (lay_.has_col(r)) {
        const int64_t lj = lay_.lcol(r);
        for (int64_t li = 0; li < nr_; ++li) {
          const int64_t i = lay_.rows[static_cast<size_t>(li)];
          if (i == r) continue;
          core_.copy_buffer(own(li, lj), tmp_, pb, {});
          dev_->gemm_acc(own(li, lj), tmp_, pv, lay_.p, lay_.real(i));
        }
        if (lay_.pc > 1)  // column panels go along the process row
          for (int64_t li = 0; li < nr_; ++li)
            p2_read_ = get(own(li, lj), col_out + li * lay_.p * lay_.p, lay_.p);
      }
      queue().flush();
    });
  }
  bool phase2_ready() override { return ready(p2_read_); }
  void set_panels(int64_t r, const T* row, const T* col) override {
    guarded([&] {
      if (!lay_.has_row(r))
        for (int64_t lj = 0; lj < nc_; ++lj) put(rowp_[static_cast<size_t>(lj)], row + lj * lay_.p, lay_.mc());
      if (!lay_.has_col(r))
        for (int64_t li = 0; li < nr_; ++li) put(colp_[static_cast<size_t>(li)], col + li * lay_.p * lay_.p, lay_.p);
      queue().flush();
    });
  }
  void update(int64_t r, int64_t li, int64_t lj0, int64_t lj1) override {
    guarded([&] {
      cl::Buffer& a = lay_.has_col(r) ? own(li, lay_.lcol(r)) : colp_[static_cast<size_t>(li)];
      const int64_t rows = lay_.real(lay_.rows[static_cast<size_t>(li)]);
      for (int64_t lj = lj0; lj < lj1; ++lj) {
        cl::Buffer& b = lay_.has_row(r) ? own(lay_.lrow(r), lj) : rowp_[static_cast<size_t>(lj)];
        dev_->gemm_acc(own(li, lj), a, b, lay_.p, rows);
      }
      cl::Event m;
      queue().enqueueMarkerWithWaitList(nullptr, &m);
      marks_.push_back(m);
      queue().flush();
    });
  }
  int backlog() override {
    while (!marks_.empty() && ready(marks_.front())) marks_.pop_front();
    return static_cast<int>(marks_.size());
  }
  bool idle() override {
    bool done = false;
    guarded([&] {
      if (!marker_()) {
        queue().enqueueMarkerWithWaitList(nullptr, &marker_);
        queue().flush();
      }
      done = complete(marker_);
      if (done) {
        queue().finish();
        marker_ = cl::Event();
        marks_.clear();
      }
    });
    return done;
  }
  void store() override {
    guarded([&] {
      Stopwatch sw;
      if (profiling()) {
        queue().finish();
        profile("rank rounds' queue drained", sw.seconds());
        sw.reset();
      }
      for (int64_t li = 0; li < nr_; ++li)
        for (int64_t lj = 0; lj < nc_; ++lj) get_staged(own(li, lj), host(li, lj), lay_.mc());
      core_.matrix_stager(pitch()).settle();
      queue().finish();
      profile("rank store (pinned chunks)", sw.seconds());
      RunStats st;
      core_.finish(st);
      t_k_ = st.t_k;
      profile("rank kernels (T_k)", t_k_);
    });
  }
  double kernel_seconds() override { return t_k_; }

 private:
  const Layout& lay_;
  std::vector<T>& d_;
  std::unique_ptr<detail::PanelDevice> dev_;
  detail::OpenClCore& core_;
  int64_t nr_, nc_;
  std::vector<cl::Buffer> own_, rowp_, colp_;
  cl::Buffer piv_, tmp_;
  cl::Event piv_read_, p2_read_, marker_;
  std::deque<cl::Event> marks_;
  double t_k_ = 0;
};

// The rank's OpenCL device: a list spec ("1:0,1:1") or a single word naming
// several devices ("gpu", "nvidia") gives this rank the (node-local rank mod
// count)-th match, so ranks of a node spread over its GPUs.
DeviceEntry rank_device(const std::string& spec, int local_rank) {
  std::vector<DeviceEntry> all;
  const bool list = spec.find(',') != std::string::npos || spec == "all" ||
                    (spec.size() > 4 && spec.compare(spec.size() - 4, 4, ":all") == 0);
  if (list) {
    all = select_devices(spec, 1);
  } else {
    const std::vector<DeviceEntry> installed = list_devices();
    const std::string word = spec.empty() ? (std::getenv("OCL_SP_DEVICE") ? std::getenv("OCL_SP_DEVICE") : "") : spec;
    if (!word.empty() && word.find(',') != std::string::npos) {
      all = select_devices(word, 1);
    } else if (word.empty()) {
      for (const auto& d : installed)
        if (d.type == "gpu") all.push_back(d);
      if (all.empty()) all.push_back(select_device(""));
    } else {
      all.push_back(select_from(installed, word));  // errors: nothing matches
      all.clear();
      for (const auto& d : installed) {
        bool ok = true;
        for (const auto& w : split(word, '+')) ok = ok && device_matches(d, w);
        if (ok) all.push_back(d);
      }
      if (all.empty()) all.push_back(select_from(installed, word));
    }
  }
  return all[static_cast<size_t>(local_rank) % all.size()];
}


// ---- the distributed solve ----------------------------------------------------

struct RoundTimes {
  double compute = 0, wait = 0, solve = 0;
  std::vector<double> round_compute, round_wait;  // per round
};

// The process grid's communicators: this rank's process row (ranks (prow, *),
// rank in it = pcol) and process column (ranks (*, pcol), rank in it = prow).
struct GridComms {
  MPI_Comm row = MPI_COMM_NULL, col = MPI_COMM_NULL;
  explicit GridComms(const Layout& lay) {
    MPI_Comm_split(MPI_COMM_WORLD, lay.prow, lay.pcol, &row);
    MPI_Comm_split(MPI_COMM_WORLD, lay.pcol, lay.prow, &col);
  }
  ~GridComms() {
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
  }
  GridComms(const GridComms&) = delete;
  GridComms& operator=(const GridComms&) = delete;
};

template <typename T>
class DistributedFw {
 public:
  DistributedFw(const Layout& lay, RankBackend<T>& be, const GridComms& comms)
      : lay_(lay), be_(be), c_(comms) {
    for (int k = 0; k < 2; ++k) {
      piv_[k].resize(static_cast<size_t>(lay.p * lay.p));
      row_[k].resize(static_cast<size_t>(lay.p * lay.mc()));
      col_[k].resize(static_cast<size_t>(lay.mr() * lay.p));
    }
  }

  RoundTimes run() {
    RoundTimes t;
    Stopwatch all;
    const int64_t q = lay_.q;
    t.round_compute.assign(static_cast<size_t>(q), 0.0);
    t.round_wait.assign(static_cast<size_t>(q), 0.0);
    {
      Stopwatch c;
      be_.load();
      begin(0);
      const double waited = finish_stage();
      t.compute += c.seconds() - waited;
      t.wait += waited;
    }
    for (int64_t r = 0; r < q; ++r) {
      throw_if_cancelled();
      const size_t ri = static_cast<size_t>(r);
      Stopwatch w;
      auto& cur = reqs_[r % 2];
      if (!cur.empty()) MPI_Waitall(static_cast<int>(cur.size()), cur.data(), MPI_STATUSES_IGNORE);
      cur.clear();
      double waited = w.seconds();
      be_.set_panels(r, row_[r % 2].data(), col_[r % 2].data());
      const int64_t next = r + 1;
      const int64_t nr = static_cast<int64_t>(lay_.rows.size()), nc = static_cast<int64_t>(lay_.cols.size());
      const int64_t skip_r = lay_.has_row(r) ? lay_.lrow(r) : -1, skip_c = lay_.has_col(r) ? lay_.lcol(r) : -1;
      int64_t next_r = -1, next_c = -1;
      if (next < q) {
        // Look-ahead: round r on row and column r + 1 first, then round r + 1 starts.
        next_r = lay_.has_row(next) ? lay_.lrow(next) : -1;
        next_c = lay_.has_col(next) ? lay_.lcol(next) : -1;
        if (next_r >= 0)
          for (const auto& [a, b] : ranges_without(nc, skip_c, -1)) be_.update(r, next_r, a, b);
        if (next_c >= 0)
          for (int64_t li = 0; li < nr; ++li)
            if (li != skip_r && li != next_r) be_.update(r, li, next_c, next_c + 1);
        begin(next);
      }
      // The rest of round r, one local panel row at a time.
      const auto cranges = ranges_without(nc, skip_c, next_c);
      for (int64_t li = 0; li < nr; ++li) {
        if (li == skip_r || li == next_r) continue;
        for (const auto& [a, b] : cranges) be_.update(r, li, a, b);
        progress();
        while (be_.backlog() > 1) {
          progress();
          nap();
        }
      }
      while (!be_.idle()) {
        progress();
        nap();
      }
      if (next < q) waited += finish_stage();
      const double total = w.seconds();
      t.round_wait[ri] = waited;
      t.round_compute[ri] = total - waited;
      t.wait += waited;
      t.compute += total - waited;
    }
    Stopwatch c1;
    be_.store();
    t.compute += c1.seconds();
    t.solve = all.seconds();
    return t;
  }

  double bytes_sent() const { return bytes_; }

 private:
  static void nap() { std::this_thread::sleep_for(std::chrono::microseconds(50)); }
  static int size_of(MPI_Comm c) {
    int s = 1;
    MPI_Comm_size(c, &s);
    return s;
  }
  static bool test(std::vector<MPI_Request>& r) {
    if (r.empty()) return true;
    int flag = 0;
    MPI_Testall(static_cast<int>(r.size()), r.data(), &flag, MPI_STATUSES_IGNORE);
    if (flag) r.clear();
    return flag != 0;
  }
  // count values of buf from root to the communicator, in chunks of kMaxChunk.
  void ibcast(T* buf, int64_t count, int root, MPI_Comm comm, bool sender, std::vector<MPI_Request>& out) {
    const int size = size_of(comm);
    if (size < 2) return;
    for (int64_t off = 0; off < count; off += kMaxChunk) {
      MPI_Request rq;
      MPI_Ibcast(buf + off, static_cast<int>(std::min(kMaxChunk, count - off)), mpi_type<T>(), root,
                 comm, &rq);
      out.push_back(rq);
    }
    if (sender) bytes_ += static_cast<double>(count) * sizeof(T) * (size - 1);
  }

  // Round r's steps 1 and 2 on this rank, as far as they go now: the pivot owner
  // closes (r, r) and runs its step 2; every rank posts the receives it takes part
  // in (per communicator in the one order every rank uses: pivot, then panels).
  void begin(int64_t r) {
    st_ = Stage();
    st_.r = r;
    const int s = static_cast<int>(r % 2);
    st_.in_row = lay_.has_row(r);
    st_.in_col = lay_.has_col(r);
    const int root_row = static_cast<int>(r % lay_.pr), root_col = static_cast<int>(r % lay_.pc);
    if (st_.in_row && st_.in_col) {
      be_.close_pivot(r, piv_[s].data());
      be_.phase2(r, piv_[s].data(), row_[s].data(), col_[s].data());
      st_.have_pivot = true;
      st_.phase2 = true;
    } else {
      // The pivot along the pivot's process row (rank in it: column) / column.
      if (st_.in_row) ibcast(piv_[s].data(), lay_.p * lay_.p, root_col, c_.row, false, st_.piv_reqs);
      if (st_.in_col) ibcast(piv_[s].data(), lay_.p * lay_.p, root_row, c_.col, false, st_.piv_reqs);
    }
    if (!st_.in_row) ibcast(row_[s].data(), lay_.p * lay_.mc(), root_row, c_.col, false, reqs_[s]);
    if (!st_.in_col) ibcast(col_[s].data(), lay_.mr() * lay_.p, root_col, c_.row, false, reqs_[s]);
    progress();
  }

  // Moves the started round on: posts the owner's pivot once it is on the host,
  // runs step 2 once the pivot arrived, posts its panels once they are on the host.
  void progress() {
    test(reqs_[0]);
    test(reqs_[1]);
    if (st_.r < 0) return;
    const int64_t r = st_.r;
    const int s = static_cast<int>(r % 2);
    const bool owner = st_.in_row && st_.in_col;
    if (owner && !st_.pivot_posted && be_.pivot_ready()) {
      ibcast(piv_[s].data(), lay_.p * lay_.p, lay_.pcol, c_.row, true, reqs_[s]);
      ibcast(piv_[s].data(), lay_.p * lay_.p, lay_.prow, c_.col, true, reqs_[s]);
      st_.pivot_posted = true;
    }
    if (!owner && !st_.have_pivot && (st_.in_row || st_.in_col) && test(st_.piv_reqs)) {
      st_.have_pivot = true;
      be_.set_pivot(r, piv_[s].data());
      be_.phase2(r, piv_[s].data(), row_[s].data(), col_[s].data());
      st_.phase2 = true;
    }
    if (st_.phase2 && !st_.panels_posted && (!owner || st_.pivot_posted) && be_.phase2_ready()) {
      if (st_.in_row) ibcast(row_[s].data(), lay_.p * lay_.mc(), lay_.prow, c_.col, true, reqs_[s]);
      if (st_.in_col) ibcast(col_[s].data(), lay_.mr() * lay_.p, lay_.pcol, c_.row, true, reqs_[s]);
      st_.panels_posted = true;
    }
  }
  bool stage_done() const { return (!st_.in_row && !st_.in_col) || st_.panels_posted; }
  // Drives the started round until this rank's part of its steps 1-2 is posted;
  // returns the seconds spent waiting for the pivot (the device idle).
  double finish_stage() {
    Stopwatch w;
    while (!stage_done()) {
      progress();
      if (!stage_done()) nap();
    }
    return w.seconds();
  }

  struct Stage {
    int64_t r = -1;
    bool in_row = false, in_col = false, have_pivot = false, pivot_posted = false, phase2 = false,
         panels_posted = false;
    std::vector<MPI_Request> piv_reqs;  // pivot receives
  };

  const Layout& lay_;
  RankBackend<T>& be_;
  const GridComms& c_;
  std::vector<T> piv_[2], row_[2], col_[2];
  std::vector<MPI_Request> reqs_[2];  // round r's panel broadcasts (and the owner's pivot sends)
  Stage st_;
  double bytes_ = 0;
};

// The local matrix initialised as padding: INF, 0 on the padding vertices' diagonal.
template <typename T>
void init_local(const Layout& lay, std::vector<T>& d) {
  d.assign(lay.local_elems(), ValueTraits<T>::inf);
  const int64_t mc = lay.mc();
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li];
    if (!lay.has_col(i)) continue;
    const int64_t lj = lay.lcol(i);
    for (int64_t a = lay.real(i); a < lay.p; ++a)
      d[static_cast<size_t>((static_cast<int64_t>(li) * lay.p + a) * mc + lj * lay.p + a)] = 0;
  }
}

template <typename T>
void normalise(std::vector<T>& v) {
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < v.size(); ++e) v[e] = ValueTraits<T>::norm(v[e]);
}

// Panel row i's block of process column b (P x cols_of(b) P values, as that rank
// keeps it) from / to the rows [i P, i P + real(i)) of an n-column row-major source.
// Padding: INF, 0 on the padding vertices' diagonal.
template <typename T>
void pack_block(const Layout& lay, int64_t i, int b, const T* src, T* block) {
  const int64_t p = lay.p, w = lay.cols_of(b) * p;
  for (int64_t a = 0; a < p; ++a) {
    const int64_t v = i * p + a;
    T* out = block + a * w;
    for (int64_t lj = 0; lj < lay.cols_of(b); ++lj) {
      const int64_t u0 = (b + lj * lay.pc) * p;
      for (int64_t y = 0; y < p; ++y) {
        const int64_t u = u0 + y;
        out[lj * p + y] = v < lay.n && u < lay.n ? src[a * lay.n + u] : (u == v ? T(0) : ValueTraits<T>::inf);
      }
    }
  }
}
template <typename T>
void unpack_block(const Layout& lay, int64_t i, int b, const T* block, T* dst) {
  const int64_t p = lay.p, w = lay.cols_of(b) * p;
  for (int64_t a = 0; a < lay.real(i); ++a)
    for (int64_t lj = 0; lj < lay.cols_of(b); ++lj) {
      const int64_t u0 = (b + lj * lay.pc) * p, cnt = std::max<int64_t>(0, std::min(p, lay.n - u0));
      if (cnt > 0)
        std::memcpy(dst + a * lay.n + u0, block + a * w + lj * p, sizeof(T) * static_cast<size_t>(cnt));
    }
}

// count values as point-to-point messages of at most kMaxChunk values.
template <typename T>
void send_chunks(const T* buf, int64_t count, int dest) {
  for (int64_t off = 0; off < count; off += kMaxChunk)
    MPI_Send(buf + off, static_cast<int>(std::min(kMaxChunk, count - off)), mpi_type<T>(), dest, 7,
             MPI_COMM_WORLD);
}
template <typename T>
void recv_chunks(T* buf, int64_t count, int src) {
  for (int64_t off = 0; off < count; off += kMaxChunk)
    MPI_Recv(buf + off, static_cast<int>(std::min(kMaxChunk, count - off)), mpi_type<T>(), src, 7,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// f(i, b, r, count) for panel row i's block of process column b (count = P x
// cols_of(b) P values, kept by rank r as its local panel row lrow(i)), in the
// one order rank 0 sends and receives them.
template <typename F>
void for_each_block(const Layout& lay, F&& f) {
  for (int64_t i = 0; i < lay.q; ++i)
    for (int b = 0; b < lay.pc; ++b) {
      const int64_t count = lay.p * lay.cols_of(b) * lay.p;
      if (count > 0) f(i, b, lay.rank_of(static_cast<int>(i % lay.pr), b), count);
    }
}

// Rank 0's n x n matrix to the ranks' local matrices.
template <typename T>
void scatter_matrix(const Layout& lay, const DistMatrix<T>* in, std::vector<T>& local, int rank) {
  std::vector<T> block;
  for_each_block(lay, [&](int64_t i, int b, int dest, int64_t count) {
    T* mine = dest == rank ? local.data() + lay.lrow(i) * lay.p * lay.mc() : nullptr;
    if (rank == 0) {
      block.resize(static_cast<size_t>(dest == 0 ? 0 : count));
      pack_block(lay, i, b, in->data() + i * lay.p * lay.n, dest == 0 ? mine : block.data());
      if (dest != 0) send_chunks(block.data(), count, dest);
    } else if (dest == rank) {
      recv_chunks(mine, count, 0);
    }
  });
}

// The ranks' local matrices into one n x n matrix on rank 0.
template <typename T>
void gather_matrix(const Layout& lay, const std::vector<T>& local, DistMatrix<T>* out, int rank) {
  std::vector<T> block;
  for_each_block(lay, [&](int64_t i, int b, int src, int64_t count) {
    const T* mine = src == rank ? local.data() + lay.lrow(i) * lay.p * lay.mc() : nullptr;
    if (rank == 0) {
      if (src != 0) {
        block.resize(static_cast<size_t>(count));
        recv_chunks(block.data(), count, src);
      }
      unpack_block(lay, i, b, src == 0 ? mine : block.data(), out->data() + i * lay.p * lay.n);
    } else if (src == rank) {
      send_chunks(mine, count, 0);
    }
  });
}

// A generated graph's rows of this rank's panel rows, its panel columns kept.
template <typename T>
long long generate_local(const Layout& lay, const GeneratorParams& gen, std::vector<T>& local) {
  long long edges = 0;
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li], rows = lay.real(i);
    long long e = 0;
    const std::vector<T> src = generate_rows<T>(gen, i * lay.p, i * lay.p + rows, &e);
    edges += e;
    T* dst = local.data() + static_cast<int64_t>(li) * lay.p * lay.mc();
    for (int64_t a = 0; a < rows; ++a)
      for (size_t lj = 0; lj < lay.cols.size(); ++lj) {
        const int64_t u0 = lay.cols[lj] * lay.p, cnt = std::max<int64_t>(0, std::min(lay.p, lay.n - u0));
        if (cnt > 0)
          std::memcpy(dst + a * lay.mc() + static_cast<int64_t>(lj) * lay.p, src.data() + a * lay.n + u0,
                      sizeof(T) * static_cast<size_t>(cnt));
      }
  }
  return edges;
}

struct Report {
  std::string source, backend_kind;
  long long edges = 0;
  std::vector<std::string> devices;  // per rank
  double t_setup = 0, t_solve = 0, t_gather = 0, t_write = 0, wall = 0;
  std::vector<double> compute, wait, kernels, sent;  // per rank
  std::vector<double> round_compute, round_wait;     // per round, the slowest rank
  double bytes_bcast = 0, bytes_scatter = 0, bytes_gather = 0;
  std::string verify, verify_detail, output;
};

// This rank's device budget (OpenCL) or host memory (OpenMP), the weakest over
// all ranks, so every rank plans the same panels.
detail::DeviceBudget weakest_budget(const detail::DeviceBudget& mine) {
  uint64_t v[2] = {mine.memory, mine.max_alloc}, w[2] = {0, 0};
  MPI_Allreduce(v, w, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  int backed = mine.host_backed ? 1 : 0, any = 0;
  MPI_Allreduce(&backed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  detail::DeviceBudget b = mine;
  b.memory = w[0];
  b.max_alloc = w[1];
  b.host_backed = any != 0;
  return b;
}

template <typename T>
// With the matrix on standard output (--output -) the report goes to stderr, as
// in the single-process solve.
void print_report(const MpiSolveOptions& o, const Report& rep, const Layout& lay, int ranks,
                  bool to_stderr) {
  const double relax = static_cast<double>(lay.n) * lay.n * lay.n;
  double csum = 0, wsum = 0, wmax = 0;
  for (int k = 0; k < ranks; ++k) {
    csum += rep.compute[static_cast<size_t>(k)];
    wsum += rep.wait[static_cast<size_t>(k)];
    wmax = std::max(wmax, rep.wait[static_cast<size_t>(k)]);
  }
  const double eff = rep.t_solve > 0 ? csum / (ranks * rep.t_solve) : 0;
  std::string per_rank;
  for (int k = 0; k < ranks; ++k)
    per_rank += (k ? "/" : "") + std::to_string(lay.rows_of(k / lay.pc) * lay.cols_of(k % lay.pc));
  double rc_sum = 0, rc_max = 0, rw_sum = 0, rw_max = 0;
  for (size_t r = 0; r < rep.round_compute.size(); ++r) {
    rc_sum += rep.round_compute[r];
    rc_max = std::max(rc_max, rep.round_compute[r]);
    rw_sum += rep.round_wait[r];
    rw_max = std::max(rw_max, rep.round_wait[r]);
  }
  const double rounds = std::max<double>(1, static_cast<double>(rep.round_compute.size()));
  std::ostream& os = to_stderr ? std::cerr : std::cout;
  if (o.json) {
    JsonWriter j(os);
    j.begin_object().field("command", "solve").field("mpi_ranks", ranks);
    j.field("distribution", "2D block-cyclic").field("grid_rows", lay.pr).field("grid_cols", lay.pc);
    j.field("grid", std::to_string(lay.pr) + "x" + std::to_string(lay.pc));
    j.field("panel", static_cast<long long>(lay.p));
    j.field("panels_per_dim", static_cast<long long>(lay.q)).field("n", static_cast<long long>(lay.n));
    j.field("edges", rep.edges).field("type", ValueTraits<T>::name()).field("source", rep.source);
    j.field("backend", rep.backend_kind).field("devices_per_rank", 1);
    j.array_field("rank_devices", rep.devices).array_field("rank_compute_s", rep.compute);
    j.array_field("rank_wait_s", rep.wait).array_field("rank_bytes_sent", rep.sent);
    j.array_field("round_compute_s", rep.round_compute).array_field("round_wait_s", rep.round_wait);
    j.field("setup_s", rep.t_setup).field("solve_s", rep.t_solve).field("gather_s", rep.t_gather);
    j.field("write_s", rep.t_write).field("total_s", rep.wall);
    j.field("bytes_broadcast", rep.bytes_bcast).field("bytes_scatter", rep.bytes_scatter);
    j.field("bytes_gather", rep.bytes_gather).field("parallel_efficiency", eff);
    j.field("relaxations_per_s", rep.t_solve > 0 ? relax / rep.t_solve : 0.0);
    if (!rep.verify.empty()) j.field("verify", rep.verify);
    if (!rep.output.empty()) j.field("output", rep.output);
    j.end_object();
    os << "\n";
    os.flush();
    return;
  }
  char buf[512];
  os << "source    " << rep.source << "\n";
  std::snprintf(buf, sizeof buf, "graph     n = %lld, %lld edges, %s\n", static_cast<long long>(lay.n),
                rep.edges, ValueTraits<T>::name());
  os << buf;
  std::snprintf(buf, sizeof buf,
                "mpi       %d ranks, %d x %d process grid (2D block-cyclic: panel (i,j) -> rank "
                "(i mod %d, j mod %d)), P = %lld, %lld x %lld panels, panels per rank %s\n",
                ranks, lay.pr, lay.pc, lay.pr, lay.pc, static_cast<long long>(lay.p),
                static_cast<long long>(lay.q), static_cast<long long>(lay.q), per_rank.c_str());
  os << buf;
  os << "backend   " << rep.backend_kind << ", 1 device per rank:";
  for (int k = 0; k < ranks; ++k) os << (k ? ", " : " ") << k << ": " << rep.devices[static_cast<size_t>(k)];
  os << "\n";
  std::snprintf(buf, sizeof buf,
                "rounds    %lld: compute %.3f s avg per rank, broadcast wait %.3f s avg (max %.3f s); "
                "per round (slowest rank) compute %.2f ms avg (max %.2f), wait %.2f ms avg (max %.2f)\n",
                static_cast<long long>(lay.q), csum / ranks, wsum / ranks, wmax, 1e3 * rc_sum / rounds,
                1e3 * rc_max, 1e3 * rw_sum / rounds, 1e3 * rw_max);
  os << buf;
  for (int k = 0; k < ranks; ++k) {
    const size_t x = static_cast<size_t>(k);
    std::snprintf(buf, sizeof buf, "  rank %d (%d,%d)  compute %.3f s, waited %.3f s, sent %s", k, k / lay.pc,
                  k % lay.pc, rep.compute[x], rep.wait[x], format_bytes(rep.sent[x]).c_str());
    os << buf;
    if (rep.backend_kind == "opencl") {
      std::snprintf(buf, sizeof buf, ", kernels %.3f s", rep.kernels[x]);
      os << buf;
    }
    os << "\n";
  }
  os << "bytes     pivot/row/column broadcasts " << format_bytes(rep.bytes_bcast) << " (sum over receivers)";
  if (rep.bytes_scatter > 0) os << ", scatter " << format_bytes(rep.bytes_scatter);
  if (rep.bytes_gather > 0) os << ", gather " << format_bytes(rep.bytes_gather);
  os << "\n";
  std::snprintf(buf, sizeof buf,
                "time      set-up %.3f s, solve %.3f s, gather %.3f s, write %.3f s, total %.3f s\n",
                rep.t_setup, rep.t_solve, rep.t_gather, rep.t_write, rep.wall);
  os << buf;
  std::snprintf(buf, sizeof buf, "rate      %.3g relax/s\n", rep.t_solve > 0 ? relax / rep.t_solve : 0.0);
  os << buf;
  std::snprintf(buf, sizeof buf,
                "efficiency %.2f (compute time summed over ranks / (ranks x solve time))\n", eff);
  os << buf;
  if (!rep.verify.empty()) os << "verify    " << rep.verify << " (" << rep.verify_detail << ")\n";
  if (!rep.output.empty()) os << "output    " << rep.output << "\n";
  os.flush();
}

template <typename T>
int run_typed(const MpiSolveOptions& o, const Stopwatch& wall, const Session& s) {
  Outcome out;
  Report rep;
  Layout lay;
  bool opencl = false;
  GeneratorParams gen;
  DistMatrix<T> full;  // rank 0, file input: the whole matrix before scattering
  std::optional<OutputTarget> target;
  std::pair<int, int> grid{0, 0};
  int64_t n = 0;

  // 1. Options (identical on every rank) and, on rank 0, the input file.
  out.step([&] {
    if (!o.unsupported.empty())
      throw UsageError(o.unsupported + " not supported by the distributed solve (" +
                       std::to_string(s.size) + " MPI ranks); it runs --algo fw distances only");
    grid = o.grid.empty() ? default_grid(s.size) : parse_grid(o.grid);
    if (grid.first * grid.second != s.size)
      throw UsageError("--grid " + o.grid + " is a process grid of " +
                       std::to_string(grid.first * grid.second) + " ranks, but the job has " +
                       std::to_string(s.size) + " (mpirun -np " +
                       std::to_string(grid.first * grid.second) + ", or another --grid)");
    if (parse_algo(o.algo) != Algo::fw)
      throw UsageError("--algo " + o.algo + ": the distributed solve (" + std::to_string(s.size) +
                       " MPI ranks) runs blocked Floyd-Warshall (--algo fw) only");
    if (o.backend.empty()) {
      opencl = !list_devices().empty() || !o.device.empty();
    } else {
      const Backend b = parse_backend(o.backend);
      if (b == Backend::serial)
        throw UsageError("--backend serial is single-process; under mpirun use openmp or opencl");
      opencl = b == Backend::opencl;
    }
    if (!opencl && !o.device.empty())
      throw UsageError("--device selects an OpenCL device; it cannot be used with --backend openmp");
    if (o.generated && !o.input.empty()) throw UsageError("give either --n or --input, not both");
    if (!o.generated && o.input.empty())
      throw UsageError("no graph: give --n N for a random graph or --input FILE (see --help)");
    if (!o.output.empty() && s.rank == 0) {  // only rank 0 writes
      if (o.output_format == "auto") detect_output_format(o.output);
      else parse_output_format(o.output_format);
      target = resolve_output(o.output);
    }
    if (o.generated) {
      gen = o.generator(rep.source);
      n = gen.n;
      if (std::is_integral_v<T> &&
          static_cast<double>(generated_max_abs_weight(gen)) * static_cast<double>(gen.n - 1) >=
              static_cast<double>(ValueTraits<int32_t>::finite_limit))
        throw UsageError("--n " + std::to_string(gen.n) + " with weights up to " +
                         std::to_string(generated_max_abs_weight(gen)) +
                         ": path lengths could leave the exact int32 range; use --type float32 "
                         "or smaller --weights");
    } else if (s.rank == 0) {
      rep.source = o.input;
      Graph g = read_graph(o.input, parse_input_format(o.format));
      if constexpr (std::is_integral_v<T>) check_int32_range(g);
      rep.edges = static_cast<long long>(g.edges.size());
      n = g.n;
      check_host_memory(static_cast<uint64_t>(g.n) * g.n * sizeof(T),
                        "n = " + std::to_string(g.n) + " read by rank 0 before scattering");
      full = to_matrix<T>(g);
    }
  });
  if (int c = agree(out, s)) return c;
  long long n_all = n;
  MPI_Bcast(&n_all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  n = n_all;

  // 2. This rank's device (or host memory): what the panel plan must fit.
  DeviceEntry entry;
  detail::DeviceBudget mine;
  out.step([&] {
    if (opencl) {
      entry = rank_device(o.device, launched_local_rank());
      mine = detail::device_budgets({entry}, 0).front();
    } else {
      mine.name = "host";
      mine.memory = mine.max_alloc = host_memory_available();
    }
  });
  if (int c = agree(out, s)) return c;
  const detail::DeviceBudget budget = weakest_budget(mine);
  // Every rank plans with the same panel multiple (the broadcasts' counts must
  // match): 128 when any rank computes on OpenCL, even if this one has no device.
  int any_opencl = opencl ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any_opencl, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

  // 3. Panels (the panel engine's planner for this process grid), memory, backend.
  std::vector<T> local, input_local;
  std::unique_ptr<RankBackend<T>> be;
  out.step([&] {
    const int multiple = any_opencl ? 128 : 32;  // OpenCL: the panel kernels' tile edges
    const uint64_t room = host_memory_available();
    const detail::PanelPlan plan =
        detail::plan_panels(n, sizeof(T), {budget}, o.panel.value_or(0), multiple, multiple, 1,
                            room, detail::PanelGrid{grid.first, grid.second});
    lay.place(n, plan.p, grid.first, grid.second, s.rank);
    const uint64_t vs = sizeof(T), p = static_cast<uint64_t>(lay.p);
    const uint64_t mat = lay.local_elems() * vs;
    const uint64_t bufs = vs * (2 * (p * p + p * static_cast<uint64_t>(lay.mc()) + p * static_cast<uint64_t>(lay.mr())) +
                                std::max(p * static_cast<uint64_t>(lay.mc()), p * static_cast<uint64_t>(lay.mr())));
    uint64_t need = mat * (o.verify ? 2 : 1) + bufs + (opencl ? plan.host_bytes : 0);
    const bool whole = s.rank == 0 && (o.verify || !o.output.empty());
    if (whole) need += static_cast<uint64_t>(lay.n) * lay.n * vs * (o.verify ? 3 : 1);
    check_host_memory(need, "rank " + std::to_string(s.rank) + ": " + format_bytes(static_cast<double>(mat)) +
                                " of panels (n = " + std::to_string(lay.n) + ", " +
                                std::to_string(grid.first) + " x " + std::to_string(grid.second) +
                                " ranks, P = " + std::to_string(lay.p) + ")" +
                                (whole ? " plus the gathered matrix for --output/--verify" : ""));
    init_local(lay, local);
    if (opencl) {
      SolverSpec spec;
      spec.algo = Algo::fw;
      spec.backend = Backend::opencl;
      spec.device = o.device;
      be = std::make_unique<ClBackend<T>>(lay, local, detail::make_fw_panel_device<T>(entry, spec, nullptr));
      rep.backend_kind = "opencl";
    } else {
      be = std::make_unique<CpuBackend<T>>(lay, local);
      rep.backend_kind = "openmp";
    }
  });
  if (int c = agree(out, s)) return c;

  // 4. The graph: generated per rank (own panel rows, own columns kept) or
  // scattered from rank 0.
  Stopwatch setup;
  long long edges = 0;
  out.step([&] {
    if (o.generated) {
      edges = generate_local(lay, gen, local);
      if (lay.pcol != 0) edges = 0;  // a process row's ranks generate the same rows
    }
  });
  if (int c = agree(out, s)) return c;
  // After the agreement: a rank whose generation failed must not leave the others
  // inside a collective it never enters.
  if (o.generated) MPI_Allreduce(&edges, &rep.edges, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (!o.generated) {
    scatter_matrix(lay, s.rank == 0 ? &full : nullptr, local, s.rank);
    rep.bytes_scatter = static_cast<double>(lay.n) * lay.n * sizeof(T);
    full = DistMatrix<T>();
  }
  normalise(local);
  if (o.verify) input_local = local;
  rep.t_setup = setup.seconds();

  // 5. The rounds: a failure here aborts the job (a peer may wait in a broadcast).
  RoundTimes times;
  double sent = 0;
  {
    const GridComms comms(lay);
    // Declared outside the try: on an error inside the rounds (Ctrl-C included)
    // its buffers must outlive the broadcasts still posted into them until
    // abort_job has ended the job.
    std::optional<DistributedFw<T>> fw;
    try {
      fw.emplace(lay, *be, comms);
      times = fw->run();
      sent = fw->bytes_sent();
    } catch (...) {
      abort_job(s, std::current_exception());
    }
  }

  // 6. Negative cycles, globally: the lowest vertex with d(i,i) < 0.
  long long neg = LLONG_MAX, neg_all = LLONG_MAX;
  for (size_t li = 0; li < lay.rows.size() && neg == LLONG_MAX; ++li) {
    const int64_t i = lay.rows[li];
    if (!lay.has_col(i)) continue;
    const T* blk = local.data() + (static_cast<int64_t>(li) * lay.p * lay.mc() + lay.lcol(i) * lay.p);
    for (int64_t a = 0; a < lay.real(i); ++a)
      if (blk[a * lay.mc() + a] < 0) {
        neg = i * lay.p + a;
        break;
      }
  }
  MPI_Allreduce(&neg, &neg_all, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  if (neg_all != LLONG_MAX) {
    if (s.rank == 0) std::cerr << "error: " << NegativeCycleError(neg_all).what() << std::endl;
    return kExitNegativeCycle;
  }

  // 7. Statistics to rank 0.
  double stats[4] = {times.compute, times.wait, be->kernel_seconds(), sent};
  std::vector<double> all(static_cast<size_t>(4 * s.size));
  MPI_Gather(stats, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce(&sent, &rep.bytes_bcast, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  rep.round_compute.assign(times.round_compute.size(), 0.0);
  rep.round_wait.assign(times.round_wait.size(), 0.0);
  MPI_Reduce(times.round_compute.data(), rep.round_compute.data(), static_cast<int>(lay.q), MPI_DOUBLE,
             MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(times.round_wait.data(), rep.round_wait.data(), static_cast<int>(lay.q), MPI_DOUBLE, MPI_MAX,
             0, MPI_COMM_WORLD);
  char name[128] = {};
  std::snprintf(name, sizeof name, "%s", be->describe().c_str());
  std::vector<char> names(static_cast<size_t>(128 * s.size));
  MPI_Gather(name, 128, MPI_CHAR, names.data(), 128, MPI_CHAR, 0, MPI_COMM_WORLD);
  double slowest = 0;
  MPI_Reduce(&times.solve, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (s.rank == 0) {
    for (int k = 0; k < s.size; ++k) {
      const size_t x = static_cast<size_t>(4 * k);
      rep.compute.push_back(all[x]);
      rep.wait.push_back(all[x + 1]);
      rep.kernels.push_back(all[x + 2]);
      rep.sent.push_back(all[x + 3]);
      rep.devices.emplace_back(names.data() + 128 * k);
    }
    rep.t_solve = slowest;
  }

  // 8. Result (and input for --verify) to rank 0; verify; write.
  Stopwatch gather;
  const bool need_matrix = o.verify || !o.output.empty();
  DistMatrix<T> d, input;
  out.step([&] {
    if (need_matrix && s.rank == 0) d = DistMatrix<T>(lay.n);
  });
  if (int c = agree(out, s)) return c;
  if (need_matrix) {
    gather_matrix(lay, local, &d, s.rank);
    rep.bytes_gather = static_cast<double>(lay.n) * lay.n * sizeof(T);
    if (o.verify) {
      if (s.rank == 0) input = DistMatrix<T>(lay.n);
      gather_matrix(lay, input_local, &input, s.rank);
    }
  }
  rep.t_gather = gather.seconds();
  bool failed = false;
  out.step([&] {
    if (s.rank != 0) return;
    if (o.verify) {
      const VerifyResult v = verify_result(input, d, !opencl);
      rep.verify = v.ok ? "ok" : "FAILED";
      rep.verify_detail = v.detail + " vs " + v.reference;
      failed = !v.ok;
    }
    throw_if_cancelled();
    if (!o.output.empty() && !failed) {
      Stopwatch w;
      write_matrix(d, o.output, parse_output_format(o.output_format));
      rep.output = o.output;
      rep.t_write = w.seconds();
    }
  });
  if (int c = agree(out, s)) return c;
  rep.wall = wall.seconds();

  // 9. Report (rank 0 only).
  if (s.rank == 0) {
    print_report<T>(o, rep, lay, s.size, target && target->is_stdout());
    if (failed) std::cerr << "error: verification failed: " << rep.verify_detail << std::endl;
  }
  int code = failed ? kExitRuntime : kExitOk, worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

}  // namespace

int run_solve(const MpiSolveOptions& o, const Stopwatch& wall) {
  Session s;
  int code = 0;
  try {
    code = lower(o.type) == "float32" ? run_typed<float>(o, wall, s) : run_typed<int32_t>(o, wall, s);
  } catch (...) {
    abort_job(s, std::current_exception());
  }
  return code;
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
