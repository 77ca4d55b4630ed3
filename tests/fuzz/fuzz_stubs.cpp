// Link stubs for the fuzz library (tests/fuzz/CMakeLists.txt): the harnesses use
// the readers and the few helpers they call (algorithm names in solver.cpp, the
// cache folder in program.cpp), never a solver or a kernel. These stand in for
// the solver factories and the embedded kernel sources, so the fuzz build
// compiles (and instruments for coverage) only the code under test.
#include <map>
#include <memory>
#include <string>

#include "cpu/cpu_solvers.hpp"
#include "solvers/opencl_solvers.hpp"
#include "sparse/sssp.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

const std::map<std::string, std::string>& embedded_kernels() {
  static const std::map<std::string, std::string> none;
  return none;
}

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_solver(const SolverSpec&) {
  throw RuntimeError("no solvers in the fuzz build");
}
template <typename T>
std::unique_ptr<Solver<T>> make_cpu_solver(const SolverSpec&) {
  throw RuntimeError("no solvers in the fuzz build");
}
template <typename T>
std::unique_ptr<SsspSolver<T>> make_sssp_solver(const SolverSpec&) {
  throw RuntimeError("no solvers in the fuzz build");
}
template std::unique_ptr<SsspSolver<int32_t>> make_sssp_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<SsspSolver<float>> make_sssp_solver<float>(const SolverSpec&);
template std::unique_ptr<SsspSolver<double>> make_sssp_solver<double>(const SolverSpec&);
template std::unique_ptr<SsspSolver<int64_t>> make_sssp_solver<int64_t>(const SolverSpec&);
template std::unique_ptr<Solver<int32_t>> make_opencl_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_solver<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_solver<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_solver<int64_t>(const SolverSpec&);
template std::unique_ptr<Solver<int32_t>> make_cpu_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_cpu_solver<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_cpu_solver<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_cpu_solver<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
