// ocl_sp._core: the pybind11 side of the Python package (python/ocl_sp/).
//
// One call, solve(), does everything that touches n x n memory:
//  1. builds the solver's DistMatrix straight from the caller's buffers (dense
//     numpy array of any strides, masked array, CSR / CSC / COO arrays of a
//     scipy.sparse matrix) in one conversion pass that also maps "no edge" to the
//     type's INF, applies scipy's rules and checks int32 exactness;
//  2. runs it through the public C++ API (include/ocl_sp/ocl_sp.hpp: an
//     ocl_sp::Session, cached, keeps the solvers between calls) in a worker thread
//     with the GIL released, while the calling thread checks for Ctrl-C every 50 ms
//     and turns it into ocl_sp::request_stop() and a KeyboardInterrupt;
//  3. hands the distances back as a numpy array that owns the C++ memory (no copy
//     for the native int32 / float32 type) or converts them to float64 in one pass,
//     and derives scipy's predecessor matrix from the path (via) matrix.
// The Python layer (python/ocl_sp/_api.py) parses scipy-style arguments and picks
// the arrays; everything here assumes they were validated for shape and kind.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "api/options_spec.hpp"
#include "graph/csr.hpp"
#include "graph/matrix.hpp"
#include "ocl_sp/ocl_sp.hpp"
#include "solvers/solver.hpp"
#include "util/errors.hpp"
#include "util/cancel.hpp"
#include "util/timer.hpp"

namespace py = pybind11;

