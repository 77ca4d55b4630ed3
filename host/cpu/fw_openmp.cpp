// OpenMP blocked Floyd-Warshall (the paper's OMP_SP): the matrix is copied into
// B x B tiles stored contiguously; per block round the pivot tile, then the pivot
// row and column tiles, then all other tiles are updated, as OpenMP tasks ordered
// by tile dependencies. Phases 2 and 3 run a register-blocked (min,+) tile kernel
// compiled once per instruction set.
#include <algorithm>

#include "cpu/cpu_kernels.hpp"
#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"

namespace ocl_sp {
namespace {

using namespace cpu_detail;

// Register block of R rows x NV vectors of C, kept in registers over the whole k
// loop: each loaded vector of B is reused for R rows and each A value for NV
// vectors. Computes c = norm(min(c, min_k a[r][k] + b[k][.])). The store rule is
// applied once at the end, which is exact: the operands a and b are normalised
// values (so no sum overflows) and norm(min(x, y)) = min(norm x, norm y).
// c may alias a (column tiles) or b (row tiles): see fw_openmp for why that holds.
template <typename T, int Bytes, int R, int NV>
OCL_SP_INLINE void minplus_block(T* c, const T* a, const T* b, int kc, int64_t ld) {
  using V = typename VecOf<T, Bytes>::type;
  constexpr int L = Bytes / static_cast<int>(sizeof(T));
  V acc[R][NV];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) vload(acc[r][v], c + r * ld + v * L);
  }
  // C comes from L3 once per round; ask for the next block's rows (one prefetch
  // per 64-byte line) so they arrive while this block computes. Prefetches never
  // fault, so running past the end of the tile is harmless.
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 16
    for (int v = 0; v < NV * Bytes / 64; ++v) __builtin_prefetch(c + (R + r) * ld + v * 16, 1);
  }
  for (int k = 0; k < kc; ++k) {
    V bv[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) vload(bv[v], b + k * ld + v * L);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const T s = a[r * ld + k];
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) vmin(acc[r][v], bv[v] + s);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) {
      vnorm<T>(acc[r][v]);
      vstore(c + r * ld + v * L, acc[r][v]);
    }
}

// One column strip (NV vectors wide) of a tile, R rows at a time.
template <typename T, int Bytes, int R, int NV>
OCL_SP_INLINE void minplus_strip(T* c, const T* a, const T* b, int rows, int kc, int64_t ld) {
  int i = 0;
  for (; i + R <= rows; i += R) minplus_block<T, Bytes, R, NV>(c + i * ld, a + i * ld, b, kc, ld);
  for (; i < rows; ++i) minplus_block<T, Bytes, 1, NV>(c + i * ld, a + i * ld, b, kc, ld);
}

// c[i][j] = norm(min(c[i][j], min_{k<kc} a[i][k] + b[k][j])), i < rows, j < width
// (a multiple of kRowAlign). Strips of 4 vectors first (R x 4 accumulators), then
// narrower ones with proportionally more rows so the accumulator count stays.
template <typename T, int Bytes, int R>
OCL_SP_INLINE void minplus_tile_body(T* c, const T* a, const T* b, int rows, int kc, int width,
                                     int64_t ld) {
  constexpr int L = Bytes / static_cast<int>(sizeof(T));
  int j = 0;
  for (; j + 4 * L <= width; j += 4 * L)
    minplus_strip<T, Bytes, R, 4>(c + j, a, b + j, rows, kc, ld);
  if (j + 2 * L <= width) {
    minplus_strip<T, Bytes, 2 * R, 2>(c + j, a, b + j, rows, kc, ld);
    j += 2 * L;
  }
  for (; j + L <= width; j += L) minplus_strip<T, Bytes, 4 * R, 1>(c + j, a, b + j, rows, kc, ld);
}

// Floyd-Warshall inside the pivot tile (rows and pivots < kc, columns < width).
// Row k and a = p[i][k] are normalised when read as operands, the rest once at the
// end — the same values an every-store normalisation gives, as above.
template <typename T>
OCL_SP_INLINE void fw_tile_body(T* p, int kc, int width, int64_t ld) {
  for (int k = 0; k < kc; ++k) {
    T* p_k = p + k * ld;
#pragma omp simd
    for (int j = 0; j < width; ++j) p_k[j] = snorm(p_k[j]);
    for (int i = 0; i < kc; ++i) {
      const T a = snorm(p[i * ld + k]);
      if (a == ValueTraits<T>::inf) continue;  // exact: INF + x normalises to INF
      T* p_i = p + i * ld;                     // == p_k when i == k: elementwise, safe
#pragma omp simd
      for (int j = 0; j < width; ++j) p_i[j] = smin(p_i[j], a + p_k[j]);
    }
  }
  for (int i = 0; i < kc; ++i) {
    T* p_i = p + i * ld;
#pragma omp simd
    for (int j = 0; j < width; ++j) p_i[j] = snorm(p_i[j]);
  }
}

