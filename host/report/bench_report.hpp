// Result rows of `ocl_sp bench` and `ocl_sp sweep` (one per configuration) and
// their renderings: the paper-style tables (Table 2: median times per device x
// algorithm per n; Table 3: speedups), CSV and JSON. Pure: unit-tested.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/table.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

// Version of the JSON document and CSV columns written by bench and sweep;
// bumped when a field changes meaning or disappears.
constexpr int kBenchSchemaVersion = 1;

struct ResultRow {
  std::string column;  // table label: "serial", "openmp", "pocl", ...
  std::string backend, device, vendor, driver;
  std::string algorithm, type;
  int64_t n = 0;
  Tunables params;
  std::string params_source;  // built-in | tuned (...) | command line | sweep
  std::string program_cache;  // hit | miss | n/a
  double t_o = 0;             // solver set-up, once per solver object
  double t_h = 0, t_k = 0;    // medians over the reps
  double total = 0;           // median solve wall time (= median)
  double min = 0, max = 0;    // of the solve wall time
  int reps = 0;
  std::vector<double> times;  // every timed solve, in order
  double relaxations = 0;     // per solve
  double relaxations_per_s = 0;
  int products = 0;
  std::string status = "ok";  // ok | wrong | skipped | failed
  std::string reason;
  std::string verify = "not run", verify_detail;
  double estimate = -1;  // seconds estimated for the configuration, -1 = none
  std::string estimate_basis;
  bool best = false;  // sweep: the configuration stored as tuned
  bool paths = false;        // bench --paths: every solve also computed the path matrix
  double paths_bytes = 0;    // memory the hop and via matrices took beside the distances
  std::string series() const { return column + " " + algorithm; }
};

// Table 2: one row per n, one column per device x algorithm (first-appearance
// order), median solve seconds; "skip", "WRONG", "failed" or "-" otherwise.
TextTable time_table(const std::vector<ResultRow>& rows);
// Table 3: speedups T_A / T_B per n, same algorithm: every series over serial,
// every OpenCL series over openmp, and every further OpenCL device over the
// first one. `opencl_columns` lists the labels of the OpenCL columns in order.
TextTable speedup_table(const std::vector<ResultRow>& rows,
                        const std::vector<std::string>& opencl_columns);

// The CSV header (one line) and one line per row.
std::vector<std::string> csv_columns();
std::string csv_row(const ResultRow& r);
void write_csv(std::ostream& out, const std::vector<ResultRow>& rows);

// Reads rows back from a file written by write_csv (any column order; unknown
// columns ignored). UsageError naming the line for a file that is not one.
std::vector<ResultRow> read_csv(std::istream& in, const std::string& name);
// Splits one CSV record (RFC 4180 quoting, no embedded line breaks).
std::vector<std::string> split_csv_line(const std::string& line);

// One row as a JSON object (into an open array or under a key).
void write_json_row(JsonWriter& j, const ResultRow& r);

// The one-line status of a configuration as printed while running, e.g.
// "n=200    pocl       fw        BLOCK=64 WPT=1   ok  1.23 ms (min 1.20 ms, max 1.31 ms)  T_k ..."
// or "... skipped: WG*WG <= max work-group size (4096 > 1024)".
std::string status_text(const ResultRow& r);

// "12 configurations: 10 ok, 2 skipped, 0 wrong, 0 failed" (+ "; " + elapsed when
// given), and the run's exit code: kExitRuntime (with an `error:` line on stderr)
// when a configuration was wrong or failed, else 0.
std::string outcome_line(const std::vector<ResultRow>& rows, const std::string& elapsed = "");
int outcome_exit_code(const std::vector<ResultRow>& rows);

// UsageError (exit 2) naming `flag` when the folder of `path` does not exist, so
// a run never ends with results it cannot write. Empty path: nothing to check.
void check_output_target(const std::string& path, const std::string& flag);
// Writes the rows as CSV to `path` atomically.
void save_csv(const std::string& path, const std::vector<ResultRow>& rows);
}  // namespace ocl_sp
