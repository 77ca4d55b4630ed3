// One OpenCL device's panel primitives of the fw solver (FwDevice in
// opencl_fw.cpp) for callers outside it: the MPI driver (host/mpi/) gives each
// rank its own device through this.
#pragma once
#include <memory>

#include "cl/device.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp::detail {

// The fw kernels of `spec` on `entry`, with the panel GEMM built (gemm_acc ready).
// info (if given) receives the device, tunables and set-up time.
template <typename T>
std::unique_ptr<PanelDevice> make_fw_panel_device(const DeviceEntry& entry, const SolverSpec& spec,
                                                  SolverInfo* info);

}  // namespace ocl_sp::detail
