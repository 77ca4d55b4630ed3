// CPU solvers with path reconstruction (solve(d, paths) with paths != nullptr):
// serial Floyd-Warshall, blocked OpenMP Floyd-Warshall and serial / OpenMP repeated
// squaring in the lexicographic (distance, hops) semiring. The distance-only
// kernels of fw_serial.cpp, fw_openmp.cpp and squaring_cpu.cpp stay untouched.
//
// Every relaxation compares (d, h) lexicographically: the candidate
// (d_ik + d_kj, h_ik + h_kj) replaces (d_ij, h_ij) iff it is strictly smaller, and
// then via(i,j) = k. At the end each pair's (d, h) is optimal, so for via k both
// halves have fewer hops than the whole: expand_path terminates even with
// zero-weight cycles (graph/paths.hpp, PathMatrix in graph/matrix.hpp).
#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cpu/cpu_solvers.hpp"
#include "graph/paths.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp::cpu_detail {

namespace {

// Candidates through row k for one row segment: d_i[j], h_i[j], v_i[j] take
// (norm(a + d_k[j]), ha + h_k[j], k) where that is lexicographically smaller.
// Normalising the candidate first keeps INF exact: INF never beats INF, because a
// candidate's hops are >= 0 and an unreachable entry keeps hops 0. Row i may be row
// k (i == k): d(k,k) = 0 and h(k,k) = 0 make every candidate equal to the entry,
// so nothing changes and the element-wise loop is safe.
template <typename T>
OCL_SP_INLINE void relax_segment_body(T* d_i, int32_t* h_i, int32_t* v_i, T a, int32_t ha,
                                      const T* d_k, const int32_t* h_k, int64_t len, int32_t k) {
#pragma omp simd
  for (int64_t j = 0; j < len; ++j) {
    const T s = snorm(a + d_k[j]);
    const int32_t hs = ha + h_k[j];
    const bool better = s < d_i[j] || (s == d_i[j] && hs < h_i[j]);
    d_i[j] = better ? s : d_i[j];
    h_i[j] = better ? std::min(hs, kHopsCap) : h_i[j];
    v_i[j] = better ? k : v_i[j];
  }
}

OCL_SP_CLONES void relax_segment(int32_t* d_i, int32_t* h_i, int32_t* v_i, int32_t a, int32_t ha,
                                 const int32_t* d_k, const int32_t* h_k, int64_t len, int32_t k) {
  relax_segment_body(d_i, h_i, v_i, a, ha, d_k, h_k, len, k);
}
OCL_SP_CLONES void relax_segment(float* d_i, int32_t* h_i, int32_t* v_i, float a, int32_t ha,
                                 const float* d_k, const int32_t* h_k, int64_t len, int32_t k) {
  relax_segment_body(d_i, h_i, v_i, a, ha, d_k, h_k, len, k);
}
OCL_SP_CLONES void relax_segment(int64_t* d_i, int32_t* h_i, int32_t* v_i, int64_t a, int32_t ha,
                                 const int64_t* d_k, const int32_t* h_k, int64_t len, int32_t k) {
  relax_segment_body(d_i, h_i, v_i, a, ha, d_k, h_k, len, k);
}
OCL_SP_CLONES void relax_segment(double* d_i, int32_t* h_i, int32_t* v_i, double a, int32_t ha,
                                 const double* d_k, const int32_t* h_k, int64_t len, int32_t k) {
  relax_segment_body(d_i, h_i, v_i, a, ha, d_k, h_k, len, k);
}

// Rows [i0, i1) x columns [j0, j0 + len) of the row-major n x n matrices against
// the pivots [k0, k1). FW order (k outer, in place) for the pivot tile and the
// pivot row / column tiles; rows outer for the other tiles, which read only
// finished tiles of the round, so a row segment stays in L1 across the pivots.
// The loops live inside the per-ISA clone: one call per tile, not per segment.
template <typename T>
OCL_SP_INLINE void relax_tile_body(T* d, int32_t* h, int32_t* v, int64_t n, int64_t i0, int64_t i1,
                                   int64_t j0, int64_t len, int64_t k0, int64_t k1, bool fw_order) {
  const T inf = ValueTraits<T>::inf;
  auto step = [&](int64_t i, int64_t k) {
    const T a = d[i * n + k];
    if (a == inf) return;  // exact: every candidate is INF
    relax_segment_body(d + i * n + j0, h + i * n + j0, v + i * n + j0, a, h[i * n + k],
                       d + k * n + j0, h + k * n + j0, len, static_cast<int32_t>(k));
  };
  if (fw_order) {
    for (int64_t k = k0; k < k1; ++k)
      for (int64_t i = i0; i < i1; ++i) step(i, k);
  } else {
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t k = k0; k < k1; ++k) step(i, k);
  }
}

