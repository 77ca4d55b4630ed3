// The solve command's pieces (solve.cpp): its options as parsed, the graph's
// source and the memory plan checked before any work (solve_input.cpp), and the
// distributed solve's hand-over (solve_mpi.cpp). Internal to host/cli.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/atomic_file.hpp"
#include "graph/graph.hpp"
#include "graph/io.hpp"
#include "solvers/solver.hpp"
#include "util/timer.hpp"

namespace ocl_sp::solve_cmd {

struct SolveOptions {
  std::optional<int64_t> n;
  std::optional<uint64_t> seed;
  double density = 0;
  std::string generator = "random";
  int64_t degree = 0;
  std::string weights = "1:100";
  bool negative = false;
  std::string input, format = "auto";
  std::string algo = "auto", backend, device, type = "auto";
  // --type auto: the type chosen (why, for the report) and the graph read to
  // choose it, handed to the solve instead of reading the file twice.
  std::string type_note;
  std::shared_ptr<Graph> preloaded;
  std::optional<int> wg, block;
  std::vector<std::string> params;  // NAME=VALUE
  bool no_tuned = false;
  std::string output, output_format = "auto";
  bool verify = false, json = false;
  bool paths = false;
  std::vector<int64_t> queries;  // --query U V, repeatable: U0 V0 U1 V1 ...
  std::string paths_output, paths_output_format = "auto";
  std::vector<std::string> device_list;  // --device items; joined into `device`
  std::optional<int64_t> panel;
  std::string grid;  // --grid PRxPC: the MPI process grid
  std::string device_memory, host_memory;
  int split = 1;
  bool quiet = false;
  std::string sources, targets;  // --sources / --targets SPEC
  std::string stats;             // --stats FILE
  bool betweenness = false;      // --betweenness: a betweenness column in --stats
};

// --weights LO:HI (UsageError otherwise).
std::pair<int64_t, int64_t> parse_weights(const std::string& s);
// Fails before any computation when the output could not be written later:
// an unknown format, a missing folder, a folder as output (UsageError).
std::optional<OutputTarget> check_output_path(const std::string& path, const std::string& fmt);
// An output that is the input file (same device and inode once symlinks are
// followed, so hard links and symlinks count) would destroy the graph: refused.
void check_not_input(const std::optional<OutputTarget>& out, const std::string& input,
                     const char* flag);
// The generator's parameters from the options; `source` says what made the graph.
GeneratorParams generator_params(const SolveOptions& o, std::string& source);
// Edges a generated graph will have, about (for --algo auto before generating).
double expected_edges(const GeneratorParams& p);
// The graph of the solve: generated, read, or the one --type auto read already.
Graph load_graph(const SolveOptions& o, std::string& source, int64_t max_n);
// Host (and, for fw on OpenCL, device) memory of a dense solve of n vertices,
// checked before the matrix exists (RuntimeError with the numbers otherwise).
template <typename T>
void plan_memory(SolverSpec& spec, int64_t n, bool verify, bool paths);
// The same for a multi-source solve of n vertices and m edges into the matrix.
template <typename T>
void plan_sparse_memory(const SolverSpec& spec, int64_t n, int64_t m, bool verify, bool paths);
// --type auto: the narrowest exact type for the weights (reads the input into
// o.preloaded); sets o.type and o.type_note.
void resolve_value_type(SolveOptions& o);
// --sources/--targets/--stats against the rest of the command line, before any work.
void check_rows_options(const SolveOptions& o);

// Under mpirun: whether the distributed solve takes these options, and the solve.
bool mpi_takes(const SolveOptions& o);
int run_mpi(const SolveOptions& o, const Stopwatch& wall);

}  // namespace ocl_sp::solve_cmd
