// The solve command's rows (solve_rows.hpp).
#include "cli/solve_rows.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "solvers/opencl_base.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

// Where a solve's rows go, the same for every algorithm: the output file
// (streamed as rows arrive) and the stats, teed. Not movable (the tee points in).
template <typename T>
struct SolveSinks {
  std::optional<StreamingFileSink<T>> file;
  std::optional<StatsSink<T>> stats;
  NullSink<T> none;
  std::optional<TeeSink<T>> tee;

  SolveSinks(const RowsRequest& req, int64_t n) {
    if (req.output) file.emplace(*req.output, req.format, req.rows(n), n, req.targets);
    if (!req.stats.empty()) stats.emplace(n, req.sources);  // --sources: their rows only
    std::vector<RowSink<T>*> sinks;
    if (file) sinks.push_back(&*file);
    if (stats) sinks.push_back(&*stats);
    if (sinks.empty()) sinks.push_back(&none);
    tee.emplace(sinks);
  }
  SolveSinks(const SolveSinks&) = delete;
  SolveSinks& operator=(const SolveSinks&) = delete;
  RowSink<T>& all() { return *tee; }
};

template <typename T>
void fill_stats(const StatsSink<T>& s, const RowsRequest& req, SolveReport& rep,
                std::vector<double> betweenness = {}) {
  const GraphStats g = s.summary();
  rep.has_stats = true;
  rep.diameter = g.diameter;
  rep.radius = g.radius;
  rep.reachable_pairs = g.reachable_pairs;
  rep.average_shortest_path_length = g.average_shortest_path_length;
  rep.stats_sources = g.sources;
  if (g.sources > 0)
    rep.notes.push_back("stats: figures of " + std::to_string(g.sources) +
                        " sources' rows (the file's lines and the summary), not every vertex's");
  throw_if_cancelled();
  if (betweenness.empty()) {
    write_stats_file(req.stats, s.vertices(), g);
  } else {
    VertexStats v = s.vertices();
    v.betweenness = std::move(betweenness);
    write_stats_file(req.stats, v, g);
  }
  rep.stats_output = req.stats;
}

// --betweenness: the rows of its sources again, into a BetweennessSink, scaled as
// networkx's betweenness_centrality(normalized=True) scales them (by n / k for k
// sampled sources).
// With `stats` (every vertex a source, no output file): the stats' figures and
// the betweenness from one pass where that is cheaper (stats_betweenness_rows),
// the report's solve then that pass.
template <typename T>
std::vector<double> betweenness_column(SsspSolver<T>& solver, const Csr<T>& csr,
                                       const RowsRequest& req, SolveReport& rep,
                                       StatsSink<T>* stats = nullptr) {
  Stopwatch phase;
  const std::vector<int64_t>& sources = req.betweenness_sources;
  const int threads = solver.info().backend == "serial" ? 1 : 0;
  BetweennessSink<T> sink(csr, sources, false, false, threads);
  std::string where;
  const RunStats st = stats ? stats_betweenness_rows(solver, csr, *stats, sink, rep.notes, where)
                            : betweenness_rows(solver, csr, sink, &where);
  // The report's solve covers this pass too: its relaxations, kernels (T_k, by
  // which the rate divides them), transfers and seconds (with `stats` it is the
  // solve).
  if (stats) {
    rep.stats = st;
    rep.stats.total = 0;
  } else {
    rep.stats.relaxations += st.relaxations;
    rep.stats.t_k += st.t_k;
    rep.stats.t_h += st.t_h;
    rep.stats.kernel_launches += st.kernel_launches;
    rep.stats.bytes_moved += st.bytes_moved;
    for (const auto& [name, s] : st.kernel_seconds) rep.stats.kernel_seconds[name] += s;
  }
  std::vector<double> b = sink.vertex_sums();
  const int64_t k = static_cast<int64_t>(sources.size());
  scale_betweenness_column(b, csr.n, k);
  const double seconds = phase.seconds();
  rep.stats.total += seconds;
  rep.notes.push_back(betweenness_note(k) + "; " + where + " (" + std::to_string(std::floor(seconds * 1e6) / 1e6) +
                      " s)");
  profile("betweenness (rows, paths and dependencies)", seconds);
  return b;
}

}  // namespace

template <typename T>
void check_rows_disk(const RowsRequest& req, int64_t n) {
  if (!req.output) return;
  const int64_t r = req.rows(n), c = req.cols(n);
  check_free_disk(*req.output, matrix_file_bytes<T>(req.format, r, c),
                  "the " + std::to_string(r) + " x " + std::to_string(c) + " result (" +
                      to_string(req.format) + ")");
}

