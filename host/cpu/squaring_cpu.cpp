// Repeated squaring in the (min,+) semiring on the CPU (the paper's squaring
// algorithm, serial and OpenMP): L <- L (x) L between two buffers until a product
// changes nothing or max_products(n, negative) products are done.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp {
namespace {

using namespace cpu_detail;

// ---- serial ---------------------------------------------------------------

// c[j] = min(c[j], a + b[j]); the caller normalises the finished row (exact, as
// every operand is a normalised value of the previous matrix).
template <typename T>
OCL_SP_INLINE void min_row(T* __restrict c, T a, const T* __restrict b, int64_t n) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) c[j] = smin(c[j], a + b[j]);
}
OCL_SP_CLONES void min_row_clone(int32_t* c, int32_t a, const int32_t* b, int64_t n) {
  min_row(c, a, b, n);
}
OCL_SP_CLONES void min_row_clone(float* c, float a, const float* b, int64_t n) {
  min_row(c, a, b, n);
}
OCL_SP_CLONES void min_row_clone(int64_t* c, int64_t a, const int64_t* b, int64_t n) {
  min_row(c, a, b, n);
}
OCL_SP_CLONES void min_row_clone(double* c, double a, const double* b, int64_t n) {
  min_row(c, a, b, n);
}

// ---- OpenMP ---------------------------------------------------------------

// Pivot rows per cache block: KB rows x one column chunk of L (at most 1 KiB wide)
// is 256 KiB, kept in L2 while a block of rows of C is swept over it.
constexpr int64_t kSquareKBlock = 256;
// Rows of C per parallel task: each L2-resident block of L is reused this often.
constexpr int64_t kSquareRowBlock = 32;
// Relaxations per product below which squaring_openmp stays on one thread.
constexpr int64_t kParallelProductWork = int64_t{1} << 22;

// c[0 .. NV vectors) = min over k in [k0, k1) of a_row[k] + b[k][0 .. NV vectors),
// starting from INF (first block of k) or the partial result already in c. The
// accumulators stay in registers; k with a_row[k] == INF are skipped (exact: the
// sum would normalise to INF), which makes sparse rows cheap.
template <typename T, int Bytes, int NV>
OCL_SP_INLINE void square_chunk(T* c, const T* a_row, const T* b, int64_t k0, int64_t k1,
                                int64_t ld, bool first) {
  using V = typename VecOf<T, Bytes>::type;
  constexpr int L = Bytes / static_cast<int>(sizeof(T));
  const T inf = ValueTraits<T>::inf;
  V acc[NV];
#pragma GCC unroll 16
  for (int v = 0; v < NV; ++v) {
    if (first)
      acc[v] = V{} + inf;
    else
      vload(acc[v], c + v * L);
  }
  for (int64_t k = k0; k < k1; ++k) {
    const T a = a_row[k];
    if (a == inf) continue;
    const T* b_k = b + k * ld;
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) {
      V b_v;
      vload(b_v, b_k + v * L);
      vmin(acc[v], b_v + a);
    }
  }
#pragma GCC unroll 16
  for (int v = 0; v < NV; ++v) {
    vnorm<T>(acc[v]);
    vstore(c + v * L, acc[v]);
  }
}