namespace ocl_sp::python {
namespace {

using Clock = std::chrono::steady_clock;

// scipy's "no predecessor" value.
constexpr int32_t kNoPred = -9999;

// O(n^2) passes use OpenMP threads only from this many matrix entries on: below it
// one thread is about as fast, and on a loaded machine each parallel region can
// cost a scheduler time slice (milliseconds) waiting for the second thread.
constexpr int64_t kParallelEntries = int64_t{1} << 21;
inline bool parallel_for(int64_t n) { return n * n >= kParallelEntries; }

#include "convert.inc"

// ---------------------------------------------------------------------------
// Sessions (ocl_sp::Session): cached per (type, spec) so repeated calls skip the
// OpenCL set-up
// ---------------------------------------------------------------------------

struct CachedSession {
  std::string key;
  std::shared_ptr<ocl_sp::Session> session;
};

constexpr size_t kCachedSolvers = 4;
std::mutex g_cache_mu;
std::list<CachedSession> g_cache;  // most recently used first

std::string solver_key(ValueType t, const SolverSpec& s) {
  std::string k = std::string(to_string(t)) + "|" + to_string(s.algo) + "|" +
                  to_string(s.backend) + "|" + s.device + "|" + (s.use_tuned ? "tuned" : "no-tuned");
  for (const auto& [name, v] : s.params) k += "|" + name + "=" + std::to_string(v);
  // The environment picks the device when no spec is given.
  if (s.backend == Backend::opencl && s.device.empty())
    if (const char* e = std::getenv("OCL_SP_DEVICE")) k += "|env=" + std::string(e);
  return k;
}

// The session of a spec for value type T (its solvers are built at the first
// call of each kind; Result::details.reused tells).
template <typename T>
std::shared_ptr<ocl_sp::Session> get_session(const SolverSpec& spec) {
  const std::string key = solver_key(ValueTraits<T>::type, spec);
  {
    std::lock_guard<std::mutex> lock(g_cache_mu);
    for (auto it = g_cache.begin(); it != g_cache.end(); ++it)
      if (it->key == key) {
        CachedSession s = *it;
        g_cache.erase(it);
        g_cache.push_front(s);
        return s.session;
      }
  }
  ocl_sp::Options o;
  o.algo = to_string(spec.algo);
  o.backend = to_string(spec.backend);
  o.device = spec.device;
  o.use_tuned = spec.use_tuned;
  o.params = spec.params;
  auto session = std::make_shared<ocl_sp::Session>(o);
  std::lock_guard<std::mutex> lock(g_cache_mu);
  g_cache.push_front({key, session});
  while (g_cache.size() > kCachedSolvers) g_cache.pop_back();
  return session;
}

// Whether any OpenCL device exists (asked once per process).
bool have_opencl_device() {
  static const bool have = [] {
    try {
      return !ocl_sp::devices().empty();
    } catch (const std::exception&) {
      return false;
    }
  }();
  return have;
}

// ---------------------------------------------------------------------------
// Running with the GIL released; Ctrl-C cancels
// ---------------------------------------------------------------------------

// Runs work() in a worker thread. The calling thread releases the GIL and wakes
// every 50 ms to let Python run its signal handlers (PyErr_CheckSignals, which
// only does something in the main thread). A KeyboardInterrupt (or any exception
// a handler raises) requests cancellation from the solver (ocl_sp::request_stop()), which polls the flag
// between rounds; once the worker has stopped, the Python exception is raised and
// the result, complete or not, is dropped.
void run_interruptible(const std::function<void()>& work) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  PyObject *etype = nullptr, *evalue = nullptr, *etb = nullptr;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        work();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu);
      done = true;
      cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(mu);
    while (!done) {
      if (cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) break;
      if (etype != nullptr) continue;  // already interrupted: wait for the worker
      lock.unlock();
      {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
          PyErr_Fetch(&etype, &evalue, &etb);
          if (etype == nullptr) {
            etype = PyExc_KeyboardInterrupt;
            Py_INCREF(etype);
          }
          ocl_sp::request_stop();
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (etype != nullptr) {
    ocl_sp::clear_stop();
    PyErr_Restore(etype, evalue, etb);
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

// A numpy array that owns `v` (moved to the heap; freed with the array).
template <typename V>
py::array_t<V> own(std::vector<V>&& v, std::vector<py::ssize_t> shape) {
  auto* heap = new std::vector<V>(std::move(v));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<V>*>(p); });
  return py::array_t<V>(shape, heap->data(), owner);
}

// Rows `rows` of an n x n matrix into a fresh array, converted by f.
template <typename V, typename Src, typename F>
py::array_t<V> gather_rows(const Src* a, int64_t n, const std::vector<int64_t>& rows, F f) {
  py::array_t<V> out({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(n)});
  V* o = out.mutable_data();
  {
    py::gil_scoped_release release;
    const int64_t r = static_cast<int64_t>(rows.size());
#pragma omp parallel for schedule(static) if (r * n >= kParallelEntries)
    for (int64_t k = 0; k < r; ++k) {
      const Src* src = a + rows[k] * n;
      V* dst = o + k * n;
      for (int64_t j = 0; j < n; ++j) dst[j] = f(src[j]);
    }
  }
  return out;
}

// Blocked transpose src -> dst (n x n, int32).
void transpose(const int32_t* src, int32_t* dst, int64_t n) {
  const int64_t B = 64, nb = (n + B - 1) / B;
#pragma omp parallel for schedule(static) collapse(2) if (parallel_for(n))
  for (int64_t bi = 0; bi < nb; ++bi)
    for (int64_t bj = 0; bj < nb; ++bj)
      for (int64_t i = bi * B; i < std::min(n, bi * B + B); ++i)
        for (int64_t j = bj * B; j < std::min(n, bj * B + B); ++j) dst[j * n + i] = src[i * n + j];
}

// scipy's predecessor matrix from the path matrix, left in p.hops (row-major):
// pred(i,j) = i when via(i,j) = -1 (the direct edge), else pred(via(i,j), j) (the
// last edge lies in the second half); -9999 on the diagonal and for unreachable
// pairs. Column by column on the transposed via matrix with memoisation along the
// chain i -> via(i,j) -> via(via(i,j),j) -> ..., so O(n^2) in cache-friendly rows.
// The via matrix is overwritten. Throws RuntimeError for a corrupt matrix.
template <typename T>
void predecessors(const DistMatrix<T>& d, PathMatrix& p) {
  const int64_t n = d.n();
  int32_t* via = p.via.data();
  int32_t* tmp = p.hops.data();  // hops are not needed any more
  transpose(via, tmp, n);        // tmp row j = column j of via
  std::atomic<bool> corrupt{false};
#pragma omp parallel if (parallel_for(n))
  {
    std::vector<int32_t> chain;
#pragma omp for schedule(dynamic, 16)
    for (int64_t j = 0; j < n; ++j) {
      const int32_t* vcol = tmp + j * n;  // via(., j)
      int32_t* pcol = via + j * n;        // pred(., j), transposed
      std::fill(pcol, pcol + n, -2);      // unknown
      for (int64_t i = 0; i < n && !corrupt.load(std::memory_order_relaxed); ++i) {
        if (pcol[i] != -2) continue;
        chain.clear();
        int64_t k = i;
        int32_t value = -2;
        for (;;) {
          if (pcol[k] != -2) {
            value = pcol[k];
            break;
          }
          const int32_t v = vcol[k];
          if (v < 0) {
            value = static_cast<int32_t>(k);
            break;
          }
          chain.push_back(static_cast<int32_t>(k));
          if (v >= n || static_cast<int64_t>(chain.size()) > n) {
            corrupt = true;
            break;
          }
          k = v;
        }
        pcol[k] = value;
        for (int32_t c : chain) pcol[c] = value;
      }
    }
  }
  if (corrupt) throw RuntimeError("internal: the path matrix does not describe paths");
  transpose(via, tmp, n);  // pred row-major in tmp
  const T inf = ValueTraits<T>::inf;
  const T* dv = d.data();
#pragma omp parallel for schedule(static) if (parallel_for(n))
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i == j || dv[i * n + j] == inf) tmp[i * n + j] = kNoPred;
}

// The report of a solve: an ocl_sp::Result or SolveInfo (the same names).
template <typename R>
py::dict info_dict(const R& info) {
  const ocl_sp::RunDetails& d = info.details;
  py::dict r;
  r["device"] = info.device;
  r["vendor"] = d.vendor;
  r["driver"] = d.driver;
  r["algo"] = info.algorithm;
  r["backend"] = info.backend;
  r["params"] = d.param_values;
  r["params_source"] = info.params_source;
  r["cache"] = info.program_cache;
  r["solver_reused"] = d.reused;
  r["t_o"] = d.reused ? 0.0 : info.timings.setup;
  r["t_h"] = info.timings.transfers;
  r["t_k"] = info.timings.kernels;
  r["total"] = info.timings.solve;
  r["relaxations"] = info.relaxations;
  r["products"] = d.products;
  r["kernel_launches"] = d.kernel_launches;
  r["kernel_seconds"] = d.kernel_seconds;
  r["paths"] = d.paths;
  r["paths_kernels"] = d.paths_kernels;
  r["paths_bytes"] = d.paths_bytes;
  r["placement"] = info.placement;
  r["panel"] = d.panel;
  r["devices"] = d.devices;
  r["bytes_moved"] = d.bytes_moved;
  return r;
}

// The figures of ocl_sp.stats() as numpy arrays and the graph's figures (a line
// per vertex, or per listed source).
py::dict stats_dict(ocl_sp::Stats&& s, int64_t n) {
  std::vector<int64_t> ids = std::move(s.vertex);
  if (ids.empty())
    for (int64_t i = 0; i < n; ++i) ids.push_back(i);
  const py::ssize_t nn = static_cast<py::ssize_t>(ids.size());
  py::dict r;
  r["vertex"] = own(std::move(ids), {nn});
  r["reach"] = own(std::move(s.reach), {nn});
  r["eccentricity"] = own(std::move(s.eccentricity), {nn});
  r["closeness"] = own(std::move(s.closeness), {nn});
  r["harmonic"] = own(std::move(s.harmonic), {nn});
  r["diameter"] = s.diameter;
  r["radius"] = s.radius;
  r["reachable_pairs"] = s.reachable_pairs;
  r["average_shortest_path_length"] = s.average_shortest_path_length;
  if (s.sources > 0) r["sources"] = s.sources;  // distinct indices the summary covers
  return r;
}

// ---------------------------------------------------------------------------
// solve()
// ---------------------------------------------------------------------------

struct Request {
  Input in;
  Options opt;
  std::string dtype = "auto";  // auto | int32 | float32
  bool native = false;         // return the computed type (else float64)
  bool want_pred = false;
  std::vector<int64_t> rows;   // selected rows; empty with all_rows
  bool all_rows = true;
  SolverSpec spec;
  bool backend_given = false;  // backend= was passed (else OpenCL, or OpenMP without devices)
  bool stats = false;          // ocl_sp.stats(): per-vertex figures instead of the matrix
};

template <typename T>
py::tuple solve_typed(Request& rq, DistMatrix<T>& d, py::dict report, const Stopwatch& wall) {
  const int64_t n = d.n();
  ocl_sp::Matrix<T> adjacency{n, std::move(d.values())};
  Stopwatch t_solve;
  if (rq.stats) {
    // ocl_sp.stats(): the CLI's --stats figures of the solved matrix.
    std::optional<ocl_sp::Stats> figures;
    run_interruptible([&] { figures = get_session<T>(rq.spec)->template stats<T>(std::move(adjacency)); });
    report["t_solve"] = t_solve.seconds();
    for (auto item : info_dict(figures->info)) report[item.first] = item.second;
    Stopwatch t_stats;
    py::dict out = stats_dict(std::move(*figures), n);
    report["t_output"] = t_stats.seconds();
    report["wall"] = wall.seconds();
    return py::make_tuple(out, py::none(), report);
  }
  std::optional<ocl_sp::Result<T>> r;
  run_interruptible(
      [&] { r = get_session<T>(rq.spec)->template all_pairs<T>(std::move(adjacency), rq.want_pred); });
  report["t_solve"] = t_solve.seconds();
  for (auto item : info_dict(*r)) report[item.first] = item.second;
  d = DistMatrix<T>(n, std::move(r->distances));
  PathMatrix paths;
  if (rq.want_pred) {
    paths.n = n;
    paths.via = std::move(r->via);
    paths.hops = std::move(r->hops);  // predecessors()' scratch, as the solver left it
  }
  r.reset();

  Stopwatch t_out;
  const std::vector<py::ssize_t> full{static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n)};
  py::object pred = py::none();
  if (rq.want_pred) {
    {
      py::gil_scoped_release release;
      paths.hops.resize(paths.via.size());  // predecessors()' scratch and result
      predecessors(d, paths);
    }
    if (rq.all_rows)
      pred = own(std::move(paths.hops), full);
    else
      pred = gather_rows<int32_t>(paths.hops.data(), n, rq.rows, [](int32_t v) { return v; });
  }
  py::object dist;
  if (rq.native) {
    if (rq.all_rows)
      dist = own(std::move(d.values()), full);
    else
      dist = gather_rows<T>(d.data(), n, rq.rows, [](T v) { return v; });
  } else {
    std::vector<int64_t> all;
    const std::vector<int64_t>* rows = &rq.rows;
    if (rq.all_rows) {
      all.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) all[static_cast<size_t>(i)] = i;
      rows = &all;
    }
    const T inf = ValueTraits<T>::inf;
    dist = gather_rows<double>(d.data(), n, *rows, [inf](T v) {
      return v == inf ? std::numeric_limits<double>::infinity() : static_cast<double>(v);
    });
  }
  report["t_output"] = t_out.seconds();
  report["wall"] = wall.seconds();
  return py::make_tuple(dist, pred, report);
}

