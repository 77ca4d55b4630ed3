// The distributed solve's rows (DESIGN.md "Sparse graphs and rows"):
// --sources / --targets selections and --stats, without a gather. A selection is
// written by the ranks that hold its values (in place at their offsets, or a
// strip at a time to rank 0: mpi_output.hpp RankWriter); --stats reduces every
// rank's panels to per-row and per-column figures that travel in vertex order
// (each stretch continues the previous one: stats_sink.hpp continue_figures), so
// the figures are exactly the single-process ones for any process grid, and only
// O(n) figures reach rank 0.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/io.hpp"
#include "mpi/mpi_layout.hpp"
#include "mpi/mpi_output.hpp"
#include "mpi/mpi_session.hpp"
#include "sparse/stats_sink.hpp"

namespace ocl_sp::mpi {

// Collective: --sources / --targets SPECs (either may be empty) parsed by rank 0
// (an @FILE may be its alone) into every rank's rows and cols, the one not given
// as every vertex in order; both empty when neither is given. Returns the agreed
// exit code (a bad SPEC: 2, rank 0's error naming the token).
int select_vertices(const std::string& sources, const std::string& targets, int64_t n, const Session& s,
                    std::vector<int64_t>& rows, std::vector<int64_t>& cols);

// Collective: the |rows| x |cols| block of the distances (rows `rows`, columns
// `cols`, in that order, repeats allowed; every rank passes the same lists) to
// rank 0's target in fmt, as the single-process solve writes it. Regular bin / npy
// file: every rank writes its values at their offsets (runs of consecutive output
// columns; runs under 16 values on average: a process row's ranks gather strips of
// their rows on one of them, turn by turn, which writes whole rows); csv, standard
// output, FIFOs: strips of output rows gathered to rank 0 (at most ~4 MiB of
// values a strip). Returns the agreed exit code; on failure
// nothing is left.
template <typename T>
int write_selection(const Layout& lay, const std::vector<T>& local, const std::vector<int64_t>& rows,
                    const std::vector<int64_t>& cols, const OutputTarget* target, OutputFormat fmt,
                    const Session& s, OutputStats& st);

// Collective: every vertex's figures into rank 0's sink (null elsewhere): rows
// d(v, *) (reach, eccentricity, sum) along the process rows, columns d(*, v)
// (closeness, harmonic) along the process columns, then one gather of n figures
// each way. The sink's pass is `both` afterwards.
template <typename T>
void reduce_stats(const Layout& lay, const std::vector<T>& local, StatsSink<T>* sink);

// Collective: reduce_stats into rank 0's StatsSink, which writes the --stats file
// (write_stats_file) and its summary into g: every vertex's figures, or with
// `sources` (--stats --sources) those sources' lines. Returns the agreed exit code.
template <typename T>
int write_stats(const Layout& lay, const std::vector<T>& local, const std::string& path, const Session& s,
                GraphStats& g, const std::vector<int64_t>& sources);

}  // namespace ocl_sp::mpi
