// ocl_sp public C++ API: all-pairs shortest paths on any OpenCL device (or the
// OpenMP / serial CPU solvers) from a program. The same Solver objects, readers
// and checks as the ocl_sp command line run underneath (host/api/api.cpp); link
// ocl_sp::ocl_sp (CMake) or `pkg-config --libs ocl_sp`. Kernels are embedded in
// the library: nothing needs the source tree at run time.
//
//   std::vector<ocl_sp::Edge> edges{{0, 1, 4}, {1, 2, -2}, {0, 2, 5}};
//   auto r = ocl_sp::all_pairs<int32_t>(3, edges);   // default device
//   r(0, 2) == 2;  r.algorithm == "fw";  r.timings.kernels ...
//
// Errors are exceptions: ocl_sp::Error (bad arguments, malformed files, device
// failures: what() says which and why) and ocl_sp::NegativeCycle (a subclass,
// carrying the cycle). Unreachable pairs: ocl_sp::kInt32Unreachable (2^30 - 1,
// as in the course's files) for int32, +infinity for float.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ocl_sp/graph.hpp"

namespace ocl_sp {

// Every failure the library reports.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bad arguments or input: an edge id outside [0, n), a weight the type cannot
// hold, an unknown device, algorithm or option, a malformed graph (the command
// line's usage errors, exit status 2; Python's ValueError).
struct InvalidArgument : Error {
  using Error::Error;
};

// A solve stopped by request_cancel(): no result.
struct Cancelled : Error {
  using Error::Error;
};

// The graph has a negative cycle: no distances. cycle lists its vertices
// (edges cycle[k] -> cycle[k+1] and back to cycle[0]) from its smallest vertex
// id, length is its total weight; cycle is empty when only a vertex on or
// reaching one is known (vertex).
struct NegativeCycle : Error {
  NegativeCycle(const std::string& message, long long v, std::vector<long long> c, double len)
      : Error(message), vertex(v), cycle(std::move(c)), length(len) {}
  long long vertex;
  std::vector<long long> cycle;
  double length;
};

// What distances hold for "no path": 2^30 - 1 in int32, 2^62 - 1 in int64 (as in
// files), +infinity in float and double.
constexpr int32_t kInt32Unreachable = 1073741823;
constexpr int64_t kInt64Unreachable = 4611686018427387903;
template <typename T>
constexpr T unreachable() {
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::infinity();
  else if constexpr (sizeof(T) == 8)
    return kInt64Unreachable;
  else
    return kInt32Unreachable;
}

// How to solve; every field has the command line's default. The names follow the
// ocl_sp options of the same name (docs/usage.md "Usage").
struct Options {
  std::string device;       // --device: amd | nvidia | intel | cpu | gpu | pocl | P:D | name
                            // substring, or a list ("0:0,0:1", "gpu:all"); "" = $OCL_SP_DEVICE,
                            // else the first GPU, else a CPU device
  std::string backend;      // --backend: opencl | openmp | serial; "" = opencl, or openmp when
                            // no OpenCL device exists (and no device was asked for)
  std::string algo = "fw";  // --algo: fw | squaring | fw-naive
  // Kernel tunables (--param NAME=VALUE, e.g. {"TILED", 1}, {"BLOCK", 64}); block and
  // wg are --block / --wg. Empty: the tuned values of `ocl_sp sweep`, else built-in.
  std::map<std::string, int> params;
  int block = 0, wg = 0;
  bool use_tuned = true;  // false = --no-tuned
  // Memory limits and placement (docs/scale.md "Scale"): --device-memory, --panel, --split.
  uint64_t device_memory = 0;  // bytes per device the solve may use; 0 = all
  int64_t panel = 0;           // panel edge of the panel engine (fw); 0 = from memory
  int split = 1;               // sub-devices per OpenCL device
  bool paths = false;          // also compute the via matrix (Result::via, Result::path)
  bool hops = true;            // with paths: Result::hops too; false leaves it empty, and the
                               // GPUs' route then skips its download (4 n^2 bytes)
  // Called with the fraction done (0..1): twice a second from a helper thread while
  // the panel engine runs (large n, --panel, --device-memory, several devices), and
  // with 1 on the calling thread when the solve is done.
  std::function<void(double fraction)> progress;
};

// The report's time split, seconds (docs/usage.md "Report").
struct Timings {
  double setup = 0;      // T_o: solver set-up = context + programs (+ kernel checks)
  double context = 0;    // OpenCL context and queue creation (the driver's)
  double programs = 0;   // OpenCL program build or load from the program cache
  double transfers = 0;  // T_h: host <-> device copies
  double kernels = 0;    // T_k: kernels (OpenCL profiling events) or CPU compute
  double solve = 0;      // the solve itself (T_h + T_k + host work)
  double total = 0;      // setup + solve
};

// What the solve did beyond the timings, for reports (the command line's --json
// fields of the same names).
struct RunDetails {
  std::string vendor, driver;  // the OpenCL device's vendor and driver version ("" on CPUs)
  std::map<std::string, int> param_values;  // the effective tunables by name
  int64_t panel = 0;           // panel edge of the panel engine (0: no panels)
  int devices = 1;             // OpenCL devices that took part
  double bytes_moved = 0;      // host <-> device bytes
  int products = 0;            // squaring: (min,+) products
  int kernel_launches = 0;     // OpenCL kernel launches
  std::map<std::string, double> kernel_seconds;  // T_k per kernel name (OpenCL)
  bool paths = false;          // the via matrix was computed
  std::string paths_kernels;   // what computed it, e.g. "paths.cl BLOCK=32 WPT=8"
  double paths_bytes = 0;      // memory it took beside the distances
  bool reused = false;  // a Session's solver existed before this call (an earlier call, prepare()):
                        // no set-up in it (timings.setup and its parts are the build's)
  double paths_setup = 0;       // seconds of the solve spent building the path kernels
  std::string paths_cache;      // their program cache: hit | miss | n/a
  double copy_exposed = 0;      // seconds the slowest device sat idle in the panel engine
  std::vector<std::string> device_lines;  // per device: share, kernel time, bytes, idle
};

template <typename T>
struct Result {
  int64_t n = 0;
  std::vector<T> distances;  // row-major n x n; unreachable<T>() for no path
  T operator()(int64_t i, int64_t j) const { return distances[static_cast<size_t>(i * n + j)]; }
  // With Options::paths: via(i,j) = an intermediate vertex of the recorded shortest
  // i -> j path (path(i,k) + path(k,j)), -1 for a single edge, the diagonal and
  // unreachable pairs (docs/usage.md "Paths"). Empty otherwise.
  std::vector<int32_t> via;
  // Vertices of a shortest i -> j path, i first, j last; empty when unreachable.
  // Error when the result has no via matrix.
  std::vector<int64_t> path(int64_t i, int64_t j) const;

