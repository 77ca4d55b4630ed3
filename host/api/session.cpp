// ocl_sp::Session (include/ocl_sp/ocl_sp.hpp): the solvers of one set of options
// kept between calls, over the same Solver objects, row sinks and checks as the
// free functions of api.cpp; and the device queries and cancellation of the API.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>

#include "api/api_internal.hpp"
#include "api/options_spec.hpp"
#include "cl/device.hpp"
#include "graph/graph.hpp"
#include "graph/matrix.hpp"
#include "graph/negative_cycle.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/solver.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"

namespace ocl_sp {

namespace api {

template <typename T>
Csr<T> take_csr(const char* what, CsrGraph<T>&& g) {
  const std::string w(what);
  const int64_t n = g.n;
  if (n <= 0) throw UsageError(w + ": n must be at least 1, got " + std::to_string(n));
  if (n >= std::numeric_limits<int32_t>::max())
    throw UsageError(w + ": the graph has too many vertices (at most 2^31 - 2)");
  if (static_cast<int64_t>(g.offsets.size()) != n + 1)
    throw UsageError(w + ": offsets has " + std::to_string(g.offsets.size()) +
                     " entries; a CSR graph of n = " + std::to_string(n) + " needs n + 1");
  const int64_t m = static_cast<int64_t>(g.targets.size());
  if (g.weights.size() != g.targets.size())
    throw UsageError(w + ": " + std::to_string(g.targets.size()) + " targets but " +
                     std::to_string(g.weights.size()) + " weights");
  if (g.offsets[0] != 0 || g.offsets[static_cast<size_t>(n)] != m)
    throw UsageError(w + ": offsets must run from 0 to the number of edges (" + std::to_string(m) + ")");
  for (int64_t u = 0; u < n; ++u)
    if (g.offsets[static_cast<size_t>(u)] > g.offsets[static_cast<size_t>(u) + 1])
      throw UsageError(w + ": offsets decrease at vertex " + std::to_string(u));
  for (int64_t u = 0; u < n; ++u)
    for (int64_t k = g.offsets[static_cast<size_t>(u)]; k < g.offsets[static_cast<size_t>(u) + 1]; ++k) {
      const int32_t v = g.targets[static_cast<size_t>(k)];
      const T x = g.weights[static_cast<size_t>(k)];
      if (v < 0 || v >= n)
        throw UsageError(w + ": edge " + std::to_string(u) + " -> " + std::to_string(v) +
                         " has a vertex outside [0, " + std::to_string(n) + ")");
      if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(x))
          throw UsageError(w + ": edge " + std::to_string(u) + " -> " + std::to_string(v) +
                           " has a weight that is not finite");
    }
  Csr<T> c;
  c.n = n;
  c.off = std::move(g.offsets);
  c.col = std::move(g.targets);
  c.w = std::move(g.weights);
  check_csr_range(what, c);
  return c;
}

template <typename T>
void check_csr_range(const char* what, const Csr<T>& g) {
  if constexpr (std::is_integral_v<T>) {
    const double limit = static_cast<double>(ValueTraits<T>::finite_limit);
    double max_abs = 0, total = 0;
    std::vector<double> mags;
    for (int64_t u = 0; u < g.n; ++u)
      for (int64_t k = g.off[static_cast<size_t>(u)]; k < g.off[static_cast<size_t>(u) + 1]; ++k) {
        if (g.col[static_cast<size_t>(k)] == u) continue;  // never on a shortest path
        const double a = std::fabs(static_cast<double>(g.w[static_cast<size_t>(k)]));
        if (a >= limit)
          throw UsageError(std::string(what) + ": edge " + std::to_string(u) + " -> " +
                           std::to_string(g.col[static_cast<size_t>(k)]) + " is outside the exact " +
                           ValueTraits<T>::name() + " range (|w| < " +
                           std::to_string(ValueTraits<T>::finite_limit) + ")");
        max_abs = std::max(max_abs, a);
        total += a;
        mags.push_back(a);
      }
    const double k = static_cast<double>(std::max<int64_t>(g.n - 1, 0));
    if (max_abs * k < limit || total < limit) return;
    const size_t take = std::min(mags.size(), static_cast<size_t>(k));
    const double bound = largest_sum(mags, take, limit);
    if (bound >= limit)
      throw UsageError(std::string("path lengths could exceed the exact ") + ValueTraits<T>::name() +
                       " range: the " + std::to_string(take) + " largest |weights| add up to " +
                       std::to_string(bound) + " (limit " +
                       std::to_string(ValueTraits<T>::finite_limit) + ")");
  } else {
    (void)what;
    (void)g;
  }
}

}  // namespace api

