// Path reconstruction on the OpenCL solvers: the lazily built program of
// kernels/paths.cl (lexicographic (distance, hops) relaxations that record via)
// and the plumbing the fw, squaring and fw-naive solvers share to run it: build on
// the first solve that asks for paths, hop / via buffers, initialisation on the
// device, download into a PathMatrix and the RunStats fields.
#pragma once
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/paths.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/panel_paths.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

// What a path solve keeps of its input: the edges where sums are exact (the path
// matrix is then recovered from the distances, the same bytes on every backend
// and placement), else, for float weights whose sums could round, the matrix for
// repair_paths.
template <typename T>
struct PathInput {
  std::optional<InputEdges<T>> edges;
  std::optional<DistMatrix<T>> w;
};

class PathKernels {
 public:
  bool built() const { return built_; }
  // A kernel of the program and the work-group it is launched with.
  struct Launch {
    std::string name;
    std::vector<size_t> local;
  };
  // Builds kernels/<file> (paths.cl, fw_paths_packed.cl) with `t` and creates the
  // kernels, each checked for its work-group (probe_args as for OpenClCore::kernel,
  // per kernel name), plus `init_kernel` when given. The caller checks work-group
  // and __local sizes first (OpenClCore::check_group). Returns the seconds spent.
  double build(OpenClCore& core, const std::string& file, const Tunables& t,
               const std::vector<Launch>& kernels, const std::string& init_kernel,
               const std::function<void(const std::string&, cl::Kernel&)>& probe_args);
  cl::Kernel& operator[](const std::string& name) { return kernels_.at(name); }
  const std::string& file() const { return file_; }
  const cl::Program& program() const { return program_; }
  const Tunables& params() const { return t_; }

  // hop = 1 where d has an edge, else 0; via = -1; d normalised (ld x ld, padding
  // included, after OpenClCore::upload).
  void init(OpenClCore& core, int64_t ld, cl::Buffer& d, cl::Buffer& hop, cl::Buffer& via);
  // Reads the top-left n x n of hop and via into p.
  static void download(OpenClCore& core, int64_t n, int64_t ld, cl::Buffer& hop, cl::Buffer& via,
                       PathMatrix& p);
  // Exact sums: the path matrix recovered from the distances (recover_paths: the
  // kernels' hops, and via the smallest predecessor, as every placement gives it);
  // float sums that could round: repair_paths (graph/paths.hpp) against the input,
  // noting a repair in st.
  template <typename T>
  static void repair(const PathInput<T>& in, const DistMatrix<T>& d, PathMatrix& p, RunStats& st) {
    if (in.edges) {
      recover_paths(*in.edges, d, p);
      st.paths_kernels += "; via then from the distances' tight edges (the same on every backend)";
      return;
    }
    if (!in.w) return;
    if (const int64_t fixed = repair_paths(*in.w, d, p))
      st.paths_kernels += "; float rounding: " + std::to_string(fixed) + " hop counts recounted";
  }
  // OCL_SP_PATHS_REBUILD ("" unset; comparisons, tests): "0" runs the path kernels
  // (fw: the single buffer's, and the panels' paths recovered on the host; squaring
  // and fw-naive: theirs, not the distances and the search); unset (or "1"), exact
  // sums are rebuilt (fw, on the device) or recovered from the distances, and float
  // sums that could round run the path kernels.
  static std::string rebuild_mode() {
    const char* env = std::getenv("OCL_SP_PATHS_REBUILD");
    return env ? env : "";
  }
  // Exact sums, unless OCL_SP_PATHS_REBUILD=0: `distances()` (the solver's own
  // distance-only solve, RunStats), then hops and via from the distances' tight
  // edges on the host (recover_paths: what repair() would put in place of the path
  // kernels' anyway, so those kernels are skipped). nullopt, d untouched, where the
  // sums could round (fractional float weights) or OCL_SP_PATHS_REBUILD=0 keeps
  // the path kernels (tests, comparisons).
  template <typename T, typename Distances>
  static std::optional<RunStats> distances_then_paths(DistMatrix<T>& d, PathMatrix& p, Distances&& distances) {
    if (rebuild_mode() == "0") return std::nullopt;
    std::optional<InputEdges<T>> edges = exact_input_edges(d);
    if (!edges) return std::nullopt;
    const double nn = static_cast<double>(d.n()) * static_cast<double>(d.n());
    check_host_memory(static_cast<uint64_t>(nn * 8), "the path matrices (hops and via)");
    const Stopwatch sw;
    RunStats st = distances();
    const Stopwatch search;
    recover_paths(*edges, d, p, true);
    st.paths = true;
    st.paths_bytes = nn * 8;  // hops and via on the host
    st.paths_kernels = "distance kernels, then via and hops from the distances' tight edges on the host (" +
                       std::to_string(search.seconds()) + " s; the same on every backend)";
    st.total = sw.seconds();
    return st;
  }
  // What a path solve keeps for repair() (PathInput), taken before it runs.
  template <typename T>
  static PathInput<T> keep_input(const DistMatrix<T>& d) {
    PathInput<T> in;
    in.edges = exact_input_edges(d);
    if constexpr (std::is_floating_point_v<T>)
      if (!in.edges) in.w = d;
    return in;
  }
  // RunStats.paths*: extra device bytes (`buffers` int32 ld x ld matrices), what
  // ran ("paths.cl BLOCK=32 WPT=8"), the cache status and this solve's build seconds.
  void fill_stats(RunStats& st, int64_t ld, int buffers, double setup_seconds) const;

 private:
  bool built_ = false;
  std::string file_;
  Tunables t_;
  std::string cache_ = "n/a";
  cl::Program program_;
  cl::Kernel init_;
  std::map<std::string, cl::Kernel> kernels_;
};

}  // namespace ocl_sp::detail
