// Panels between the host matrix and device buffers (panel_engine.hpp): pack and
// unpack with the padding's isolated vertices, through the panel stager.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "solvers/panel_engine.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp::detail {

template <typename T>
void pack_panel(T* dst, const DistMatrix<T>& d, int64_t p, int64_t pi, int64_t pj, int64_t a0,
                int64_t a1) {
  const int64_t n = d.n(), r0 = pi * p, c0 = pj * p;
  const int64_t rows = std::max<int64_t>(0, std::min(p, n - r0));
  const int64_t cols = std::max<int64_t>(0, std::min(p, n - c0));
  const T inf = ValueTraits<T>::inf;
  // Rows in parallel (one staging chunk or panel at a time), threads by its bytes.
  const int threads = copy_threads(static_cast<size_t>(std::max<int64_t>(0, a1 - a0)) * static_cast<size_t>(p) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t a = a0; a < a1; ++a) {
    T* row = dst + (a - a0) * p;
    if (a < rows) {
      std::memcpy(row, d.data() + (r0 + a) * n + c0, static_cast<size_t>(cols) * sizeof(T));
      std::fill(row + cols, row + p, inf);
    } else {
      std::fill(row, row + p, inf);
    }
    if (pi == pj && a >= rows) row[a] = 0;
  }
}

template <typename T>
bool unpack_panel(const T* src, DistMatrix<T>& d, int64_t p, int64_t pi, int64_t pj, int64_t a0,
                  int64_t a1, bool compare) {
  const int64_t n = d.n(), r0 = pi * p, c0 = pj * p;
  const int64_t rows = std::min(std::max<int64_t>(0, std::min(p, n - r0)), a1);
  const int64_t cols = std::max<int64_t>(0, std::min(p, n - c0));
  const size_t bytes = static_cast<size_t>(cols) * sizeof(T);
  bool changed = false;
  const int threads = copy_threads(static_cast<size_t>(std::max<int64_t>(0, rows - a0)) * bytes);
#pragma omp parallel for schedule(static) reduction(|| : changed) num_threads(threads) if (threads > 1)
  for (int64_t a = a0; a < rows; ++a) {
    T* dst = d.data() + (r0 + a) * n + c0;
    const T* s = src + (a - a0) * p;
    if (compare && std::memcmp(dst, s, bytes) == 0) continue;
    changed = changed || compare;
    std::memcpy(dst, s, bytes);
  }
  return changed;
}

Stager& panel_stager(OpenClCore& core, int64_t p, size_t value_size) {
  const size_t row = static_cast<size_t>(p) * value_size;
  const size_t rows = std::max<size_t>(
      1, std::min<size_t>(static_cast<size_t>(p), stage_bytes(kStageBytes) / row));
  // OCL_SP_STAGE_CHUNKS (2-16): another chunk count (comparisons: pinning costs
  // ~1.4-3 GB/s before the first copy; fewer chunks let the host run less ahead).
  return core.stager(OpenClCore::StageUse::kPanels, stage_chunks(kStagingBuffers), rows * row);
}

template <typename T>
cl::Event upload_panel(Stager& st, OpenClCore::QueueId q, cl::Buffer& dst, const DistMatrix<T>& d,
                       int64_t p, int64_t pi, int64_t pj, const std::vector<cl::Event>& wait) {
  const size_t row = static_cast<size_t>(p) * sizeof(T);
  return st.upload(
      q, dst, {static_cast<size_t>(p), row, row},
      [&](void* chunk, size_t a0, size_t a1) {
        pack_panel(static_cast<T*>(chunk), d, p, pi, pj, static_cast<int64_t>(a0),
                   static_cast<int64_t>(a1));
      },
      wait);
}

template <typename T>
cl::Event download_panel(Stager& st, OpenClCore::QueueId q, cl::Buffer& src, DistMatrix<T>& d,
                         int64_t p, int64_t pi, int64_t pj, const std::vector<cl::Event>& wait,
                         bool* changed) {
  const size_t row = static_cast<size_t>(p) * sizeof(T);
  DistMatrix<T>* m = &d;
  return st.download(
      q, src, {static_cast<size_t>(p), row, row},
      [m, p, pi, pj, changed](const void* chunk, size_t a0, size_t a1) {
        const bool c = unpack_panel(static_cast<const T*>(chunk), *m, p, pi, pj,
                                    static_cast<int64_t>(a0), static_cast<int64_t>(a1),
                                    changed != nullptr);
        if (c) *changed = true;
      },
      wait);
}

#define OCL_SP_PANEL_MOVE(T)                                                                          \
  template cl::Event upload_panel<T>(Stager&, OpenClCore::QueueId, cl::Buffer&, const DistMatrix<T>&,    \
                                     int64_t, int64_t, int64_t, const std::vector<cl::Event>&);          \
  template cl::Event download_panel<T>(Stager&, OpenClCore::QueueId, cl::Buffer&, DistMatrix<T>&,        \
                                       int64_t, int64_t, int64_t, const std::vector<cl::Event>&, bool*); \
  template void pack_panel<T>(T*, const DistMatrix<T>&, int64_t, int64_t, int64_t, int64_t, int64_t);     \
  template bool unpack_panel<T>(const T*, DistMatrix<T>&, int64_t, int64_t, int64_t, int64_t, int64_t, bool);
OCL_SP_PANEL_MOVE(int32_t)
OCL_SP_PANEL_MOVE(float)
OCL_SP_PANEL_MOVE(double)
OCL_SP_PANEL_MOVE(int64_t)
#undef OCL_SP_PANEL_MOVE

}  // namespace ocl_sp::detail
