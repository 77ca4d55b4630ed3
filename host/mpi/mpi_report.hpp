// The distributed solve's report (rank 0 only): text or --json, with the process
// grid, per-rank and per-round times and the bytes each stage moved.
#pragma once
#include <array>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "mpi/mpi_fw.hpp"
#include "mpi/mpi_layout.hpp"
#include "mpi/mpi_session.hpp"
#include "report/report.hpp"
#include "sparse/stats_sink.hpp"

namespace ocl_sp::mpi {

struct Report {
  std::string source, backend_kind;
  std::string choice;  // --algo auto: what it chose and why (empty otherwise)
  long long edges = 0;
  std::vector<std::string> devices;  // per rank
  double t_setup = 0, t_solve = 0, t_gather = 0, t_write = 0, wall = 0;
  std::vector<double> compute, wait, kernels, sent;  // per rank
  // per rank (fw): device seconds of the received panels' uploads and of the
  // step-2 / pivot read-backs, host seconds pinning the broadcast buffers (on a
  // thread beside the set-up) and waiting for them after it
  std::vector<double> upload, readback, pin, pin_wait, pinned;
  std::vector<double> round_compute, round_wait;     // per round, the slowest rank
  // per round, the latest rank: seconds from its begin of the round to the pivot on
  // its host / its part of steps 1-2 posted / every block it receives arrived
  // (RoundTimes)
  std::vector<double> round_pivot, round_posted, round_arrived;
  double bytes_bcast = 0, bytes_scatter = 0, bytes_gather = 0;
  double bytes_output = 0;  // output blocks sent to rank 0 (streamed output)
  std::string verify, verify_detail, output, output_mode;
  std::vector<double> peak_rss;  // per rank, bytes
  std::vector<double> generated;  // per rank: values generated (dense model) or edges (sparse families)
  std::vector<double> setup_rss;  // per rank, the peak at the end of the set-up, bytes
  // --paths: how the path matrix was made, its check under --verify, the via file
  // and the --query answers (from, to, vertices, length).
  bool paths = false;
  std::string paths_detail, paths_check, paths_check_detail, paths_output;
  std::vector<PathQuery> queries;  // --query answers (report/report.hpp)
  long long rows = 0, cols = 0;     // --sources / --targets: the output's shape
  // --stats: the graph's figures and the per-vertex file (empty: no --stats).
  std::string stats_output;
  GraphStats graph_stats;
  double t_stats = 0;
};

// This rank's device budget (OpenCL) or host memory (OpenMP), the weakest over

// Per-rank figures to rank 0, collective (every rank calls it with its own
// figures, as many as into has, and device name): on rank 0 rank k's figure i is appended to *into[i]
// and its device name (up to 127 bytes) to devices, in rank order; the other
// ranks' vectors stay as they are.
void gather_rank_figures(const Session& s, const std::vector<double>& mine, const std::string& device,
                         const std::vector<std::vector<double>*>& into, std::vector<std::string>& devices);

// The reports' first fields and lines, alike for fw and sssp: the JSON object
// opened with command, algorithm, algorithm_choice (choice, or null where empty:
// --algo not auto) and mpi_ranks; the text's source, graph and algorithm lines
// (the choice where --algo auto made one, else algo).
void begin_report_json(JsonWriter& j, const char* algo, const std::string& choice, int ranks);
void write_report_head(std::ostream& os, const std::string& source, long long n, long long edges,
                       const char* type, const char* algo, const std::string& choice);

// The report's "stats" object (null without --stats) and stats_s, as the
// single-process report writes it: the graph's figures and the file.
void write_stats_json(JsonWriter& j, const std::string& file, const GraphStats& g, double seconds);
// The text report's stats line (nothing without --stats); `how` says who reduced what.
void write_stats_line(std::ostream& os, const std::string& file, const GraphStats& g,
                      const std::string& how, double seconds);

// With the matrix on standard output (--output -) the report goes to stderr, as
// in the single-process solve. type: the value type's name ("int32").
void print_report(const MpiSolveOptions& o, const Report& rep, const Layout& lay, int ranks,
                  bool to_stderr, const char* type);

// The multi-source engine's report under mpirun (rank 0): per-rank sources,
// solve and kernel seconds, rank 0's seconds per kernel, the output and stats.
struct SsspReport {
  std::string source, backend, choice, output, output_mode, stats_output;
  long long n = 0, edges = 0, rows = 0, cols = 0, chunk = 0;
  bool selected = false;
  std::vector<std::string> devices;
  std::vector<double> sources, solve, kernels, peak_rss;  // per rank
  std::map<std::string, double> kernel_seconds;         // rank 0's, per kernel (OpenCL)
  double t_setup = 0, t_solve = 0, t_write = 0, t_stats = 0, wall = 0, relaxations = 0;
  GraphStats graph_stats;
  std::vector<std::string> notes;
  bool paths = false;
  std::string paths_output;
  std::vector<PathQuery> queries;
};
void print_sssp_report(const MpiSolveOptions& o, const SsspReport& r, int ranks, bool to_stderr,
                       const char* type);

}  // namespace ocl_sp::mpi
