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
};
struct StatsOptions {
  bool betweenness = false;  // Brandes over the engine's rows (weights >= 0)
  bool endpoints = false;    // networkx's endpoints=True
};
template <typename T>
Stats stats(int64_t n, const std::vector<Edge>& edges, const Options& options = {},
            const StatsOptions& what = {});

// Reads a graph in any input format: bin (course), gr (DIMACS), mtx (Matrix
// Market), edges (text "u v w"); format "auto" picks it by the extension. Error
// names the file and line of malformed input.
Graph read_graph(const std::string& path, const std::string& format = "auto");

// "0.1.0"; build_info(): the text of `ocl_sp --version` (revision, build type,
// OpenCL target, features).
const char* version();
std::string build_info();

}  // namespace ocl_sp