OCL_SP_CLONES void relax_tile(int32_t* d, int32_t* h, int32_t* v, int64_t n, int64_t i0, int64_t i1,
                              int64_t j0, int64_t len, int64_t k0, int64_t k1, bool fw_order) {
  relax_tile_body(d, h, v, n, i0, i1, j0, len, k0, k1, fw_order);
}
OCL_SP_CLONES void relax_tile(float* d, int32_t* h, int32_t* v, int64_t n, int64_t i0, int64_t i1,
                              int64_t j0, int64_t len, int64_t k0, int64_t k1, bool fw_order) {
  relax_tile_body(d, h, v, n, i0, i1, j0, len, k0, k1, fw_order);
}
OCL_SP_CLONES void relax_tile(int64_t* d, int32_t* h, int32_t* v, int64_t n, int64_t i0, int64_t i1,
                              int64_t j0, int64_t len, int64_t k0, int64_t k1, bool fw_order) {
  relax_tile_body(d, h, v, n, i0, i1, j0, len, k0, k1, fw_order);
}
OCL_SP_CLONES void relax_tile(double* d, int32_t* h, int32_t* v, int64_t n, int64_t i0, int64_t i1,
                              int64_t j0, int64_t len, int64_t k0, int64_t k1, bool fw_order) {
  relax_tile_body(d, h, v, n, i0, i1, j0, len, k0, k1, fw_order);
}

// Floats: the input adjacency, kept for repair_paths (rounding can leave a via
// that expansion would loop on; graph/paths.hpp). Integers are exact: nothing kept.
template <typename T>
struct KeptInput {
  std::optional<DistMatrix<T>> w;
  explicit KeptInput(const DistMatrix<T>& d) {
    if constexpr (std::is_floating_point_v<T>) w = d;
  }
  void repair(const DistMatrix<T>& d, PathMatrix& p) const {
    if (w) repair_paths(*w, d, p);
  }
};

// Relaxations per block round below which fw_openmp_paths stays on one thread.
constexpr int64_t kParallelWork = int64_t{1} << 20;

// Block edge of the OpenMP path FW: a tile of d, hops and via (3 x 64 x 64 x 4 bytes
// = 48 KiB) stays in L2 while a block round sweeps it.
constexpr int64_t kPathBlock = 64;

}  // namespace

template <typename T>
void fw_serial_paths(DistMatrix<T>& d, PathMatrix& p) {
  const KeptInput<T> input(d);
  const int64_t n = d.n();
  T* m = d.data();
  for (int64_t e = 0; e < n * n; ++e) m[e] = snorm(m[e]);
  p = initial_paths(d);
  int32_t* h = p.hops.data();
  int32_t* v = p.via.data();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i) {
      const T a = m[i * n + k];
      if (a == ValueTraits<T>::inf) continue;  // exact: every candidate is INF
      relax_segment(m + i * n, h + i * n, v + i * n, a, h[i * n + k], m + k * n, h + k * n, n,
                    static_cast<int32_t>(k));
    }
  check_negative_cycles(d);
  input.repair(d, p);
}

// Blocked FW on the row-major matrices (no tiled copy: three matrices would triple
// the copying). Per block round p: the pivot tile, then the pivot row and column
// tiles, then every other tile, each phase a parallel loop over tiles. The
// lexicographic (min,+) is a semiring like (min,+), so any blocked order gives the
// optimal (d, h) of every pair (see the file header).
template <typename T>
void fw_openmp_paths(DistMatrix<T>& d, PathMatrix& p, int block) {
  const KeptInput<T> input(d);
  const int64_t n = d.n();
  T* m = d.data();
  const int64_t b = std::min<int64_t>(block > 0 ? block : kPathBlock, std::max<int64_t>(n, 1));
  const int64_t nb = (n + b - 1) / b;
  const bool parallel = n * n * b >= kParallelWork;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t e = 0; e < n * n; ++e) m[e] = snorm(m[e]);
  p = initial_paths(d);
  int32_t* h = p.hops.data();
  int32_t* v = p.via.data();

  // Tile (ti, tj) of round q: in FW order for the pivot tile and the pivot row and
  // column tiles (rows and pivots in place; row k and column k do not change in
  // step k), rows outer for the rest.
  auto tile = [&](int64_t q, int64_t ti, int64_t tj, bool fw_order) {
    const int64_t k0 = q * b, i0 = ti * b, j0 = tj * b;
    relax_tile(m, h, v, n, i0, std::min(n, i0 + b), j0, std::min(n, j0 + b) - j0, k0,
               std::min(n, k0 + b), fw_order);
  };
  auto fw_tile = [&](int64_t q, int64_t ti, int64_t tj) { tile(q, ti, tj, true); };
  auto product_tile = [&](int64_t q, int64_t ti, int64_t tj) { tile(q, ti, tj, false); };