namespace {

using api::describe;
using api::translated;

// Rows handed on to the caller's function, as they come.
template <typename T>
class CallbackSink final : public RowSink<T> {
 public:
  explicit CallbackSink(const RowsSink<T>& f) : f_(f) {}
  void rows(int64_t first, int64_t count, int64_t, const T* d, const int32_t*, const int32_t*) override {
    f_(first, count, d);
  }

 private:
  const RowsSink<T>& f_;
};

// Rows and their shortest-path trees: the engine's via rows (-1 for a direct
// edge from the source) become parents (the source there; -1 for the source
// and the unreached).
template <typename T>
class TreeSink final : public RowSink<T> {
 public:
  TreeSink(const TreeRowsSink<T>& f, const std::vector<int64_t>& sources) : f_(f), sources_(sources) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t*) override {
    parents_.resize(static_cast<size_t>(count * n));
    const T inf = ValueTraits<T>::inf;
#pragma omp parallel for schedule(static) if (count > 1 && count * n >= (int64_t{1} << 21))
    for (int64_t r = 0; r < count; ++r) {
      const int64_t row = first + r;
      const int64_t s = sources_.empty() ? row : sources_[static_cast<size_t>(row)];
      const T* dr = d + r * n;
      int32_t* p = parents_.data() + r * n;
      for (int64_t j = 0; j < n; ++j) {
        if (j == s || dr[j] == inf || via == nullptr) {
          p[j] = -1;
        } else {
          const int32_t q = via[r * n + j];
          p[j] = q >= 0 ? q : static_cast<int32_t>(s);
        }
      }
    }
    f_(first, count, d, parents_.data());
  }

 private:
  const TreeRowsSink<T>& f_;
  const std::vector<int64_t>& sources_;
  std::vector<int32_t> parents_;
};

// The panel engine's progress meter (util/progress.hpp) feeds the callback.
struct ProgressHook {
  explicit ProgressHook(const std::function<void(double)>& f) { Progress::set_thread_callback(f); }
  ~ProgressHook() { Progress::set_thread_callback(nullptr); }
};

void check_sources(const char* what, const std::vector<int64_t>& sources, int64_t n) {
  for (int64_t s : sources)
    if (s < 0 || s >= n)
      throw UsageError(std::string(what) + ": source " + std::to_string(s) + " outside [0, " +
                       std::to_string(n) + ")");
}

