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

// One --query U V: the vertices of the reported shortest path (empty: no path).
struct PathQuery {
  int64_t from = 0, to = 0;
  std::vector<int64_t> vertices;
  double length = 0;  // the distance d(from, to) when there is a path
};

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
  // Path reconstruction (--paths, --query, --paths-output); the rest is in stats.
  bool paths = false;
  bool paths_hops = true;  // the hops matrix was kept (--verify checks the paths with it)
  std::string paths_check = "not run";  // not run | ok | FAILED (--verify)
  std::string paths_check_detail;
  std::string paths_output;  // written path matrix or empty
  std::vector<PathQuery> queries;
  std::vector<std::string> notes;
  std::string choice;  // --algo auto: what it chose and why (empty otherwise)
  // --stats: the graph's figures (sparse/stats_sink.hpp GraphStats) and the file.
  bool has_stats = false;
  double diameter = 0, radius = 0, average_shortest_path_length = 0;
  long long reachable_pairs = 0;
  std::string stats_output;
  // --stats --sources: the distinct sources whose rows the figures cover (0: every
  // vertex); the JSON stats object's "sources".
  long long stats_sources = 0;
  // --sources / --targets: the shape of the written result (0: all n).
  long long rows = 0, cols = 0;
  double relax_per_second() const {
    const double t = stats.t_k > 0 ? stats.t_k : stats.total;
    return t > 0 ? stats.relaxations / t : 0;
  }
};

void print_human(std::ostream& out, const SolveReport& r);
// "path 3 -> 7: 3 -> 5 -> 7 (length 12)" or "path 3 -> 7: no path".
std::string format_query(const PathQuery& q);
// "queries": [{from, to, reachable, path, length}, ...] into an open JSON object
// (the one-process and the MPI reports).
void write_queries(JsonWriter& j, const std::vector<PathQuery>& queries);
// Writes the report's fields into an already open JSON object.
void write_json_fields(JsonWriter& j, const SolveReport& r);
std::string format_seconds(double s);  // "12.3 ms", "1.52 s"
// --verify's check of every pair's path (check_paths' answer: empty when they
// hold) into a report's paths_check fields (SolveReport, the MPI report); a
// problem fails the verify as well. Returns whether the paths held.
template <typename Report>
bool record_paths_check(Report& rep, const std::string& problem) {
  rep.paths_check = problem.empty() ? "ok" : "FAILED";
  rep.paths_check_detail =
      problem.empty() ? "every pair: edges of the input, length = distance" : problem;
  if (problem.empty()) return true;
  rep.verify = "FAILED";
  rep.verify_detail += "; paths: " + problem;
  return false;
}
std::string format_rate(double per_s); // "6.21 T"

}  // namespace ocl_sp