  std::string algorithm;      // what ran: fw | squaring | fw-naive
  std::string backend;        // opencl | openmp | serial
  std::string device;         // the OpenCL device's name, or "cpu"
  std::string params;         // effective tunables, "BLOCK=128 TILED=1 ..."
  std::string params_source;  // built-in | tuned (file) | command line
  std::string program_cache;  // hit | miss | n/a
  std::string placement;      // single buffer | resident panels | out of core ... ("" on CPUs)
  Timings timings;
  double relaxations = 0;  // d = min(d, a + b) operations
  RunDetails details;
  // With Options::paths and Options::hops: hops(i,j) = the number of edges of the
  // recorded i -> j path of `via` (0 on the diagonal and for unreachable pairs).
  // Empty otherwise.
  std::vector<int32_t> hops;
};

// All pairs of n vertices (0-based) joined by `edges`; T = int32_t (exact; path
// lengths must stay below 2^29) or float. Parallel edges keep the minimum;
// non-negative self-loops are ignored. Throws Error (an edge id outside [0, n), a
// weight int32 cannot hold, an unknown device or algorithm, device failures) or
// NegativeCycle.
template <typename T>
Result<T> all_pairs(int64_t n, const std::vector<Edge>& edges, const Options& options = {});
template <typename T>
Result<T> all_pairs(const Graph& g, const Options& options = {}) {
  return all_pairs<T>(g.n, g.edges, options);
}
extern template Result<int32_t> all_pairs<int32_t>(int64_t, const std::vector<Edge>&,
                                                   const Options&);
extern template Result<float> all_pairs<float>(int64_t, const std::vector<Edge>&, const Options&);
extern template Result<double> all_pairs<double>(int64_t, const std::vector<Edge>&, const Options&);
extern template Result<int64_t> all_pairs<int64_t>(int64_t, const std::vector<Edge>&, const Options&);

// What ran and how long it took, for the functions below (Result has the same
// fields for all_pairs).
struct SolveInfo {
  std::string algorithm;  // sssp (the multi-source engine)
  std::string backend;    // opencl | openmp | serial
  std::string device;     // the OpenCL device's name(s), or "cpu"
  std::string params;     // effective tunables
  std::string placement;  // how the sources were placed ("" on CPUs)
  std::vector<std::string> notes;  // e.g. whether --stats took one pass or two
  Timings timings;
  double relaxations = 0;
  std::string params_source;  // built-in | tuned (file) | command line
  std::string program_cache;  // hit | miss | n/a
  RunDetails details;
};

// The multi-source engine (the command line's --algo sssp, --sources, --stats):
// rows of a graph from chosen sources, never an n x n matrix; Options::algo is
// not used (always sssp), the rest is as for all_pairs. Negative edges are
// reweighted (Johnson); a negative cycle throws NegativeCycle before any row.

// sink(first, count, rows): rows first .. first + count - 1 of the result (row i
// is sources[i], or vertex i when sources is empty), count x n values row-major,
// unreachable<T>() for no path; called in order, batch by batch as they complete,
// on the calling thread. The memory is the library's: copy what you keep.
template <typename T>
using RowsSink = std::function<void(int64_t first, int64_t count, const T* rows)>;
template <typename T>
SolveInfo rows(int64_t n, const std::vector<Edge>& edges, const std::vector<int64_t>& sources,
               const RowsSink<T>& sink, const Options& options = {});

// Per-vertex figures of the whole result, exactly as `ocl_sp --stats` writes them
// and networkx defines them (closeness_centrality with wf_improved, and
// harmonic_centrality, over distances *to* the vertex; betweenness_centrality
// normalised for a directed graph, when asked for), byte-identical on every
// backend and device.
struct Stats {
  std::vector<int64_t> reach;         // vertices reachable from v, v included
  std::vector<double> eccentricity;   // largest finite d(v, *)
  std::vector<double> closeness, harmonic;
  std::vector<double> betweenness;    // with StatsOptions::betweenness, else empty
  double diameter = 0, radius = 0;    // max / min eccentricity
  long long reachable_pairs = 0;      // ordered pairs u != v, v reachable from u
  double average_shortest_path_length = 0;  // over those pairs
  SolveInfo info;
  long long sources = 0;  // distinct sources the summary covers (0: every vertex)
  // The vertex of each line: empty when line v is vertex v (every vertex), else
  // StatsOptions::sources as listed (--stats --sources).
  std::vector<int64_t> vertex;
};
struct StatsOptions {
  bool betweenness = false;  // Brandes over the engine's rows (weights >= 0)
  bool endpoints = false;    // networkx's endpoints=True
  // The figures of these sources' rows alone (a line each, repeats kept; the
  // summary over the distinct ones), as --stats --sources. Empty: every vertex.
  // Not with betweenness, nor for a Matrix (Session::stats).
  std::vector<int64_t> sources;
};
template <typename T>
Stats stats(int64_t n, const std::vector<Edge>& edges, const Options& options = {},
            const StatsOptions& what = {});

// ---------------------------------------------------------------------------
// Graphs already in memory, and solvers kept between calls
// ---------------------------------------------------------------------------

// A dense adjacency: values[i * n + j] is the weight of the edge i -> j,
// unreachable<T>() where there is none; on the diagonal a negative value is a
// negative self-loop (a negative cycle), anything else reads as 0.
template <typename T>
struct Matrix {
  int64_t n = 0;
  std::vector<T> values;  // n x n, row-major
};

// Compressed rows: the edges of vertex u are targets[k], weights[k] for k in
// [offsets[u], offsets[u + 1]). Rows need not be sorted; a parallel edge is one
// more edge (distances take the shorter; betweenness counts each shortest one as
// a path of its own), a self-loop is ignored where its weight is >= 0.
template <typename T>
struct CsrGraph {
  int64_t n = 0;
  std::vector<int64_t> offsets;  // n + 1, offsets[0] = 0, non-decreasing
  std::vector<int32_t> targets;  // m, each in [0, n)
  std::vector<T> weights;        // m
};

// The rows of rows() with the shortest-path tree beside them: parents[r * n + v]
// is the vertex before v on the recorded shortest path from row r's source to v
// (the source itself for a direct edge), -1 for the source and for vertices it
// does not reach. Same calling rules as RowsSink.
template <typename T>
using TreeRowsSink =
    std::function<void(int64_t first, int64_t count, const T* rows, const int32_t* parents)>;

// Betweenness centrality as sums (networkx's betweenness_centrality before its
// rescale; Stats::betweenness is the normalised directed figure).
struct Betweenness {
  std::vector<double> vertex;  // per vertex
  std::vector<double> edge;    // per CSR edge k (with BetweennessOptions::edges), else empty
  SolveInfo info;
};
struct BetweennessOptions {
  std::vector<int64_t> sources;  // the sources of the sums (networkx's k sample); empty: all
  bool endpoints = false;        // networkx's endpoints=True
  bool edges = false;            // also the sum of each CSR edge
};

// A solver set-up (OpenCL context, programs, tuned parameters) kept alive between
// calls: the options are fixed when the session is made, each value type's and
// algorithm's solver is built at its first call and reused after it
// (Result::details.reused). Calls on one Session run one at a time (other threads
// wait); Sessions on the same device may run side by side. Options::algo picks
// all_pairs' algorithm; rows(), stats() and betweenness() run the multi-source
// engine. Errors as for the free functions.
struct SessionAccess;  // the library's own front ends (not part of the API)

class Session {
 public:
  explicit Session(Options options = {});
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Options& options() const;
  // Options::backend empty, no device asked for and no OpenCL device found: the
  // session runs on OpenMP (as the command line, which then notes it).
  bool fell_back_to_openmp() const;

