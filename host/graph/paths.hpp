// Shortest-path reconstruction from a PathMatrix (via + hops, see matrix.hpp):
// path(i, j) = path(i, via) + path(via, j), the direct edge when via is -1. Hops
// strictly decrease along the recursion, so expansion terminates even with
// zero-weight cycles; a corrupt matrix is reported, never looped on.
#pragma once
#include <string>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

// Path matrix of the right size with every pair "no path / direct": via = -1,
// hops = 1 off the diagonal where d is finite, 0 on it (solvers start from this).
template <typename T>
PathMatrix initial_paths(const DistMatrix<T>& d);

// Vertices of the shortest u -> v path, u first and v last; empty when v is
// unreachable (d(u, v) is INF). Throws RuntimeError when the matrix is
// inconsistent (a via that does not shorten the hop count).
template <typename T>
std::vector<int64_t> expand_path(const DistMatrix<T>& d, const PathMatrix& p, int64_t u, int64_t v);

// Checks every pair of a solved (d, p) against the input adjacency `w`: each
// reconstructed path uses only edges of w and its weights add up to d(i, j);
// unreachable pairs have no path. Returns an empty string when all hold, else the
// first problem found. Used by tests and --verify.
template <typename T>
std::string check_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, const PathMatrix& p);

}  // namespace ocl_sp
