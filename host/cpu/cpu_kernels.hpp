// Internal to host/cpu: the SIMD building blocks the OpenMP solvers share — GCC
// vector types per instruction set, min and the integer store rule on whole vectors,
// and a 64-byte aligned scratch buffer. The binary stays portable: hot kernels are
// compiled once per CpuIsa with target attributes and chosen at run time.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "cpu/cpu_solvers.hpp"
#include "graph/matrix.hpp"
#include "solvers/panel_paths.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

// Forces a generic body into the target-attributed function that calls it, so the
// body is compiled for that function's instruction set (AVX-512 zmm, AVX2 ymm, ...).
#define OCL_SP_INLINE inline __attribute__((always_inline))
#if defined(__x86_64__) || defined(__i386__)
#define OCL_SP_X86 1
#define OCL_SP_TARGET_AVX512 __attribute__((target("avx512f")))
#define OCL_SP_TARGET_AVX2 __attribute__((target("avx2")))
// Serial row kernels: GCC clones them per ISA and picks one at load time.
#define OCL_SP_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
// Elsewhere only the generic kernels run (best_cpu_isa() says generic); GCC maps
// the 16-byte vectors onto the native SIMD unit (NEON, ...).
#define OCL_SP_X86 0
#define OCL_SP_TARGET_AVX512
#define OCL_SP_TARGET_AVX2
#define OCL_SP_CLONES
#endif

namespace ocl_sp::cpu_detail {

// Vector of `Bytes` bytes of T. Explicit specialisations because GCC's
// vector_size attribute is unreliable on dependent types.
template <typename T, int Bytes>
struct VecOf;
template <>
struct VecOf<int32_t, 64> {
  typedef int32_t type __attribute__((vector_size(64)));
};
template <>
struct VecOf<int32_t, 32> {
  typedef int32_t type __attribute__((vector_size(32)));
};
template <>
struct VecOf<int32_t, 16> {
  typedef int32_t type __attribute__((vector_size(16)));
};
template <>
struct VecOf<float, 64> {
  typedef float type __attribute__((vector_size(64)));
};
template <>
struct VecOf<float, 32> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct VecOf<float, 16> {
  typedef float type __attribute__((vector_size(16)));
};
template <>
struct VecOf<int64_t, 64> {
  typedef int64_t type __attribute__((vector_size(64)));
};
template <>
struct VecOf<int64_t, 32> {
  typedef int64_t type __attribute__((vector_size(32)));
};
template <>
struct VecOf<int64_t, 16> {
  typedef int64_t type __attribute__((vector_size(16)));
};
template <>
struct VecOf<double, 64> {
  typedef double type __attribute__((vector_size(64)));
};
template <>
struct VecOf<double, 32> {
  typedef double type __attribute__((vector_size(32)));
};
template <>
struct VecOf<double, 16> {
  typedef double type __attribute__((vector_size(16)));
};

// Vector width in bytes the kernels of each instruction set use.
constexpr int kBytesAvx512 = 64, kBytesAvx2 = 32, kBytesGeneric = 16;

// Every row the vector kernels touch is padded to a multiple of this many
// elements (64 bytes), so the widest vector divides every row length.
constexpr int kRowAlign = 16;

inline int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// Vector helpers work through references, never vector arguments or results by
// value: those would change the calling convention between the baseline ISA and
// the target ISA (GCC warns), although everything here is inlined anyway.
template <typename V>
OCL_SP_INLINE void vload(V& v, const void* p) {
  std::memcpy(&v, p, sizeof v);  // compiles to one unaligned vector load
}

template <typename V>
OCL_SP_INLINE void vstore(void* p, const V& v) {
  std::memcpy(p, &v, sizeof v);
}

// acc = min(acc, x); `x < acc ? x : acc` is exactly what vpminsd / vminps compute.
template <typename V>
OCL_SP_INLINE void vmin(V& acc, const V& x) {
  acc = x < acc ? x : acc;
}

// ValueTraits<T>::norm on a whole vector, in place (identity for the floats).
template <typename T, typename V>
OCL_SP_INLINE void vnorm(V& v) {
  if constexpr (std::is_integral_v<T>) {
    const V lo = V{} + ValueTraits<T>::lowest;
    const V lim = V{} + ValueTraits<T>::finite_limit;
    const V inf = V{} + ValueTraits<T>::inf;
    v = v < lo ? lo : v;
    v = v >= lim ? inf : v;
  }
}

// Scalar store rule and the scalar min the vector code mirrors.
template <typename T>
OCL_SP_INLINE T snorm(T v) {
  return ValueTraits<T>::norm(v);
}
template <typename T>
OCL_SP_INLINE T smin(T a, T b) {
  return a < b ? a : b;
}

// 64-byte aligned array of T (vector loads never split a cache line when the row
// strides are multiples of kRowAlign). Refuses with RuntimeError, before touching
// memory, when the host does not have it (Linux would overcommit and fail later).
constexpr size_t kHugeBytes = size_t{2} << 20;

template <typename T>
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(size_t count, const char* what) {
    const size_t bytes = static_cast<size_t>(round_up(static_cast<int64_t>(count * sizeof(T)), 64));
    check_host_memory(bytes, what);
    // Large buffers on 2 MiB boundaries, as transparent huge pages where the kernel
    // offers them on request: a few hundred page faults fewer per MiB on first touch
    // (a tenth of a fresh n = 2000 solve) and fewer TLB misses across tiles.
    const bool huge = bytes >= kHugeBytes;
    const size_t align = huge ? kHugeBytes : 64;
    const size_t alloc = static_cast<size_t>(
        round_up(static_cast<int64_t>(bytes ? bytes : 64), static_cast<int64_t>(align)));
    p_.reset(static_cast<T*>(std::aligned_alloc(align, alloc)));
    if (!p_)
      throw RuntimeError(std::string(what) + ": out of host memory allocating " +
                         std::to_string(bytes >> 20) + " MiB");
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p_.get(), alloc, MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
  }
  T* data() { return p_.get(); }
  const T* data() const { return p_.get(); }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> p_;
};

