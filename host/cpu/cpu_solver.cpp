// The CPU backends (serial, openmp) behind the Solver interface: maps algorithm x
// backend to the functions of cpu_solvers.hpp, describes the host CPU for reports
// and times each solve (T_k = compute, no transfers on the CPU).
#include <omp.h>

#include <fstream>
#include <string>

#include "cpu/cpu_kernels.hpp"
#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {
namespace {

// Largest block edge accepted; beyond this a tile no longer fits any cache level
// that matters and the padding of small graphs only grows.
constexpr int kMaxBlock = 1024;

std::string cpu_vendor() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("vendor_id", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        const auto start = line.find_first_not_of(" \t", colon + 1);
        if (start != std::string::npos) return line.substr(start);
      }
    }
  return "";
}

// OpenMP version from the _OPENMP date macro, for the report's driver field.
std::string openmp_version() {
  switch (_OPENMP) {
    case 201107:
      return "3.1";
    case 201307:
      return "4.0";
    case 201511:
      return "4.5";
    case 201811:
      return "5.0";
    case 202011:
      return "5.1";
    default:
      return std::to_string(_OPENMP);
  }
}

template <typename T>
class CpuSolver final : public Solver<T> {
 public:
  CpuSolver(Algo algo, Backend backend, int block, SolverInfo info)
      : algo_(algo),
        backend_(backend),
        block_(block),
        isa_(best_cpu_isa()),
        info_(std::move(info)) {}

  const SolverInfo& info() const override { return info_; }

  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override {
    const Stopwatch total;
    RunStats stats;
    int products = 0;
    const bool parallel = backend_ == Backend::openmp;
    if (paths) {
      // hops + via (and squaring's second hop matrix), all int32.
      const double nn = static_cast<double>(d.n()) * static_cast<double>(d.n());
      stats.paths = true;
      stats.paths_bytes = nn * 4 * (algo_ == Algo::squaring ? 3 : 2);
      // Exact sums: the distances, then the paths from their tight edges (the
      // same bytes on every backend); float sums that could round: lexicographic.
      stats.paths_kernels = std::string("the distances, then breadth-first searches over their tight edges; where "
                                        "float sums could round, lexicographic ") +
                            (algo_ == Algo::squaring ? "squaring" : parallel ? "blocked fw" : "fw");
      check_host_memory(static_cast<uint64_t>(stats.paths_bytes), "the path matrices");
    }
    const Stopwatch compute;
    if (algo_ == Algo::squaring)
      products = parallel ? squaring_openmp(d, paths, isa_) : squaring_serial(d, paths);
    else if (parallel)
      fw_openmp(d, paths, block_, isa_);
    else
      fw_serial(d, paths);  // fw and fw-naive: the naive algorithm is serial FW
    stats.t_k = compute.seconds();
    stats.products = products;
    stats.relaxations = relaxation_count(algo_, d.n(), products);
    stats.total = total.seconds();
    return stats;
  }

 private:
  Algo algo_;
  Backend backend_;
  int block_;
  CpuIsa isa_;
  SolverInfo info_;
};

}  // namespace

const char* to_string(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::generic:
      return "generic";
    case CpuIsa::avx2:
      return "avx2";
    case CpuIsa::avx512:
      return "avx512";
  }
  return "?";
}

CpuIsa best_cpu_isa() {
  static const CpuIsa best = [] {
#if OCL_SP_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return CpuIsa::avx512;
    if (__builtin_cpu_supports("avx2")) return CpuIsa::avx2;
#endif
    return CpuIsa::generic;
  }();
  return best;
}

template <typename T>
std::unique_ptr<Solver<T>> make_cpu_solver(const SolverSpec& spec) {
  const Stopwatch setup;
  if (spec.backend == Backend::opencl)
    throw UsageError("internal: the opencl backend has no CPU solver");
  if (spec.algo == Algo::fw_naive && spec.backend == Backend::openmp)
    throw UsageError("fw-naive is an OpenCL-only baseline; use --backend serial or opencl");
  const bool blocked = spec.algo == Algo::fw && spec.backend == Backend::openmp;

  SolverInfo info;
  info.algo = to_string(spec.algo);
  info.backend = to_string(spec.backend);
  int block = 0;
  for (const auto& [name, value] : spec.params) {
    // WG and BLOCK are the OpenCL tunables; only BLOCK means something here (the
    // blocked OpenMP FW). Other combinations have no tunables and ignore them, so
    // one command line can drive every backend in `bench`.
    if (name != "BLOCK" && name != "WG")
      throw UsageError("unknown tile parameter '" + name + "' (expected BLOCK or WG)");
    if (name == "BLOCK" && blocked) {
      if (value < 1 || value > kMaxBlock)
        throw UsageError("--block " + std::to_string(value) + " is out of range for the openmp " +
                         "backend (1.." + std::to_string(kMaxBlock) + ")");
      block = value;
      info.params_source = "command line";
    }
  }
  if (blocked) info.params["BLOCK"] = block > 0 ? block : default_fw_block();

  const int threads = spec.backend == Backend::openmp ? omp_get_max_threads() : 1;
  info.device =
      cpu_model_name() + " (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  info.vendor = cpu_vendor();
  info.driver = spec.backend == Backend::openmp
                    ? "OpenMP " + openmp_version() + ", " + to_string(best_cpu_isa()) + " kernels"
                    : "serial";
  info.cache = "n/a";
  info.t_o = setup.seconds();
  return std::make_unique<CpuSolver<T>>(spec.algo, spec.backend, block, std::move(info));
}

template std::unique_ptr<Solver<int32_t>> make_cpu_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_cpu_solver<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_cpu_solver<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_cpu_solver<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
