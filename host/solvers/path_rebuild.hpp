// --paths beyond the single buffer at the distances' speed: the fast
// distance kernels run in whatever placement the plan chose, then the path
// matrix is rebuilt from the distances on the device (kernels/paths_rebuild.cl):
// the input's tight edges (w(k,j) = d(k,j), solvers/panel_paths.hpp) go up once
// as CSR, the distances in bands of source rows (or straight from a device
// buffer that already holds them), and via / hops come back band by band into
// the PathMatrix, all through pinned chunks copied on every host thread while the
// next band's kernel runs. The result equals the host's recover_paths (same hops, same
// via: the smallest k of the level before). Exact sums are needed as there.
#pragma once
#include <cstdint>
#include <functional>
#include <future>
#include <optional>
#include <string>

#include "graph/matrix.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/panel_paths.hpp"

namespace ocl_sp::detail {

// The calling thread (and the threads it starts later) at the lowest priority:
// side work that should take only idle cores.
void lower_thread_priority();

// size_path_matrix(p, n) on a thread of its own at the lowest priority: the zero
// fill of the 8 n^2 bytes (one thread, page faults included: seconds at n = 50 000)
// runs while the distances are computed. get() before p is used; p must outlive it.
std::future<void> size_path_matrix_async(PathMatrix& p, int64_t n);

template <typename T>
class PathRebuild {
 public:
  // Rebuilds p from the solved distances d (host) and the input's edges on the
  // core's device, within `device_bytes` of its memory (0: the device's own).
  // dev_d: the distances already on the device (ld x ld, row pitch ld), read in
  // place of uploading d. Returns false, doing nothing, when the tight edges and
  // one band do not fit (the caller recovers on the host). Device work goes into
  // st (T_k, T_h, bytes); st.paths_kernels says what ran.
  // stage: pinned chunks to move the rows through (the panel engine's, already
  // pinned); nullptr or too small for a row: the core's matrix stager.
  bool run(OpenClCore& core, const InputEdges<T>& edges, const DistMatrix<T>& d, PathMatrix& p,
           RunStats& st, uint64_t device_bytes, cl::Buffer* dev_d = nullptr, int64_t ld = 0,
           Stager* stage = nullptr);

  // The single buffer's route, no host scan: the input kept on the device (dev_w)
  // beside the solved distances (dev_d), both ld x ld with row pitch ld; the tight
  // edges are found there (tight_count, tight_fill), and the distances come down
  // into d while the first bands' kernels run. Returns false, with d still the
  // input and nothing downloaded, when the tight edges and two band sets do not
  // fit `device_bytes` (0: the device's memory) beside the two matrices.
  // before_paths: runs before p is first sized or written (a sizing thread's wait).
  bool run_on_device(OpenClCore& core, cl::Buffer& dev_w, cl::Buffer& dev_d, int64_t ld,
                     DistMatrix<T>& d, PathMatrix& p, RunStats& st, uint64_t device_bytes,
                     const std::function<void()>& before_paths = {});

 private:
  // Rows per band, persistent groups and band sets for n sources within `budget`
  // bytes beside `fixed` (the tight edges' CSR); nullopt when two sets do not fit.
  struct Bands {
    int64_t band = 1, groups = 1, sets = 2;
    size_t words = 0;  // __local bitmap words (0: none)
  };
  std::optional<Bands> plan_bands(OpenClCore& core, int64_t n, uint64_t budget, uint64_t csr,
                                  bool host_rows, int64_t most_sets) const;
  // The bands' kernels over the tight edges (start / dst / w on the device), the
  // distances from host d (host_rows) or dev_d; via / hops into p through sg.
  // beside(): runs once the first sets' kernels are enqueued (the d download).
  void rebuild_bands(OpenClCore& core, const Bands& z, int64_t n, cl::Buffer& start, cl::Buffer& dst,
                     cl::Buffer& w, const DistMatrix<T>* host_rows, cl::Buffer* dev_d, int64_t ld,
                     PathMatrix& p, Stager& sg, const std::function<void()>& beside);
  void report(RunStats& st, const RunStats& part, int64_t n, int64_t tight, int64_t edges,
              const Bands& z, double setup, const char* where, double seconds, bool hops) const;
  // The kernels built once (errors named for the device); the seconds it took,
  // 0 once built.
  double build(OpenClCore& core);
  void build_kernels(OpenClCore& core);
  bool built_ = false;
  int wg_ = 256, vw_ = 32;
  std::string cache_;
  cl::Program program_;
  cl::Kernel kernel_, count_, fill_;
};

}  // namespace ocl_sp::detail
