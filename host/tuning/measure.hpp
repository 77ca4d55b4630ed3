// The measurement loop shared by `ocl_sp bench` and `ocl_sp sweep` (and usable by
// tests): a Solver built once by make_solver, warm-up solves, then timed
// repetitions, each on a fresh copy of the same input matrix; the first result is
// verified against the CPU reference (computed once per input and cached), and a
// wrong result is never timed.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

// The CPU reference distances of one input, computed on first use with the rule
// of verify_result() (serial FW up to n = 3000, the OpenMP FW beyond) and kept
// for every device and configuration that solves the same input.
template <typename T>
class ReferenceCache {
 public:
  // `key` names the input (e.g. "n=5000 seed=5000"); a different key drops the
  // cached matrix and computes the new one.
  const DistMatrix<T>& get(const std::string& key, const DistMatrix<T>& input);
  bool has(const std::string& key) const { return ref_.has_value() && key == key_; }
  const std::string& method() const { return method_; }  // "serial fw" | "openmp fw"
  double seconds() const { return seconds_; }            // time the last reference took
  void clear();

 private:
  std::string key_, method_;
  std::optional<DistMatrix<T>> ref_;
  double seconds_ = 0;
};

struct MeasureOptions {
  int warmup = 1;  // untimed solves first (the first solve is verified either way)
  int reps = 3;    // timed solves
  bool verify = true;
  // Every solve also computes the path matrix (solve(d, &paths)); the verified
  // first solve also checks every pair's path against the input (check_paths).
  bool paths = false;
};

// What one configuration gave. Times are seconds; medians over the timed reps.
struct Measurement {
  std::string status = "ok";       // ok | wrong | failed
  std::string reason;              // why not ok
  std::string verify = "not run";  // ok | FAILED | not run
  std::string verify_detail;       // "bit-exact vs serial fw", first mismatches, ...
  std::vector<RunStats> runs;      // the timed reps, in order
  double median_total = 0, min_total = 0, max_total = 0;
  double median_t_h = 0, median_t_k = 0;
  double relaxations = 0;  // of one solve (as counted by the solver)
  int products = 0;        // squaring: products of one solve
  double paths_bytes = 0;  // with paths: memory the hop and via matrices took
  // relaxations / median T_k (the kernels, as `ocl_sp` reports it), or / median
  // total where the solver reports no kernel time.
  double relax_per_second() const;
};

double median(std::vector<double> v);  // 0 for an empty list

// Runs the configuration. Solver failures (OpenCL errors, RuntimeError,
// an unexpected negative cycle) become status "failed"/"wrong" with the message;
// nothing is thrown except std::bad_alloc.
template <typename T>
Measurement measure(Solver<T>& solver, const DistMatrix<T>& input, const std::string& input_key,
                    ReferenceCache<T>& reference, const MeasureOptions& opt);

// Unverified solves (two, the faster returned; one when it takes
// kProbeOneSolveSeconds or more) of the random graph with n vertices (seed n,
// default density) to learn a solver's rate before a large configuration (see
// probe_size); exceptions propagate.
constexpr double kProbeOneSolveSeconds = 1.0;
template <typename T>
RunStats probe_solve(Solver<T>& solver, int64_t n, bool paths = false);

// A one-line message for an exception caught while building or running a
// solver (OpenCL errors carry their call and error name).
std::string describe_exception(const std::exception& e);

}  // namespace ocl_sp
