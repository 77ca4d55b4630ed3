// Value type and the saturating store rule shared by every ocl_sp kernel, plus the
// negative-cycle scan of the diagonal. Build with -DVALUE_INT32, -DVALUE_INT64,
// -DVALUE_FLOAT32 or -DVALUE_FLOAT64 (the host checks cl_khr_fp64 first).
// int32: INF = 2^30 - 1 and every stored value goes through NORM, so a stored value
// is INF or lies in [-(2^29 - 1), 2^29); a + b of two stored values never overflows
// (INF + INF = 2^31 - 2) and sums that involve INF land back on INF. The CPU solvers
// (ValueTraits<int32_t>::norm) use the same rule, so results are bit-identical.
// int64: the same rule one size up: INF = 2^62 - 1, |finite| < 2^61.

#if defined(VALUE_FLOAT32)
typedef float value_t;
#define INF INFINITY
#define NORM(v) (v)  // IEEE: INF + finite = INF, no normalisation needed
#elif defined(VALUE_INT32)
typedef int value_t;
#define INF 1073741823          // 2^30 - 1, the course format's "unreachable"
#define FINITE_LIMIT (1 << 29)  // |finite distance| < 2^29 (inputs are checked on the host)
#define NORM(v) norm_value(v)
value_t norm_value(value_t v) {
  // Clamp at -(2^29 - 1), not -2^29: INF + lowest must still read as INF.
  return v >= FINITE_LIMIT ? INF : max(v, -FINITE_LIMIT + 1);
}
#elif defined(VALUE_FLOAT64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double value_t;
#define INF ((double)INFINITY)
#define NORM(v) (v)
#elif defined(VALUE_INT64)
typedef long value_t;
#define INF 4611686018427387903L  // 2^62 - 1
#define FINITE_LIMIT (1L << 61)
#define NORM(v) norm_value(v)
value_t norm_value(value_t v) { return v >= FINITE_LIMIT ? INF : max(v, -FINITE_LIMIT + 1); }
#else
#error "build with -DVALUE_INT32, -DVALUE_INT64, -DVALUE_FLOAT32 or -DVALUE_FLOAT64"
#endif
#if defined(VALUE_FLOAT32) || defined(VALUE_FLOAT64)
#define VALUE_IS_FLOAT 1
#endif

// Writes the padding of an ld x ld matrix whose top-left n x n part holds the real
// data: padded vertices are isolated (INF off the diagonal, 0 on it). Work-item
// (x, y), y < ld - n, writes element x of padded row n + y and of padded column
// n + y, so the grid covers the padding only.
__kernel void fill_padding(const int n, const int ld, __global value_t* d) {
  const int x = get_global_id(0), p = n + get_global_id(1);
  if (x >= ld || p >= ld) return;
  d[(size_t)p * ld + x] = p == x ? 0 : INF;
  d[(size_t)x * ld + p] = p == x ? 0 : INF;
}

// Lowest i < n with d(i,i) < 0 into *first (initialised to INT_MAX by the host).
__kernel void negative_diagonal(const int n, const int ld, __global const value_t* d,
                                volatile __global int* first) {
  const int i = get_global_id(0);
  if (i < n && d[(size_t)i * ld + i] < 0) atomic_min(first, i);
}

