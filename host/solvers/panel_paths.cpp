// Paths recovered from the panel engine's distances (see panel_paths.hpp).
#include "solvers/panel_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <omp.h>
#include <string>
#include <type_traits>

#include "graph/paths.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp::detail {

namespace {

// CSR of rows 0 .. n-1 in one parallel pass: each thread takes a contiguous block
// of rows and gathers them into buffers of its own, row(u, col, val, k) writing
// row u's entries from index k on (room for width(u) of them given) and returning
// the new end; then the rows' offsets, check(edges) (may throw), and every
// thread's block copied to its place.
template <typename T, typename Width, typename Row, typename Check>
void gather_rows(int64_t n, InputEdges<T>& out, const Width& width, const Row& row,
                 const Check& check) {
  out.n = n;
  out.start.assign(static_cast<size_t>(n) + 1, 0);
  // The rows scan n^2 values of the matrix: threads by those bytes.
  const int threads = n >= 1024 ? copy_threads(static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(T)) : 1;
  std::vector<UninitVector<int32_t>> cols(static_cast<size_t>(threads));
  std::vector<UninitVector<T>> vals(static_cast<size_t>(threads));
  std::vector<size_t> at(static_cast<size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), tn = omp_get_num_threads();
    const int64_t u0 = n * t / tn, u1 = n * (t + 1) / tn;
    UninitVector<int32_t>& col = cols[static_cast<size_t>(t)];
    UninitVector<T>& val = vals[static_cast<size_t>(t)];
    size_t k = 0;
    for (int64_t u = u0; u < u1; ++u) {
      const size_t room = k + static_cast<size_t>(width(u));
      if (col.size() < room) {
        const size_t grow = std::max(col.size() * 2, room);
        col.resize(grow);
        val.resize(grow);
      }
      const size_t k0 = k;
      k = row(u, col.data(), val.data(), k);
      out.start[static_cast<size_t>(u) + 1] = static_cast<int64_t>(k - k0);
    }
    at[static_cast<size_t>(t) + 1] = k;
  }
  for (size_t t = 0; t < at.size() - 1; ++t) at[t + 1] += at[t];
  for (int64_t u = 0; u < n; ++u)
    out.start[static_cast<size_t>(u) + 1] += out.start[static_cast<size_t>(u)];
  check(at.back());
  out.dst.resize(at.back());
  out.w.resize(at.back());
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int t = 0; t < threads; ++t) {
    const size_t a = at[static_cast<size_t>(t)], m = at[static_cast<size_t>(t) + 1] - a;
    std::copy_n(cols[static_cast<size_t>(t)].begin(), m, out.dst.begin() + static_cast<std::ptrdiff_t>(a));
    std::copy_n(vals[static_cast<size_t>(t)].begin(), m, out.w.begin() + static_cast<std::ptrdiff_t>(a));
    UninitVector<int32_t>().swap(cols[static_cast<size_t>(t)]);
    UninitVector<T>().swap(vals[static_cast<size_t>(t)]);
  }
}

}  // namespace

