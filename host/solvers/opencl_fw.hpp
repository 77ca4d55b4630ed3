// One OpenCL device's panel primitives of the fw solver (FwDevice in
// opencl_fw.cpp) for callers outside it: the MPI driver (host/mpi/) gives each
// rank its own device through this; and the fw placement, planned by the CLI
// before the graph exists and run by the solver.
#pragma once
#include <memory>
#include <vector>

#include "cl/device.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp::detail {

// Panel edges of the fw panel engine are multiples of this (every fw BLOCK and
// the panel GEMM's tile divide it); so is the single buffer's edge in the plan.
constexpr int kFwPanelMultiple = 128;

// Where an fw solve of n vertices on `devices` runs (DESIGN.md "Scale"): one buffer
// when it fits and spec asks for no panels, else the panel engine's resident or
// out-of-core panels (plan_panels under spec.panel and spec.device_memory).
// host_spare: host bytes free beside the matrix. The one planner of both
// `ocl_sp solve` (before the graph exists) and the solver (when not given it).
PanelPlan plan_fw(int64_t n, size_t value_size, const std::vector<DeviceEntry>& devices,
                  const SolverSpec& spec, uint64_t host_spare);

// The fw kernels of `spec` on `entry`, with the panel GEMM built (gemm_acc ready).
// info (if given) receives the device, tunables and set-up time.
template <typename T>
std::unique_ptr<PanelDevice> make_fw_panel_device(const DeviceEntry& entry, const SolverSpec& spec,
                                                  SolverInfo* info);

}  // namespace ocl_sp::detail
