// make_opencl_solver: routes an algorithm to its OpenCL solver (opencl_fw.cpp,
// opencl_squaring.cpp, opencl_fw_naive.cpp; shared plumbing in opencl_base.cpp).
#include "solvers/opencl_solvers.hpp"

#include <cstdlib>

#include "cl/device.hpp"
#include "solvers/opencl_base.hpp"
#include "sparse/sssp.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_solver(const SolverSpec& spec) {
  switch (spec.algo) {
    case Algo::fw:
      return detail::make_opencl_fw<T>(spec);
    case Algo::squaring:
      // Several devices or forced panels: the panel GEMM (opencl_squaring_panels.cpp).
      if (spec.split > 1 || spec.panel > 0 ||
          names_device_list(spec.device.empty() && std::getenv("OCL_SP_DEVICE")
                                ? std::getenv("OCL_SP_DEVICE")
                                : spec.device))
        return detail::make_opencl_squaring_panels<T>(spec);
      return detail::make_opencl_squaring<T>(spec);
    case Algo::fw_naive:
      return detail::make_opencl_fw_naive<T>(spec);
    case Algo::sssp:
      return make_sssp_solver<T>(spec);
    case Algo::automatic:
      break;
  }
  throw UsageError("unknown algorithm for the OpenCL backend");
}

template std::unique_ptr<Solver<int32_t>> make_opencl_solver<int32_t>(const SolverSpec&);
template std::unique_ptr<Solver<float>> make_opencl_solver<float>(const SolverSpec&);
template std::unique_ptr<Solver<double>> make_opencl_solver<double>(const SolverSpec&);
template std::unique_ptr<Solver<int64_t>> make_opencl_solver<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