template <typename T>
struct FwKernels {
  void (*minplus_tile)(T* c, const T* a, const T* b, int rows, int kc, int width, int64_t ld);
  void (*fw_tile)(T* p, int kc, int width, int64_t ld);
};

// Rows per register block: AVX-512 has 32 vector registers (4 x 4 accumulators +
// 4 B vectors; 6 rows measured no faster), AVX2 16 (3 x 4 + 4: 15% faster than 2
// rows despite a spill), SSE 16 (2 x 4 + 4, the fallback only).
template <typename T>
OCL_SP_TARGET_AVX512 void minplus_tile_avx512(T* c, const T* a, const T* b, int rows, int kc,
                                              int width, int64_t ld) {
  minplus_tile_body<T, kBytesAvx512, 4>(c, a, b, rows, kc, width, ld);
}
template <typename T>
OCL_SP_TARGET_AVX2 void minplus_tile_avx2(T* c, const T* a, const T* b, int rows, int kc, int width,
                                          int64_t ld) {
  minplus_tile_body<T, kBytesAvx2, 3>(c, a, b, rows, kc, width, ld);
}
template <typename T>
void minplus_tile_generic(T* c, const T* a, const T* b, int rows, int kc, int width, int64_t ld) {
  minplus_tile_body<T, kBytesGeneric, 2>(c, a, b, rows, kc, width, ld);
}
template <typename T>
OCL_SP_TARGET_AVX512 void fw_tile_avx512(T* p, int kc, int width, int64_t ld) {
  fw_tile_body(p, kc, width, ld);
}
template <typename T>
OCL_SP_TARGET_AVX2 void fw_tile_avx2(T* p, int kc, int width, int64_t ld) {
  fw_tile_body(p, kc, width, ld);
}
template <typename T>
void fw_tile_generic(T* p, int kc, int width, int64_t ld) {
  fw_tile_body(p, kc, width, ld);
}

template <typename T>
FwKernels<T> fw_kernels(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::avx512:
      return {minplus_tile_avx512<T>, fw_tile_avx512<T>};
    case CpuIsa::avx2:
      return {minplus_tile_avx2<T>, fw_tile_avx2<T>};
    case CpuIsa::generic:
      break;
  }
  return {minplus_tile_generic<T>, fw_tile_generic<T>};
}

}  // namespace

int default_fw_block() { return 96; }

// Relaxations per block round below which fw_openmp runs on one thread (~0.1 ms).
constexpr int64_t kParallelRoundWork = int64_t{1} << 22;

template <typename T>
void fw_openmp(DistMatrix<T>& d, PathMatrix* paths, int block) {
  fw_openmp(d, paths, block, best_cpu_isa());
}

