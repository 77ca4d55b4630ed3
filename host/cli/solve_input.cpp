// The solve command's input side (solve_options.hpp): --weights, the output path
// checks, the graph generated or read, --type auto, and the memory plan checked
// before the graph or the matrix exists.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <csignal>

#include <cstdlib>
#include <future>
#include <iostream>
#include <optional>

#include "api/options_spec.hpp"
#include "cl/device.hpp"
#include "cli/commands.hpp"
#include "cli/row_select.hpp"
#include "cli/solve_rows.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "graph/paths.hpp"
#include "mpi/mpi_env.hpp"
#include "mpi/mpi_fw.hpp"
#include "report/report.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"
#include "solvers/verify.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "graph/csr.hpp"
#include "util/atomic_file.hpp"
#include "util/fast_exit.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"
#include "cli/solve_options.hpp"

namespace ocl_sp::solve_cmd {

std::pair<int64_t, int64_t> parse_weights(const std::string& s) {
  const auto parts = split(s, ':');
  try {
    if (parts.size() == 2) {
      size_t a = 0, b = 0;
      const long long lo = std::stoll(parts[0], &a), hi = std::stoll(parts[1], &b);
      if (a == parts[0].size() && b == parts[1].size() && lo <= hi) return {lo, hi};
    }
  } catch (const std::exception&) {
  }
  throw UsageError("--weights expects LO:HI with integers LO <= HI, got '" + s + "'");
}

// Fails before any computation when the output could not be written later:
// an unknown format, a missing folder, a folder as output (UsageError).
std::optional<OutputTarget> check_output_path(const std::string& path, const std::string& fmt) {
  if (path.empty()) return std::nullopt;
  if (fmt == "auto") detect_output_format(path);
  return resolve_output(path);
}

// An output that is the input file (same device and inode once symlinks are
// followed, so hard links and symlinks count) would destroy the graph: refused.
void check_not_input(const std::optional<OutputTarget>& out, const std::string& input,
                     const char* flag) {
  if (!out || input.empty()) return;
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0) return;  // the reader reports a missing input
  if (out->exists && out->dev == st.st_dev && out->ino == st.st_ino)
    throw UsageError(std::string(flag) + " '" + out->path + "' is the input file '" + input +
                     "'; refusing to overwrite the graph");
}

GeneratorParams generator_params(const SolveOptions& o, std::string& source) {
  GeneratorParams p;
  p.n = *o.n;
  p.seed = o.seed ? *o.seed : static_cast<uint64_t>(*o.n);
  p.family = parse_family(o.generator);
  p.degree = o.degree;
  p.density = o.density > 0 ? o.density : (p.family == GraphFamily::random && p.degree == 0 ? default_density(p.n) : 0);
  std::tie(p.wlo, p.whi) = parse_weights(o.weights);
  p.negative = o.negative;
  validate(p);
  source = describe(p);
  return p;
}

// Edges a generated graph will have, about (for --algo auto before generating).
double expected_edges(const GeneratorParams& p) {
  const double n = static_cast<double>(generated_vertices(p));
  switch (p.family) {
    case GraphFamily::grid: {
      const double k = std::sqrt(n);
      return 4 * k * (k - 1);
    }
    case GraphFamily::geometric:
      return 1.5 * n * static_cast<double>(p.degree > 0 ? p.degree : 6);
    case GraphFamily::random:
      break;
  }
  return p.degree > 0 ? n * static_cast<double>(p.degree) : p.density * n * (n - 1);
}

Graph load_graph(const SolveOptions& o, std::string& source, int64_t max_n) {
  if (o.n && !o.input.empty()) throw UsageError("give either --n or --input, not both");
  if (!o.n && o.input.empty())
    throw UsageError("no graph: give --n N for a random graph or --input FILE (see --help)");
  if (!o.input.empty()) {
    source = o.input;
    if (o.preloaded) {
      Graph g = std::move(*o.preloaded);
      return g;
    }
    return read_graph(o.input, parse_input_format(o.format), max_n);
  }
  return generate_graph(generator_params(o, source));
}