// A public Matrix's values as the readers check an edge list's (graph/graph.hpp
// check_range): no NaN, no -inf; integers are unreachable<T>() or |w| below the
// exact range's limit, and the n - 1 largest off-diagonal |w| add up to less
// than it (a value past INF or a NaN would otherwise come back as a wrong
// distance). The diagonal's non-negative values read as 0 and are not checked.
template <typename T>
void check_matrix_values(const DistMatrix<T>& d) {
  const int64_t n = d.n();
  const T inf = ValueTraits<T>::inf;
  const double limit = [] {
    if constexpr (std::is_integral_v<T>)
      return static_cast<double>(ValueTraits<T>::finite_limit);
    else
      return 0.0;
  }();
  // Whether entry (i, j) is no weight at all: NaN, -inf; for integers a value
  // past the exact range (INF itself is "no edge"; the diagonal's x >= 0 read as 0).
  const auto bad = [&](int64_t i, int64_t j) {
    const T x = d(i, j);
    if constexpr (std::is_floating_point_v<T>) {
      return std::isnan(x) || x == -inf;
    } else {
      if (x == inf || (i == j && x >= 0)) return false;
      return std::fabs(static_cast<double>(x)) >= limit;
    }
  };
  // One pass on every core (the matrix may be large): the first bad row, and for
  // integers the largest and the total off-diagonal |w| of the cheap bounds.
  int64_t first_bad = n;
  double max_abs = 0, total = 0;
#pragma omp parallel for schedule(static) reduction(min : first_bad) reduction(max : max_abs) \
    reduction(+ : total) if (n * n >= (int64_t{1} << 21))
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (bad(i, j)) first_bad = std::min(first_bad, i);
      if constexpr (std::is_integral_v<T>) {
        const T x = d(i, j);
        if (i == j || x == inf) continue;
        const double a = std::fabs(static_cast<double>(x));
        max_abs = std::max(max_abs, a);
        total += a;
      }
    }
  if (first_bad < n)
    for (int64_t j = 0; j < n; ++j)
      if (bad(first_bad, j)) {
        const std::string at = "all_pairs: the matrix value at (" + std::to_string(first_bad) + ", " +
                               std::to_string(j) + ")";
        if constexpr (std::is_floating_point_v<T>)
          throw UsageError(at + " is not a weight (NaN or -inf)");
        else
          throw UsageError(at + " is outside the exact " + ValueTraits<T>::name() + " range (|w| < " +
                           std::to_string(ValueTraits<T>::finite_limit) + "; unreachable<T>() for no edge)");
      }
  if constexpr (std::is_integral_v<T>) {
    const double k = static_cast<double>(std::max<int64_t>(n - 1, 0));
    if (max_abs * k < limit || total < limit) return;
    // The n - 1 largest |w| (a heap of them: never a copy of the matrix).
    std::priority_queue<double, std::vector<double>, std::greater<double>> top;
    const size_t take = static_cast<size_t>(k);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const T x = d(i, j);
        if (x == inf || i == j) continue;
        const double a = std::fabs(static_cast<double>(x));
        if (top.size() < take) {
          top.push(a);
        } else if (a > top.top()) {
          top.pop();
          top.push(a);
        }
      }
    const size_t count = top.size();
    double bound = 0;
    for (; !top.empty(); top.pop()) bound += top.top();
    if (bound >= limit)
      throw UsageError(std::string("all_pairs: path lengths could exceed the exact ") +
                       ValueTraits<T>::name() + " range: the " + std::to_string(count) +
                       " largest |weights| of the matrix add up to " + std::to_string(bound) +
                       " (limit " + std::to_string(ValueTraits<T>::finite_limit) + ")");
  }
}

template <typename T>
void fill_stats(Stats& r, const StatsSink<T>& sink) {
  const VertexStats& v = sink.vertices();
  const GraphStats g = sink.summary();
  r.reach = v.reach;
  r.eccentricity = v.eccentricity;
  r.closeness = v.closeness;
  r.harmonic = v.harmonic;
  r.diameter = g.diameter;
  r.radius = g.radius;
  r.reachable_pairs = g.reachable_pairs;
  r.average_shortest_path_length = g.average_shortest_path_length;
  r.vertex = v.vertex;
  r.sources = g.sources;
}

}  // namespace

// One solver per value type: the options' algorithm (the dense one) and the
// multi-source engine; with algo sssp the two are the same object.
template <typename T>
struct Solvers {
  std::unique_ptr<Solver<T>> dense;
  std::unique_ptr<SsspSolver<T>> sssp;
};

struct Session::Impl {
  Options options;
  SolverSpec spec;
  bool fell_back = false;
  // The command line's matrices come from its readers, whose checks they passed.
  bool checked_input = false;
  std::mutex mu;  // one call at a time
  std::tuple<Solvers<int32_t>, Solvers<int64_t>, Solvers<float>, Solvers<double>> solvers;

