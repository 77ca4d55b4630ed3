// Distributed blocked Floyd-Warshall over MPI ranks (README "Clusters
// (MPI)"). The matrix is a q x q grid of P x P panels on a pr x pc process grid
// (2D block-cyclic: panel (i, j) belongs to rank (i mod pr, j mod pc); pr x pc
// from --grid, else the most square factorisation of the rank count, pr <= pc).
// Round r: the owner of the pivot panel closes it and broadcasts it along its
// process row and column; the ranks of process row r mod pr update the row panels
// and broadcast them down their process columns, the ranks of process column
// r mod pc update the column panels and broadcast them along their process rows
// (MPI_Ibcast on row / column communicators); then every rank runs its (min,+)
// GEMM-accumulates on its backend: OpenMP on the host or its OpenCL device (the
// panel engine's FwDevice primitives, panels resident on the device). Look-ahead:
// row and column r + 1 are updated first and round r + 1's pivot, row and column
// panels are computed and sent while round r's other GEMMs run.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

struct MpiSolveOptions {
  // Graph: a generator (--n; called after MPI is up, so a usage error is
  // reported once) or an input file read by rank 0.
  bool generated = false;
  std::function<GeneratorParams(std::string& source)> generator;
  std::string input, format = "auto";
  std::string algo = "fw", backend, device, type = "int32";
  std::optional<int64_t> panel;
  std::string grid;  // --grid PRxPC ("" = from the rank count)
  std::string output, output_format = "auto";
  bool verify = false, json = false;
  // --paths (or implied by --query / --paths-output): the path matrix, rebuilt from
  // the distances by every rank for its own panels (mpi_paths.hpp).
  bool paths = false;
  std::vector<int64_t> queries;  // U0 V0 U1 V1 ...
  std::string paths_output, paths_output_format = "auto";
  // --sources / --targets SPECs (the |S| x |T| block to --output) and --stats FILE
  // (mpi_rows.hpp); check_rows: the single-process solve's refusals of their
  // combinations and file names, run on rank 0 before any work.
  std::string sources, targets, stats;
  std::function<void()> check_rows;
  // --betweenness (with --stats; the multi-source engine only): each rank's
  // sources' Brandes passes, their exact 64.64 sums added on rank 0.
  bool betweenness = false;
  // Options the distributed solve does not take (named in the refusal).
  std::string unsupported;
  // The multi-source engine under mpirun (mpi_sssp.hpp): the options it does not
  // take (named in its refusal; --algo auto then runs fw), and the edges a
  // generated graph will have, about (--algo auto before generating).
  std::string sssp_unsupported;
  std::function<double(const GeneratorParams&)> expected_edges;
};

// Whether the ranks compute on OpenCL: --backend (serial refused: UsageError), or
// without it, where a device exists or --device is given.
bool uses_opencl(const MpiSolveOptions& o);
// The options the distributed fw and the multi-source engine under mpirun check
// alike, in this order (UsageError): --backend (uses_opencl), --device only with
// OpenCL, one graph (--n or --input), --query in pairs. Returns uses_opencl(o).
bool check_backend_and_graph(const MpiSolveOptions& o);

// Runs one solve across all ranks of the launch (launched_world_size() > 1):
// MPI_Init, the algorithm (--algo auto: mpi_sssp.hpp choose_algorithm), the
// solve (fw here, sssp in mpi_sssp.cpp), MPI_Finalize. Returns the exit code every rank agrees on;
// a rank whose own error decided it rethrows that error after MPI_Finalize (main
// prints it), the others return the code silently. Without MPI in the build:
// UsageError.
int run_solve(const MpiSolveOptions& o, const Stopwatch& wall);

}  // namespace ocl_sp::mpi
