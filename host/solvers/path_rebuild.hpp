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
#include <future>
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

 private:
  void build(OpenClCore& core);
  bool built_ = false;
  int wg_ = 256, vw_ = 32;
  std::string cache_;
  cl::Program program_;
  cl::Kernel kernel_;
};

}  // namespace ocl_sp::detail
