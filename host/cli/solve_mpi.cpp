// The solve command under mpirun (solve_options.hpp): which options the
// distributed solve takes, and the hand-over to it (mpi/mpi_fw.hpp).
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <csignal>

#include <cstdlib>
#include <future>
#include <iostream>
#include <optional>

#include "api/options_spec.hpp"
#include "cl/device.hpp"
#include "cli/commands.hpp"
#include "cli/row_select.hpp"
#include "cli/solve_rows.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "graph/paths.hpp"
#include "mpi/mpi_env.hpp"
#include "mpi/mpi_fw.hpp"
#include "report/report.hpp"
#include "solvers/opencl_base.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"
#include "solvers/verify.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "graph/csr.hpp"
#include "util/atomic_file.hpp"
#include "util/fast_exit.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/progress.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"
#include "cli/solve_options.hpp"

namespace ocl_sp::solve_cmd {

namespace {

// The options the distributed solve does not take, named for its refusal.
std::string mpi_unsupported(const SolveOptions& o) {
  std::vector<std::string> no;
  if (o.split > 1) no.push_back("--split");
  if (!o.device_memory.empty()) no.push_back("--device-memory");
  if (o.wg || o.block || !o.params.empty()) no.push_back("--wg/--block/--param");
  std::string s;
  for (const auto& x : no) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// What the multi-source engine under mpirun does not take (mpi/mpi_sssp.hpp);
// --algo auto then runs the distributed fw, which does.
std::string sssp_unsupported(const SolveOptions& o) {
  std::vector<std::string> no;
  if (!o.grid.empty()) no.push_back("--grid");
  if (o.panel) no.push_back("--panel");
  if (o.verify) no.push_back("--verify");
  std::string s;
  for (const auto& x : no) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

// Under mpirun -np 1 the distributed solve runs (on a 1 x 1 grid, or the
// multi-source engine on one rank) whenever it takes the options, so one rank
// accepts what two accept and writes the same bytes; anything else (--algo
// squaring, serial, sssp with --paths, ...) is the single-process solve.
bool mpi_takes(const SolveOptions& o) {
  const std::string a = lower(o.algo);
  if (!mpi::built_with_mpi() || !mpi_unsupported(o).empty() || lower(o.backend) == "serial") return false;
  return a == "fw" || a == "auto" || (a == "sssp" && sssp_unsupported(o).empty());
}

// The distributed solve's options (mpi/mpi_fw.hpp).
int run_mpi(const SolveOptions& o, const Stopwatch& wall) {
  mpi::MpiSolveOptions m;
  m.generated = o.n.has_value();
  m.generator = [&o](std::string& source) { return generator_params(o, source); };
  m.input = o.input;
  m.format = o.format;
  // --algo auto: fw or sssp, chosen under MPI (mpi/mpi_sssp.hpp choose_algorithm).
  m.algo = lower(o.algo);
  m.expected_edges = [](const GeneratorParams& p) { return expected_edges(p); };
  m.sssp_unsupported = sssp_unsupported(o);
  m.backend = o.backend;
  m.device = o.device;
  m.type = o.type;
  m.panel = o.panel;
  m.grid = o.grid;
  m.output = o.output;
  m.output_format = o.output_format;
  m.verify = o.verify;
  m.json = o.json;
  m.paths = o.paths || !o.queries.empty() || !o.paths_output.empty();
  m.queries = o.queries;
  m.paths_output = o.paths_output;
  m.paths_output_format = o.paths_output_format;
  m.sources = o.sources;
  m.targets = o.targets;
  m.stats = o.stats;
  m.betweenness = o.betweenness;
  // The single-process solve's refusals (run_typed), before any work.
  m.check_rows = [&o] { check_rows_options(o); };
  m.unsupported = mpi_unsupported(o);
  return mpi::run_solve(m, wall);
}

}  // namespace ocl_sp::solve_cmd
