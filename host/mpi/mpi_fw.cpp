// Distributed blocked Floyd-Warshall over MPI ranks (see mpi_fw.hpp).
//
// Layout: n vertices, panel edge P, q = ceil(n / P) panel rows, L = q * P padded
// columns. Rank `me` of R owns panel rows i = me, me + R, ... and keeps each as a
// strip of P x L values in host memory (row-major, leading dimension L; padding
// vertices isolated: INF, 0 on their diagonal). The pivot strip of round r is
// broadcast from its owner's strip (MPI_Ibcast, in chunks of at most 2^28 values);
// other ranks receive it into one of two buffers, so round r + 1's broadcast is in
// flight while round r computes.
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
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <thread>
#include <type_traits>

#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "cl/device.hpp"
#include "graph/io.hpp"
#include "report/json.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/solver.hpp"
#include "solvers/verify.hpp"
#include "util/atomic_file.hpp"
#include "util/cancel.hpp"
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

std::string mib(double b) {
  char buf[48];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  else
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024.0 * 1024));
  return buf;
}

// ---- the layout -------------------------------------------------------------

struct Layout {
  int64_t n = 0, p = 0, q = 0, ld = 0;
  int ranks = 1, me = 0;
  std::vector<int64_t> rows;  // owned panel rows, increasing
  int owner(int64_t i) const { return static_cast<int>(i % ranks); }
  int64_t local(int64_t i) const { return i / ranks; }  // index of an owned row in `rows`
  int64_t real(int64_t i) const { return std::max<int64_t>(0, std::min(p, n - i * p)); }
  int64_t strip_elems() const { return p * ld; }
};

// ---- backends: the two primitives on this rank's strips ----------------------

template <typename T>
class RankBackend {
 public:
  virtual ~RankBackend() = default;
  virtual std::string describe() const = 0;
  // The strips (host, padded) are the initial matrix rows: take them.
  virtual void load() = 0;
  // Owner of row r (local strip k): close the pivot panel, update the row panels;
  // the host strip holds the result once strip_ready().
  virtual void pivot_and_row(size_t k, int64_t r) = 0;
  virtual bool strip_ready() = 0;
  // Non-owners: the pivot strip of round r arrived in host memory.
  virtual void set_pivot(const T* strip, int64_t r) = 0;
  // Round r's update of local strip k (column panel, then the GEMM-accumulates)
  // with the pivot strip `pivot` (host) / set_pivot's copy; own: this rank owns r.
  virtual void update_row(size_t k, int64_t r, const T* pivot, bool own) = 0;
  // Everything of this round has run (asynchronous backends poll).
  virtual bool round_done() = 0;
  // The strips hold the final values.
  virtual void store() = 0;
  virtual double kernel_seconds() { return 0; }
  virtual double transfer_seconds() { return 0; }
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

template <typename T>
class CpuBackend final : public RankBackend<T> {
 public:
  CpuBackend(const Layout& lay, std::vector<T>& strips)
      : lay_(lay), strips_(strips), tmp_(static_cast<size_t>(lay.strip_elems())),
        col_(static_cast<size_t>(lay.p * lay.p)) {}
  std::string describe() const override {
    return "openmp (" + std::to_string(omp_get_max_threads()) + " threads)";
  }
  void load() override {}
  T* strip(size_t k) { return strips_.data() + static_cast<int64_t>(k) * lay_.strip_elems(); }
  void pivot_and_row(size_t k, int64_t r) override {
    const int64_t p = lay_.p, ld = lay_.ld;
    T* s = strip(k);
    close_cpu(s + r * p, ld, p);
    std::memcpy(tmp_.data(), s, sizeof(T) * static_cast<size_t>(lay_.strip_elems()));
    const int64_t rows = lay_.real(r);
    // Row panels: D[r][j] = D*[r][r] (x) D[r][j], j != r.
    gemm_acc_cpu(s, ld, tmp_.data() + r * p, ld, tmp_.data(), ld, rows, p, 0, r * p);
    gemm_acc_cpu(s, ld, tmp_.data() + r * p, ld, tmp_.data(), ld, rows, p, (r + 1) * p, ld);
  }
  bool strip_ready() override { return true; }
  void set_pivot(const T*, int64_t) override {}
  void update_row(size_t k, int64_t r, const T* pivot, bool) override {
    const int64_t p = lay_.p, ld = lay_.ld;
    T* s = strip(k);
    const int64_t rows = lay_.real(lay_.rows[k]);
    // Column panel: D[i][r] = D[i][r] (x) D*[r][r] (through a copy).
    for (int64_t a = 0; a < p; ++a)
      std::memcpy(col_.data() + a * p, s + a * ld + r * p, sizeof(T) * static_cast<size_t>(p));
    gemm_acc_cpu(s + r * p, ld, col_.data(), p, pivot + r * p, ld, rows, p, 0, p);
    // The rest: D[i][j] = min(D[i][j], D[i][r] (x) D[r][j]), j != r.
    gemm_acc_cpu(s, ld, s + r * p, ld, pivot, ld, rows, p, 0, r * p);
    gemm_acc_cpu(s, ld, s + r * p, ld, pivot, ld, rows, p, (r + 1) * p, ld);
  }
  bool round_done() override { return true; }
  void store() override {}