  // all_pairs() of the edge list, or of a dense adjacency taken by value
  // (std::move it in: the distances are computed in its memory, no copy). With a
  // Matrix a NegativeCycle carries the vertex only (no copy of the input is kept
  // to search for the cycle).
  template <typename T>
  Result<T> all_pairs(int64_t n, const std::vector<Edge>& edges);
  template <typename T>
  Result<T> all_pairs(Matrix<T> adjacency);
  // The same with the via matrix or without, whatever Options::paths says.
  template <typename T>
  Result<T> all_pairs(Matrix<T> adjacency, bool paths);
  // rows() of a CSR graph (taken by value: std::move it in), with or without the
  // shortest-path tree; stats(); betweenness sums from the rows of the sources.
  template <typename T>
  SolveInfo rows(CsrGraph<T> graph, const std::vector<int64_t>& sources, const RowsSink<T>& sink);
  template <typename T>
  SolveInfo rows(CsrGraph<T> graph, const std::vector<int64_t>& sources,
                 const TreeRowsSink<T>& sink);
  template <typename T>
  Stats stats(CsrGraph<T> graph, const StatsOptions& what = {});
  template <typename T>
  Betweenness betweenness(CsrGraph<T> graph, const BetweennessOptions& what = {});
  // Builds the solver all_pairs<T> runs now (OpenCL context, programs): from a
  // thread of its own, while the graph is still being read, say.
  template <typename T>
  void prepare();
  // stats() of a dense adjacency by all_pairs (Options::algo) and a reduction of
  // its distances (no betweenness: InvalidArgument).
  template <typename T>
  Stats stats(Matrix<T> adjacency, const StatsOptions& what = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  explicit Session(std::unique_ptr<Impl> impl);
  friend struct SessionAccess;
};

// Asks every running solve to stop (any thread; async-signal-safe): the
// multi-source engine (between batches) and the panel engine (between panels)
// throw Cancelled; a single-buffer dense solve runs to its end. clear_stop() lets
// the next ones run; a request stays until then.
void request_stop();
void clear_stop();
bool stop_requested();

// The OpenCL devices found, in --device's P:D order (`ocl_sp devices`).
struct DeviceInfo {
  std::string id;          // "P:D"
  std::string name, vendor, vendor_key, type, platform;
  std::string driver_version, device_version, opencl_c_version;
  int64_t compute_units = 0;
  uint64_t global_mem = 0, local_mem = 0, max_alloc = 0;
  int64_t max_work_group = 0;
};
std::vector<DeviceInfo> devices();
// Whether every OpenCL device a --device string selects computes in float64
// (cl_khr_fp64).
bool devices_compute_in_float64(const std::string& device);
// --algo auto's choice for n vertices, m edges and that many sources: "fw" or
// "sssp" and why, from the same estimates as the command line.
struct AlgorithmChoice {
  std::string algo, why;
};
AlgorithmChoice choose_algorithm(int64_t n, int64_t m, int64_t sources, const Options& options = {});

// Reads a graph in any input format: bin (course), gr (DIMACS), mtx (Matrix
// Market), edges (text "u v w"); format "auto" picks it by the extension. Error
// names the file and line of malformed input.
Graph read_graph(const std::string& path, const std::string& format = "auto");

// "0.1.0"; build_info(): the text of `ocl_sp --version` (revision, build type,
// OpenCL target, features).
const char* version();
std::string build_info();

}  // namespace ocl_sp
