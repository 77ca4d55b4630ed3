// Shortest-path reconstruction from a PathMatrix (via + hops, see matrix.hpp):
// path(i, j) = path(i, via) + path(via, j), the direct edge when via is -1. Hops
// strictly decrease along the recursion, so expansion terminates even with
// zero-weight cycles; a corrupt matrix is reported, never looped on.
#pragma once
#include <string>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

// Sizes p.via and p.hops for n x n (contents unspecified), keeping memory that is
// large enough. A fresh allocation of several MiB is advised as transparent huge
// pages: at n = 10000 the two matrices are 800 MB, and first-touch faults of 4 KiB
// pages would cost more than the GPU solve. With hops false (the device rebuild
// for a caller that wants via alone, PathMatrix::with_hops) p.hops is left empty.
void size_path_matrix(PathMatrix& p, int64_t n, bool hops = true);
// One of its vectors sized to nn the same way (the threads of
// size_path_matrix_async size via and hops apart).
void size_path_vector(std::vector<int32_t>& v, size_t nn);

// Path matrix of the right size with every pair "no path / direct": via = -1,
// hops = 1 off the diagonal where d is finite, 0 on it (solvers start from this).
template <typename T>
PathMatrix initial_paths(const DistMatrix<T>& d);

// Vertices of the shortest u -> v path, u first and v last; empty when v is
// unreachable (d(u, v) is INF). Throws RuntimeError when the matrix is
// inconsistent (a via that does not shorten the hop count).
template <typename T>
std::vector<int64_t> expand_path(const DistMatrix<T>& d, const PathMatrix& p, int64_t u, int64_t v);

// Makes a solved float32 path matrix well-founded again where rounding broke it.
// The lexicographic argument needs exact sums. With rounding, a zero-weight cycle
// can look slightly negative in one summation order, and (i,k) can improve after
// via(i,j) = k was recorded while fl(d(i,k) + d(k,j)) stays d(i,j); a via may then
// name a pair with as many hops, and expansion could loop. An O(n^2) check comes
// first (nothing changes when every via splits into two pairs with fewer hops).
// Otherwise hops are recounted along via, and every pair whose expansion would
// come back to itself gets a new via: the direct edge of `w` (the input) or a k
// with sound halves, whose length matches d(i,j) within float rounding (fewest
// hops first, in rounds, like a breadth-first search). Returns the number of hop
// counts changed; throws RuntimeError if a pair cannot be repaired. int32 results
// are exact and never need it.
template <typename T>
int64_t repair_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, PathMatrix& p);

// Checks every pair of a solved (d, p) against the input adjacency `w`: each
// reconstructed path uses only edges of w and its weights add up to d(i, j);
// unreachable pairs have no path. Returns an empty string when all hold, else the
// first problem found. Used by tests and --verify.
template <typename T>
std::string check_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, const PathMatrix& p);

}  // namespace ocl_sp