#pragma omp parallel if (parallel)
  for (int64_t q = 0; q < nb; ++q) {
#pragma omp single
    fw_tile(q, q, q);
    // Implicit barriers after `single` and each `for` order the phases.
#pragma omp for schedule(dynamic, 1)
    for (int64_t o = 0; o < 2 * nb; ++o) {
      const int64_t t = o / 2;
      if (t == q) continue;
      if (o % 2)
        fw_tile(q, q, t);  // pivot row tile
      else
        fw_tile(q, t, q);  // pivot column tile
    }
#pragma omp for schedule(dynamic, 1)
    for (int64_t o = 0; o < nb * nb; ++o) {
      const int64_t ti = o / nb, tj = o % nb;
      if (ti != q && tj != q) product_tile(q, ti, tj);
    }
  }
  check_negative_cycles(d);
  input.repair(d, p);
}

// L <- L (x) L in the lexicographic semiring until a product changes neither a
// distance nor a hop count (or max_products). Each product starts every element
// from L's own (d, h) and via and lets only strictly better k replace them; via is
// not read by a product, so it is updated in place.
template <typename T>
int squaring_paths(DistMatrix<T>& d, PathMatrix& p, bool parallel) {
  const KeptInput<T> input(d);
  const int64_t n = d.n();
  const int max_p = max_products(n, has_negative_weights(d));
  check_host_memory(2 * d.values().size() * (sizeof(T) + sizeof(int32_t)),
                    "squaring with paths (two work matrices of distances and hops)");
  std::vector<T> cur(d.values()), next(cur.size());
  for (T& x : cur) x = ValueTraits<T>::norm(x);
  d.values() = cur;
  p = initial_paths(d);
  std::vector<int32_t> cur_h = p.hops, next_h(cur_h.size());
  int32_t* v = p.via.data();
  const T inf = ValueTraits<T>::inf;
  const bool threads = parallel && n * n * n >= kParallelWork;
  int products = 0;
  while (products < max_p) {
    bool changed = false;
#pragma omp parallel for schedule(dynamic, 16) reduction(|| : changed) if (threads)
    for (int64_t i = 0; i < n; ++i) {
      T* c = next.data() + i * n;
      int32_t* ch = next_h.data() + i * n;
      const T* a_row = cur.data() + i * n;
      const int32_t* ah_row = cur_h.data() + i * n;
      std::memcpy(c, a_row, static_cast<size_t>(n) * sizeof(T));
      std::memcpy(ch, ah_row, static_cast<size_t>(n) * sizeof(int32_t));
      for (int64_t k = 0; k < n; ++k) {
        const T a = a_row[k];
        if (a == inf) continue;
        relax_segment(c, ch, v + i * n, a, ah_row[k], cur.data() + k * n, cur_h.data() + k * n, n,
                      static_cast<int32_t>(k));
      }
      if (!changed)
        changed = std::memcmp(c, a_row, static_cast<size_t>(n) * sizeof(T)) != 0 ||
                  std::memcmp(ch, ah_row, static_cast<size_t>(n) * sizeof(int32_t)) != 0;
    }
    ++products;
    cur.swap(next);
    cur_h.swap(next_h);
    if (!changed) break;
    bool negative = false;
    for (int64_t i = 0; i < n && !negative; ++i) negative = cur[static_cast<size_t>(i * n + i)] < 0;
    if (negative) break;  // a negative diagonal already decides the outcome
  }
  d.values() = std::move(cur);
  p.hops = std::move(cur_h);
  check_negative_cycles(d);
  input.repair(d, p);
  return products;
}

template void fw_serial_paths(DistMatrix<int32_t>&, PathMatrix&);
template void fw_serial_paths(DistMatrix<float>&, PathMatrix&);
template void fw_serial_paths(DistMatrix<double>&, PathMatrix&);
template void fw_serial_paths(DistMatrix<int64_t>&, PathMatrix&);
template void fw_openmp_paths(DistMatrix<int32_t>&, PathMatrix&, int);
template void fw_openmp_paths(DistMatrix<float>&, PathMatrix&, int);
template void fw_openmp_paths(DistMatrix<double>&, PathMatrix&, int);
template void fw_openmp_paths(DistMatrix<int64_t>&, PathMatrix&, int);
template int squaring_paths(DistMatrix<int32_t>&, PathMatrix&, bool);
template int squaring_paths(DistMatrix<float>&, PathMatrix&, bool);
template int squaring_paths(DistMatrix<double>&, PathMatrix&, bool);
template int squaring_paths(DistMatrix<int64_t>&, PathMatrix&, bool);

}  // namespace ocl_sp::cpu_detail
