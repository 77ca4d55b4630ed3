// The distributed solve's output without a gather (issue 26): every rank writes
// its own panels into the one output file, which appears atomically (a temporary
// file renamed by rank 0 once every rank has written) or not at all.
#pragma once
#include <string>
#include <vector>

#include "graph/io.hpp"
#include "mpi/mpi_layout.hpp"
#include "mpi/mpi_session.hpp"
#include "util/atomic_file.hpp"

namespace ocl_sp::mpi {

// How the output went: which way, and the bytes that travelled to rank 0.
struct OutputStats {
  std::string mode;  // "each rank wrote its panels" / "panel rows streamed to rank 0"
  double bytes_to_root = 0;
};

// Collective (every rank calls it): writes the n x n matrix the ranks' local
// matrices hold to rank 0's `target` in `fmt` (bin, npy or csv).
// A regular file in bin or npy: rank 0 creates a temporary file beside it with
// the header and the full size, every rank writes the rows of its panels at
// their offsets (pwrite) and rank 0 renames the file over the target once every
// rank has written and closed it. Where a rank cannot open that temporary file
// (its file system is not rank 0's), and for csv (lines of varying length),
// standard output and FIFOs: panel row by panel row, the owners send their
// blocks to rank 0, which writes them (rank 0 holds one P x n strip, never the
// matrix). Returns the agreed exit code (0: written); on failure nothing is left.
template <typename T>
int write_distributed(const Layout& lay, const std::vector<T>& local, const OutputTarget* target,
                      OutputFormat fmt, const Session& s, OutputStats& st);

}  // namespace ocl_sp::mpi