// ---- path reconstruction (paths_cpu.cpp) ------------------------------------
// With exact sums (integer types; float weights that are integers with exact path
// lengths) the solvers compute the distances alone (`distances`: the solve without
// paths), then the path matrix from the distances' tight edges (recover_paths):
// a function of the graph and its distances, the same bytes as every other
// backend, placement and algorithm gives (docs/usage.md "Paths"). Where float sums
// could round, `lexicographic` (the functions below). Returns what the solve does.
template <typename T, typename Distances, typename Lexicographic>
auto solve_with_paths(DistMatrix<T>& d, PathMatrix& p, bool parallel, Distances&& distances,
                      Lexicographic&& lexicographic) {
  std::optional<detail::InputEdges<T>> edges = detail::exact_input_edges(d);
  if (!edges) return lexicographic();
  if constexpr (std::is_void_v<decltype(distances())>) {
    distances();
    detail::recover_paths(*edges, d, p, parallel);
  } else {
    auto r = distances();
    detail::recover_paths(*edges, d, p, parallel);
    return r;
  }
}

// The solvers of cpu_solvers.hpp call these when given a PathMatrix: relaxations in
// the lexicographic (distance, hops) order, via = the k of the last improvement.
constexpr int32_t kHopsCap = PathMatrix::hops_cap;
template <typename T>
void fw_serial_paths(DistMatrix<T>& d, PathMatrix& p);
// Blocked (block edge `block`, 0 = 64), a parallel loop over the tiles of each phase.
template <typename T>
void fw_openmp_paths(DistMatrix<T>& d, PathMatrix& p, int block);
// Serial, or rows in parallel with `parallel`; returns the products executed.
template <typename T>
int squaring_paths(DistMatrix<T>& d, PathMatrix& p, bool parallel);

}  // namespace ocl_sp::cpu_detail
