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

// --paths with OpenCL fw: the route the path matrix takes (docs/scale.md "Paths").
// The lexicographic path kernels (packed keys or the general ones) carry paths
// through every relaxation; the rebuild runs the distance kernels and then
// derives via and hops from the distances and the input's tight edges on the
// device. Measured on an H100 (docs/performance/paths.md "Paths: the default
// route", "Paths: the tight edges on the device"): the single buffer beside a
// device copy of the input, tight edges found there, took 0.229 / 3.48 / 12.9 s
// of solve at n = 10 000 / 30 000 / 50 000 against 0.365 / 3.62 / 13.4 s for 4 x 4
// panels with the rebuild (which beat the packed keys at 10 000 and the path
// kernels' 29 s at 30 000). Below kPanelPathsMinN exact sums take the single
// buffer's rebuild too: its via is the one every placement and backend gives.
enum class PathsRoute { panels_rebuild, single_rebuild, lexicographic };
const char* to_string(PathsRoute r);
constexpr int64_t kPanelPathsMinN = 10000;
struct PathsChoice {
  PathsRoute route = PathsRoute::lexicographic;
  int64_t panel = 0;  // panels_rebuild from a single-buffer plan: the panel edge to force
  std::string why;
};
// single: the plan put the matrix in one buffer; exact: the rebuild's sums are
// exact for the value type (integers); mode: OCL_SP_PATHS_REBUILD ("" default,
// "1" the single buffer's rebuild, "0" no rebuild: lexicographic kernels, host
// recovery beyond one buffer); two_fit: a second ld x ld matrix (the input kept
// beside the distances) fits the device: the single buffer's rebuild with the
// tight edges found on the device, else 4 x 4 panels, from kPanelPathsMinN on;
// below it the single buffer's rebuild (edges scanned on the host without room).
PathsChoice choose_paths_route(int64_t n, bool single, bool exact, const std::string& mode,
                               bool two_fit = false);

// The fw kernels of `spec` on `entry`, with the panel GEMM built (gemm_acc ready)
// for panels of edge p (0: not known yet; prepare_gemm then).
// info (if given) receives the device, tunables and set-up time.
template <typename T>
std::unique_ptr<PanelDevice> make_fw_panel_device(const DeviceEntry& entry, const SolverSpec& spec,
                                                  SolverInfo* info, int64_t p = 0);

}  // namespace ocl_sp::detail