 private:
  const Layout& lay_;
  std::vector<T>& strips_;
  std::vector<T> tmp_, col_;
};

// ---- OpenCL: the rank's device, the panel engine's FwDevice primitives ----------

template <typename T>
class ClBackend final : public RankBackend<T> {
 public:
  ClBackend(const Layout& lay, std::vector<T>& strips, std::unique_ptr<detail::PanelDevice> dev,
            SolverInfo info)
      : lay_(lay), strips_(strips), dev_(std::move(dev)), core_(dev_->core()),
        info_(std::move(info)) {
    const size_t pb = static_cast<size_t>(lay.p * lay.p) * sizeof(T);
    const auto& e = core_.device();
    const uint64_t panels = static_cast<uint64_t>(lay.rows.size() * lay.q + lay.q + 1);
    if (pb > e.max_alloc || pb * panels > e.global_mem)
      throw RuntimeError("n = " + std::to_string(lay.n) + " on " + std::to_string(lay.ranks) +
                         " ranks: this rank's " + std::to_string(panels) + " panels of P = " +
                         std::to_string(lay.p) + " (" + mib(static_cast<double>(pb * panels)) +
                         ") do not fit '" + e.name + "' (" +
                         mib(static_cast<double>(e.global_mem)) + ", " +
                         mib(static_cast<double>(e.max_alloc)) +
                         " per buffer); use more ranks or a smaller --panel");
    detail::with_cl_errors("cannot allocate the panels on '" + e.name + "'", [&] {
      for (size_t k = 0; k < lay.rows.size(); ++k) {
        std::vector<cl::Buffer> row;
        for (int64_t j = 0; j < lay.q; ++j) row.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
        own_.push_back(std::move(row));
      }
      for (int64_t j = 0; j < lay.q; ++j) piv_.emplace_back(core_.context(), CL_MEM_READ_WRITE, pb);
      tmp_ = cl::Buffer(core_.context(), CL_MEM_READ_WRITE, pb);
    });
    core_.begin_solve();
  }
  std::string describe() const override { return core_.device().name; }
  const SolverInfo& info() const { return info_; }

  T* strip(size_t k) { return strips_.data() + static_cast<int64_t>(k) * lay_.strip_elems(); }
  size_t pitch() const { return static_cast<size_t>(lay_.p) * sizeof(T); }
  size_t host_pitch() const { return static_cast<size_t>(lay_.ld) * sizeof(T); }

  void put(cl::Buffer& buf, const T* host) {
    core_.write_rect(detail::OpenClCore::kCompute, buf, pitch(), host, host_pitch(), pitch(),
                     static_cast<size_t>(lay_.p));
  }
  cl::Event get(cl::Buffer& buf, T* host) {
    return core_.read_rect(detail::OpenClCore::kCompute, buf, pitch(), host, host_pitch(), pitch(),
                           static_cast<size_t>(lay_.p));
  }
  void guarded(const std::function<void()>& f) {
    core_.run_guarded("rank solve on '" + core_.device().name + "' failed", f);
  }

  void load() override {
    guarded([&] {
      for (size_t k = 0; k < own_.size(); ++k)
        for (int64_t j = 0; j < lay_.q; ++j) put(own_[k][static_cast<size_t>(j)], strip(k) + j * lay_.p);
      queue().flush();
    });
  }
  cl::CommandQueue& queue() { return core_.queue(detail::OpenClCore::kCompute); }