// Rows [i0, i1) of c = a (x) a; n real columns, row stride ld (a multiple of
// kRowAlign, padding columns INF). Cache blocked over k, then column chunks of NV
// vectors, then rows, so a KB x chunk block of a is reused by every row.
template <typename T, int Bytes, int NV>
OCL_SP_INLINE void square_rows_body(T* c, const T* a, int64_t n, int64_t ld, int64_t i0,
                                    int64_t i1) {
  constexpr int64_t L = Bytes / static_cast<int>(sizeof(T));
  const int64_t width = round_up(n, kRowAlign);
  for (int64_t k0 = 0; k0 < n; k0 += kSquareKBlock) {
    const int64_t k1 = std::min(n, k0 + kSquareKBlock);
    int64_t j = 0;
    for (; j + NV * L <= width; j += NV * L)
      for (int64_t i = i0; i < i1; ++i)
        square_chunk<T, Bytes, NV>(c + i * ld + j, a + i * ld, a + j, k0, k1, ld, k0 == 0);
    for (; j + 4 * L <= width; j += 4 * L)
      for (int64_t i = i0; i < i1; ++i)
        square_chunk<T, Bytes, 4>(c + i * ld + j, a + i * ld, a + j, k0, k1, ld, k0 == 0);
    for (; j < width; j += L)
      for (int64_t i = i0; i < i1; ++i)
        square_chunk<T, Bytes, 1>(c + i * ld + j, a + i * ld, a + j, k0, k1, ld, k0 == 0);
  }
}

// Accumulator vectors per chunk: 16 of 32 AVX-512 registers, 8 of 16 for AVX2/SSE.
template <typename T>
OCL_SP_TARGET_AVX512 void square_rows_avx512(T* c, const T* a, int64_t n, int64_t ld, int64_t i0,
                                             int64_t i1) {
  square_rows_body<T, kBytesAvx512, 16>(c, a, n, ld, i0, i1);
}
template <typename T>
OCL_SP_TARGET_AVX2 void square_rows_avx2(T* c, const T* a, int64_t n, int64_t ld, int64_t i0,
                                         int64_t i1) {
  square_rows_body<T, kBytesAvx2, 8>(c, a, n, ld, i0, i1);
}
template <typename T>
void square_rows_generic(T* c, const T* a, int64_t n, int64_t ld, int64_t i0, int64_t i1) {
  square_rows_body<T, kBytesGeneric, 8>(c, a, n, ld, i0, i1);
}

template <typename T>
using SquareRows = void (*)(T*, const T*, int64_t, int64_t, int64_t, int64_t);

template <typename T>
SquareRows<T> square_rows_for(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::avx512:
      return square_rows_avx512<T>;
    case CpuIsa::avx2:
      return square_rows_avx2<T>;
    case CpuIsa::generic:
      break;
  }
  return square_rows_generic<T>;
}

template <typename T>
bool rows_differ(const T* x, const T* y, int64_t count) {
  return std::memcmp(x, y, static_cast<size_t>(count) * sizeof(T)) != 0;
}

template <typename T>
bool diagonal_negative(const T* m, int64_t n, int64_t ld) {
  for (int64_t i = 0; i < n; ++i)
    if (m[i * ld + i] < 0) return true;
  return false;
}

}  // namespace

template <typename T>
int squaring_serial(DistMatrix<T>& d, PathMatrix* paths) {
  if (paths)
    return cpu_detail::solve_with_paths(
        d, *paths, false, [&] { return squaring_serial(d, nullptr); },
        [&] { return squaring_paths(d, *paths, false); });
  const int64_t n = d.n();
  const int max_p = max_products(n, has_negative_weights(d));
  check_host_memory(2 * d.values().size() * sizeof(T),
                    "squaring on the serial backend (two work matrices)");
  std::vector<T> cur(d.values()), next(cur.size());
  for (T& v : cur) v = ValueTraits<T>::norm(v);
  int products = 0;
  while (products < max_p) {
    bool changed = false;
    for (int64_t i = 0; i < n; ++i) {
      T* c = next.data() + i * n;
      const T* a_row = cur.data() + i * n;
      std::fill(c, c + n, ValueTraits<T>::inf);
      for (int64_t k = 0; k < n; ++k) {
        const T a = a_row[k];
        if (a == ValueTraits<T>::inf) continue;  // exact: INF + x normalises to INF
        min_row_clone(c, a, cur.data() + k * n, n);
      }
      for (int64_t j = 0; j < n; ++j) c[j] = ValueTraits<T>::norm(c[j]);
      changed = changed || rows_differ(c, a_row, n);
    }
    ++products;
    cur.swap(next);
    // A fixed point is the answer; a negative diagonal already decides the outcome.
    if (!changed || diagonal_negative(cur.data(), n, n)) break;
  }
  d.values() = std::move(cur);
  check_negative_cycles(d);
  return products;
}

