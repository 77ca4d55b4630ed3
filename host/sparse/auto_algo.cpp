// Time estimates behind --algo auto (auto_algo.hpp).
#include "sparse/auto_algo.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>

#include "sparse/sssp_plan.hpp"

namespace ocl_sp {

namespace {

struct Rates {
  double fw;    // relaxations per second of blocked FW (n^3)
  double sssp;  // edges examined per second of the multi-source engine
  const char* basis;
  double copy = 0;    // bytes per second of fw's matrix up and down (0: no copies)
  double values = 0;  // distances per second a source's row of n costs beside its
                      // edges (setting it up, handing it on or reducing it)
};

// CPU backends and OpenCL CPU devices (docs/performance/sparse.md "auto"): the 2-core
// CI machine's OpenMP fw ~1e11 relax/s and Dijkstra ~1.5e8 edges/s per thread; PoCL
// runs both kernels far below its peak; a row of n distances costs a host thread
// ~1e9 values/s to set up and hand on.
Rates rates(Backend backend) {
  const double threads = backend == Backend::serial ? 1.0 : omp_get_max_threads();
  if (backend == Backend::opencl)
    return {1.5e10 * threads, 3.0e7 * threads, "OpenCL CPU device", 1.0e10, 1.0e9 * threads};
  if (backend == Backend::openmp) return {5.0e10 * threads, 1.5e8 * threads, "OpenMP", 0, 1.0e9 * threads};
  return {1.0e9, 1.5e8, "serial", 0, 1.0e9};
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

}  // namespace

// GPUs: the whole solve as the report's "solve" counts it, from the components
// bench/auto_choice.sh measured on an H100 (docs/performance/paths.md "auto
// against the faster of fw and sssp").
GpuEstimate gpu_estimate(int64_t n, int64_t m, int64_t sources) {
  GpuEstimate e;
  const double nn = static_cast<double>(n), mm = static_cast<double>(m), s = static_cast<double>(sources);
  // fw: n^3 relaxations, each of the n pivots' rounds a latency of its own
  // (n = 2 000: 2.0 ms of kernels against 0.6 ms of relaxations), and the
  // matrix up and down at the rate of the way it goes (solvers/opencl_queue.cpp:
  // pageable below 16 MiB, two pinned chunks of 8 MiB below 256 MiB, four of
  // 32 MiB from there on; chunks pinned while the graph is made).
  e.fw_kernels = nn * nn * nn / kGpuFwRelaxPerSecond + nn * kGpuFwPivotSeconds;
  const double matrix = nn * nn * 4.0;
  const double copy = matrix < kGpuPageableBytes ? kGpuCopyPageable
                      : matrix < kGpuLargeMatrixBytes ? kGpuCopyChunks
                                                      : kGpuCopyLargeChunks;
  e.fw_copies = 2.0 * matrix / copy;
  // sssp: each source examines its m edges and handles its n vertices (queues,
  // buckets, its row); rows in lanes (mean degree <= kSsspLanesRowsDegree, the
  // engine's choice) share a vertex's work among the sources of a group. Where the
  // rows of a wave of resident groups fill the L2, relaxations miss it.
  const bool lanes = n > 0 && mm / nn <= kSsspLanesRowsDegree;
  const double row = nn * 4.0;
  const double wave = kGpuResidentGroups * row;
  const double cache = 1.0 + kGpuRowsMissPenalty * std::clamp((wave - kGpuL2Bytes / 4) / (kGpuL2Bytes / 2), 0.0, 1.0);
  e.sssp_kernels = (s * mm / kGpuEdgesPerSecond + s * nn / (lanes ? kGpuLanesVerticesPerSecond : kGpuVerticesPerSecond)) * cache;
  // A source a group whose row fits a work-group's __local memory (LOCAL_ROW):
  // every relaxation stays on the compute unit.
  if (!lanes && sssp_local_row(n, 4, kGpuLocalBytes, true, 0))
    e.sssp_kernels = s * mm / kGpuLocalRowEdgesPerSecond + s * nn / kGpuLocalRowVerticesPerSecond;
  // The rows come back through two pinned host slots, pinned inside the solve:
  // a part of at most 64 MiB (sssp_slot_part_bytes; rows in lanes, and a source
  // a group's launches with two distance buffers), fewer where the sources are
  // fewer; the rate covers the pinning and the last slot handed on.
  const double part = static_cast<double>(
      sssp_slot_part_bytes(static_cast<uint64_t>(s * row), static_cast<uint64_t>(kGpuLanePartBytes)));
  const double slot = std::min(part, s * row);
  e.sssp_slots = 2.0 * slot / kGpuPinBytesPerSecond;
  return e;
}

AutoChoice choose_algo(int64_t n, int64_t m, int64_t sources, Backend backend,
                       const std::string& device_kind) {
  AutoChoice c;
  const double nn = static_cast<double>(n);
  std::string basis, parts;
  if (backend == Backend::opencl && device_kind == "gpu") {
    const GpuEstimate e = gpu_estimate(n, m, sources);
    c.fw_seconds = e.fw_kernels + e.fw_copies;
    c.sssp_seconds = e.sssp_kernels + e.sssp_slots;
    basis = "GPU";
    parts = "; fw kernels " + seconds(e.fw_kernels) + " + copies " + seconds(e.fw_copies) + ", sssp kernels " +
            seconds(e.sssp_kernels) + " + row slots " + seconds(e.sssp_slots);
  } else {
    const Rates r = rates(backend);
    c.fw_seconds = nn * nn * nn / r.fw + (r.copy > 0 ? 2.0 * nn * nn * 4.0 / r.copy : 0.0);
    c.sssp_seconds = static_cast<double>(sources) * static_cast<double>(m) / r.sssp +
                     static_cast<double>(sources) * nn / r.values;
    basis = r.basis;
  }
  c.algo = c.sssp_seconds < c.fw_seconds ? Algo::sssp : Algo::fw;
  c.why = std::string(to_string(c.algo)) + ": estimated " +
          seconds(c.algo == Algo::sssp ? c.sssp_seconds : c.fw_seconds) + " against " +
          (c.algo == Algo::sssp ? "fw " + seconds(c.fw_seconds) : "sssp " + seconds(c.sssp_seconds)) +
          " (n = " + std::to_string(n) + ", m = " + std::to_string(m) + ", " + basis +
          " rates, host work included" + parts + ")";
  const double chosen = c.algo == Algo::sssp ? c.sssp_seconds : c.fw_seconds;
  if (chosen > kLongSolveSeconds) {
    char hours[32];
    std::snprintf(hours, sizeof hours, "%.3g", chosen / 3600.0);
    c.long_solve = "the solve is estimated at " + seconds(chosen) + " (" + hours + " hours) with " +
                   to_string(c.algo) + " (--algo auto's estimate; Ctrl-C stops it)";
  }
  return c;
}

}  // namespace ocl_sp
