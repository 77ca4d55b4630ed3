// The Solver interface: one object per algorithm x backend, built once (device,
// program, tunables) and then run on any number of matrices. The same objects
// serve `ocl_sp` solves, `bench`, `sweep` and the tests, so what is measured is
// what users run.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

// sssp: the multi-source engine (host/sparse/); automatic: resolved to one of the
// others per graph (sparse/auto_algo.hpp) before a solver is made.
enum class Algo { fw, squaring, fw_naive, sssp, automatic };
enum class Backend { opencl, openmp, serial };

const char* to_string(Algo a);
const char* to_string(Backend b);
Algo parse_algo(const std::string& s);        // UsageError if unknown
Backend parse_backend(const std::string& s);  // UsageError if unknown

// Kernel / tile parameters by name, passed to kernels as -DNAME=value:
// WG (squaring work-group edge T), BLOCK (fw block edge), and whatever further
// tunables a variant declares. Absent means "use the default".
using Tunables = std::map<std::string, int>;
std::string to_string(const Tunables& t);  // "BLOCK=64 WG=16"

// Set once when the solver is built.
struct SolverInfo {
  std::string algo, backend;
  std::string device = "cpu", vendor, driver;  // OpenCL device or the host CPU
  Tunables params;                              // effective values
  std::string params_source = "built-in";       // built-in | tuned (file) | command line
  double t_o = 0;                               // set-up seconds (context, JIT / cache)
  double t_context = 0, t_program = 0;          // parts of t_o: context + queue, programs
  std::string cache = "n/a";                    // program cache: hit | miss | n/a
};

// Per solve().
struct RunStats {
  double t_h = 0;           // host<->device transfers, seconds
  double t_k = 0;           // kernels (profiling events) or CPU compute, seconds
  double total = 0;         // wall time of solve(), seconds
  int products = 0;         // squaring: (min,+) products executed
  int kernel_launches = 0;  // OpenCL launches
  double relaxations = 0;   // d = min(d, a + b) operations counted, not padded
  // With a PathMatrix (solve(d, paths), paths != nullptr):
  bool paths = false;         // the hops and via matrices were computed
  double paths_bytes = 0;     // memory they took beside the distances (device or host)
  double paths_setup = 0;     // seconds of this solve spent building the path kernels
                              // (OpenCL: the first solve with paths; part of total)
  std::string paths_kernels;  // what computed them, e.g. "paths.cl BLOCK=32 WPT=8"
  std::string paths_cache = "n/a";  // program cache of the path kernels: hit | miss | n/a
  std::map<std::string, double> kernel_seconds;  // OpenCL: T_k split per kernel name
  // Placement (DESIGN.md "Scale"): "single buffer", "resident panels", "out of
  // core", with " on N devices" where several ran; empty on CPU backends.
  std::string placement;
  int64_t panel = 0;         // panel edge P of the panel engine (0: no panels)
  int devices = 1;           // OpenCL devices that took part
  double bytes_moved = 0;    // host <-> device bytes
  double copy_exposed = 0;   // seconds the slowest device sat idle in the panel engine: copies
                             // not hidden by kernels, host-side packing, waits (can exceed T_h)
  // Another pass of the same solve (the betweenness pass beside the stats' rows):
  // its seconds, work, launches, bytes and per-kernel seconds added to these.
  void add_pass(const RunStats& more) {
    t_h += more.t_h;
    t_k += more.t_k;
    total += more.total;
    relaxations += more.relaxations;
    kernel_launches += more.kernel_launches;
    bytes_moved += more.bytes_moved;
    for (const auto& [name, sec] : more.kernel_seconds) kernel_seconds[name] += sec;
  }
  std::vector<std::string> device_lines;  // per device: share, kernel time, bytes, idle
};

template <typename T>
class Solver {
 public:
  virtual ~Solver() = default;
  virtual const SolverInfo& info() const = 0;
  // Replaces d (adjacency: 0 diagonal, INF for no edge) by the distances.
  // When paths is non-null it is filled too (PathMatrix, graph/matrix.hpp: via and
  // hops in the lexicographic (distance, hops) order on every backend).
  // Throws NegativeCycleError.
  virtual RunStats solve(DistMatrix<T>& d, PathMatrix* paths) = 0;
};

namespace detail {
struct PanelPlan;  // solvers/panel_engine.hpp
}

struct SolverSpec {
  Algo algo = Algo::fw;
  Backend backend = Backend::opencl;
  std::string device;  // OpenCL device spec (DESIGN.md); empty = default order
  Tunables params;     // from the command line; override tuned/built-in values
  bool use_tuned = true;
  // The panel engine (DESIGN.md "Scale"): --panel P forces panels of edge P;
  // --device-memory caps what a solve may use per device (0: all of it); --split K
  // partitions each device into K sub-devices; progress: draw a progress line.
  int64_t panel = 0;
  uint64_t device_memory = 0;
  int split = 1;
  bool progress = false;
  // The fw placement `ocl_sp solve` planned before the graph existed
  // (detail::plan_fw): the OpenCL fw solver runs that plan for its n instead of
  // planning again, so the memory check and the solve cannot disagree. Null: the
  // solver plans itself (bench, tests, Python).
  std::shared_ptr<const detail::PanelPlan> fw_plan;
};

// Builds the solver; UsageError for impossible combinations (e.g. fw-naive on
// openmp) and parameters the device cannot take, RuntimeError for device failures.
template <typename T>
std::unique_ptr<Solver<T>> make_solver(const SolverSpec& spec);

// Relaxation count of one solve (n^3 for FW; n^3 per product for squaring).
double relaxation_count(Algo a, int64_t n, int products);

}  // namespace ocl_sp
