// Distributed blocked Floyd-Warshall over MPI ranks (issue 13, README "Clusters
// (MPI)"). The matrix is a q x q grid of P x P panels; panel row i belongs to rank
// i mod R (1D row-cyclic, the panel engine's device ownership across processes).
// Every rank holds only its own panel rows (padded strips of P x qP values);
// round r: the owner of row r closes the pivot panel and updates its row panels,
// the P x qP pivot strip is broadcast (MPI_Ibcast, posted a round ahead), and
// every rank updates its rows (column panel, then the (min,+) GEMM-accumulates) on
// its backend: OpenMP on the host or its OpenCL device (the panel engine's
// FwDevice primitives, panels resident on the device). Look-ahead: the owner of
// row r + 1 updates that row first and sends it while it updates the others.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

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
  std::string output, output_format = "auto";
  bool verify = false, json = false;
  // Options the distributed solve does not take (named in the refusal).
  std::string unsupported;
};

// Runs one solve across all ranks of the launch (launched_world_size() > 1):
// MPI_Init, the solve, MPI_Finalize. Returns the exit code every rank agrees on;
// a rank whose own error decided it rethrows that error after MPI_Finalize (main
// prints it), the others return the code silently. Without MPI in the build:
// UsageError.
int run_solve(const MpiSolveOptions& o, const Stopwatch& wall);

}  // namespace ocl_sp::mpi