  template <typename T>
  Solvers<T>& of() {
    return std::get<Solvers<T>>(solvers);
  }
  // The dense solver (built at the first call; *reused tells).
  template <typename T>
  Solver<T>& dense(bool* reused) {
    if (spec.algo == Algo::sssp) return sssp<T>(reused);
    auto& s = of<T>().dense;
    *reused = s != nullptr;
    if (!s) s = make_solver<T>(spec);
    return *s;
  }
  // Rows of `sources` (trees too with `paths`) into `to` on the multi-source engine.
  template <typename T>
  SolveInfo rows_to(const Csr<T>& g, const std::vector<int64_t>& sources, RowSink<T>& to, bool paths) {
    std::lock_guard<std::mutex> lock(mu);
    bool reused = false;
    SsspSolver<T>& s = sssp<T>(&reused);
    const RunStats st = s.solve_rows(g, sources, to, paths);
    if (options.progress) options.progress(1.0);
    SolveInfo r;
    describe(r, s.info(), st, reused);
    return r;
  }
  template <typename T>
  SsspSolver<T>& sssp(bool* reused) {
    auto& s = of<T>().sssp;
    *reused = s != nullptr;
    if (!s) {
      SolverSpec sp = spec;
      sp.algo = Algo::sssp;
      s = make_sssp_solver<T>(sp);
    }
    return *s;
  }
  template <typename T>
  Result<T> all_pairs(DistMatrix<T>& d, const std::optional<DistMatrix<T>>* input, bool want_paths) {
    bool reused = false;
    Solver<T>& solver = dense<T>(&reused);
    PathMatrix paths;
    paths.with_hops = options.hops;
    RunStats st;
    {
      ProgressHook hook(options.progress);
      try {
        st = solver.solve(d, want_paths ? &paths : nullptr);
      } catch (const NegativeCycleError& e) {
        rethrow_with_cycle(e, input && *input ? &**input : nullptr);
      }
    }
    if (options.progress) options.progress(1.0);
    Result<T> r;
    r.n = d.n();
    r.distances = std::move(d.values());
    if (want_paths) {
      r.via = std::move(paths.via);
      if (options.hops) r.hops = std::move(paths.hops);  // else a route's scratch, if any: freed
    }
    describe(r, solver.info(), st, reused);
    return r;
  }
};

Session::Session(Options options) : impl_(std::make_unique<Impl>()) {
  translated([&] {
    impl_->options = std::move(options);
    apply_options(impl_->spec, impl_->options, {}, &impl_->fell_back);
    // The command line resolves --algo auto per graph; a Session solves whatever
    // graphs it is given with one algorithm, named up front.
    if (impl_->spec.algo == Algo::automatic)
      throw UsageError("Options::algo 'auto' is chosen per graph: call choose_algorithm(n, m, sources) "
                       "and give the algorithm it names (fw, squaring, fw-naive), or use rows()/stats() "
                       "for the multi-source engine");
    return 0;
  });
}
Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session SessionAccess::of(const SolverSpec& spec, bool hops) {
  Session s(std::make_unique<Session::Impl>());
  s.impl_->options.hops = hops;
  s.impl_->spec = spec;
  s.impl_->checked_input = true;
  s.impl_->options.algo = to_string(spec.algo);
  s.impl_->options.backend = to_string(spec.backend);
  s.impl_->options.device = spec.device;
  return s;
}
Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
const Options& Session::options() const { return impl_->options; }
bool Session::fell_back_to_openmp() const { return impl_->fell_back; }

template <typename T>
Result<T> Session::all_pairs(int64_t n, const std::vector<Edge>& edges) {
  return translated([&] {
    if (n <= 0) throw UsageError("all_pairs: n must be at least 1, got " + std::to_string(n));
    Graph g;
    g.n = n;
    g.edges = edges;
    check_range<T>(g);
    DistMatrix<T> d = to_matrix<T>(g);
    g = Graph();
    std::optional<DistMatrix<T>> input;
    if (std::any_of(edges.begin(), edges.end(), [](const Edge& e) { return e.w < 0; })) input = d;
    std::lock_guard<std::mutex> lock(impl_->mu);
    return impl_->all_pairs<T>(d, &input, impl_->options.paths);
  });
}

template <typename T>
Result<T> Session::all_pairs(Matrix<T> adjacency) {
  const bool paths = impl_->options.paths;
  return all_pairs<T>(std::move(adjacency), paths);
}

template <typename T>
Result<T> Session::all_pairs(Matrix<T> adjacency, bool paths) {
  return translated([&] {
    const int64_t n = adjacency.n;
    if (n <= 0) throw UsageError("all_pairs: n must be at least 1, got " + std::to_string(n));
    if (static_cast<int64_t>(adjacency.values.size()) != n * n)
      throw UsageError("all_pairs: the matrix has " + std::to_string(adjacency.values.size()) +
                       " values; n = " + std::to_string(n) + " needs n * n");
    DistMatrix<T> d(n, std::move(adjacency.values));  // the caller's memory: no copy
    if (!impl_->checked_input) check_matrix_values(d);
    for (int64_t i = 0; i < n; ++i) d(i, i) = std::min(d(i, i), T{0});  // < 0: a negative self-loop
    std::lock_guard<std::mutex> lock(impl_->mu);
    return impl_->all_pairs<T>(d, nullptr, paths);
  });
}

