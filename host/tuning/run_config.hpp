// One configuration of `ocl_sp bench` or `ocl_sp sweep`, from its time estimate
// to its finished result row: the estimate (a probe solve at a smaller n first
// when only the default rate speaks against it), `skipped` over --time-limit with
// the estimate and its basis, the progress line, the verified and timed solves
// (measure.hpp) and the row's status and times. Both commands call it, so they
// skip, verify and report by one rule.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "report/bench_report.hpp"
#include "solvers/solver.hpp"
#include "tuning/bench_plan.hpp"
#include "tuning/measure.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

struct RunOptions {
  int warmup = 1, reps = 3;  // untimed, timed solves
  bool paths = false;        // every solve also computes the path matrix
  double time_limit = 60;    // seconds for warm-up + reps; over it: skipped
  bool quiet = false;        // no progress / note lines on stderr
};

// What run_configuration needs to know about one configuration.
template <typename T>
struct ConfigJob {
  const BenchColumn* column = nullptr;  // the device (default rate, probe size)
  Algo algo = Algo::fw;
  int64_t n = 0;
  // Whose measured rates predict this configuration's time (RateBook column):
  // bench: the column label (one rate per device x algorithm, learnt as n grows);
  // sweep: label + parameters (configurations of one algorithm differ too much
  // for one's rate to predict another's).
  std::string rate_key;
  // The solver, built on first need; null when it cannot be, with row.status
  // ("skipped" / "failed") and row.reason set by the callback.
  std::function<Solver<T>*(ResultRow& row)> solver;
  // The input matrix, made on first need, and the name of its reference.
  std::function<const DistMatrix<T>&()> input;
  std::string input_key;
  std::string what;  // progress line: "configuration 3 of 12 (n = 600, pocl fw)"
};

// Runs one configuration and fills row (status, reason, estimate and basis,
// params, T_o, times, verify): status ok | wrong | failed | skipped. A
// configuration estimated over o.time_limit is `skipped` with the estimate, its
// basis and a reason naming the limit; it is never run. Rates learnt (probe,
// timed solves) are recorded in `rates` under job.rate_key. `wall` is the
// command's stopwatch (progress lines). Throws only std::bad_alloc.
template <typename T>
void run_configuration(ResultRow& row, const ConfigJob<T>& job, RateBook& rates,
                       ReferenceCache<T>& reference, const RunOptions& o, const Stopwatch& wall);

// Copies a measurement and the solver's identity (params, their source, T_o,
// program cache, vendor, driver) into row; times only when m.status is ok.
void fill_from_measurement(ResultRow& row, const SolverInfo& info, const Measurement& m, int reps);

// The fastest `ok` row of rows[first, rows.size()) (a sweep's best per
// algorithm); skipped, wrong and failed rows never are. nullopt: none ran.
std::optional<size_t> fastest_ok_row(const std::vector<ResultRow>& rows, size_t first = 0);

// "12.3 s" below two minutes, else "4m05s".
std::string duration(double seconds);

}  // namespace ocl_sp
