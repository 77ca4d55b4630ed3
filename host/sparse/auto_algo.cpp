// Time estimates behind --algo auto (auto_algo.hpp).
#include "sparse/auto_algo.hpp"

#include <omp.h>

#include <cstdio>

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

// Measured medians (docs/performance/sparse.md "auto"): H100 fw 13 T relax/s at n = 10 000;
// the 2-core CI machine's OpenMP fw ~1e11 relax/s and Dijkstra ~1.5e8 edges/s per
// thread; PoCL runs both kernels far below its peak.
Rates rates(Backend backend, const std::string& kind) {
  const double threads = backend == Backend::serial ? 1.0 : omp_get_max_threads();
  // Host work (docs/performance/paths.md "auto"): the H100's n = 10 000 solve is
  // 0.133 s against 0.075 s of kernels (400 MB each way at ~12 GB/s); a row of n
  // distances costs a device ~5e10 values/s to fill and reduce, a host thread ~1e9.
  if (backend == Backend::opencl && kind == "gpu") return {1.2e13, 4.0e10, "GPU", 1.2e10, 5.0e10};
  if (backend == Backend::opencl)
    return {1.5e10 * threads, 3.0e7 * threads, "OpenCL CPU device", 1.0e10, 1.0e9 * threads};
  if (backend == Backend::openmp) return {5.0e10 * threads, 1.5e8 * threads, "OpenMP", 0, 1.0e9 * threads};
  return {1.0e9, 1.5e8, "serial", 0, 1.0e9};
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 1 ? "%.3g s" : "%.3g s", s);
  return buf;
}

}  // namespace

AutoChoice choose_algo(int64_t n, int64_t m, int64_t sources, Backend backend,
                       const std::string& device_kind) {
  const Rates r = rates(backend, device_kind);
  AutoChoice c;
  const double nn = static_cast<double>(n);
  c.fw_seconds = nn * nn * nn / r.fw + (r.copy > 0 ? 2.0 * nn * nn * 4.0 / r.copy : 0.0);
  c.sssp_seconds = static_cast<double>(sources) * static_cast<double>(m) / r.sssp +
                   static_cast<double>(sources) * nn / r.values;
  c.algo = c.sssp_seconds < c.fw_seconds ? Algo::sssp : Algo::fw;
  c.why = std::string(to_string(c.algo)) + ": estimated " +
          seconds(c.algo == Algo::sssp ? c.sssp_seconds : c.fw_seconds) + " against " +
          (c.algo == Algo::sssp ? "fw " + seconds(c.fw_seconds) : "sssp " + seconds(c.sssp_seconds)) +
          " (n = " + std::to_string(n) + ", m = " + std::to_string(m) + ", " + r.basis +
          " rates, host work included)";
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