// Host (and, for fw on OpenCL, device) memory of a solve of n vertices, checked
// before the matrix exists: RuntimeError (exit 1) with the numbers when it cannot
// fit. Host: the matrix, the verify copies, the path matrices, a CPU backend's
// working copy, the panel engine's pinned host memory and the buffers of a CPU
// OpenCL device (PoCL backs them with host memory). fw on OpenCL: the plan goes
// into spec.fw_plan, which the solver then runs.
template <typename T>
void plan_memory(SolverSpec& spec, int64_t n, bool verify, bool paths) {
  const uint64_t matrix = static_cast<uint64_t>(n) * static_cast<uint64_t>(n) * sizeof(T);
  uint64_t host = matrix * (verify ? 3 : 1) + (paths ? static_cast<uint64_t>(n) * n * 8 : 0);
  const std::string what = "n = " + std::to_string(n) + " (" + ValueTraits<T>::name() + ")";
  if (spec.backend != Backend::opencl) {
    check_host_memory(host + matrix, what + " on the " + to_string(spec.backend) + " backend");
    return;
  }
  const auto devices = select_devices(spec.device, spec.split);
  if (spec.algo == Algo::fw) {
    check_host_memory(host, what);
    const uint64_t room = host_memory_available();
    auto plan = std::make_shared<const detail::PanelPlan>(
        detail::plan_fw(n, sizeof(T), devices, spec, room > host ? room - host : 0));
    check_host_memory(host + plan->host_bytes, what + " as " + plan->describe());
    spec.fw_plan = std::move(plan);
    return;
  }
  const auto budgets = detail::device_budgets(devices, spec.device_memory);
  // Squaring over several devices or panels: every device holds the whole matrix
  // and its share of the product (checked by the solver against each device).
  if (spec.algo == Algo::squaring &&
      (spec.split > 1 || spec.panel > 0 || names_device_list(spec.device))) {
    check_host_memory(host, what);
    return;
  }
  // squaring and fw-naive keep the matrix in one buffer (squaring: two).
  const int buffers = spec.algo == Algo::squaring ? 2 : 1;
  const auto& b = budgets.front();
  const int64_t ld = ((n + 127) / 128) * 128;
  const uint64_t one = static_cast<uint64_t>(ld) * ld * sizeof(T);
  if (one > b.max_alloc || one * buffers > b.memory)
    throw RuntimeError(what + ": " + std::string(to_string(spec.algo)) + " needs " +
                       std::to_string(buffers) + " device buffer(s) of " +
                       std::to_string(one >> 20) + " MiB, but '" + b.name + "' allows " +
                       std::to_string(b.max_alloc >> 20) + " MiB per buffer and has " +
                       std::to_string(b.memory >> 20) +
                       " MiB; use --algo fw, whose panel engine goes beyond one buffer and "
                       "out of core");
  check_host_memory(host + (b.host_backed ? one * buffers : 0), what);
}

// Host memory of a multi-source solve of n vertices and m edges into the n x n
// matrix, checked before the CSR exists: the edge list, the CSR, the result (and
// path matrices), the verify copies; RuntimeError with the numbers otherwise.
template <typename T>
void plan_sparse_memory(const SolverSpec& spec, int64_t n, int64_t m, bool verify, bool paths) {
  const uint64_t matrix = static_cast<uint64_t>(n) * static_cast<uint64_t>(n) * sizeof(T);
  const uint64_t host = csr_bytes(n, m, sizeof(T)) * 2 + matrix * (verify ? 3 : 1) +
                        (paths ? static_cast<uint64_t>(n) * n * 8 : 0);
  check_host_memory(host, "n = " + std::to_string(n) + " (" + ValueTraits<T>::name() +
                              ") with m = " + std::to_string(m) + " edges (sssp on the " +
                              to_string(spec.backend) + " backend into the n x n result)");
}

// --type auto (DESIGN.md): the narrowest exact type for the weights, narrowed to
// float32 (with a warning) where a device has no float64. Reads the input file
// (kept in o.preloaded for the solve). Sets o.type to the type that will run.
void resolve_value_type(SolveOptions& o) {
  if (lower(o.type) != "auto") return;
  ValueType t;
  std::string source;  // (the solve names it again)
  if (o.n && o.input.empty()) {
    t = auto_value_type(generator_params(o, source));
  } else {
    const std::string a = lower(o.algo);
    o.preloaded = std::make_shared<Graph>(
        load_graph(o, source, a == "auto" || a == "sssp" ? kMaxSparseVertices : kMaxVertices));
    t = auto_value_type(*o.preloaded);
  }
  std::string why = t == ValueType::int32   ? "integer weights, int32 sums exact"
                    : t == ValueType::int64 ? "integer weights whose sums need int64"
                                            : "real-valued weights";
  const bool opencl = o.backend.empty() || lower(o.backend) == "opencl";  // CPUs have float64
  if (t == ValueType::float64 && opencl && !detail::devices_compute_in(o.device, t)) {
    std::cerr << "warning: the OpenCL device has no float64 (cl_khr_fp64): computing in "
                 "float32 (about 7 significant digits); use --backend openmp for float64\n";
    t = ValueType::float32;
    why += "; float32: the device has no float64";
  }
  o.type = to_string(t);
  o.type_note = std::string("type auto: ") + to_string(t) + " (" + why + ")";
}

template void plan_memory<int32_t>(SolverSpec&, int64_t, bool, bool);
template void plan_sparse_memory<int32_t>(const SolverSpec&, int64_t, int64_t, bool, bool);
template void plan_memory<int64_t>(SolverSpec&, int64_t, bool, bool);
template void plan_sparse_memory<int64_t>(const SolverSpec&, int64_t, int64_t, bool, bool);
template void plan_memory<float>(SolverSpec&, int64_t, bool, bool);
template void plan_sparse_memory<float>(const SolverSpec&, int64_t, int64_t, bool, bool);
template void plan_memory<double>(SolverSpec&, int64_t, bool, bool);
template void plan_sparse_memory<double>(const SolverSpec&, int64_t, int64_t, bool, bool);

}  // namespace ocl_sp::solve_cmd
