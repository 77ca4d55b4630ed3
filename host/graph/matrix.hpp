// Dense n x n distance matrix for the four value types (int32, int64, float32,
// float64) and the INF rules of DESIGN.md: unreachable is 2^30-1 for int32,
// 2^62-1 for int64 and +inf for the floating types.
// Kernels and CPU solvers keep values exact with the normalisation in norm().
#pragma once
#ifdef __linux__
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>
#include "util/host_threads.hpp"

namespace ocl_sp {

enum class ValueType { int32, float32, int64, float64 };

inline const char* to_string(ValueType t) {
  switch (t) {
    case ValueType::int32: return "int32";
    case ValueType::float32: return "float32";
    case ValueType::int64: return "int64";
    case ValueType::float64: return "float64";
  }
  return "?";
}
// Bytes of one value.
inline int value_bytes(ValueType t) {
  return t == ValueType::int32 || t == ValueType::float32 ? 4 : 8;
}

template <typename T>
struct ValueTraits;

template <>
struct ValueTraits<int32_t> {
  static constexpr ValueType type = ValueType::int32;
  static constexpr int32_t inf = 1073741823;  // 2^30 - 1, the course format's INF
  // A finite int32 distance never reaches kFiniteLimit: inputs whose path lengths
  // could are refused (check_int32_range). Sums involving INF land in
  // [INF - limit, INF + limit] and are mapped back to INF by norm().
  static constexpr int32_t finite_limit = 1 << 29;
  // Lowest stored value. Values below it occur only when a negative cycle drives
  // them down; clamping there keeps every sum in range, and INF + lowest =
  // 2^29 still reads as INF (clamping at -2^29 would make it look finite).
  static constexpr int32_t lowest = -(finite_limit - 1);
  // Saturating store rule used everywhere a value is written: anything at or above
  // finite_limit is unreachable; anything below `lowest` is clamped to it.
  static int32_t norm(int32_t v) { return v >= finite_limit ? inf : (v < lowest ? lowest : v); }
  static const char* name() { return "int32"; }
  static constexpr double tolerance = 0;
};

// int64: the int32 rule one size up. INF = 2^62 - 1, finite values stay below
// 2^61 (inputs are checked: check_int_range), so INF + INF = 2^63 - 2 still fits.
template <>
struct ValueTraits<int64_t> {
  static constexpr ValueType type = ValueType::int64;
  static constexpr int64_t inf = (int64_t{1} << 62) - 1;  // 4611686018427387903
  static constexpr int64_t finite_limit = int64_t{1} << 61;
  static constexpr int64_t lowest = -(finite_limit - 1);
  static int64_t norm(int64_t v) { return v >= finite_limit ? inf : (v < lowest ? lowest : v); }
  static const char* name() { return "int64"; }
  static constexpr double tolerance = 0;
};

template <>
struct ValueTraits<float> {
  static constexpr ValueType type = ValueType::float32;
  static constexpr float inf = std::numeric_limits<float>::infinity();
  static float norm(float v) { return v; }
  static const char* name() { return "float32"; }
  // Relative tolerance of --verify and of comparisons between backends: the sum
  // order of a path differs between algorithms (the integer types are exact).
  static constexpr double tolerance = 1e-5;
};

template <>
struct ValueTraits<double> {
  static constexpr ValueType type = ValueType::float64;
  static constexpr double inf = std::numeric_limits<double>::infinity();
  static double norm(double v) { return v; }
  static const char* name() { return "float64"; }
  static constexpr double tolerance = 1e-11;
};

// visit_type(t, f) calls f(T{}) with the C++ type of t (int32_t, float, int64_t,
// double): one dispatch from a run-time type to the templated code.
template <typename F>
decltype(auto) visit_type(ValueType t, F&& f) {
  switch (t) {
    case ValueType::float32: return f(float{});
    case ValueType::int64: return f(int64_t{});
    case ValueType::float64: return f(double{});
    case ValueType::int32: break;
  }
  return f(int32_t{});
}

// v = count copies of fill (or, with fill_after false, count values the caller
// overwrites: zeros). Large vectors (64 MiB and up) have their pages first
// touched by all threads (page faults and the kernel's zeroing in parallel, huge
// pages where the kernel offers them on request; touch_threads: the whole pool
// once large, as page faults scale past the copies' cap); one thread faulting in 400 MB
// took ~150 ms of the whole n = 10 000 solve (docs/performance/startup.md), and
// an MPI rank's 10 GB local matrix seconds. Then the vector is sized by
// resize's zeros, the one pass std::vector makes on one thread (a memset:
// 75 GB/s on the 2-core EPYC where assign's loop of fill values ran 11 GB/s,
// bench/floor/matrix_fill.cpp), and filled on the copy threads.
// OCL_SP_MATRIX_FILL=assign keeps the earlier order (assign on one thread after
// the touch) for comparisons.
template <typename T>
void assign_touched(std::vector<T>& v, size_t count, T fill, bool fill_after = true) {
  const size_t bytes = count * sizeof(T);
  if (bytes < (size_t{64} << 20) || v.capacity() >= count) {
    v.assign(count, fill);
    return;
  }
  std::vector<T>().swap(v);
  v.reserve(count);
  char* p = reinterpret_cast<char*>(v.data());
#ifdef __linux__
  {  // a hint on the whole pages inside: failure changes nothing
    const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + 4095) & ~uintptr_t{4095};
    const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) & ~uintptr_t{4095};
    if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
  }