  void pivot_and_row(size_t k, int64_t r) override {
    guarded([&] {
      const size_t pb = static_cast<size_t>(lay_.p * lay_.p) * sizeof(T);
      auto& row = own_[k];
      cl::Buffer& piv = row[static_cast<size_t>(r)];
      dev_->close_panel(piv, lay_.p, std::max<int64_t>(1, lay_.real(r)));
      for (int64_t j = 0; j < lay_.q; ++j) {
        if (j == r) continue;
        core_.copy_buffer(row[static_cast<size_t>(j)], tmp_, pb, {});
        dev_->gemm_acc(row[static_cast<size_t>(j)], piv, tmp_, lay_.p, lay_.real(r));
      }
      for (int64_t j = 0; j < lay_.q; ++j) strip_read_ = get(row[static_cast<size_t>(j)], strip(k) + j * lay_.p);
      queue().flush();
    });
  }
  static bool complete(const cl::Event& e) {
    return !e() || e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() <= CL_COMPLETE;
  }
  bool strip_ready() override {
    bool ready = false;
    guarded([&] {
      ready = complete(strip_read_);
      if (ready && strip_read_()) {
        const cl_int st = strip_read_.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>();
        if (st < 0) throw RuntimeError("reading the pivot strip failed (" + cl_error_name(st) + ")");
      }
    });
    return ready;
  }
  void set_pivot(const T* strip, int64_t) override {
    guarded([&] {
      for (int64_t j = 0; j < lay_.q; ++j) put(piv_[static_cast<size_t>(j)], strip + j * lay_.p);
    });
  }
  void update_row(size_t k, int64_t r, const T* pivot, bool own) override {
    (void)pivot;
    guarded([&] {
      const size_t pb = static_cast<size_t>(lay_.p * lay_.p) * sizeof(T);
      auto& pv = own ? own_[static_cast<size_t>(lay_.local(r))] : piv_;
      auto& row = own_[k];
      const int64_t rows = lay_.real(lay_.rows[k]);
      cl::Buffer& col = row[static_cast<size_t>(r)];
      core_.copy_buffer(col, tmp_, pb, {});
      dev_->gemm_acc(col, tmp_, pv[static_cast<size_t>(r)], lay_.p, rows);
      for (int64_t j = 0; j < lay_.q; ++j) {
        if (j == r) continue;
        last_ = dev_->gemm_acc(row[static_cast<size_t>(j)], col, pv[static_cast<size_t>(j)], lay_.p, rows);
      }
      queue().flush();
    });
  }
  bool round_done() override {
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
      }
    });
    return done;
  }
  void store() override {
    guarded([&] {
      for (size_t k = 0; k < own_.size(); ++k)
        for (int64_t j = 0; j < lay_.q; ++j) get(own_[k][static_cast<size_t>(j)], strip(k) + j * lay_.p);
      queue().finish();
      RunStats st;
      core_.finish(st);
      t_k_ = st.t_k;
      t_h_ = st.t_h;
    });
  }
  double kernel_seconds() override { return t_k_; }
  double transfer_seconds() override { return t_h_; }

 private:
  const Layout& lay_;
  std::vector<T>& strips_;
  std::unique_ptr<detail::PanelDevice> dev_;
  detail::OpenClCore& core_;
  SolverInfo info_;
  std::vector<std::vector<cl::Buffer>> own_;
  std::vector<cl::Buffer> piv_;
  cl::Buffer tmp_;
  cl::Event strip_read_, last_, marker_;
  double t_k_ = 0, t_h_ = 0;
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
};

template <typename T>
class DistributedFw {
 public:
  DistributedFw(const Layout& lay, std::vector<T>& strips, RankBackend<T>& be, const Session& s)
      : lay_(lay), strips_(strips), be_(be), s_(s) {
    if (lay.ranks > 1) {
      pivbuf_[0].resize(static_cast<size_t>(lay.strip_elems()));
      pivbuf_[1].resize(static_cast<size_t>(lay.strip_elems()));
    }
  }

