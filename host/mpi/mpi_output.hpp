// The distributed solve's output without a gather: every rank writes
// its own panels into the one output file, which appears atomically (a temporary
// file renamed by rank 0 once every rank has written) or not at all.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <type_traits>
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

// One output file written by every rank, its two ways (write_distributed below
// tells them; mpi_rows.hpp writes --sources / --targets selections with them).
struct RankWriter {
  std::string header;  // the bytes before the values (npy), written by rank 0
  uint64_t bytes = 0;  // the whole file's size, header included
  // In place: this rank's values into the open file (pwrite_all at their offsets).
  std::function<void(int fd, const std::string& path)> write_mine;
  // Streamed: `steps` steps; before each rank 0 says go (or stop: its file failed),
  // then every rank calls exchange(step) (the values of that step to rank 0) and
  // rank 0 write(step, out), unless writing already failed (it keeps exchanging,
  // then reports the failure).
  int64_t steps = 0;
  std::function<void(int64_t step)> exchange;
  std::function<void(int64_t step, std::ostream& out)> write;
  std::string in_place_mode, streamed_mode;  // OutputStats::mode of each way
  // Optional: run on every rank before the streamed way's first step (the values
  // to stream made there), its errors agreed; nothing is written when it fails.
  std::function<void()> before_stream;
};

// Collective: the file to rank 0's `target` (a regular file in bin or npy: in
// place when every rank can open rank 0's temporary file; else streamed). Returns
// the agreed exit code (0: written); on failure nothing is left.
int write_ranked(const RankWriter& w, const OutputTarget* target, OutputFormat fmt, const Session& s,
                 OutputStats& st);

// to_le and pwrite_all: graph/io.hpp and util/atomic_file.hpp.

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
