// Paths beyond one buffer: the panel engine's placements (resident
// panels, out of core, several devices) compute distances only, and the path
// matrix (docs/usage.md "Paths": via and hops, fewest-edge shortest paths) is recovered
// from the distances and the input's edges afterwards, on the host.
// An edge (k, j) lies on a shortest path from i iff d(i,k) + w(k,j) = d(i,j)
// ("tight"); then w(k,j) = d(k,j), so only the edges that are shortest paths
// themselves can be tight for any source (on random graphs a few percent of
// them). A breadth-first search from each source over its tight edges gives the
// fewest hops of a shortest path to every vertex and a predecessor k:
// via(i,j) = k (-1 when k = i), which splits into path(i,k) with one hop fewer
// and the single edge k -> j (hops(k,j) = 1), so the via matrix keeps its meaning
// and expansion terminates even with zero-weight cycles. Exact sums are needed:
// int32, or float32 holding integers whose path lengths stay below 2^24.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp::detail {

// std::allocator whose resize leaves new elements uninitialized: the edge arrays
// (2 GB at n = 50 000) are written in parallel right after, not zero-filled on one
// thread first.
template <typename V>
struct UninitAllocator : std::allocator<V> {
  template <typename U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <typename U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};
template <typename V>
using UninitVector = std::vector<V, UninitAllocator<V>>;

// The input's edges by source (finite off-diagonal entries of the adjacency
// matrix), taken before the solve overwrites it.
template <typename T>
struct InputEdges {
  int64_t n = 0;
  std::vector<int64_t> start;  // n + 1 offsets into dst / w
  UninitVector<int32_t> dst;
  UninitVector<T> w;
  size_t bytes() const { return start.size() * 8 + dst.size() * 4 + w.size() * sizeof(T); }
};

// The edges of adjacency matrix w, host memory checked first (RuntimeError when
// the edges and their pruned copy do not fit). float32: UsageError unless every weight is an
// integer and n x the largest |weight| stays below 2^24 (sums exact), else the
// tight-edge test could miss by rounding.
template <typename T>
InputEdges<T> input_edges(const DistMatrix<T>& w);

// input_edges(w) where its sums are exact; nullopt where float weights could
// round (UsageError above) or the edges do not fit host memory: the solvers then
// record the paths their own (lexicographic) way.
template <typename T>
std::optional<InputEdges<T>> exact_input_edges(const DistMatrix<T>& w);

// The edges of e that are shortest paths themselves under the solved distances d
// (w(k,j) = d(k,j)): the only ones a search for paths needs (the host's and the
// device's, solvers/path_rebuild.hpp).
template <typename T>
InputEdges<T> tight_edges(const InputEdges<T>& e, const DistMatrix<T>& d);

// One source's row of that path matrix: the search from i over the tight edges t
// (tight_edges, t.n vertices) under row i of the distances, di; hops and via rows
// of t.n values; queue: scratch (resized to t.n). The MPI ranks' way (host/mpi/).
template <typename T>
void recover_row(const InputEdges<T>& t, int64_t i, const T* di, int32_t* hops, int32_t* via,
                 std::vector<int32_t>& queue);

// The path matrix of the solved distances d (no negative cycle) from the input's
// edges: via and hops exactly as docs/usage.md "Paths" defines them, via the smallest k
// of the level before (the CPU twin of kernels/paths_rebuild.cl, same bytes).
// Returns the number of edges that are shortest paths themselves (the ones searched).
// A function of the graph and its distances alone, so every algorithm, backend and
// placement whose distances are exact gives the same bytes (docs/usage.md "Paths").
// parallel = false: one search at a time (the serial backend).
template <typename T>
int64_t recover_paths(const InputEdges<T>& e, const DistMatrix<T>& d, PathMatrix& p, bool parallel = true);

}  // namespace ocl_sp::detail
