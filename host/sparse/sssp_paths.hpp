// Shortest-path trees from distance rows: for source s, the breadth-first search
// over the tight edges (d(s,u) + w(u,v) == d(s,v), in the type's own arithmetic)
// gives every reachable v a predecessor on a shortest path with the fewest edges
// among shortest paths: the smallest such (recover_paths picks the same, so a
// path matrix does not depend on the algorithm). That yields the documented path matrix (matrix.hpp:
// via(s,v) = the predecessor, -1 for the direct edge; hops = the edge count), and,
// for float32 after Johnson's reweighting, the path whose weights are then summed
// in path order.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/csr.hpp"

namespace ocl_sp {

// Scratch of one search (reused across sources).
struct TreeScratch {
  std::vector<int32_t> queue;
};

// Given row d (distances from s over g, `unreached` where there is no path),
// fills pred (-1 for s and unreached vertices) and hops (0 for s and unreached),
// and leaves the reached vertices in BFS order (s first) in scratch.queue.
template <typename T>
void tight_tree(const Csr<T>& g, int64_t s, const T* d, T unreached, int32_t* pred,
                int32_t* hops, TreeScratch& scratch);

}  // namespace ocl_sp