template <typename T>
InputEdges<T> input_edges(const DistMatrix<T>& w) {
  InputEdges<T> e;
  const int64_t n = w.n();
  // Float weights: their edges (the finite entries off the diagonal) checked for
  // exact sums before anything is gathered, so a graph whose sums could round is
  // refused (or, through exact_input_edges, left to the path kernels) without
  // allocating its edges.
  if constexpr (std::is_floating_point_v<T>) {
    double largest = 0;
    bool integral = true;
    const int threads = copy_threads(static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1) reduction(max : largest) reduction(&& : integral)
    for (int64_t u = 0; u < n; ++u) {
      const T* row = w.data() + u * n;
      for (int64_t v = 0; v < n; ++v) {
        if (v == u || row[v] == ValueTraits<T>::inf) continue;
        const double x = static_cast<double>(row[v]);
        largest = std::max(largest, std::fabs(x));
        integral = integral && std::floor(x) == x;
      }
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
  // The edges in one read of the matrix, each row gathered without branches (every entry is
  // written, the end advances on edges only): memory speed whatever the density.
  gather_rows(
      n, e, [n](int64_t) { return n; },
      [&w, n](int64_t u, int32_t* col, T* val, size_t k) {
        const T* row = w.data() + u * n;
        for (int64_t v = 0; v < n; ++v) {
          const T x = row[v];
          col[k] = static_cast<int32_t>(v);
          val[k] = x;
          k += static_cast<size_t>((x != ValueTraits<T>::inf) & (v != u));
        }
        return k;
      },
      [n](size_t edges) {
        // The edges, and at most as many again for recover_paths' pruned copy.
        check_host_memory(2 * (static_cast<uint64_t>(n + 1) * 8 +
                               static_cast<uint64_t>(edges) * (4 + sizeof(T))),
                          "the input's " + std::to_string(edges) +
                              " edges kept to recover --paths beyond one device buffer");
      });
  return e;
}

template <typename T>
InputEdges<T> tight_edges(const InputEdges<T>& e, const DistMatrix<T>& d) {
  const int64_t n = d.n();
  InputEdges<T> t;
  gather_rows(
      n, t,
      [&e](int64_t u) {
        return e.start[static_cast<size_t>(u) + 1] - e.start[static_cast<size_t>(u)];
      },
      [&e, &d, n](int64_t u, int32_t* col, T* val, size_t k) {
        const T* du = d.data() + u * n;
        const size_t x1 = static_cast<size_t>(e.start[static_cast<size_t>(u) + 1]);
        for (size_t x = static_cast<size_t>(e.start[static_cast<size_t>(u)]); x < x1; ++x) {
          const int32_t v = e.dst[x];
          const T wx = e.w[x];
          col[k] = v;
          val[k] = wx;
          k += static_cast<size_t>(wx == du[v]);
        }
        return k;
      },
      [](size_t) {});
  return t;
}

template <typename T>
void recover_row(const InputEdges<T>& t, int64_t i, const T* di, int32_t* hops, int32_t* via,
                 std::vector<int32_t>& queue) {
  const int64_t n = t.n;
  const std::vector<int64_t>& start = t.start;
  const auto& dst = t.dst;
  const auto& wt = t.w;
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
std::optional<InputEdges<T>> exact_input_edges(const DistMatrix<T>& w) {
  try {
    return input_edges(w);
  } catch (const UsageError&) {
    return std::nullopt;
  } catch (const RuntimeError&) {
    return std::nullopt;
  }
}

template <typename T>
int64_t recover_paths(const InputEdges<T>& e, const DistMatrix<T>& d, PathMatrix& p, bool parallel) {
  const int64_t n = d.n();
  size_path_matrix(p, n);
  // The edges that are shortest paths themselves: the only ones any search needs.
  const InputEdges<T> t = tight_edges(e, d);
  // One breadth-first search per source over its tight edges.
#pragma omp parallel if (parallel)
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
template int64_t recover_paths(const InputEdges<int32_t>&, const DistMatrix<int32_t>&, PathMatrix&, bool);
template std::optional<InputEdges<int32_t>> exact_input_edges(const DistMatrix<int32_t>&);
template int64_t recover_paths(const InputEdges<float>&, const DistMatrix<float>&, PathMatrix&, bool);
template std::optional<InputEdges<float>> exact_input_edges(const DistMatrix<float>&);
template int64_t recover_paths(const InputEdges<double>&, const DistMatrix<double>&, PathMatrix&, bool);
template std::optional<InputEdges<double>> exact_input_edges(const DistMatrix<double>&);
template int64_t recover_paths(const InputEdges<int64_t>&, const DistMatrix<int64_t>&, PathMatrix&, bool);
template std::optional<InputEdges<int64_t>> exact_input_edges(const DistMatrix<int64_t>&);
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
