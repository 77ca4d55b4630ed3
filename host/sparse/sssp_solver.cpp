// SsspSolver: the one Solver of `--algo sssp` (sssp.hpp). Johnson's reweighting
// when the graph has a negative edge, batches of sources through the backend's
// engine, each batch mapped back to the input's weights (and INF) unless the
// engine wrote it so, path rows from the tight-edge trees, then handed to the sink.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "graph/paths.hpp"
#include "solvers/opencl_base.hpp"
#include "sparse/johnson.hpp"
#include "sparse/sssp.hpp"
#include "sparse/sssp_paths.hpp"
#include "sparse/stats_sink.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

// Weight of the edge u -> v of g (rows are sorted by target).
template <typename T>
T edge_weight_of(const Csr<T>& g, int32_t u, int32_t v) {
  const int32_t* b = g.col.data() + g.off[u];
  const int32_t* e = g.col.data() + g.off[u + 1];
  return g.w[static_cast<size_t>(std::lower_bound(b, e, v) - g.col.data())];
}

// The graph an engine gets for non-negative weights: floats' zero weights made
// positive (positive_zeros, kept alive in `keep`), g itself otherwise.
template <typename T>
const Csr<T>* engine_graph(const Csr<T>& g, std::unique_ptr<Csr<T>>& keep) {
  if constexpr (std::is_floating_point_v<T>) keep = positive_zeros(g);
  return keep ? keep.get() : &g;
}

// The same arcs in the same order with the same weights (b = transpose(a): a is
// symmetric, its rows are its columns).
template <typename T>
bool same_graph(const Csr<T>& a, const Csr<T>& b) {
  return a.off == b.off && a.col == b.col && a.w == b.w;
}

}  // namespace

bool stats_on_host() {
  const char* e = std::getenv("OCL_SP_STATS_ON_HOST");
  return e && *e == '1';
}

// Rows on to `next`, and each column's figures continued down them in source
// order (every vertex a source, rows in order): column v's figures are those of
// row v of the reversed graph.
template <typename T>
class ColumnSink final : public RowSink<T> {
 public:
  ColumnSink(RowSink<T>& next, int64_t n) : next_(next), cols_(static_cast<size_t>(n)) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override {
    next_.rows(first, count, n, d, via, hops);
    if (first != next_row_)
      throw std::logic_error("column figures: row " + std::to_string(first) + " out of order");
    const Stopwatch t;
    column_figures(d, count, n, n, true, cols_.data());
    next_row_ += count;
    seconds_ += t.seconds();
  }
  const RowFigures* figures() const {
    if (next_row_ != static_cast<int64_t>(cols_.size()))
      throw std::logic_error("column figures: " + std::to_string(next_row_) + " rows of " +
                             std::to_string(cols_.size()));
    return cols_.data();
  }
  double seconds() const { return seconds_; }

 private:
  RowSink<T>& next_;
  std::vector<RowFigures> cols_;
  int64_t next_row_ = 0;
  double seconds_ = 0;
};

template <typename T>
SsspSolver<T>::SsspSolver(std::unique_ptr<SsspEngine<T>> engine) : engine_(std::move(engine)) {}

template <typename T>
RunStats SsspSolver<T>::solve(DistMatrix<T>& d, PathMatrix* paths) {
  const Csr<T> g = csr_from_matrix(d);
  if (paths) size_path_matrix(*paths, d.n());
  MatrixSink<T> sink(d, paths);
  return solve_rows(g, {}, sink, paths != nullptr);
}

