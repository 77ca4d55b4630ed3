// Planning `ocl_sp bench` without running anything: which sizes fit host and
// device memory, and how long a configuration would take (from the rate measured
// for the same device and algorithm at a smaller n, else a conservative default
// per backend), so that hopeless configurations are skipped with a reason.
// Pure functions: unit-tested without devices.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "solvers/solver.hpp"

namespace ocl_sp {

// The paper's graph sizes (Table 2).
const std::vector<int64_t>& paper_sizes();

// One device column of the benchmark tables: an OpenCL device, or the OpenMP /
// serial CPU solvers.
struct BenchColumn {
  std::string label;  // short table heading: "serial", "openmp", "pocl", "nvidia@1:0"
  Backend backend = Backend::serial;
  std::string spec;    // OpenCL: "P:D" as given to SolverSpec::device
  std::string device;  // full device name (CPU model for CPU columns)
  std::string vendor, driver, platform;
  std::string kind = "cpu";  // gpu | cpu | accelerator | other (OpenCL type)
  uint64_t global_mem = 0;   // OpenCL device: bytes (0 for CPU columns)
  uint64_t max_alloc = 0;    // OpenCL device: largest single buffer
};

// Upper bound on the (min,+) products of repeated squaring: ceil(log2(n-1)),
// at least 1.
int products_bound(int64_t n);
// Relaxations of one solve, squaring counted at products_bound (its early stop
// can only make it faster).
double relaxation_bound(Algo a, int64_t n);

// Bytes one solve needs on an OpenCL device: the matrix (padded to a multiple of
// 128 for tiling) once for fw / fw-naive, twice for squaring (ping-pong); with
// paths also the int32 hop and via matrices (squaring: two hop matrices).
uint64_t device_bytes_needed(Algo a, int64_t n, int value_bytes, bool paths = false);
// Largest single device buffer: one padded matrix.
uint64_t device_buffer_bytes(int64_t n, int value_bytes);
// Host bytes per size: the input, the working copy, the cached reference and the
// solver's own copy (with paths: plus three int32 matrices, hops, via and a spare).
uint64_t host_bytes_needed(int64_t n, int value_bytes, bool paths = false);

// Why this configuration cannot run on the column's device (nullopt: it fits).
// Only OpenCL columns are checked here (CPU columns share the host check).
std::optional<std::string> device_misfit(const BenchColumn& c, Algo a, int64_t n, int value_bytes,
                                         bool paths = false);

// Sorted, de-duplicated sizes whose host memory need fits `host_available`
// bytes (0 = unknown: keep all); every size dropped adds a line to `notes`.
std::vector<int64_t> filter_sizes(std::vector<int64_t> sizes, uint64_t host_available,
                                  int value_bytes, std::vector<std::string>* notes,
                                  bool paths = false);

// Conservative relaxations/s per backend (below what any current device does
// once past start-up costs), used until a rate has been measured:
// serial 2e8, openmp 1e9, OpenCL CPU 1e9, OpenCL GPU / accelerator 2e10.
double default_rate(const BenchColumn& c);

// Size of a probe solve that teaches the rate of a device x algorithm before a
// large first configuration: n halved (at least once) until one solve at the
// default rate fits `budget` seconds; at least 64 (or n itself when smaller).
int64_t probe_size(const BenchColumn& c, Algo a, int64_t n, double budget);

struct Estimate {
  double per_solve = 0;  // seconds of one solve
  double total = 0;      // seconds of the configuration (warm-up + reps)
  std::string basis;     // "measured 2.1 G relax/s at n = 2000" | "default 2e8 relax/s (serial)"
};

// Rates measured so far, per (column label, algorithm).
class RateBook {
 public:
  // One measured solve: relaxations done in `seconds` (median solve time).
  void record(const std::string& column, Algo a, int64_t n, double relaxations, double seconds);
  // Time of one solve at n: relaxation_bound(a, n) / rate, with the rate measured
  // at the largest n so far (<= n), else the default. A measurement shorter than
  // kTrustedSeconds is dominated by fixed costs (launches, transfers, threads
  // waking up), so its rate is raised to at least the default; a longer one is
  // trusted as it is. total = per_solve * runs.
  static constexpr double kTrustedSeconds = 0.01;
  Estimate estimate(const BenchColumn& c, Algo a, int64_t n, int runs) const;
  // The same with the rates recorded under `column` instead of c.label (sweep:
  // one rate per configuration, "pocl TILED=0 WG=4"); c gives the default rate.
  Estimate estimate(const BenchColumn& c, const std::string& column, Algo a, int64_t n,
                    int runs) const;
  // Whether a rate was measured for the column and algorithm.
  bool has(const std::string& column, Algo a) const;

 private:
  struct Point {
    int64_t n = 0;
    double rate = 0;
    double seconds = 0;
  };
  std::map<std::string, Point> best_;  // key: label + "/" + algo
};

}  // namespace ocl_sp
