// Paths recovered from the panel engine's distances (see panel_paths.hpp).
#include "solvers/panel_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include "graph/paths.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp::detail {

namespace {

// Edges per row of w (a first pass of input_edges and input_edge_bytes).
template <typename T>
std::vector<int64_t> row_counts(const DistMatrix<T>& w) {
  const int64_t n = w.n();
  std::vector<int64_t> c(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(static) if (n >= 1024)
  for (int64_t u = 0; u < n; ++u) {
    const T* row = w.data() + u * n;
    int64_t k = 0;
    for (int64_t v = 0; v < n; ++v) k += (row[v] != ValueTraits<T>::inf) & (v != u);
    c[static_cast<size_t>(u) + 1] = k;
  }
  for (int64_t u = 0; u < n; ++u) c[static_cast<size_t>(u) + 1] += c[static_cast<size_t>(u)];
  return c;
}

}  // namespace

template <typename T>
InputEdges<T> input_edges(const DistMatrix<T>& w) {
  InputEdges<T> e;
  const int64_t n = w.n();
  e.n = n;
  e.start = row_counts(w);
  // The edges, and at most as many again for recover_paths' pruned copy.
  check_host_memory(2 * (static_cast<uint64_t>(n + 1) * 8 +
                         static_cast<uint64_t>(e.start.back()) * (4 + sizeof(T))),
                    "the input's " + std::to_string(e.start.back()) +
                        " edges kept to recover --paths beyond one device buffer");
  e.dst.resize(static_cast<size_t>(e.start.back()));
  e.w.resize(e.dst.size());
  // Each row gathered without branches into scratch of n + 1 (every entry is
  // written, the count advances on edges only), then copied to its place: the
  // scan of the n x n matrix runs at memory speed whatever the density.
#pragma omp parallel if (n >= 1024)
  {
    std::vector<int32_t> col(static_cast<size_t>(n) + 1);
    std::vector<T> val(static_cast<size_t>(n) + 1);
#pragma omp for schedule(static)
    for (int64_t u = 0; u < n; ++u) {
      const T* row = w.data() + u * n;
      size_t k = 0;
      for (int64_t v = 0; v < n; ++v) {
        const T x = row[v];
        col[k] = static_cast<int32_t>(v);
        val[k] = x;
        k += static_cast<size_t>((x != ValueTraits<T>::inf) & (v != u));
      }
      const size_t at = static_cast<size_t>(e.start[static_cast<size_t>(u)]);
      std::copy(col.begin(), col.begin() + static_cast<std::ptrdiff_t>(k), e.dst.begin() + static_cast<std::ptrdiff_t>(at));
      std::copy(val.begin(), val.begin() + static_cast<std::ptrdiff_t>(k), e.w.begin() + static_cast<std::ptrdiff_t>(at));
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    double largest = 0;
    bool integral = true;
    const int64_t m = static_cast<int64_t>(e.w.size());
#pragma omp parallel for schedule(static) if (m >= (int64_t{1} << 20)) reduction(max : largest) reduction(&& : integral)
    for (int64_t x = 0; x < m; ++x) {
      const double v = static_cast<double>(e.w[static_cast<size_t>(x)]);
      largest = std::max(largest, std::fabs(v));
      integral = integral && std::floor(v) == v;
    }
    constexpr int digits = std::numeric_limits<T>::digits;  // 24 or 53
    if (!integral ||
        largest * static_cast<double>(std::max<int64_t>(n - 1, 1)) >= std::ldexp(1.0, digits))
      throw UsageError(
          std::string("--paths beyond one device buffer recovers the paths from exact ") +
          ValueTraits<T>::name() + " sums: the weights must be integers and n x the largest "
          "|weight| below 2^" + std::to_string(digits) + " (here " +
          std::string(integral ? "path lengths could reach " +
                                     std::to_string(static_cast<long long>(largest * (n - 1)))
                               : "a weight is not an integer") +
          "); use an integer --type, or a smaller n that fits one buffer");
  }
  return e;
}

template <typename T>
InputEdges<T> tight_edges(const InputEdges<T>& e, const DistMatrix<T>& d) {
  const int64_t n = d.n();
  InputEdges<T> t;
  t.n = n;
  t.start.assign(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(static) if (n >= 1024)
  for (int64_t u = 0; u < n; ++u) {
    const T* du = d.data() + u * n;
    int64_t k = 0;
    for (int64_t x = e.start[static_cast<size_t>(u)]; x < e.start[static_cast<size_t>(u) + 1]; ++x)
      k += e.w[static_cast<size_t>(x)] == du[e.dst[static_cast<size_t>(x)]];
    t.start[static_cast<size_t>(u) + 1] = k;
  }
  for (int64_t u = 0; u < n; ++u)
    t.start[static_cast<size_t>(u) + 1] += t.start[static_cast<size_t>(u)];
  t.dst.resize(static_cast<size_t>(t.start.back()));
  t.w.resize(t.dst.size());
  // Rows written without branches into scratch (as input_edges), then copied.
#pragma omp parallel if (n >= 1024)
  {
    std::vector<int32_t> col;
    std::vector<T> val;
#pragma omp for schedule(static)
    for (int64_t u = 0; u < n; ++u) {
      const T* du = d.data() + u * n;
      const size_t x0 = static_cast<size_t>(e.start[static_cast<size_t>(u)]);
      const size_t x1 = static_cast<size_t>(e.start[static_cast<size_t>(u) + 1]);
      if (col.size() < x1 - x0 + 1) {
        col.resize(x1 - x0 + 1);
        val.resize(x1 - x0 + 1);
      }
      size_t k = 0;
      for (size_t x = x0; x < x1; ++x) {
        const int32_t v = e.dst[x];
        const T wx = e.w[x];
        col[k] = v;
        val[k] = wx;
        k += static_cast<size_t>(wx == du[v]);
      }
      const auto at = static_cast<std::ptrdiff_t>(t.start[static_cast<size_t>(u)]);
      std::copy(col.begin(), col.begin() + static_cast<std::ptrdiff_t>(k), t.dst.begin() + at);
      std::copy(val.begin(), val.begin() + static_cast<std::ptrdiff_t>(k), t.w.begin() + at);
    }
  }
  return t;
}

template <typename T>
void recover_row(const InputEdges<T>& t, int64_t i, const T* di, int32_t* hops, int32_t* via,
                 std::vector<int32_t>& queue) {
  const int64_t n = t.n;
  const std::vector<int64_t>& start = t.start;
  const std::vector<int32_t>& dst = t.dst;
  const std::vector<T>& wt = t.w;
  queue.resize(static_cast<size_t>(n));
  // hops doubles as the visited mark (-1: not reached yet).
  for (int64_t j = 0; j < n; ++j) {
    hops[j] = -1;
    via[j] = -1;
  }
  hops[i] = 0;
  size_t head = 0, tail = 0;
  queue[tail++] = static_cast<int32_t>(i);
  while (head < tail) {
    const int32_t k = queue[head++];
    const T dk = di[k];
    const int32_t hk = hops[k] + 1;
    const int32_t pred = k == i ? -1 : k;
    for (int64_t x = start[static_cast<size_t>(k)]; x < start[static_cast<size_t>(k) + 1]; ++x) {
      const int32_t j = dst[static_cast<size_t>(x)];
      if ((hops[j] >= 0 && hops[j] != hk) || dk + wt[static_cast<size_t>(x)] != di[j]) continue;
      if (hops[j] < 0) {
        hops[j] = hk;
        via[j] = pred;
        queue[tail++] = j;
      } else if (pred < via[j]) {
        via[j] = pred;  // the smallest k of the level before, as the device picks
      }
    }
  }
  for (int64_t j = 0; j < n; ++j)
    if (hops[j] < 0) hops[j] = 0;  // unreachable: as initial_paths leaves them
}

template <typename T>
int64_t recover_paths(const InputEdges<T>& e, const DistMatrix<T>& d, PathMatrix& p) {
  const int64_t n = d.n();
  size_path_matrix(p, n);
  // The edges that are shortest paths themselves: the only ones any search needs.
  const InputEdges<T> t = tight_edges(e, d);
  // One breadth-first search per source over its tight edges.
#pragma omp parallel
  {
    std::vector<int32_t> queue;
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < n; ++i)
      recover_row(t, i, d.data() + i * n, p.hops.data() + i * n, p.via.data() + i * n, queue);
  }
  return t.start.back();
}

template InputEdges<int32_t> input_edges(const DistMatrix<int32_t>&);
template InputEdges<float> input_edges(const DistMatrix<float>&);
template InputEdges<double> input_edges(const DistMatrix<double>&);
template InputEdges<int64_t> input_edges(const DistMatrix<int64_t>&);
template int64_t recover_paths(const InputEdges<int32_t>&, const DistMatrix<int32_t>&, PathMatrix&);
template int64_t recover_paths(const InputEdges<float>&, const DistMatrix<float>&, PathMatrix&);
template int64_t recover_paths(const InputEdges<double>&, const DistMatrix<double>&, PathMatrix&);
template int64_t recover_paths(const InputEdges<int64_t>&, const DistMatrix<int64_t>&, PathMatrix&);
template void recover_row(const InputEdges<int32_t>&, int64_t, const int32_t*, int32_t*, int32_t*,
                          std::vector<int32_t>&);
template void recover_row(const InputEdges<float>&, int64_t, const float*, int32_t*, int32_t*,
                          std::vector<int32_t>&);
template InputEdges<int32_t> tight_edges(const InputEdges<int32_t>&, const DistMatrix<int32_t>&);
template InputEdges<float> tight_edges(const InputEdges<float>&, const DistMatrix<float>&);
template void recover_row(const InputEdges<double>&, int64_t, const double*, int32_t*, int32_t*,
                          std::vector<int32_t>&);
template InputEdges<double> tight_edges(const InputEdges<double>&, const DistMatrix<double>&);
template void recover_row(const InputEdges<int64_t>&, int64_t, const int64_t*, int32_t*, int32_t*,
                          std::vector<int32_t>&);
template InputEdges<int64_t> tight_edges(const InputEdges<int64_t>&, const DistMatrix<int64_t>&);

}  // namespace ocl_sp::detail
