// The solve report: what ran (device, algorithm, n, type, parameters and their
// source) and the paper's time split T_o / T_h / T_k, total and relaxations/s,
// printed for humans or as one JSON object (--json).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "solvers/solver.hpp"

namespace ocl_sp {

struct SolveReport {
  SolverInfo info;
  RunStats stats;
  std::string type;
  int64_t n = 0;
  long long edges = 0;
  std::string source;  // "random (seed 5000, density 0.1)" or the input path
  double wall = 0;     // whole process so far, seconds
  std::string verify = "not run";  // not run | ok | FAILED
  std::string verify_detail;
  std::string output;  // written file or empty
  std::vector<std::string> notes;
  double relax_per_second() const {
    const double t = stats.t_k > 0 ? stats.t_k : stats.total;
    return t > 0 ? stats.relaxations / t : 0;
  }
};

void print_human(std::ostream& out, const SolveReport& r);
// Writes the report's fields into an already open JSON object.
void write_json_fields(JsonWriter& j, const SolveReport& r);
std::string format_seconds(double s);  // "12.3 ms", "1.52 s"
std::string format_rate(double per_s); // "6.21 T"

}  // namespace ocl_sp
