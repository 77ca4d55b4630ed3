// OpenCL solvers (fw, squaring, fw-naive) behind the Solver interface.
#pragma once
#include <memory>

#include "solvers/solver.hpp"

namespace ocl_sp {

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_solver(const SolverSpec& spec);

}  // namespace ocl_sp
