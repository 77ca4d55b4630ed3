// Names of algorithms/backends and the solver factory that routes a SolverSpec to
// the CPU or OpenCL implementation.
#include "solvers/solver.hpp"

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_solvers.hpp"
#include "sparse/sssp.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

const char* to_string(Algo a) {
  switch (a) {
    case Algo::fw: return "fw";
    case Algo::squaring: return "squaring";
    case Algo::fw_naive: return "fw-naive";
    case Algo::sssp: return "sssp";
    case Algo::automatic: return "auto";
  }
  return "?";
}

const char* to_string(Backend b) {
  switch (b) {
    case Backend::opencl: return "opencl";
    case Backend::openmp: return "openmp";
    case Backend::serial: return "serial";
  }
  return "?";
}

Algo parse_algo(const std::string& s) {
  const std::string l = lower(s);
  if (l == "fw") return Algo::fw;
  if (l == "squaring") return Algo::squaring;
  if (l == "fw-naive" || l == "fw_naive") return Algo::fw_naive;
  if (l == "sssp") return Algo::sssp;
  if (l == "auto") return Algo::automatic;
  throw UsageError("unknown algorithm '" + s + "' (expected auto, fw, squaring, fw-naive or sssp)");
}

Backend parse_backend(const std::string& s) {
  const std::string l = lower(s);
  if (l == "opencl") return Backend::opencl;
  if (l == "openmp") return Backend::openmp;
  if (l == "serial") return Backend::serial;
  throw UsageError("unknown backend '" + s + "' (expected opencl, openmp or serial)");
}

std::string to_string(const Tunables& t) {
  std::string s;
  for (const auto& [k, v] : t) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s.empty() ? "-" : s;
}

double relaxation_count(Algo a, int64_t n, int products) {
  // sssp counts sources x edges (sparse/sssp.hpp sssp_relaxations), set by its solver.
  const double n3 = static_cast<double>(n) * n * n;
  return a == Algo::squaring ? n3 * products : n3;
}

template <typename T>
std::unique_ptr<Solver<T>> make_solver(const SolverSpec& spec) {
  if (spec.algo == Algo::automatic)
    throw UsageError("internal: --algo auto is resolved per graph before a solver is made");
  if (spec.algo == Algo::sssp) return make_sssp_solver<T>(spec);
  if (spec.backend == Backend::opencl) return make_opencl_solver<T>(spec);
  return make_cpu_solver<T>(spec);
}

template std::unique_ptr<Solver<int32_t>> make_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_solver<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_solver<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_solver<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
