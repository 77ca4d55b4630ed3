// `--algo auto` (DESIGN.md "Sparse graphs and rows"): fw or sssp per graph, from
// time estimates of the whole solve: fw n^3 / (the backend's fw rate) plus the
// matrix's copies to and from a device, sssp sources x m / (its rate in edges
// examined per second) plus each source's row of n distances. The rates are built in per backend and device
// kind (docs/performance/sparse.md "auto"); the report says what was chosen and why.
#pragma once
#include <cstdint>
#include <string>

#include "solvers/solver.hpp"

namespace ocl_sp {

struct AutoChoice {
  Algo algo = Algo::fw;
  double fw_seconds = 0, sssp_seconds = 0;  // the estimates compared
  std::string why;                          // "sssp: est. 0.12 s vs fw 1.3 s (...)"
  std::string long_solve;  // non-empty past kLongSolveSeconds: said before the solve starts
};
constexpr double kLongSolveSeconds = 3600;

// device_kind: "gpu", "cpu" (an OpenCL CPU device) or "" for the CPU backends.
AutoChoice choose_algo(int64_t n, int64_t m, int64_t sources, Backend backend,
                       const std::string& device_kind);

}  // namespace ocl_sp