template <typename T>
int squaring_openmp(DistMatrix<T>& d, PathMatrix* paths) {
  return squaring_openmp(d, paths, best_cpu_isa());
}

template <typename T>
int squaring_openmp(DistMatrix<T>& d, PathMatrix* paths, CpuIsa isa) {
  if (isa > best_cpu_isa())
    throw UsageError(std::string("this CPU cannot run the ") + to_string(isa) + " kernels");
  if (paths)
    return cpu_detail::solve_with_paths(
        d, *paths, true, [&] { return squaring_openmp(d, nullptr, isa); },
        [&] { return squaring_paths(d, *paths, true); });
  const int64_t n = d.n();
  const int max_p = max_products(n, has_negative_weights(d));
  const int64_t ld = round_up(std::max<int64_t>(n, 1), kRowAlign);
  AlignedBuffer<T> buf_a(static_cast<size_t>(n * ld),
                         "squaring on the openmp backend (two work matrices)");
  AlignedBuffer<T> buf_b(static_cast<size_t>(n * ld),
                         "squaring on the openmp backend (two work matrices)");
  T* cur = buf_a.data();
  T* next = buf_b.data();
  const T inf = ValueTraits<T>::inf;
  const bool parallel = n * n * n >= kParallelProductWork;

#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < ld; ++j) {
      // Padding columns stay INF in both buffers: products only ever write INF there.
      cur[i * ld + j] = j < n ? ValueTraits<T>::norm(d(i, j)) : inf;
      next[i * ld + j] = inf;
    }

  const SquareRows<T> square_rows = square_rows_for<T>(isa);
  const int64_t row_blocks = (n + kSquareRowBlock - 1) / kSquareRowBlock;
  int products = 0;
  while (products < max_p) {
    bool changed = false;
#pragma omp parallel for schedule(dynamic, 1) reduction(|| : changed) if (parallel)
    for (int64_t rb = 0; rb < row_blocks; ++rb) {
      const int64_t i0 = rb * kSquareRowBlock, i1 = std::min(n, i0 + kSquareRowBlock);
      square_rows(next, cur, n, ld, i0, i1);
      for (int64_t i = i0; i < i1 && !changed; ++i)
        changed = rows_differ(next + i * ld, cur + i * ld, n);
    }
    ++products;
    std::swap(cur, next);
    if (!changed || diagonal_negative(cur, n, ld)) break;
  }

#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t i = 0; i < n; ++i) std::memcpy(&d(i, 0), cur + i * ld, n * sizeof(T));
  check_negative_cycles(d);
  return products;
}

template int squaring_serial<int32_t>(DistMatrix<int32_t>&, PathMatrix*);
template int squaring_serial<float>(DistMatrix<float>&, PathMatrix*);
template int squaring_serial<double>(DistMatrix<double>&, PathMatrix*);
template int squaring_serial<int64_t>(DistMatrix<int64_t>&, PathMatrix*);
template int squaring_openmp<int32_t>(DistMatrix<int32_t>&, PathMatrix*);
template int squaring_openmp<float>(DistMatrix<float>&, PathMatrix*);
template int squaring_openmp<double>(DistMatrix<double>&, PathMatrix*);
template int squaring_openmp<int64_t>(DistMatrix<int64_t>&, PathMatrix*);
template int squaring_openmp<int32_t>(DistMatrix<int32_t>&, PathMatrix*, CpuIsa);
template int squaring_openmp<float>(DistMatrix<float>&, PathMatrix*, CpuIsa);
template int squaring_openmp<double>(DistMatrix<double>&, PathMatrix*, CpuIsa);
template int squaring_openmp<int64_t>(DistMatrix<int64_t>&, PathMatrix*, CpuIsa);

}  // namespace ocl_sp