template <typename T>
bool SsspSolver<T>::solve_stats(const Csr<T>& g, StatsSink<T>& sink, RunStats& st, std::optional<Csr<T>>* rev) {
  // Potentials to undo (negative weights) need the rows.
  auto* columns = engine_capability<ColumnFiguresEngine>(engine_.get());
  if (!columns || !columns->reduces_columns() || g.has_negative_weight() || stats_on_host())
    return false;
  const Stopwatch total;
  const int64_t n = g.n;
  std::unique_ptr<Csr<T>> zeros;
  engine_->prepare(*engine_graph(g, zeros), st);
  if (!columns->reduces_columns()) return false;  // the graph's lanes do not fit the device
  // Deep searches: integers on a symmetric graph take a source a group's row
  // figures in one pass instead (exact sums: the same bytes); floats would need
  // their rows on the host for the columns, directed graphs a second pass.
  if constexpr (std::is_integral_v<T>) {
    if (columns->prefers_row_figures()) {
      std::optional<Csr<T>> own;
      std::optional<Csr<T>>& t = rev ? *rev : own;
      if (!t) t = transpose(g);
      if (same_graph(*t, g)) return false;
    }
  }
  std::vector<RowFigures> rows(static_cast<size_t>(n)), cols(static_cast<size_t>(n));
  columns->run_all_figures(true, rows.data(), cols.data(), st);
  sink.set_pass(StatsSink<T>::from);
  sink.figures(0, n, rows.data());
  sink.set_pass(StatsSink<T>::to);
  sink.figures(0, n, cols.data());
  sink.set_pass(StatsSink<T>::both);
  st.relaxations = sssp_relaxations(n, g.m());
  st.total = total.seconds();
  return true;
}

template <typename T>
RunStats SsspSolver<T>::solve_stats_rows(const Csr<T>& g, const std::vector<int64_t>& sources,
                                         StatsSink<T>& stats, RowSink<T>& forward,
                                         std::vector<std::string>& notes) {
  RunStats st;
  // --stats --sources: the sink keeps those sources' rows (row r is sources[r]).
  if (stats.sources() != sources)
    throw std::logic_error("stats: the sink's sources are not the solve's");
  std::optional<Csr<T>> rev;  // g's transpose, made once where one is needed
  if (&forward == static_cast<RowSink<T>*>(&stats) && sources.empty() && solve_stats(g, stats, st, &rev)) {
    notes.push_back("stats: rows and columns reduced on the device in one pass (sources side by side)");
    return st;
  }
  // Every vertex a source, rows reaching the host: the columns' figures gathered
  // from the rows as they pass, one pass, added in source order (integers: the
  // reversed graph's values; floats: the forward rows', summed in path order from
  // the source, are the distances; the reversed graph's add each path's weights
  // in the other order, other bits).
  if (columns_from_rows(g, sources, forward)) {
    const int64_t n = g.n;
    ColumnSink<T> cols(forward, n);
    stats.set_pass(StatsSink<T>::from);
    st = solve_rows(g, sources, cols, false);
    stats.set_pass(StatsSink<T>::to);
    stats.host_figures(0, n, cols.figures(), cols.seconds());
    stats.set_pass(StatsSink<T>::both);
    notes.push_back("stats: columns' figures gathered from the rows on the host (one pass)");
    return st;
  }
  // Every vertex's or the sources' rows, then the same sources' rows of the
  // reversed graph (distances to each): integers give full --stats' bytes (exact
  // sums in vertex order, as the columns add them in source order); floats add
  // each path's weights in the other order (bits may differ in the last place).
  if (!rev) rev = transpose(g);
  const bool one_pass = same_graph(*rev, g);
  if (one_pass) rev.reset();
  if (one_pass && sources.empty())
    notes.push_back("stats: one pass, the rows' figures the columns' (a symmetric graph)");
  stats.set_pass(one_pass ? StatsSink<T>::both : StatsSink<T>::from);
  st = solve_rows(g, sources, forward, false);
  if (!one_pass) {
    stats.set_pass(StatsSink<T>::to);
    const RunStats back = solve_rows(*rev, sources, stats, false);
    st.total += back.total;
    st.t_k += back.t_k;
    st.t_h += back.t_h;
    st.relaxations += back.relaxations;
    st.kernel_launches += back.kernel_launches;
    for (const auto& [k, v] : back.kernel_seconds) st.kernel_seconds[k] += v;
    notes.push_back("stats: a second pass over the reversed graph (distances to each vertex)");
  }
  return st;
}