  RoundTimes run() {
    RoundTimes t;
    Stopwatch all;
    const int64_t q = lay_.q;
    Stopwatch c0;
    be_.load();
    if (lay_.owner(0) == s_.rank) {
      be_.pivot_and_row(0, 0);
      while (!be_.strip_ready()) nap();
    }
    t.compute += c0.seconds();
    std::vector<MPI_Request> req[2];
    post(0, req[0]);
    for (int64_t r = 0; r < q; ++r) {
      throw_if_cancelled();
      Stopwatch w;
      auto& cur = req[r % 2];
      if (!cur.empty()) MPI_Waitall(static_cast<int>(cur.size()), cur.data(), MPI_STATUSES_IGNORE);
      cur.clear();
      t.wait += w.seconds();
      Stopwatch c;
      const bool own = lay_.owner(r) == s_.rank;
      const T* pivot = own ? strip(static_cast<size_t>(lay_.local(r))) : pivbuf_[r % 2].data();
      if (!own) be_.set_pivot(pivot, r);
      const int64_t next = r + 1;
      const bool ahead = next < q && lay_.owner(next) == s_.rank;
      auto& nreq = req[next % 2];
      bool posted = next >= q;
      auto try_post = [&] {
        if (!posted && (!ahead || be_.strip_ready())) {
          post(next, nreq);
          posted = true;
        }
        test(nreq);
      };
      if (ahead) {
        be_.update_row(static_cast<size_t>(lay_.local(next)), r, pivot, own);
        be_.pivot_and_row(static_cast<size_t>(lay_.local(next)), next);
      }
      try_post();
      for (size_t k = 0; k < lay_.rows.size(); ++k) {
        const int64_t i = lay_.rows[k];
        if (i == r || (ahead && i == next)) continue;
        be_.update_row(k, r, pivot, own);
        try_post();
      }
      while (!be_.round_done()) {
        try_post();
        nap();
      }
      while (!posted) {
        try_post();
        if (!posted) nap();
      }
      t.compute += c.seconds();
    }
    Stopwatch c1;
    be_.store();
    t.compute += c1.seconds();
    t.solve = all.seconds();
    return t;
  }

  double bytes_broadcast() const { return bytes_; }

 private:
  T* strip(size_t k) { return strips_.data() + static_cast<int64_t>(k) * lay_.strip_elems(); }
  static void nap() { std::this_thread::sleep_for(std::chrono::microseconds(50)); }
  void test(std::vector<MPI_Request>& r) {
    if (r.empty()) return;
    int flag = 0;
    MPI_Testall(static_cast<int>(r.size()), r.data(), &flag, MPI_STATUSES_IGNORE);
    if (flag) r.clear();
  }
  // The pivot strip of round r from its owner to everyone, in chunks of rows.
  void post(int64_t r, std::vector<MPI_Request>& reqs) {
    const int root = lay_.owner(r);
    T* buf = root == s_.rank ? strip(static_cast<size_t>(lay_.local(r))) : pivbuf_[r % 2].data();
    const int64_t rows_per = std::max<int64_t>(1, kMaxChunk / lay_.ld);
    for (int64_t a = 0; a < lay_.p; a += rows_per) {
      const int64_t rows = std::min(rows_per, lay_.p - a);
      MPI_Request rq;
      MPI_Ibcast(buf + a * lay_.ld, static_cast<int>(rows * lay_.ld), mpi_type<T>(), root,
                 MPI_COMM_WORLD, &rq);
      reqs.push_back(rq);
    }
    if (root == s_.rank)
      bytes_ += static_cast<double>(lay_.strip_elems()) * sizeof(T) * (lay_.ranks - 1);
  }

  const Layout& lay_;
  std::vector<T>& strips_;
  RankBackend<T>& be_;
  const Session& s_;
  std::vector<T> pivbuf_[2];
  double bytes_ = 0;
};

// Strips initialised as padding: INF, 0 on the padding vertices' diagonal.
template <typename T>
void init_strips(const Layout& lay, std::vector<T>& strips) {
  strips.assign(static_cast<size_t>(lay.strip_elems() * static_cast<int64_t>(lay.rows.size())),
                ValueTraits<T>::inf);
  for (size_t k = 0; k < lay.rows.size(); ++k) {
    const int64_t i = lay.rows[k];
    for (int64_t a = lay.real(i); a < lay.p; ++a)
      strips[static_cast<size_t>(static_cast<int64_t>(k) * lay.strip_elems() + a * lay.ld + i * lay.p + a)] = 0;
  }
}

