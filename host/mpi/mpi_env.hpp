// MPI launch detection and the MPI session of a distributed solve.
// A plain `ocl_sp` run never touches MPI: MPI_Init is called only when the
// process was started by mpirun/mpiexec with more than one rank (the launcher's
// environment says so), and only by the solve command.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ocl_sp::mpi {

// Ranks the launcher started, from its environment (OMPI_COMM_WORLD_SIZE,
// PMI_SIZE, PMIX / MPI_LOCALNRANKS-style variables); 1 when not under mpirun.
int launched_world_size();
// This process's rank among them from the environment (OMPI_COMM_WORLD_RANK,
// PMI_RANK, PMIX_RANK); 0 when not under mpirun or unknown.
int launched_world_rank();
// Node-local rank from the environment (OMPI_COMM_WORLD_LOCAL_RANK,
// MPI_LOCALRANKID, PMI_LOCAL_RANK); 0 when unknown.
int launched_local_rank();
// Ranks on this node (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS, PMI_LOCAL_SIZE);
// 1 when unknown.
int launched_local_size();
// Whether a launcher (mpirun / mpiexec / srun) started this process, even as its
// only rank.
bool launched_by_mpi();
// The process grid of `ranks` MPI ranks when --grid is not given: the most square
// factorisation pr x pc = ranks with pr <= pc (4 -> 2 x 2, 6 -> 2 x 3, 3 -> 1 x 3).
std::pair<int, int> default_grid(int ranks);
// --grid PRxPC (e.g. "2x4", "2X4"): UsageError unless two positive integers.
std::pair<int, int> parse_grid(const std::string& s);
// The multi-source engine's rows under mpirun (mpi_sssp.hpp): output rows
// [0, rows) dealt to `ranks` ranks in chunks of `chunk` consecutive rows (about 64
// chunks a rank), chunk c to rank c mod ranks: fixed by the two counts alone.
struct SourceDeal {
  SourceDeal(int64_t rows, int ranks);
  int owner(int64_t r) const { return static_cast<int>((r / chunk) % ranks); }
  int64_t rows = 0, chunk = 1;
  int ranks = 1;
};
// Which of `count` devices node-local rank local_rank of local_size computes on:
// device i to local rank i mod local_size; with fewer devices than ranks one
// each, local_rank mod count. Never empty (count >= 1).
std::vector<size_t> dealt_devices(size_t count, int local_rank, int local_size);
// The OpenMP threads a rank takes on a host its ranks share (the host loops'
// pool): masks[r] is node-local rank r's CPU affinity (one byte a CPU, nonzero:
// the rank may run there). Each CPU of `me`'s mask counts 1 / (the ranks whose
// masks hold it); the sum, rounded down, at least 1. Four ranks whose masks are
// the same 64 CPUs take 16 each; ranks bound to disjoint cores keep theirs.
int shared_host_threads(const std::vector<std::vector<uint8_t>>& masks, int me);
// Whether this binary was built with MPI (OCL_SP_HAVE_MPI).
bool built_with_mpi();

}  // namespace ocl_sp::mpi