template <typename T>
int64_t plan_streamed_memory(const SolverSpec& spec, int64_t n, int64_t m, bool stats, bool betweenness) {
  const uint64_t un = static_cast<uint64_t>(n);
  // --betweenness: its sink's in-edges (the transposed CSR: an int64 offset a
  // vertex, an int32 source and int64 edge index an edge); on OpenCL as much again
  // (their int copy for the device, or a second sink's for sources run again on
  // the host).
  const uint64_t in_edges = (un + 1) * 8 + static_cast<uint64_t>(m) * 12;
  const uint64_t fixed = csr_bytes(n, m, sizeof(T)) * (stats ? 3 : 2) +
                         static_cast<uint64_t>(omp_get_max_threads()) * un * 16 +
                         (betweenness ? in_edges * (spec.backend == Backend::opencl ? 2 : 1) : 0);
  const uint64_t per_source = un * sizeof(T) * 2 + 16;  // its row, a selected copy
  const std::string what = "n = " + std::to_string(n) + " (" + ValueTraits<T>::name() +
                           ") with m = " + std::to_string(m) + " edges (sssp on the " +
                           to_string(spec.backend) + " backend, rows streamed)";
  check_host_memory(fixed + per_source, what);
  const uint64_t room = host_memory_available();
  if (room == UINT64_MAX) return 0;
  return static_cast<int64_t>(std::max<uint64_t>(1, (room - fixed) / per_source));
}

template <typename T>
void solve_streamed(std::unique_ptr<SsspSolver<T>> solver, const Csr<T>& csr, const RowsRequest& req,
                    int64_t max_batch, SolveReport& rep) {
  const int64_t n = csr.n;
  solver->set_max_batch(max_batch);
  SolveSinks<T> sinks(req, n);
  auto& file = sinks.file;
  auto& stats = sinks.stats;
  RowSink<T>& tee = sinks.all();
  // --stats --betweenness of every vertex: one pass where it can (betweenness_column)
  const bool together = stats && req.betweenness && !file && req.sources.empty() && req.betweenness_sources.empty();
  if (together) {
    // below
  } else if (stats) {
    RowSink<T>& forward = file ? tee : *stats;  // the stats alone: one pass where the engine can
    rep.stats = solver->solve_stats_rows(csr, req.sources, *stats, forward, rep.notes);
  } else {
    rep.stats = solver->solve_rows(csr, req.sources, tee, false);
  }
  std::vector<double> betweenness;
  if (together) betweenness = betweenness_column(*solver, csr, req, rep, &*stats);
  rep.info = solver->info();
  if (stats && stats->rows_reduced_here() > 0)
    rep.stats.kernel_seconds["stats: row reduction (host)"] = stats->seconds();
  if (stats && stats->rows_reduced_by_engine() > 0)
    rep.notes.push_back("stats: rows reduced on the device (only their figures read back)");
  throw_if_cancelled();
  if (stats && req.betweenness && !together) betweenness = betweenness_column(*solver, csr, req, rep);
  if (file) {
    file->finish();
    rep.output = req.output->path;
    rep.notes.push_back(std::string("output streamed as rows completed (") + file->method() + ")");
  }
  // The device's buffers (tens of GB at n = 10^6) go back while the file is written.
  struct Release {
    std::thread t;
    ~Release() { t.join(); }
  } release{std::thread([s = std::move(solver)]() mutable { s.reset(); })};
  Stopwatch phase;
  if (stats) fill_stats(*stats, req, rep, std::move(betweenness));
  profile("stats: figures and file", phase.seconds());
}

template <typename T>
void write_dense_results(const DistMatrix<T>& d, const RowsRequest& req, SolveReport& rep) {
  // The matrix's rows go to the same sinks as the streamed solve's, in blocks.
  SolveSinks<T> sinks(req, d.n());
  if (sinks.stats) sinks.stats->set_pass(StatsSink<T>::from);
  hand_rows(d, req.sources, sinks.all());
  throw_if_cancelled();
  if (sinks.file) {
    sinks.file->finish();
    rep.output = req.output->path;
  }
  if (sinks.stats) {
    stats_from_columns(d, *sinks.stats);
    fill_stats(*sinks.stats, req, rep);
  }
}

#define OCL_SP_ROWS(T)                                                                       \
  template void check_rows_disk<T>(const RowsRequest&, int64_t);                             \
  template int64_t plan_streamed_memory<T>(const SolverSpec&, int64_t, int64_t, bool, bool); \
  template void solve_streamed<T>(std::unique_ptr<SsspSolver<T>>, const Csr<T>&,              \
                                  const RowsRequest&, int64_t, SolveReport&);                \
  template void write_dense_results<T>(const DistMatrix<T>&, const RowsRequest&, SolveReport&);
OCL_SP_ROWS(int32_t)
OCL_SP_ROWS(float)
OCL_SP_ROWS(int64_t)
OCL_SP_ROWS(double)
#undef OCL_SP_ROWS

}  // namespace ocl_sp