// Builds the matrix in type T; returns false (and leaves `why`) when the weights
// do not fit T.
template <typename T>
bool build(const Request& rq, DistMatrix<T>& m, Stats& st, Failure& why) {
  py::gil_scoped_release release;
  m = DistMatrix<T>(rq.in.n, ValueTraits<T>::inf);
  why = fill<T>(m, rq.in, rq.opt, st);
  return why.bad == Bad::none;
}

// The value type of one call, and the call in it. dtype 'auto': int32 when the
// weights keep int32 sums exact, int64 when only int64 does, float32 for float32
// input, float64 otherwise (float32 with report["inexact"] -> PrecisionWarning
// where the device has no float64); 'int32' | 'int64' | 'float32' | 'float64':
// that type or a ValueError. build(T{}, stats, why, bound*) -> (ok, input);
// run(T{}, input) -> the result tuple.
template <typename Build, typename Run>
py::tuple with_chosen_type(Request& rq, py::dict& report, py::list& notes, const Stopwatch& t_in,
                           Build&& build_in, Run&& run) {
  const std::string& want = rq.dtype;
  const auto finish = [&](auto t, const Stats& st, const std::shared_ptr<void>& input,
                          bool inexact) {
    report["edges"] = st.edges;
    report["dtype"] = ValueTraits<decltype(t)>::name();
    report["inexact"] = inexact;
    report["t_input"] = t_in.seconds();
    report["notes"] = notes;
    return run(t, input);
  };
  bool integers = true;  // no weight was refused as a non-integer
  const auto try_int = [&](auto t, std::shared_ptr<void>& input, Stats& st) {
    using T = decltype(t);
    const char* name = ValueTraits<T>::name();
    Failure why;
    double bound = 0;
    auto [ok, built] = build_in(t, st, why, &bound);
    if (!ok && why.bad == Bad::bad_index) throw UsageError(describe(why));
    if (ok && bound >= static_cast<double>(ValueTraits<T>::finite_limit)) {
      ok = false;
      const std::string msg = std::string("path lengths could exceed the exact ") + name +
                              " range: the n-1 largest |weights| add up to " + format_weight(bound) +
                              " (limit " + std::to_string(ValueTraits<T>::finite_limit) + ")";
      if (want == name) throw UsageError(msg + "; use dtype=numpy.float64 or smaller weights");
      report[(std::string(name) + "_refused").c_str()] = msg;
    } else if (!ok) {
      if (want == name) throw UsageError(describe(why, name));
      if (why.bad == Bad::non_integer) integers = false;
      report[(std::string(name) + "_refused").c_str()] = describe(why, name);
    }
    if (ok) input = built;
    return ok;
  };
  std::shared_ptr<void> input;
  Stats st;
  if (want == "auto" || want == "int32") {
    if (try_int(int32_t{}, input, st)) return finish(int32_t{}, st, input, false);
  }
  if (want == "int64" || (want == "auto" && integers)) {
    st = Stats();
    if (try_int(int64_t{}, input, st)) return finish(int64_t{}, st, input, false);
  }
  const bool f64 = want == "float64" ||
                   (want == "auto" && rq.in.vtype != VType::f32 &&
                    (rq.spec.backend != Backend::opencl ||
                     ocl_sp::devices_compute_in_float64(rq.spec.device)));
  Failure why;
  st = Stats();
  if (f64) {
    auto [ok, built] = build_in(double{}, st, why, nullptr);
    if (!ok) throw UsageError(describe(why, "float64"));
    return finish(double{}, st, built, false);
  }
  if (want == "auto" && rq.in.vtype != VType::f32)
    notes.append("the OpenCL device has no float64 (cl_khr_fp64): computed in float32");
  auto [ok, built] = build_in(float{}, st, why, nullptr);
  if (!ok) throw UsageError(describe(why, "float32"));
  return finish(float{}, st, built, st.inexact);
}