template <typename T>
SolveInfo Session::rows(CsrGraph<T> graph, const std::vector<int64_t>& sources,
                        const RowsSink<T>& sink) {
  return translated([&] {
    if (!sink) throw UsageError("rows: no sink function given");
    check_sources("rows", sources, graph.n);
    const Csr<T> g = api::take_csr("rows", std::move(graph));
    CallbackSink<T> to(sink);
    return impl_->rows_to(g, sources, to, false);
  });
}

template <typename T>
SolveInfo Session::rows(CsrGraph<T> graph, const std::vector<int64_t>& sources,
                        const TreeRowsSink<T>& sink) {
  return translated([&] {
    if (!sink) throw UsageError("rows: no sink function given");
    check_sources("rows", sources, graph.n);
    const Csr<T> g = api::take_csr("rows", std::move(graph));
    TreeSink<T> to(sink, sources);
    return impl_->rows_to(g, sources, to, true);
  });
}

template <typename T>
Stats Session::stats(CsrGraph<T> graph, const StatsOptions& what) {
  return translated([&] {
    if (what.betweenness && !what.sources.empty())
      throw UsageError("stats: betweenness covers every vertex; no sources with it");
    check_sources("stats", what.sources, graph.n);
    const Csr<T> g = api::take_csr("stats", std::move(graph));
    const int64_t n = g.n;
    std::lock_guard<std::mutex> lock(impl_->mu);
    bool reused = false;
    SsspSolver<T>& s = impl_->sssp<T>(&reused);
    StatsSink<T> sink(n, what.sources);
    std::vector<std::string> notes;
    RunStats st;
    Stats r;
    if (what.betweenness) {
      // Brandes needs every row: the forward pass goes to both sinks (the stats
      // sink's column figures still come from its own pass where it needs one).
      BetweennessSink<T> bc(g, {}, what.endpoints, false,
                            impl_->spec.backend == Backend::serial ? 1 : 0);
      // One pass of rows for both where it can (stats_betweenness_rows): the
      // CPU engines' rows to both sinks, the device's figures beside Brandes'
      // passes; no row crosses to the host from a device with doubles.
      std::string where;
      st = stats_betweenness_rows(s, g, sink, bc, notes, where);
      notes.push_back("betweenness: " + where);
      r.betweenness = bc.vertex_sums();
      const double scale = betweenness_scale(n, true, true, 0, what.endpoints);
      if (scale != 0)
        for (double& x : r.betweenness) x *= scale;
    } else {
      st = s.solve_stats_rows(g, what.sources, sink, sink, notes);
    }
    if (impl_->options.progress) impl_->options.progress(1.0);
    fill_stats(r, sink);
    describe(r.info, s.info(), st, reused);
    r.info.notes = std::move(notes);
    return r;
  });
}

namespace {

// A dense solve's description as the multi-source functions give theirs.
template <typename T>
SolveInfo solve_info(const Result<T>& d) {
  SolveInfo i;
  i.algorithm = d.algorithm;
  i.backend = d.backend;
  i.device = d.device;
  i.params = d.params;
  i.placement = d.placement;
  i.timings = d.timings;
  i.relaxations = d.relaxations;
  i.params_source = d.params_source;
  i.program_cache = d.program_cache;
  i.details = d.details;
  return i;
}

}  // namespace

template <typename T>
Stats Session::stats(Matrix<T> adjacency, const StatsOptions& what) {
  if (what.betweenness)
    throw InvalidArgument("stats: betweenness comes from the rows of the multi-source engine: "
                          "give the graph as edges or a CsrGraph");
  if (!what.sources.empty())
    throw InvalidArgument("stats: the figures of chosen sources come from the multi-source "
                          "engine: give the graph as a CsrGraph");
  Result<T> d = all_pairs<T>(std::move(adjacency), false);
  return translated([&] {
    const int64_t n = d.n;
    DistMatrix<T> m(n, std::move(d.distances));
    StatsSink<T> sink(n);
    stats_from_matrix(m, sink);
    Stats r;
    fill_stats(r, sink);
    r.info = solve_info(d);
    return r;
  });
}

