// The one place where a user's choice of algorithm, backend, device, tunables and
// memory limits (the public ocl_sp::Options) becomes the solvers' SolverSpec: the
// C++ API (api.cpp), the command line (cli/solve.cpp) and the Python module
// (python/src/module.cpp) all go through it (one code path under the
// public API). Internal; not installed.
#pragma once
#include <string>

#include "ocl_sp/ocl_sp.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

// How the caller's users write two options, for messages: "Options::device" and
// "backend 'openmp'" (API), "--device" and "--backend openmp" (command line).
struct OptionWords {
  std::string device = "Options::device";
  std::string backend_before = "backend '", backend_after = "'";  // around its name
};

// Sets spec's algo, backend, device, use_tuned, params (o.params, then o.block and
// o.wg as BLOCK and WG), panel, device_memory and split from o, leaving its other
// fields. An empty o.backend: OpenCL, or OpenMP when no OpenCL device exists and
// none was asked for ($OCL_SP_DEVICE counts); then *fell_back is set. UsageError
// for an unknown algorithm or backend and for a device with another backend.
void apply_options(SolverSpec& spec, const Options& o, const OptionWords& words = {},
                   bool* fell_back = nullptr);

}  // namespace ocl_sp