py::tuple solve(Request& rq) {
  const Stopwatch wall;
  py::dict report;
  py::list notes;
  report["n"] = rq.in.n;
  // Backend: as the CLI, OpenCL unless no OpenCL device exists at all.
  if (!rq.backend_given && rq.spec.device.empty() && std::getenv("OCL_SP_DEVICE") == nullptr &&
      !have_opencl_device()) {
    rq.spec.backend = Backend::openmp;
    notes.append("no OpenCL device found: fell back to the OpenMP backend");
  }
  Stopwatch t_in;
  return with_chosen_type(
      rq, report, notes, t_in,
      [&](auto t, Stats& st, Failure& why, double* bound) {
        using T = decltype(t);
        auto m = std::make_shared<DistMatrix<T>>();
        const bool ok = build(rq, *m, st, why);
        if constexpr (std::is_integral_v<T>)
          if (ok && bound) *bound = int_path_bound(*m, st);
        return std::make_pair(ok, std::shared_ptr<void>(m));
      },
      [&](auto t, const std::shared_ptr<void>& built) {
        using T = decltype(t);
        return solve_typed<T>(rq, *std::static_pointer_cast<DistMatrix<T>>(built), report, wall);
      });
}

// A call's choices as the solvers' spec, made as the C++ API makes it
// (api/options_spec.hpp, with Python's words in messages); backend '' is OpenCL
// here (each call decides the fallback to OpenMP without devices, with its note).
SolverSpec spec_of(const std::string& algo, const std::string& backend, const std::string& device,
                   const std::map<std::string, int>& params, bool use_tuned) {
  ocl_sp::Options choice;
  choice.algo = algo;
  choice.backend = backend.empty() ? "opencl" : backend;
  choice.device = device;
  choice.use_tuned = use_tuned;
  choice.params = params;
  SolverSpec spec;
  apply_options(spec, choice, {"device=", "backend='", "'"});
  return spec;
}

