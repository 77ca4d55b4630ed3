// Betweenness under mpirun (--stats FILE --betweenness with the multi-source
// engine, mpi_sssp.hpp): each rank runs Brandes' passes for its dealt sources
// (betweenness_rows, on its devices or cores) into a BetweennessSink; the sums are
// exact 64.64 fixed-point values, so adding the ranks' on rank 0 in any order
// gives the bytes one process writes.
#pragma once
#ifdef OCL_SP_HAVE_MPI
#include <cstdint>
#include <vector>

#include "mpi/mpi_session.hpp"
#include "sparse/betweenness.hpp"

namespace ocl_sp::mpi {

// Collective: every rank's vertex sums added on rank 0 (an MPI_Reduce with an
// exact, commutative addition of 64.64 values), scaled as networkx scales them
// (k sampled sources, 0: every vertex); the column on rank 0, empty elsewhere.
std::vector<double> reduce_betweenness(const std::vector<Fixed>& mine, int64_t n, int64_t k, const Session& s);

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
