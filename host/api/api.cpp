// The public C++ API (include/ocl_sp/ocl_sp.hpp) over the core the command line
// runs: the free functions (one-call Sessions, session.cpp), the readers
// (graph/io.hpp), the options as a SolverSpec (apply_options) and paths. The same
// range checks, CSR and matrix conversion (graph/graph.hpp) as the command line;
// internal errors leave as ocl_sp::Error and its subclasses.
#include <cstdlib>
#include <utility>

#include "api/api_internal.hpp"
#include "api/options_spec.hpp"
#include "cl/device.hpp"
#include "graph/csr.hpp"
#include "graph/graph.hpp"
#include "graph/io.hpp"
#include "ocl_sp/ocl_sp.hpp"
#include "solvers/solver.hpp"
#include "util/build_info.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

namespace {

using api::describe;
using api::translated;

// The free functions are one-call Sessions (session.cpp): the same checks,
// solvers and sinks, the solvers released at the end of the call.

// An edge list as the engine's CSR (ids and weights checked as the command line
// reads them: graph/graph.hpp), handed over as the public CsrGraph.
template <typename T>
CsrGraph<T> csr_of(int64_t n, const std::vector<Edge>& edges) {
  Graph g;
  g.n = n;
  g.edges = edges;
  check_range<T>(g);
  Csr<T> c = build_csr<T>(g);
  CsrGraph<T> out;
  out.n = c.n;
  out.offsets = std::move(c.off);
  out.targets = std::move(c.col);
  out.weights = std::move(c.w);
  return out;
}

void check_n(const char* what, int64_t n) {
  if (n <= 0) throw UsageError(std::string(what) + ": n must be at least 1, got " + std::to_string(n));
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
  translated([&] {
    check_n("all_pairs", n);
    return 0;
  });
  return Session(options).all_pairs<T>(n, edges);
}

template Result<int32_t> all_pairs<int32_t>(int64_t, const std::vector<Edge>&, const Options&);
template Result<float> all_pairs<float>(int64_t, const std::vector<Edge>&, const Options&);
template Result<double> all_pairs<double>(int64_t, const std::vector<Edge>&, const Options&);
template Result<int64_t> all_pairs<int64_t>(int64_t, const std::vector<Edge>&, const Options&);

template <typename T>
SolveInfo rows(int64_t n, const std::vector<Edge>& edges, const std::vector<int64_t>& sources,
               const RowsSink<T>& sink, const Options& options) {
  translated([&] {
    if (!sink) throw UsageError("rows: no sink function given");
    for (int64_t s : sources)
      if (s < 0 || s >= n)
        throw UsageError("rows: source " + std::to_string(s) + " outside [0, " + std::to_string(n) + ")");
    check_n("rows", n);
    return 0;
  });
  Session session(options);
  return session.rows<T>(translated([&] { return csr_of<T>(n, edges); }), sources, sink);
}

template <typename T>
Stats stats(int64_t n, const std::vector<Edge>& edges, const Options& options, const StatsOptions& what) {
  translated([&] {
    check_n("stats", n);
    return 0;
  });
  Session session(options);
  return session.stats<T>(translated([&] { return csr_of<T>(n, edges); }), what);
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