#endif
  constexpr size_t kPiece = size_t{2} << 20;
  const int64_t pieces = static_cast<int64_t>((bytes + kPiece - 1) / kPiece);
  [[maybe_unused]] const int threads = touch_threads(bytes);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) {
    const size_t off = static_cast<size_t>(i) * kPiece;
    std::memset(p + off, 0, std::min(kPiece, bytes - off));
  }
  if (const char* e = std::getenv("OCL_SP_MATRIX_FILL"); e && std::strcmp(e, "assign") == 0) {
    v.assign(count, fill);
    return;
  }
  v.resize(count);
  T zero{};
  if (!fill_after || std::memcmp(&zero, &fill, sizeof(T)) == 0) return;
  T* t = v.data();
  constexpr size_t kValues = kPiece / sizeof(T);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) {
    const size_t lo = static_cast<size_t>(i) * kValues;
    std::fill(t + lo, t + std::min(count, lo + kValues), fill);
  }
}

// Whether any of v's values is below zero: a pass over memory, in pieces on the
// threads its bytes need (copy_threads).
// One thread reads ~5-10 GB/s: seconds for a matrix of tens of GB.
template <typename T>
bool any_negative(const std::vector<T>& v) {
  constexpr size_t kPiece = (size_t{2} << 20) / sizeof(T);
  const size_t count = v.size();
  const int64_t pieces = static_cast<int64_t>((count + kPiece - 1) / kPiece);
  const T* p = v.data();
  int found = 0;
  [[maybe_unused]] const int threads = copy_threads(count * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) reduction(| : found)
  for (int64_t i = 0; i < pieces; ++i) {
    const size_t lo = static_cast<size_t>(i) * kPiece, hi = std::min(count, lo + kPiece);
    int any = 0;
    for (size_t k = lo; k < hi; ++k) any |= p[k] < T{0};  // no early exit: vectorised
    found |= any;
  }
  return found != 0;
}

template <typename T>
class DistMatrix {
 public:
  DistMatrix() = default;
  explicit DistMatrix(int64_t n, T fill = ValueTraits<T>::inf) : n_(n) {
    assign_touched(a_, static_cast<size_t>(n * n), fill);
  }
  // n x n values the caller writes every one of (the generator's rows): no fill
  // pass of its own (zeros, the vector's one pass).
  static DistMatrix to_be_written(int64_t n) {
    DistMatrix m;
    m.n_ = n;
    assign_touched(m.a_, static_cast<size_t>(n * n), T{}, false);
    return m;
  }
  // Adopts n x n values (row-major) without copying them.
  DistMatrix(int64_t n, std::vector<T>&& values) : n_(n), a_(std::move(values)) {}
  int64_t n() const { return n_; }
  T& operator()(int64_t i, int64_t j) { return a_[static_cast<size_t>(i * n_ + j)]; }
  T operator()(int64_t i, int64_t j) const { return a_[static_cast<size_t>(i * n_ + j)]; }
  T* data() { return a_.data(); }
  const T* data() const { return a_.data(); }
  std::vector<T>& values() { return a_; }
  const std::vector<T>& values() const { return a_; }
  bool operator==(const DistMatrix& o) const { return n_ == o.n_ && a_ == o.a_; }

 private:
  int64_t n_ = 0;
  std::vector<T> a_;
};

// Path matrix beside the distances: via(i,j) is an intermediate vertex of the
// recorded shortest i->j path, -1 when that path is the direct edge (or i == j, or
// no path). hops(i,j) is the number of edges of that path; ties in distance are
// broken by fewer hops, which makes the recursive expansion terminate even with
// zero-weight cycles.
struct PathMatrix {
  // Hop counts saturate here (only a negative cycle drives them this high), so the
  // sum of two never overflows int32; kernels/paths.cl uses the same HOPS_CAP.
  static constexpr int32_t hops_cap = (1 << 30) - 1;
  int64_t n = 0;
  std::vector<int32_t> via;
  std::vector<int32_t> hops;
  // False: the caller needs via alone (the command line without --verify). The
  // device rebuild then neither sizes hops on the host nor reads them back (4 n^2
  // bytes: 400 MB at n = 10 000); other routes may still fill them as scratch.
  bool with_hops = true;
};

}  // namespace ocl_sp
