// Serial Floyd-Warshall: the reference every other solver (CPU and OpenCL) is
// compared with bit-exactly for int32, plus the helpers all CPU solvers share
// (negative-cycle check, max_products).
#include <cmath>

#include "cpu/cpu_kernels.hpp"
#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"

namespace ocl_sp {
namespace {

using cpu_detail::smin;
using cpu_detail::snorm;

// d_i[j] = norm(min(d_i[j], a + d_k[j])): one row of one FW step, with the store
// rule applied on every store. d_i == d_k (i == k) is fine: each j reads and
// writes only its own element, which is what `omp simd` promises the compiler.
// Cloned per instruction set so --verify at large n stays quick on any CPU.
template <typename T>
OCL_SP_INLINE void relax_row(T* d_i, T a, const T* d_k, int64_t n) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) d_i[j] = snorm(smin(d_i[j], a + d_k[j]));
}

OCL_SP_CLONES void relax_row_clone(int32_t* d_i, int32_t a, const int32_t* d_k, int64_t n) {
  relax_row(d_i, a, d_k, n);
}
OCL_SP_CLONES void relax_row_clone(float* d_i, float a, const float* d_k, int64_t n) {
  relax_row(d_i, a, d_k, n);
}
OCL_SP_CLONES void relax_row_clone(int64_t* d_i, int64_t a, const int64_t* d_k, int64_t n) {
  relax_row(d_i, a, d_k, n);
}
OCL_SP_CLONES void relax_row_clone(double* d_i, double a, const double* d_k, int64_t n) {
  relax_row(d_i, a, d_k, n);
}

}  // namespace

template <typename T>
void fw_serial(DistMatrix<T>& d, PathMatrix* paths) {
  if (paths)
    return cpu_detail::solve_with_paths(
        d, *paths, false, [&] { fw_serial(d, nullptr); }, [&] { cpu_detail::fw_serial_paths(d, *paths); });
  const int64_t n = d.n();
  T* m = d.data();
  for (int64_t e = 0; e < n * n; ++e) m[e] = snorm(m[e]);
  for (int64_t k = 0; k < n; ++k) {
    const T* d_k = m + k * n;
    for (int64_t i = 0; i < n; ++i) {
      // Read once per row: d(i,k) can only change within this row when d(k,k) < 0,
      // i.e. on a negative cycle, where the result is an error anyway.
      const T a = m[i * n + k];
      // INF + anything normalises to INF and min(d, INF) = d: skipping is exact.
      if (a == ValueTraits<T>::inf) continue;
      relax_row_clone(m + i * n, a, d_k, n);
    }
  }
  check_negative_cycles(d);
}

int max_products(int64_t n, bool negative_weights) {
  if (n <= 1) return 0;
  if (n == 2) return 1;
  // Walks of up to 2^p edges after p products: n-1 edges cover every simple path;
  // n edges also cover a negative cycle through all n vertices.
  const int64_t need = negative_weights ? n : n - 1;
  int p = 0;
  while ((int64_t{1} << p) < need) ++p;
  return p;
}

template <typename T>
void check_negative_cycles(const DistMatrix<T>& d) {
  for (int64_t i = 0; i < d.n(); ++i)
    if (d(i, i) < 0) throw NegativeCycleError(i);
}

template <typename T>
bool has_negative_weights(const DistMatrix<T>& d) {
  const int64_t n = d.n();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i != j && d(i, j) < 0) return true;
  return false;
}

template void fw_serial<int32_t>(DistMatrix<int32_t>&, PathMatrix*);
template void fw_serial<float>(DistMatrix<float>&, PathMatrix*);
template void fw_serial<double>(DistMatrix<double>&, PathMatrix*);
template void fw_serial<int64_t>(DistMatrix<int64_t>&, PathMatrix*);
template void check_negative_cycles<int32_t>(const DistMatrix<int32_t>&);
template void check_negative_cycles<float>(const DistMatrix<float>&);
template void check_negative_cycles<double>(const DistMatrix<double>&);
template void check_negative_cycles<int64_t>(const DistMatrix<int64_t>&);
template bool has_negative_weights<int32_t>(const DistMatrix<int32_t>&);
template bool has_negative_weights<float>(const DistMatrix<float>&);
template bool has_negative_weights<double>(const DistMatrix<double>&);
template bool has_negative_weights<int64_t>(const DistMatrix<int64_t>&);

}  // namespace ocl_sp