template <typename T>
Betweenness Session::betweenness(CsrGraph<T> graph, const BetweennessOptions& what) {
  return translated([&] {
    check_sources("betweenness", what.sources, graph.n);
    const Csr<T> g = api::take_csr("betweenness", std::move(graph));
    std::lock_guard<std::mutex> lock(impl_->mu);
    const int threads = impl_->spec.backend == Backend::serial ? 1 : 0;
    BetweennessSink<T> sink(g, what.sources, what.endpoints, what.edges, threads);
    bool reused = false;
    SsspSolver<T>& s = impl_->sssp<T>(&reused);
    const RunStats st = betweenness_rows(s, g, sink);
    if (impl_->options.progress) impl_->options.progress(1.0);
    Betweenness r;
    r.vertex = sink.vertex_sums();
    if (what.edges) r.edge = sink.edge_sums();
    describe(r.info, s.info(), st, reused);
    return r;
  });
}

template <typename T>
void Session::prepare() {
  translated([&] {
    std::lock_guard<std::mutex> lock(impl_->mu);
    bool reused = false;
    impl_->dense<T>(&reused);
    return 0;
  });
}

#define OCL_SP_SESSION(T)                                                                        \
  template void Session::prepare<T>();                                                          \
  template Result<T> Session::all_pairs<T>(int64_t, const std::vector<Edge>&);                  \
  template Result<T> Session::all_pairs<T>(Matrix<T>);                                          \
  template Result<T> Session::all_pairs<T>(Matrix<T>, bool);                                    \
  template SolveInfo Session::rows<T>(CsrGraph<T>, const std::vector<int64_t>&,                 \
                                      const RowsSink<T>&);                                      \
  template SolveInfo Session::rows<T>(CsrGraph<T>, const std::vector<int64_t>&,                 \
                                      const TreeRowsSink<T>&);                                  \
  template Stats Session::stats<T>(CsrGraph<T>, const StatsOptions&);                           \
  template Stats Session::stats<T>(Matrix<T>, const StatsOptions&);                             \
  template Betweenness Session::betweenness<T>(CsrGraph<T>, const BetweennessOptions&);         \
  template Csr<T> api::take_csr<T>(const char*, CsrGraph<T>&&);                                \
  template void api::check_csr_range<T>(const char*, const Csr<T>&);
OCL_SP_SESSION(int32_t)
OCL_SP_SESSION(int64_t)
OCL_SP_SESSION(float)
OCL_SP_SESSION(double)
#undef OCL_SP_SESSION

void request_stop() { request_cancel(); }
void clear_stop() { clear_cancel(); }
bool stop_requested() { return cancel_requested(); }

std::vector<DeviceInfo> devices() {
  return translated([] {
    std::vector<DeviceInfo> out;
    for (const DeviceEntry& d : list_devices()) {
      DeviceInfo e;
      e.id = d.id();
      e.name = d.name;
      e.vendor = d.vendor;
      e.vendor_key = d.vendor_key();
      e.type = d.type;
      e.platform = d.platform_name;
      e.driver_version = d.driver_version;
      e.device_version = d.device_version;
      e.opencl_c_version = d.opencl_c_version;
      e.compute_units = d.compute_units;
      e.global_mem = d.global_mem;
      e.local_mem = d.local_mem;
      e.max_alloc = d.max_alloc;
      e.max_work_group = static_cast<int64_t>(d.max_work_group);
      out.push_back(std::move(e));
    }
    return out;
  });
}

bool devices_compute_in_float64(const std::string& device) {
  return translated([&] { return detail::devices_compute_in(device, ValueType::float64); });
}

AlgorithmChoice choose_algorithm(int64_t n, int64_t m, int64_t sources, const Options& options) {
  return translated([&] {
    SolverSpec spec;
    apply_options(spec, options);
    const std::string kind =
        spec.backend == Backend::opencl ? select_devices(spec.device, 1).front().type : "";
    const AutoChoice c = choose_algo(n, m, sources, spec.backend, kind);
    return AlgorithmChoice{to_string(c.algo), c.why};
  });
}

}  // namespace ocl_sp