template <typename T>
void normalise(std::vector<T>& v) {
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < v.size(); ++e) v[e] = ValueTraits<T>::norm(v[e]);
}

// rows x n values between a strip (leading dimension ld) and a contiguous
// block, as MPI messages of at most kMaxChunk values.
template <typename T>
void send_rows(const T* strip, int64_t rows, int64_t n, int64_t ld, int dest) {
  const int64_t per = std::max<int64_t>(1, kMaxChunk / std::max<int64_t>(n, 1));
  for (int64_t a = 0; a < rows; a += per) {
    const int64_t cnt = std::min(per, rows - a);
    MPI_Datatype t;
    MPI_Type_vector(static_cast<int>(cnt), static_cast<int>(n), static_cast<int>(ld), mpi_type<T>(), &t);
    MPI_Type_commit(&t);
    MPI_Send(strip + a * ld, 1, t, dest, 7, MPI_COMM_WORLD);
    MPI_Type_free(&t);
  }
}
template <typename T>
void recv_rows_contiguous(T* dst, int64_t rows, int64_t n, int src) {
  const int64_t per = std::max<int64_t>(1, kMaxChunk / std::max<int64_t>(n, 1));
  for (int64_t a = 0; a < rows; a += per) {
    const int64_t cnt = std::min(per, rows - a);
    MPI_Recv(dst + a * n, static_cast<int>(cnt * n), mpi_type<T>(), src, 7, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
}
template <typename T>
void recv_rows_strided(T* strip, int64_t rows, int64_t n, int64_t ld, int src) {
  const int64_t per = std::max<int64_t>(1, kMaxChunk / std::max<int64_t>(n, 1));
  for (int64_t a = 0; a < rows; a += per) {
    const int64_t cnt = std::min(per, rows - a);
    MPI_Datatype t;
    MPI_Type_vector(static_cast<int>(cnt), static_cast<int>(n), static_cast<int>(ld), mpi_type<T>(), &t);
    MPI_Type_commit(&t);
    MPI_Recv(strip + a * ld, 1, t, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&t);
  }
}

// The strips of every rank into one matrix on rank 0 (panel rows in order).
template <typename T>
void gather_matrix(const Layout& lay, const std::vector<T>& strips, DistMatrix<T>* out, int rank) {
  for (int64_t i = 0; i < lay.q; ++i) {
    const int o = lay.owner(i);
    const int64_t rows = lay.real(i);
    if (rows == 0) continue;
    const T* s = strips.data() + lay.local(i) * lay.strip_elems();
    if (rank == 0) {
      T* dst = out->data() + i * lay.p * lay.n;
      if (o == 0) {
        for (int64_t a = 0; a < rows; ++a)
          std::memcpy(dst + a * lay.n, s + a * lay.ld, sizeof(T) * static_cast<size_t>(lay.n));
      } else {
        recv_rows_contiguous(dst, rows, lay.n, o);
      }
    } else if (o == rank) {
      send_rows(s, rows, lay.n, lay.ld, 0);
    }
  }
}

// Rank 0's matrix into every rank's strips (panel rows in order).
template <typename T>
void scatter_matrix(const Layout& lay, const DistMatrix<T>* in, std::vector<T>& strips, int rank) {
  for (int64_t i = 0; i < lay.q; ++i) {
    const int o = lay.owner(i);
    const int64_t rows = lay.real(i);
    if (rows == 0) continue;
    T* s = strips.data() + lay.local(i) * lay.strip_elems();
    if (rank == 0) {
      const T* src = in->data() + i * lay.p * lay.n;
      if (o == 0) {
        for (int64_t a = 0; a < rows; ++a)
          std::memcpy(s + a * lay.ld, src + a * lay.n, sizeof(T) * static_cast<size_t>(lay.n));
      } else {
        for (int64_t a = 0; a < rows;) {  // contiguous rows, as strided messages on the receiver
          const int64_t per = std::max<int64_t>(1, kMaxChunk / std::max<int64_t>(lay.n, 1));
          const int64_t cnt = std::min(per, rows - a);
          MPI_Send(src + a * lay.n, static_cast<int>(cnt * lay.n), mpi_type<T>(), o, 7, MPI_COMM_WORLD);
          a += cnt;
        }
      }
    } else if (o == rank) {
      recv_rows_strided(s, rows, lay.n, lay.ld, 0);
    }
  }
}

struct Report {
  std::string source, backend_kind, params;
  long long edges = 0;
  std::vector<std::string> devices;  // per rank
  double t_setup = 0, t_solve = 0, t_gather = 0, t_write = 0, wall = 0;
  std::vector<double> compute, wait, kernels;  // per rank
  double bytes_bcast = 0, bytes_scatter = 0, bytes_gather = 0;
  std::string verify, verify_detail, output;
};

template <typename T>
int run_typed(const MpiSolveOptions& o, const Stopwatch& wall, const Session& s) {
  Outcome out;
  Report rep;
  Layout lay;
  lay.ranks = s.size;
  lay.me = s.rank;
  bool opencl = false;
  GeneratorParams gen;
  DistMatrix<T> full;  // rank 0, file input: the whole matrix before scattering
  std::optional<OutputTarget> target;
  SolverSpec spec;

  // 1. Options (identical on every rank) and, on rank 0, the input file.
  out.step([&] {
    if (!o.unsupported.empty())
      throw UsageError(o.unsupported + " not supported by the distributed solve (" +
                       std::to_string(s.size) + " MPI ranks); it runs --algo fw distances only");
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
      lay.n = gen.n;
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
      lay.n = g.n;
      check_host_memory(static_cast<uint64_t>(g.n) * g.n * sizeof(T),
                        "n = " + std::to_string(g.n) + " read by rank 0 before scattering");
      full = to_matrix<T>(g);
    }
  });
  if (int c = agree(out, s)) return c;
  long long n_all = lay.n;
  MPI_Bcast(&n_all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  lay.n = n_all;

  // 2. Layout, memory, backend.
  std::vector<T> strips, input_strips;
  std::unique_ptr<RankBackend<T>> be;
  out.step([&] {
    const int64_t m = opencl ? 128 : 32;
    const int64_t cap = opencl ? 16384 : 1024;
    int64_t p = o.panel ? detail::round_up(*o.panel, m)
                        : std::min(cap, std::max(m, detail::round_up((lay.n + 4 * s.size - 1) / (4 * s.size), m)));
    lay.p = p;
    lay.q = (lay.n + p - 1) / p;
    lay.ld = lay.q * p;
    for (int64_t i = s.rank; i < lay.q; i += s.size) lay.rows.push_back(i);
    const uint64_t mine = static_cast<uint64_t>(lay.strip_elems()) * lay.rows.size() * sizeof(T);
    const uint64_t round = static_cast<uint64_t>(lay.strip_elems()) * sizeof(T) * 3;
    uint64_t need = mine * (o.verify ? 2 : 1) + round;
    if (s.rank == 0 && (o.verify || !o.output.empty()))
      need += static_cast<uint64_t>(lay.n) * lay.n * sizeof(T) * (o.verify ? 3 : 1);
    check_host_memory(need, "rank " + std::to_string(s.rank) + ": " + mib(static_cast<double>(mine)) +
                                " of panel rows (n = " + std::to_string(lay.n) + ", " +
                                std::to_string(s.size) + " ranks)" +
                                (s.rank == 0 && (o.verify || !o.output.empty())
                                     ? " plus the gathered matrix for --output/--verify"
                                     : ""));
    init_strips(lay, strips);
    if (opencl) {
      spec.algo = Algo::fw;
      spec.backend = Backend::opencl;
      spec.device = o.device;
      const DeviceEntry e = rank_device(o.device, launched_local_rank());
      SolverInfo info;
      auto dev = detail::make_fw_panel_device<T>(e, spec, &info);
      be = std::make_unique<ClBackend<T>>(lay, strips, std::move(dev), info);
      rep.backend_kind = "opencl";
    } else {
      be = std::make_unique<CpuBackend<T>>(lay, strips);
      rep.backend_kind = "openmp";
    }
  });
  if (int c = agree(out, s)) return c;

  // 3. The graph: generated per rank (own rows only) or scattered from rank 0.
  Stopwatch setup;
  out.step([&] {
    if (o.generated) {
      long long edges = 0;
      for (size_t k = 0; k < lay.rows.size(); ++k) {
        const int64_t i = lay.rows[k], rows = lay.real(i);
        if (rows == 0) continue;
        long long e = 0;
        std::vector<T> block = generate_rows<T>(gen, i * lay.p, i * lay.p + rows, &e);
        edges += e;
        T* st = strips.data() + static_cast<int64_t>(k) * lay.strip_elems();
        for (int64_t a = 0; a < rows; ++a)
          std::memcpy(st + a * lay.ld, block.data() + a * lay.n, sizeof(T) * static_cast<size_t>(lay.n));
      }
      MPI_Allreduce(&edges, &rep.edges, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    }
  });
  if (int c = agree(out, s)) return c;
  if (!o.generated) {
    scatter_matrix(lay, s.rank == 0 ? &full : nullptr, strips, s.rank);
    rep.bytes_scatter = static_cast<double>(lay.n) * lay.n * sizeof(T);
    full = DistMatrix<T>();
  }
  normalise(strips);
  if (o.verify) input_strips = strips;
  rep.t_setup = setup.seconds();

  // 4. The rounds: a failure here aborts the job (a peer may wait in a broadcast).
  RoundTimes times;
  double bytes_bcast = 0;
  try {
    DistributedFw<T> fw(lay, strips, *be, s);
    times = fw.run();
    bytes_bcast = fw.bytes_broadcast();
  } catch (...) {
    abort_job(s, std::current_exception());
  }

  // 5. Negative cycles, globally: the lowest vertex with d(i,i) < 0.
  long long neg = LLONG_MAX, neg_all = LLONG_MAX;
  for (size_t k = 0; k < lay.rows.size(); ++k) {
    const int64_t i = lay.rows[k];
    const T* st = strips.data() + static_cast<int64_t>(k) * lay.strip_elems();
    for (int64_t a = 0; a < lay.real(i); ++a) {
      const int64_t v = i * lay.p + a;
      if (st[a * lay.ld + v] < 0) {
        neg = std::min<long long>(neg, v);
        break;
      }
    }
  }
  MPI_Allreduce(&neg, &neg_all, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  if (neg_all != LLONG_MAX) {
    if (s.rank == 0) std::cerr << "error: " << NegativeCycleError(neg_all).what() << std::endl;
    return kExitNegativeCycle;
  }

  // 6. Statistics to rank 0.
  double mine[3] = {times.compute, times.wait, be->kernel_seconds()};
  std::vector<double> all(static_cast<size_t>(3 * s.size));
  MPI_Gather(mine, 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&bytes_bcast, &rep.bytes_bcast, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  char name[128] = {};
  std::snprintf(name, sizeof name, "%s", be->describe().c_str());
  std::vector<char> names(static_cast<size_t>(128 * s.size));
  MPI_Gather(name, 128, MPI_CHAR, names.data(), 128, MPI_CHAR, 0, MPI_COMM_WORLD);
  double slowest = 0;
  MPI_Reduce(&times.solve, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (s.rank == 0) {
    for (int k = 0; k < s.size; ++k) {
      rep.compute.push_back(all[static_cast<size_t>(3 * k)]);
      rep.wait.push_back(all[static_cast<size_t>(3 * k + 1)]);
      rep.kernels.push_back(all[static_cast<size_t>(3 * k + 2)]);
      rep.devices.emplace_back(names.data() + 128 * k);
    }
    rep.t_solve = slowest;
  }

  // 7. Result (and input for --verify) to rank 0; verify; write.
  Stopwatch gather;
  const bool need_matrix = o.verify || !o.output.empty();
  DistMatrix<T> d, input;
  out.step([&] {
    if (need_matrix && s.rank == 0) d = DistMatrix<T>(lay.n);
  });
  if (int c = agree(out, s)) return c;
  if (need_matrix) {
    gather_matrix(lay, strips, &d, s.rank);
    rep.bytes_gather = static_cast<double>(lay.n) * lay.n * sizeof(T);
    if (o.verify) {
      strips.swap(input_strips);
      if (s.rank == 0) input = DistMatrix<T>(lay.n);
      gather_matrix(lay, strips, &input, s.rank);
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

  // 8. Report (rank 0 only).
  if (s.rank == 0) {
    const double relax = static_cast<double>(lay.n) * lay.n * lay.n;
    double csum = 0, wsum = 0, wmax = 0;
    for (int k = 0; k < s.size; ++k) {
      csum += rep.compute[static_cast<size_t>(k)];
      wsum += rep.wait[static_cast<size_t>(k)];
      wmax = std::max(wmax, rep.wait[static_cast<size_t>(k)]);
    }
    const double eff = rep.t_solve > 0 ? csum / (s.size * rep.t_solve) : 0;
    std::string rows_per;
    for (int k = 0; k < s.size; ++k) {
      const int64_t cnt = lay.q > k ? (lay.q - k + s.size - 1) / s.size : 0;
      rows_per += (k ? "/" : "") + std::to_string(cnt);
    }
    std::string devs;
    for (int k = 0; k < s.size; ++k) devs += (k ? ", " : "") + std::to_string(k) + ": " + rep.devices[static_cast<size_t>(k)];
    std::ostream& os = std::cout;
    if (o.json) {
      JsonWriter j(os);
      j.begin_object().field("command", "solve").field("mpi_ranks", s.size);
      j.field("distribution", "1D row-cyclic").field("panel", static_cast<long long>(lay.p));
      j.field("panels_per_dim", static_cast<long long>(lay.q)).field("n", static_cast<long long>(lay.n));
      j.field("edges", rep.edges).field("type", ValueTraits<T>::name()).field("source", rep.source);
      j.field("backend", rep.backend_kind);
      j.key("rank_devices").begin_array();
      for (const auto& x : rep.devices) j.value(x);
      j.end_array();
      j.key("rank_compute_s").begin_array();
      for (double x : rep.compute) j.value(x);
      j.end_array();
      j.key("rank_wait_s").begin_array();
      for (double x : rep.wait) j.value(x);
      j.end_array();
      j.field("setup_s", rep.t_setup).field("solve_s", rep.t_solve).field("gather_s", rep.t_gather);
      j.field("write_s", rep.t_write).field("total_s", rep.wall);
      j.field("bytes_broadcast", rep.bytes_bcast).field("bytes_scatter", rep.bytes_scatter);
      j.field("bytes_gather", rep.bytes_gather).field("parallel_efficiency", eff);
      j.field("relaxations_per_s", rep.t_solve > 0 ? relax / rep.t_solve : 0.0);
      if (!rep.verify.empty()) j.field("verify", rep.verify);
      if (!rep.output.empty()) j.field("output", rep.output);
      j.end_object();
      os << "\n";
    } else {
      char buf[512];
      os << "source    " << rep.source << "\n";
      std::snprintf(buf, sizeof buf, "graph     n = %lld, %lld edges, %s\n",
                    static_cast<long long>(lay.n), rep.edges, ValueTraits<T>::name());
      os << buf;
      std::snprintf(buf, sizeof buf,
                    "mpi       %d ranks, 1D row-cyclic panel rows (row i -> rank i mod %d), "
                    "P = %lld, %lld x %lld panels, panel rows per rank %s\n",
                    s.size, s.size, static_cast<long long>(lay.p), static_cast<long long>(lay.q),
                    static_cast<long long>(lay.q), rows_per.c_str());
      os << buf;
      os << "backend   " << rep.backend_kind << ", per rank: " << devs << "\n";
      std::snprintf(buf, sizeof buf,
                    "rounds    %lld: compute %.3f s avg per rank, broadcast wait %.3f s avg "
                    "(max %.3f s)\n",
                    static_cast<long long>(lay.q), csum / s.size, wsum / s.size, wmax);
      os << buf;
      for (int k = 0; k < s.size; ++k) {
        std::snprintf(buf, sizeof buf, "  rank %d  compute %.3f s, waited %.3f s%s\n", k,
                      rep.compute[static_cast<size_t>(k)], rep.wait[static_cast<size_t>(k)],
                      rep.backend_kind == "opencl"
                          ? (", kernels " + std::to_string(rep.kernels[static_cast<size_t>(k)]) + " s").c_str()
                          : "");
        os << buf;
      }
      os << "bytes     pivot broadcasts " << mib(rep.bytes_bcast) << " (sum over receivers)";
      if (rep.bytes_scatter > 0) os << ", scatter " << mib(rep.bytes_scatter);
      if (rep.bytes_gather > 0) os << ", gather " << mib(rep.bytes_gather);
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
    }
    os.flush();
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