template <typename T>
bool SsspSolver<T>::columns_from_rows(const Csr<T>& g, const std::vector<int64_t>& sources,
                                      RowSink<T>& forward) const {
  if (!sources.empty() || g.n == 0) return false;
  // Floats: always (the reversed graph's rows add each path's weights in the
  // other order: other bits than the forward rows', the distances every
  // placement gives; networkx's are the reversed graph's, within rounding).
  if constexpr (std::is_floating_point_v<T>) return true;
  // Integers: rows reduced by the engine never reach the host; its second pass
  // over the reversed graph stays there (exact sums, the same values).
  auto* reducer = engine_capability<RowFiguresEngine>(engine_.get());
  const bool engine_reduces =
      figure_sink(forward) && reducer && reducer->reduces_rows() && !stats_on_host();
  return !engine_reduces || g.has_negative_weight();
}

template <typename T>
RunStats SsspSolver<T>::solve_rows(const Csr<T>& g, const std::vector<int64_t>& sources_in,
                                   RowSink<T>& sink, bool paths) {
  const Stopwatch total;
  RunStats st;
  const int64_t n = g.n;
  std::vector<int64_t> all;
  if (sources_in.empty()) {
    all.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) all[i] = i;
  }
  const std::vector<int64_t>& sources = sources_in.empty() ? all : sources_in;
  for (int64_t s : sources)
    if (s < 0 || s >= n)
      throw UsageError("source " + std::to_string(s) + " is outside [0, " + std::to_string(n) +
                       ")");

  // The engine's graph: weights >= 0 (reweighted where the input has negative ones).
  const bool negative = g.has_negative_weight();
  Reweighted<T> rw;
  if (negative) {
    const Stopwatch t;
    rw = reweight(g);
    st.kernel_seconds["bellman-ford (potentials, host)"] = t.seconds();
  }
  std::unique_ptr<Csr<T>> zeros;
  const Csr<T>* eg = negative ? &rw.graph : engine_graph(g, zeros);
  Stopwatch phase;
  engine_->prepare(*eg, st);
  if (auto* counted = engine_capability<SourceCountEngine>(engine_.get()))
    counted->source_count(static_cast<int64_t>(sources.size()), st);
  profile("sssp: engine prepared (graph, plan)", phase.seconds());

  // Floats after reweighting: distances are summed again along the tree, in path
  // order with the input's weights, so they do not depend on the potentials.
  const bool resum = negative && std::is_floating_point_v<T>;
  const bool trees = paths || resum;
  // A sink that keeps only each row's figures (--stats) gets them from an engine
  // that reduces rows where it computes them: no row crosses to the host. Not
  // with trees (paths, float resums) or potentials to undo: those need the rows.
  // OCL_SP_STATS_ON_HOST=1 reduces on the host anyway (tests, comparisons).
  FigureSink* figures = figure_sink(sink);
  auto* reducer = engine_capability<RowFiguresEngine>(engine_.get());
  const bool reduce = figures && reducer && reducer->reduces_rows() && !trees && !negative &&
                      !stats_on_host();
  // Figures: run_figures' own batch (engine_->batch() follows the mode that ran
  // last: with rows in lanes, one slot part, ~170 sources at n = 10^5 where a
  // figures launch takes thousands).
  int64_t batch = std::min<int64_t>(reduce ? reducer->figures_batch() : engine_->batch(n),
                                    static_cast<int64_t>(sources.size()));
  if (max_batch_ > 0 && !reduce) batch = std::min(batch, max_batch_);  // host rows' memory
  batch = std::max<int64_t>(1, batch);
  if (reduce) {
    // Launches of equal size, as few as the batch allows (1 000 sources a batch of
    // 141: 8 launches of 125, not 7 of 141 and one of 13): a launch lasts about
    // as long as its slowest search, and a smaller one leaves fewer groups
    // sharing a compute unit.
    const int64_t listed = static_cast<int64_t>(sources.size());
    const int64_t launches = std::max<int64_t>(1, (listed + batch - 1) / batch);
    batch = std::max<int64_t>(1, (listed + launches - 1) / launches);
    const bool harmonic = figures->figures_need_harmonic();
    std::vector<RowFigures> fig(static_cast<size_t>(batch));
    for (size_t first = 0; first < sources.size(); first += static_cast<size_t>(batch)) {
      throw_if_cancelled();
      const int64_t count = std::min<int64_t>(batch, static_cast<int64_t>(sources.size() - first));
      reducer->run_figures(sources.data() + first, count, harmonic, fig.data(), st);
      figures->figures(static_cast<int64_t>(first), count, fig.data());
    }
    st.relaxations = sssp_relaxations(static_cast<int64_t>(sources.size()), g.m());
    st.total = total.seconds();
    return st;
  }
  // An engine with slots computes batch k + 1 while the host maps back and hands
  // on batch k (rows in the engine's pinned memory); otherwise one batch after
  // another through the solver's own buffer.
  // Rows in the output's representation straight from an engine that writes them
  // so (FinalRowsEngine), where nothing here needs the raw ones: no pass over them.
  auto* finals = engine_capability<FinalRowsEngine<T>>(engine_.get());
  const bool raw = !(finals && finals->final_rows(!trees && !negative));
  auto* slotted = engine_capability<SlotEngine<T>>(engine_.get());
  phase = Stopwatch();
  const bool overlap = sources.size() > static_cast<size_t>(batch) && slotted && slotted->slots(batch);
  profile("sssp: slots set up", phase.seconds());
  phase = Stopwatch();
  double waited = 0;
  const auto count_at = [&](size_t first) {
    return std::min<int64_t>(batch, static_cast<int64_t>(sources.size() - first));
  };
  const size_t batch_values = static_cast<size_t>(batch * n);
  // Without slots, an engine whose runs go beside the host (several devices)
  // computes batch k + 1 into the other of two host buffers while batch k is
  // handed on. The buffers are not zeroed: the engine's copies touch them first.
  const bool beside = !overlap && sources.size() > static_cast<size_t>(batch) && engine_->runs_beside_host();
  std::unique_ptr<T[]> own[2];
  if (!overlap) own[0].reset(new T[batch_values]);
  if (beside) own[1].reset(new T[batch_values]);
  // The engine may start each device's next share early; it forgets the list
  // when this solve ends, however it ends (after `ahead` below is waited for).
  struct AheadList {
    SsspEngine<T>* engine;
    ~AheadList() {
      if (engine) engine->runs_ahead(nullptr, 0, 0);
    }
  } ahead_list{beside ? engine_.get() : nullptr};
  if (beside) engine_->runs_ahead(sources.data(), static_cast<int64_t>(sources.size()), batch);
  std::future<RunStats> ahead;  // after the buffers: destroyed (waited for) first
  const auto run_ahead = [&](size_t first, int buf) {
    ahead = std::async(std::launch::async, [this, &sources, first, buf, &own, count = count_at(first)] {
      RunStats s;
      engine_->run(sources.data() + first, count, own[buf].get(), s);
      return s;
    });
  };
  std::vector<int32_t> via(trees ? batch_values : 0), hops(trees ? batch_values : 0);
  st.paths = paths;
  if (paths) {
    st.paths_bytes = 8.0 * static_cast<double>(batch) * static_cast<double>(n);
    st.paths_kernels = "tight-edge breadth-first trees (host)";
  }
  double post = 0;
  const int threads = engine_->host_threads();
  if (overlap) {
    slotted->slot_sources(sources.data(), static_cast<int64_t>(sources.size()));
    slotted->submit(0, sources.data(), count_at(0));
  }
  if (beside) run_ahead(0, 0);
  int slot = 0;
  for (size_t first = 0; first < sources.size(); first += static_cast<size_t>(batch)) {
    throw_if_cancelled();
    const int64_t count = count_at(first);
    T* rows = own[0].get();
    if (beside) {
      const Stopwatch w;
      st.add_pass(ahead.get());
      waited += w.seconds();
      rows = own[slot].get();
      const size_t after = first + static_cast<size_t>(batch);
      if (after < sources.size()) run_ahead(after, 1 - slot);
      slot = 1 - slot;
    } else if (overlap) {
      // The next batch goes in before this one is waited for (the other slot's
      // rows were handed on): an engine may run its kernels beside this read.
      const size_t after = first + static_cast<size_t>(batch);
      if (after < sources.size()) slotted->submit(1 - slot, sources.data() + after, count_at(after));
      const Stopwatch w;
      slotted->wait(slot, st);
      waited += w.seconds();
      rows = slotted->slot_rows(slot);
      slot = 1 - slot;
    } else {
      engine_->run(sources.data() + first, count, rows, st);
    }
    if (!raw) {
      sink.rows(static_cast<int64_t>(first), count, n, rows, nullptr, nullptr);
      continue;
    }
    const Stopwatch t;
#pragma omp parallel num_threads(threads) if (threads > 1 && count > 1 && n * count >= 4096)
    {
      TreeScratch scratch;
#pragma omp for schedule(dynamic, 1)
      for (int64_t r = 0; r < count; ++r) {
        const int64_t s = sources[first + r];
        T* d = rows + r * n;
        int32_t* pv = trees ? via.data() + r * n : nullptr;
        int32_t* ph = trees ? hops.data() + r * n : nullptr;
        if (trees) tight_tree(*eg, s, d, kRawInf<T>, pv, ph, scratch);
        if (resum) {
          // BFS order: a predecessor's final value comes before its successors'.
          // The tree marks unreached vertices: no predecessor and not the source.
          d[s] = 0;
          for (size_t k = 1; k < scratch.queue.size(); ++k) {
            const int32_t v = scratch.queue[k], p = pv[v];
            d[v] = d[p] + edge_weight_of(g, p, v);
          }
          for (int64_t v = 0; v < n; ++v)
            if (pv[v] < 0 && v != s) d[v] = ValueTraits<T>::inf;
        } else if (negative) {
          // Integers (resum covers the floats): exact in int64.
          const int64_t ps = static_cast<int64_t>(rw.potential[s]);
          for (int64_t v = 0; v < n; ++v)
            d[v] = d[v] == kRawInf<T> ? ValueTraits<T>::inf
                                      : static_cast<T>(static_cast<int64_t>(d[v]) - ps +
                                                       static_cast<int64_t>(rw.potential[v]));
        } else if constexpr (std::is_integral_v<T>) {
          for (int64_t v = 0; v < n; ++v)
            if (d[v] == kRawInf<T>) d[v] = ValueTraits<T>::inf;
        }
        if (paths)
          for (int64_t v = 0; v < n; ++v)
            if (pv[v] == s) pv[v] = -1;  // the direct edge (and s itself: -1 already)
      }
    }
    post += t.seconds();
    sink.rows(static_cast<int64_t>(first), count, n, rows, paths ? via.data() : nullptr,
              paths ? hops.data() : nullptr);
  }
  profile("sssp: batches (waits for rows " + std::to_string(static_cast<int>(waited * 1e3)) + " ms)",
          phase.seconds());
  if (post > 0) st.kernel_seconds["rows: map back / trees (host)"] = post;
  st.relaxations = sssp_relaxations(static_cast<int64_t>(sources.size()), g.m());
  st.total = total.seconds();
  return st;
}

template <typename T>
std::unique_ptr<SsspSolver<T>> make_sssp_solver(const SolverSpec& spec) {
  if (spec.split > 1 && spec.backend != Backend::opencl)
    throw UsageError("--split applies to the OpenCL backend");
  auto engine = spec.backend == Backend::opencl ? make_opencl_sssp_engine<T>(spec)
                                                : make_dijkstra_engine<T>(spec);
  return std::make_unique<SsspSolver<T>>(std::move(engine));
}

template class SsspSolver<int32_t>;
template class SsspSolver<float>;
template class SsspSolver<double>;
template class SsspSolver<int64_t>;
template std::unique_ptr<SsspSolver<int32_t>> make_sssp_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<SsspSolver<float>> make_sssp_solver<float>(const SolverSpec&);
template std::unique_ptr<SsspSolver<double>> make_sssp_solver<double>(const SolverSpec&);
template std::unique_ptr<SsspSolver<int64_t>> make_sssp_solver<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
