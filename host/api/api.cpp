// The public C++ API (include/ocl_sp/ocl_sp.hpp) over the core the command line
// runs: the same readers (graph/io.hpp), range checks and matrix conversion
// (graph/graph.hpp), Solver objects (make_solver) and negative-cycle search. Only
// the error types differ: internal errors leave as ocl_sp::Error / NegativeCycle.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <new>
#include <optional>
#include <utility>

#include "api/api_internal.hpp"
#include "api/options_spec.hpp"
#include "cl/cl.hpp"
#include "cl/cl_error.hpp"
#include "cl/device.hpp"
#include "graph/csr.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "ocl_sp/ocl_sp.hpp"
#include "solvers/solver.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/build_info.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"

namespace ocl_sp {

namespace {

using api::describe;
using api::translated;

template <typename T>
Result<T> solve_all_pairs(int64_t n, const std::vector<Edge>& edges, const Options& o) {
  if (n <= 0) throw UsageError("all_pairs: n must be at least 1, got " + std::to_string(n));
  SolverSpec spec;
  apply_options(spec, o);
  Graph g;
  g.n = n;
  g.edges = edges;
  check_range<T>(g);
  DistMatrix<T> d = to_matrix<T>(g);  // checks every edge id and weight
  g.edges.clear();
  g.edges.shrink_to_fit();
  // The adjacency is kept for the cycle search only when a negative edge exists.
  std::optional<DistMatrix<T>> input;
  if (std::any_of(edges.begin(), edges.end(), [](const Edge& e) { return e.w < 0; })) input = d;
  auto solver = make_solver<T>(spec);
  PathMatrix paths;
  RunStats st;
  {
    // The panel engine's progress meter (util/progress.hpp) feeds the callback.
    struct Hook {
      explicit Hook(const std::function<void(double)>& f) { Progress::set_thread_callback(f); }
      ~Hook() { Progress::set_thread_callback(nullptr); }
    } hook(o.progress);
    try {
      st = solver->solve(d, o.paths ? &paths : nullptr);
    } catch (const NegativeCycleError& e) {
      rethrow_with_cycle(e, input ? &*input : nullptr);
    }
  }
  if (o.progress) o.progress(1.0);
  const SolverInfo& i = solver->info();
  Result<T> r;
  r.n = n;
  r.distances = std::move(d.values());
  if (o.paths) r.via = std::move(paths.via);
  describe(r, i, st);
  return r;
}

// The multi-source engine's set-up shared by rows() and stats(): the options as
// the solver's spec (algorithm sssp), the graph's CSR (ids and weights checked).
template <typename T>
struct SsspCall {
  SolverSpec spec;
  Csr<T> csr;
  std::unique_ptr<SsspSolver<T>> solver;
  SsspCall(const char* what, int64_t n, const std::vector<Edge>& edges, const Options& o) {
    if (n <= 0) throw UsageError(std::string(what) + ": n must be at least 1, got " + std::to_string(n));
    apply_options(spec, o);
    spec.algo = Algo::sssp;
    Graph g;
    g.n = n;
    g.edges = edges;
    check_range<T>(g);
    csr = build_csr<T>(g);
    solver = make_sssp_solver<T>(spec);
  }
  SolveInfo info(const RunStats& st, std::vector<std::string> notes) const {
    SolveInfo r;
    describe(r, solver->info(), st);
    r.notes = std::move(notes);
    return r;
  }
};

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

template <typename T>
SolveInfo solve_rows(int64_t n, const std::vector<Edge>& edges, const std::vector<int64_t>& sources,
                     const RowsSink<T>& sink, const Options& o) {
  if (!sink) throw UsageError("rows: no sink function given");
  for (int64_t s : sources)
    if (s < 0 || s >= n)
      throw UsageError("rows: source " + std::to_string(s) + " outside [0, " + std::to_string(n) + ")");
  SsspCall<T> call("rows", n, edges, o);
  CallbackSink<T> to(sink);
  const RunStats st = call.solver->solve_rows(call.csr, sources, to, false);
  if (o.progress) o.progress(1.0);
  return call.info(st, {});
}

template <typename T>
Stats solve_stats(int64_t n, const std::vector<Edge>& edges, const Options& o, const StatsOptions& what) {
  SsspCall<T> call("stats", n, edges, o);
  StatsSink<T> sink(n);
  std::vector<std::string> notes;
  RunStats st;
  Stats r;
  if (what.betweenness) {
    // Brandes needs every row: the forward pass goes to both sinks (the stats
    // sink's column figures still come from its own pass where it needs one).
    BetweennessSink<T> bc(call.csr, {}, what.endpoints, false, call.spec.backend == Backend::serial ? 1 : 0);
    TeeSink<T> both({&sink, &bc});
    st = call.solver->solve_stats_rows(call.csr, {}, sink, both, notes);
    r.betweenness = bc.vertex_sums();
    const double scale = betweenness_scale(n, true, true, 0, what.endpoints);
    if (scale != 0)
      for (double& x : r.betweenness) x *= scale;
  } else {
    st = call.solver->solve_stats_rows(call.csr, {}, sink, sink, notes);
  }
  if (o.progress) o.progress(1.0);
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
  r.info = call.info(st, std::move(notes));
  return r;
}

}  // namespace

void apply_options(SolverSpec& spec, const Options& o, const OptionWords& words, bool* fell_back) {
  spec.algo = parse_algo(o.algo);
  spec.device = o.device;
  spec.use_tuned = o.use_tuned;
  for (const auto& [name, value] : o.params) spec.params[name] = value;
  if (o.block) spec.params["BLOCK"] = o.block;
  if (o.wg) spec.params["WG"] = o.wg;
  spec.panel = o.panel;
  spec.device_memory = o.device_memory;
  spec.split = o.split;
  spec.backend = Backend::opencl;
  if (!o.backend.empty()) {
    spec.backend = parse_backend(o.backend);
  } else if (o.device.empty() && !std::getenv("OCL_SP_DEVICE") && list_devices().empty()) {
    spec.backend = Backend::openmp;
    if (fell_back) *fell_back = true;
  }
  if (!o.device.empty() && spec.backend != Backend::opencl)
    throw UsageError(words.device + " selects an OpenCL device; it cannot be used with " +
                     words.backend_before + to_string(spec.backend) + words.backend_after);
}

template <typename T>
Result<T> all_pairs(int64_t n, const std::vector<Edge>& edges, const Options& options) {
  return translated([&] { return solve_all_pairs<T>(n, edges, options); });
}

template Result<int32_t> all_pairs<int32_t>(int64_t, const std::vector<Edge>&, const Options&);
template Result<float> all_pairs<float>(int64_t, const std::vector<Edge>&, const Options&);
template Result<double> all_pairs<double>(int64_t, const std::vector<Edge>&, const Options&);
template Result<int64_t> all_pairs<int64_t>(int64_t, const std::vector<Edge>&, const Options&);

template <typename T>
SolveInfo rows(int64_t n, const std::vector<Edge>& edges, const std::vector<int64_t>& sources,
               const RowsSink<T>& sink, const Options& options) {
  return translated([&] { return solve_rows<T>(n, edges, sources, sink, options); });
}

template <typename T>
Stats stats(int64_t n, const std::vector<Edge>& edges, const Options& options, const StatsOptions& what) {
  return translated([&] { return solve_stats<T>(n, edges, options, what); });
}

#define OCL_SP_API_ROWS(T)                                                                         \
  template SolveInfo rows<T>(int64_t, const std::vector<Edge>&, const std::vector<int64_t>&,      \
                             const RowsSink<T>&, const Options&);                                  \
  template Stats stats<T>(int64_t, const std::vector<Edge>&, const Options&, const StatsOptions&);
OCL_SP_API_ROWS(int32_t)
OCL_SP_API_ROWS(int64_t)
OCL_SP_API_ROWS(float)
OCL_SP_API_ROWS(double)
#undef OCL_SP_API_ROWS

template <typename T>
std::vector<int64_t> Result<T>::path(int64_t i, int64_t j) const {
  return translated([&] {
    if (via.empty())
      throw UsageError("Result::path needs the via matrix: solve with Options::paths = true");
    if (i < 0 || i >= n || j < 0 || j >= n)
      throw UsageError("Result::path: vertex " + std::to_string(i < 0 || i >= n ? i : j) +
                       " outside [0, " + std::to_string(n) + ")");
    std::vector<int64_t> out{i};
    if (i == j) return out;
    if (distances[static_cast<size_t>(i * n + j)] == unreachable<T>())
      return std::vector<int64_t>{};
    // path(a, b) = path(a, k) + path(k, b) for k = via(a, b), the edge a -> b for
    // -1; a path has at most n - 1 edges, so at most 2n splits: more means a
    // corrupt via matrix (never loop on one).
    std::vector<std::pair<int64_t, int64_t>> todo{{i, j}};
    for (int64_t steps = 0; !todo.empty(); ++steps) {
      if (steps > 2 * n) throw RuntimeError("Result::path: the via matrix does not describe paths");
      const auto [a, b] = todo.back();
      todo.pop_back();
      const int32_t k = via[static_cast<size_t>(a * n + b)];
      if (k < 0) {
        out.push_back(b);
      } else {
        todo.emplace_back(k, b);
        todo.emplace_back(a, k);
      }
    }
    return out;
  });
}

template struct Result<int32_t>;
template struct Result<float>;
template struct Result<double>;
template struct Result<int64_t>;

Graph read_graph(const std::string& path, const std::string& format) {
  return translated([&] { return read_graph(path, parse_input_format(format)); });
}

const char* version() { return OCL_SP_VERSION; }
std::string build_info() { return build_info_text(); }

}  // namespace ocl_sp
