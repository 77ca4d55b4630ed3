// The solve command's rows (DESIGN.md "Sparse graphs and rows"): --sources /
// --targets selections, the streamed sssp solve (rows to the file as batches
// complete, O(batch x n) host memory) and --stats; kept out of solve.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "graph/io.hpp"
#include "graph/matrix.hpp"
#include "report/report.hpp"
#include "solvers/solver.hpp"
#include "sparse/sssp.hpp"
#include "util/atomic_file.hpp"

namespace ocl_sp {

struct RowsRequest {
  std::vector<int64_t> sources, targets;  // empty: every vertex
  std::optional<OutputTarget> output;
  OutputFormat format = OutputFormat::bin;
  std::string stats;  // --stats FILE or empty
  bool betweenness = false;                  // --betweenness: a column in the stats
  std::vector<int64_t> betweenness_sources;  // its sample (empty: every vertex, exact)
  bool selected() const { return !sources.empty() || !targets.empty(); }
  int64_t rows(int64_t n) const { return sources.empty() ? n : static_cast<int64_t>(sources.size()); }
  int64_t cols(int64_t n) const { return targets.empty() ? n : static_cast<int64_t>(targets.size()); }
};

// Before any work: the output's bytes fit the free disk (RuntimeError otherwise).
template <typename T>
void check_rows_disk(const RowsRequest& req, int64_t n);

// Host memory of a streamed solve of n vertices and m edges (the edge list, the
// CSR, its transpose for --stats, the in-edges of --betweenness, one source's
// rows), checked before the CSR is built; returns the most sources a batch may
// hold within the budget.
template <typename T>
int64_t plan_streamed_memory(const SolverSpec& spec, int64_t n, int64_t m, bool stats, bool betweenness);

// The sssp solve without an n x n matrix, by `solver` (released as the stats file
// is written): rows of req.sources into the output (streamed) and/or the stats (a
// second pass over the transpose unless the graph is symmetric or the engine
// reduces columns). Fills rep (stats, info, output, stats figures).
template <typename T>
void solve_streamed(std::unique_ptr<SsspSolver<T>> solver, const Csr<T>& csr, const RowsRequest& req,
                    int64_t max_batch, SolveReport& rep);

// After a dense solve: the selected |S| x |T| block (or the whole matrix) to the
// output, and the stats from the matrix.
template <typename T>
void write_dense_results(const DistMatrix<T>& d, const RowsRequest& req, SolveReport& rep);

}  // namespace ocl_sp