template <typename T>
void fw_openmp(DistMatrix<T>& d, PathMatrix* paths, int block, CpuIsa isa) {
  if (block < 0) throw UsageError("block edge must be positive (0 = default)");
  if (isa > best_cpu_isa())
    throw UsageError(std::string("this CPU cannot run the ") + to_string(isa) + " kernels");
  // With paths: the distances, then the paths from their tight edges; where float
  // sums could round, the blocked lexicographic FW of paths_cpu.cpp (its own block
  // edge unless one is given; scalar loops the compiler vectorises, one copy per ISA).
  if (paths)
    return cpu_detail::solve_with_paths(
        d, *paths, true, [&] { fw_openmp(d, nullptr, block, isa); },
        [&] { cpu_detail::fw_openmp_paths(d, *paths, block); });
  const int64_t n = d.n();
  if (n == 0) return;
  // One tile when the graph is smaller than a block: no rows of padding.
  const int64_t b = std::min<int64_t>(block > 0 ? block : default_fw_block(), n);
  const int64_t ld = round_up(b, kRowAlign);  // tile row stride: whole vectors
  const int64_t nb = (n + b - 1) / b;
  const int64_t tile_elems = b * ld;
  AlignedBuffer<T> buf(static_cast<size_t>(nb * nb * tile_elems),
                       "fw on the openmp backend (tiled copy of the matrix)");
  T* const base = buf.data();
  auto tile = [&](int64_t ti, int64_t tj) { return base + (ti * nb + tj) * tile_elems; };
  // Real rows / pivots of tile row t, and the columns of tile column t worth
  // computing (rounded up to whole vectors; the rest of the padding stays INF and
  // is never read by a real column).
  auto extent = [&](int64_t t) { return static_cast<int>(std::min(b, n - t * b)); };
  auto width = [&](int64_t t) { return static_cast<int>(round_up(extent(t), kRowAlign)); };
  const T inf = ValueTraits<T>::inf;
  // Small rounds cost more in task hand-offs than a second thread gains.
  const bool parallel = n * n * b >= kParallelRoundWork;

#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t ti = 0; ti < nb; ++ti)
    for (int64_t r = 0; r < b; ++r)
      for (int64_t tj = 0; tj < nb; ++tj) {
        T* dst = tile(ti, tj) + r * ld;
        const int64_t i = ti * b + r, j0 = tj * b;
        for (int64_t c = 0; c < ld; ++c)
          dst[c] = (i < n && c < b && j0 + c < n) ? ValueTraits<T>::norm(d(i, j0 + c)) : inf;
      }

  const FwKernels<T> kern = fw_kernels<T>(isa);
  // Phase 1: Floyd-Warshall inside the pivot tile.
  auto pivot_update = [&](int64_t p) { kern.fw_tile(tile(p, p), extent(p), width(p), ld); };
  // Phase 2: pivot row and column tiles, updated in place from the finished pivot
  // tile. Row tile (p,j): d(i,j) = min_m P(i,m) + d(m,j), m the last pivot-block
  // vertex of the path; column tile (i,p): min_m d(i,m) + P(m,j), m the first one.
  // Reading d(m,j) / d(i,m) in place may see values this update already lowered;
  // those are still lengths of real paths, so the result stays exact (never below
  // the true distance, never above what the textbook order computes).
  auto row_update = [&](int64_t p, int64_t o) {
    T* row = tile(p, o);
    kern.minplus_tile(row, tile(p, p), row, extent(p), extent(p), width(o), ld);
  };
  auto column_update = [&](int64_t p, int64_t o) {
    T* col = tile(o, p);
    kern.minplus_tile(col, col, tile(p, p), extent(o), extent(p), width(p), ld);
  };
  // Phase 3: every other tile, d(i,j) = min(d(i,j), min_m d(i,m) + d(m,j)) over the
  // pivot block; a pure (min,+) product of two finished tiles into a third.
  auto rest_update = [&](int64_t p, int64_t ti, int64_t tj) {
    kern.minplus_tile(tile(ti, tj), tile(ti, p), tile(p, tj), extent(ti), extent(p), width(tj), ld);
  };

  if (!parallel) {
    for (int64_t p = 0; p < nb; ++p) {
      pivot_update(p);
      for (int64_t o = 0; o < nb; ++o)
        if (o != p) {
          row_update(p, o);
          column_update(p, o);
        }
      for (int64_t ti = 0; ti < nb; ++ti)
        for (int64_t tj = 0; tj < nb; ++tj)
          if (ti != p && tj != p) rest_update(p, ti, tj);
    }
  } else {
    // The same updates as a task graph, ordered only by the tiles each reads and
    // writes. Without a barrier per phase no thread idles while another finishes
    // its share, and round p+1 starts on the tiles round p has finished: up to 1.5x
    // when another process shares the cores.
#pragma omp parallel
#pragma omp single
    for (int64_t p = 0; p < nb; ++p) {
      const T* pivot = tile(p, p);
#pragma omp task depend(inout : pivot[0])
      pivot_update(p);
      for (int64_t o = 0; o < nb; ++o) {
        if (o == p) continue;
        const T* row = tile(p, o);
        const T* col = tile(o, p);
#pragma omp task depend(in : pivot[0]) depend(inout : row[0])
        row_update(p, o);
#pragma omp task depend(in : pivot[0]) depend(inout : col[0])
        column_update(p, o);
      }
      for (int64_t ti = 0; ti < nb; ++ti) {
        if (ti == p) continue;
        const T* a = tile(ti, p);
        for (int64_t tj = 0; tj < nb; ++tj) {
          if (tj == p) continue;
          const T* bt = tile(p, tj);
          const T* c = tile(ti, tj);
#pragma omp task depend(in : a[0], bt[0]) depend(inout : c[0])
          rest_update(p, ti, tj);
        }
      }
    }
  }

#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t tj = 0; tj < nb; ++tj) {
      const T* src = tile(i / b, tj) + (i % b) * ld;
      for (int64_t c = 0; c < extent(tj); ++c) d(i, tj * b + c) = src[c];
    }
  check_negative_cycles(d);
}

template void fw_openmp<int32_t>(DistMatrix<int32_t>&, PathMatrix*, int);
template void fw_openmp<float>(DistMatrix<float>&, PathMatrix*, int);
template void fw_openmp<double>(DistMatrix<double>&, PathMatrix*, int);
template void fw_openmp<int64_t>(DistMatrix<int64_t>&, PathMatrix*, int);
template void fw_openmp<int32_t>(DistMatrix<int32_t>&, PathMatrix*, int, CpuIsa);
template void fw_openmp<float>(DistMatrix<float>&, PathMatrix*, int, CpuIsa);
template void fw_openmp<double>(DistMatrix<double>&, PathMatrix*, int, CpuIsa);
template void fw_openmp<int64_t>(DistMatrix<int64_t>&, PathMatrix*, int, CpuIsa);

}  // namespace ocl_sp