// scipy's single-source methods over rows: _core.rows().
#include "rows.inc"
// Betweenness centrality from the rows: _core.betweenness().
#include "betweenness.inc"

}  // namespace
}  // namespace ocl_sp::python

PYBIND11_MODULE(_core, m) {
  using namespace ocl_sp;
  using namespace ocl_sp::python;
  m.doc() = "ocl_sp C++ core (use the ocl_sp package, not this module)";
  m.attr("version") = OCL_SP_VERSION;
  m.attr("INT32_INF") = ValueTraits<int32_t>::inf;
  m.attr("INT64_INF") = ValueTraits<int64_t>::inf;

  static py::exception<NegativeCycleError> neg_cycle(m, "NegativeCycle");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ocl_sp::NegativeCycle& e) {  // the API's errors
      PyErr_SetObject(neg_cycle.ptr(), py::make_tuple(e.what(), e.vertex).ptr());
    } catch (const ocl_sp::Cancelled& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const ocl_sp::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ocl_sp::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const NegativeCycleError& e) {  // the module's own
      PyErr_SetObject(neg_cycle.ptr(), py::make_tuple(e.what(), e.vertex).ptr());
    } catch (const CancelledError& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ocl_sp::RuntimeError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def(
      "solve",
      [](const std::string& kind, py::array a, py::object b, py::object c, int64_t n,
         bool directed, bool unweighted, double null_value, const std::string& dtype,
         bool native, bool predecessors, py::object rows, const std::string& algo,
         const std::string& backend, const std::string& device, std::map<std::string, int> params,
         bool use_tuned, bool stats) {
        Request rq;
        rq.in.kind = kind;
        rq.in.a = std::move(a);
        if (!b.is_none()) rq.in.b = py::array(b);
        if (!c.is_none()) rq.in.c = py::array(c);
        rq.in.n = n;
        if (kind == "dense" || kind == "masked") {
          rq.in.vtype = value_type_of(rq.in.a);
        } else {
          rq.in.vtype = value_type_of(rq.in.c);
          rq.in.idx64 = rq.in.a.dtype().is(py::dtype::of<int64_t>());
          if (!rq.in.idx64 && !rq.in.a.dtype().is(py::dtype::of<int32_t>()))
            throw std::invalid_argument("internal: sparse index arrays must be int32 or int64");
          if (!rq.in.b || !rq.in.c || !rq.in.b.dtype().is(rq.in.a.dtype()))
            throw std::invalid_argument("internal: sparse index arrays of different types");
        }
        rq.opt.directed = directed;
        rq.opt.unweighted = unweighted;
        rq.opt.null_value = null_value;
        rq.dtype = dtype;
        rq.native = native;
        rq.want_pred = predecessors;
        rq.stats = stats;
        if (stats && (predecessors || !rows.is_none()))
          throw UsageError("stats covers every vertex, without predecessors");
        if (!rows.is_none()) {
          rq.all_rows = false;
          rq.rows = rows.cast<std::vector<int64_t>>();
          for (int64_t r : rq.rows)
            if (r < 0 || r >= n)
              throw UsageError("index " + std::to_string(r) + " out of range [0, " +
                               std::to_string(n) + ")");
        }
        // Without backend= the fallback to OpenMP is decided in solve().
        rq.spec = spec_of(algo, backend, device, params, use_tuned);
        rq.backend_given = !backend.empty();
        return solve(rq);
      },
      py::arg("kind"), py::arg("a"), py::arg("b"), py::arg("c"), py::arg("n"),
      py::arg("directed"), py::arg("unweighted"), py::arg("null_value"), py::arg("dtype"),
      py::arg("native"), py::arg("predecessors"), py::arg("rows"), py::arg("algo"),
      py::arg("backend"), py::arg("device"), py::arg("params"), py::arg("use_tuned"),
      py::arg("stats") = false);

  m.def("devices", [] {
    py::list out;
    for (const ocl_sp::DeviceInfo& d : ocl_sp::devices()) {
      py::dict e;
      e["id"] = d.id;
      e["name"] = d.name;
      e["vendor"] = d.vendor;
      e["vendor_key"] = d.vendor_key;
      e["type"] = d.type;
      e["platform"] = d.platform;
      e["driver_version"] = d.driver_version;
      e["device_version"] = d.device_version;
      e["opencl_c_version"] = d.opencl_c_version;
      e["compute_units"] = d.compute_units;
      e["global_mem"] = d.global_mem;
      e["local_mem"] = d.local_mem;
      e["max_alloc"] = d.max_alloc;
      e["max_work_group"] = d.max_work_group;
      out.append(e);
    }
    return out;
  });

  m.def("clear_cache", [] {
    std::lock_guard<std::mutex> lock(g_cache_mu);
    g_cache.clear();
  });
  m.def("cancel_requested", &ocl_sp::stop_requested);
  register_rows(m);
  register_betweenness(m);
}
