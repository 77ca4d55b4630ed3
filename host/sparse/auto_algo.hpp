// `--algo auto` (DESIGN.md "Sparse graphs and rows"): fw or sssp per graph, from
// time estimates of the whole solve. On a GPU (gpu_estimate): fw's n^3 kernels
// plus the matrix's copies to and from the device; sssp's kernels (each source's
// m edges and n vertices) plus the pinned host slots its rows come back through.
// On CPUs: sources x m / (edges examined per second) plus each source's row of n
// distances against n^3 / (the backend's fw rate). The rates are built in per
// backend and device kind (GPU: docs/performance/paths.md "auto against the faster
// of fw and sssp"); the report says what was chosen and why.
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

// A GPU's whole solve in parts (seconds), int32. Measured on one H100 (80 GB
// HBM3, 16 host cores) with bench/auto_choice.sh, medians:
//   fw kernels  n^3 / 1.4e13 + n x 0.7 us: T_k 2.0 ms at n = 2 000, 18.6 ms at
//               6 105, 75.3 ms at 10 000, 0.43 s at 18 263, 1.88 s at 30 000
//   fw copies   8 n^2 bytes: 7.8 GB/s pageable (n = 2 000), 12 GB/s through two
//               chunks of 8 MiB (n = 4 900 - 7 054), 28 GB/s through four of 32 MiB
//               (n >= 10 000)
//   sssp kernels random graphs n = 10 000, degree 12 - 96: T_k 28.5 - 120.8 ms =
//               S m / 9.1e10 + S n / 6.5e9 (n = 2 000 and 5 000 within 10 %);
//               rows in lanes on lattices (grids 70 - 100 a side) ~3x faster a
//               vertex; at n = 30 000 (a wave's rows 32 MB of the 50 MB L2)
//               1.3x slower an edge
//   sssp slots  two slots pinned in the solve and the last one handed on: 9.9 ms
//               for 2 x 8.4 MB (n = 2 000), 53 ms for 2 x 42 MB (n = 10 000),
//               0.19 s for 2 x 127 MB (n = 30 000), 52 - 84 ms for two lane parts
//               of 64 MiB (n = 4 900 - 18 263): ~1.8 GB/s; a part of the rows
//               (a 32nd, 8 - 64 MiB) a slot, a source a group as in lanes
//   sssp kernels with a source a group's row in __local memory (n <= 12 272):
//               H200 (bench/results/nvidia-h200/auto/auto-choice-row-parts):
//               random n = 10 000, degree 12 - 96: T_k 11.3 - 28.7 ms =
//               S m / 4.8e11 + S n / 1.14e10 (n = 5 000 and geometric within 25 %)
struct GpuEstimate {
  double fw_kernels = 0, fw_copies = 0, sssp_kernels = 0, sssp_slots = 0;
};
GpuEstimate gpu_estimate(int64_t n, int64_t m, int64_t sources);

constexpr double kGpuFwRelaxPerSecond = 1.4e13;
constexpr double kGpuFwPivotSeconds = 0.7e-6;
constexpr double kGpuPageableBytes = 16.0 * (1 << 20);      // solvers/opencl_queue.cpp kStageMin
constexpr double kGpuLargeMatrixBytes = 256.0 * (1 << 20);  // solvers/opencl_queue.cpp kLargeMatrix
constexpr double kGpuCopyPageable = 7.8e9, kGpuCopyChunks = 12e9, kGpuCopyLargeChunks = 28e9;
constexpr double kGpuEdgesPerSecond = 9.1e10;
constexpr double kGpuVerticesPerSecond = 6.5e9;
constexpr double kGpuLanesVerticesPerSecond = 2.0e10;
constexpr double kGpuResidentGroups = 264;  // groups of 1024 resident on an H100 (132 SMs x 2)
constexpr double kGpuL2Bytes = 50e6;
constexpr double kGpuRowsMissPenalty = 0.35;
constexpr double kGpuLanePartBytes = 64.0 * (1 << 20);    // opencl_sssp_engine.hpp lane_part_bytes() (one device)
constexpr double kGpuPinBytesPerSecond = 1.8e9;
constexpr uint64_t kGpuLocalBytes = 48 << 10;  // a work-group's __local memory (NVIDIA)
constexpr double kGpuLocalRowEdgesPerSecond = 4.8e11;
constexpr double kGpuLocalRowVerticesPerSecond = 1.14e10;

}  // namespace ocl_sp
