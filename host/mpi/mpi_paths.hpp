// Paths under MPI: the path matrix of the distributed solve, rebuilt
// from the solved distances as one process rebuilds it beyond one buffer
// (solvers/panel_paths.hpp, the same bytes): every rank picks the input edges of
// its own panels that are shortest paths themselves (w(k,j) = d(k,j)); these few
// edges are shared with every rank (allgather); then each process row, panel row
// by panel row, gathers the full distance rows of that panel row among its ranks
// (P x n, never the matrix), searches from each of its sources over the shared
// edges and keeps its own columns of via and hops, in the distances' layout — so
// the via output is written without a gather, like the distances. Every via
// names the predecessor of the last edge (via(i,j) = k with hops(i,k) =
// hops(i,j) - 1 and k -> j one edge), so a path is read from its source's row alone.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mpi/mpi_layout.hpp"
#include "report/report.hpp"

namespace ocl_sp::mpi {

// This rank's part of the path matrix, in its distances' layout (mr x mc values).
struct LocalPaths {
  std::vector<int32_t> via, hops;
  long long tight = 0;  // input edges that are shortest paths themselves (all ranks)
  double seconds = 0;
};

// Collective: d the solved local distances, w the local input (normalised), both
// in lay; row: the communicator of this rank's process row (ranks by pcol).
template <typename T>
LocalPaths rebuild_local_paths(const Layout& lay, const std::vector<T>& d, const std::vector<T>& w,
                               MPI_Comm row);

// Collective: row u (n values) of a local matrix, on rank 0 (empty elsewhere).
template <typename T>
std::vector<T> row_to_root(const Layout& lay, const std::vector<T>& local, int64_t u, int rank);

// The vertices of the u -> v path from row u of the distances and of via (the
// predecessor walk), empty when v is unreachable; RuntimeError on a row whose
// walk does not end at u within n steps.
template <typename T>
std::vector<int64_t> walk_path(const std::vector<T>& d_row, const std::vector<int32_t>& via_row,
                               int64_t u, int64_t v);

// The --query answer of u -> v from row u of the distances and of via (rank 0).
template <typename T>
PathQuery path_query(const std::vector<T>& d_row, const std::vector<int32_t>& via_row, int64_t u,
                     int64_t v) {
  PathQuery q;
  q.from = u;
  q.to = v;
  q.vertices = walk_path(d_row, via_row, u, v);
  q.length = static_cast<double>(d_row[static_cast<size_t>(v)]);
  return q;
}

}  // namespace ocl_sp::mpi
