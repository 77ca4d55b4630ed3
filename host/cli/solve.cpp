// The default command: build or read one graph, solve it on the chosen backend,
// optionally verify against the CPU reference, write the distances, report. Its
// input side and memory plan are in solve_input.cpp, the distributed solve's
// hand-over in solve_mpi.cpp.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <csignal>

#include <cstdlib>
#include <future>
#include <iostream>
#include <optional>

#include "api/api_internal.hpp"
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
#include "util/print_error.hpp"
#include "util/progress.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"
#include "cli/solve_options.hpp"

namespace ocl_sp {

namespace solve_cmd {

// --sources/--targets/--stats against the rest of the command line (the
// single-process and the distributed solve alike), before any work.
void check_rows_options(const SolveOptions& o) {
  const bool selecting = !o.sources.empty() || !o.targets.empty();
  if (selecting && (o.paths || !o.queries.empty() || !o.paths_output.empty()))
    throw UsageError("--sources/--targets select rows and columns of the distances; they cannot "
                     "be combined with --paths, --query or --paths-output");
  if (o.betweenness && o.stats.empty())
    throw UsageError("--betweenness adds a column to the --stats FILE: give --stats");
  if (o.betweenness && (o.verify || o.paths || !o.queries.empty() || !o.paths_output.empty()))
    throw UsageError("--betweenness runs on the streamed rows of the multi-source engine; it "
                     "cannot be combined with --verify, --paths, --query or --paths-output");
  if (o.stats.empty()) return;
  // --stats --sources: the figures of those sources' rows; with --betweenness the
  // sources are the sample of the estimate (networkx's k) and the figures every
  // vertex's (one line per vertex).
  if (!o.targets.empty())
    throw UsageError("--stats gives the figures of whole rows (every vertex's, or the --sources'); "
                     "it cannot be combined with --targets");
  if (o.betweenness && !o.sources.empty() && !o.output.empty())
    throw UsageError("--stats --sources --betweenness: --sources are the betweenness sample; "
                     "the distances cannot go to --output as well");
  check_stats_path(o.stats);
  const OutputTarget st = resolve_output(o.stats);
  check_not_input(st, o.input, "--stats");
  if (!o.output.empty() && o.output != "-" && same_file(resolve_output(o.output), st))
    throw UsageError("--output and --stats name the same file '" + o.output + "'");
}

}  // namespace solve_cmd

namespace {

using namespace solve_cmd;

extern "C" void on_stop_signal(int sig) {
  if (cancel_requested()) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  request_cancel(sig);
}

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

// {"command": "solve", "error": "negative cycle", "message": ..., "vertex": V,
//  "cycle": [V, ...] or null, "cycle_length": L or null, "exit_code": 3} on
// stdout (stderr when the matrix goes to stdout).
void print_negative_cycle_json(const SolveOptions& o, const NegativeCycleError& e) {
  std::ostream& out = o.output == "-" || o.paths_output == "-" ? std::cerr : std::cout;
  JsonWriter j(out);
  j.begin_object().field("command", "solve").field("error", "negative cycle");
  j.field("message", e.what()).field("vertex", e.vertex);
  j.key("cycle");
  if (e.cycle.empty()) {
    j.null();
  } else {
    j.begin_array();
    for (long long v : e.cycle) j.value(v);
    j.end_array();
  }
  j.key("cycle_length");
  if (e.cycle.empty())
    j.null();
  else
    j.value(e.length);
  j.field("exit_code", static_cast<int>(kExitNegativeCycle)).end_object();
  out << "\n";
}

template <typename T>
int run_typed(const SolveOptions& o, const Stopwatch& wall) {
  SolveReport rep;
  rep.type = ValueTraits<T>::name();
  if (!o.type_note.empty()) rep.notes.push_back(o.type_note);
  const auto out_target = check_output_path(o.output, o.output_format);
  // --query and --paths-output need the path matrix: they imply --paths.
  const bool want_paths = o.paths || !o.queries.empty() || !o.paths_output.empty();
  const bool want_hops = o.verify;  // the hop counts only check the paths (queries expand via alone)
  if (o.queries.size() % 2) throw UsageError("--query expects two vertex ids, U and V");
  const auto paths_target = check_output_path(o.paths_output, o.paths_output_format);
  if (out_target && paths_target &&
      (o.paths_output == o.output || same_file(*out_target, *paths_target)))
    throw UsageError("--output and --paths-output name the same file '" + o.output + "'");
  check_not_input(out_target, o.input, "--output");
  check_not_input(paths_target, o.input, "--paths-output");
  // Rows (solve_rows.hpp): selections and --stats, checked before any work.
  RowsRequest rows;
  rows.output = out_target;
  if (out_target)
    rows.format = o.output_format == "auto" ? detect_output_format(o.output)
                                            : parse_output_format(o.output_format);
  rows.stats = o.stats;
  rows.betweenness = o.betweenness;
  check_rows_options(o);
  // With the matrix on standard output the report goes to stderr.
  const bool report_to_stderr =
      (out_target && out_target->is_stdout()) || (paths_target && paths_target->is_stdout());
  std::ostream& report_out = report_to_stderr ? std::cerr : std::cout;

  // The dense solve runs through the public API: a Session over the planned spec
  // (api/api_internal.hpp), released last (profiling: its teardown timed).
  std::shared_ptr<Session> session;
  // The choices become the SolverSpec as in the C++ API (api/options_spec.hpp).
  Options choice;
  choice.algo = o.algo;
  choice.device = o.device;
  choice.backend = o.backend;
  choice.use_tuned = !o.no_tuned;
  if (o.wg) choice.params["WG"] = *o.wg;
  if (o.block) choice.params["BLOCK"] = *o.block;
  for (const auto& p : o.params) {
    const auto eq = p.find('=');
    int v = 0;
    size_t used = 0;
    try {
      if (eq != std::string::npos) v = std::stoi(p.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || eq == 0 || used == 0 || eq + 1 + used != p.size())
      throw UsageError("--param expects NAME=INTEGER (e.g. TILED=1), got '" + p + "'");
    choice.params[p.substr(0, eq)] = v;
  }
  choice.panel = o.panel.value_or(0);
  choice.split = o.split;
  if (!o.device_memory.empty())
    choice.device_memory = parse_size(o.device_memory, "--device-memory");
  SolverSpec spec;
  bool fell_back = false;
  Stopwatch options_phase;
  apply_options(spec, choice, {"--device", "--backend ", ""}, &fell_back);
  profile("options (devices listed)", options_phase.seconds());
  if (fell_back) {
    std::cerr << "note: no OpenCL device found, using the OpenMP backend (" << no_platform_hint()
              << ")\n";
    rep.notes.push_back("no OpenCL device found: fell back to the OpenMP backend");
  }
  spec.progress = !o.quiet && !o.json && Progress::stderr_is_terminal();
  // Betweenness is computed from the rows of the multi-source engine.
  if (o.betweenness) {
    if (spec.algo == Algo::automatic) {
      spec.algo = Algo::sssp;
      rep.choice = "--betweenness: sssp (betweenness comes from the multi-source engine's rows)";
    } else if (spec.algo != Algo::sssp) {
      throw UsageError("--betweenness runs on the multi-source engine: --algo sssp or auto");
    }
  }
  if (spec.backend != Backend::opencl && (o.panel || o.split > 1 || !o.device_memory.empty()))
    throw UsageError("--panel, --split and --device-memory apply to the OpenCL backend");
  if (spec.algo == Algo::fw_naive && (o.panel || o.split > 1 || !o.device_memory.empty()))
    throw UsageError("--panel, --split and --device-memory drive the panel engine of --algo fw "
                     "and squaring; fw-naive runs on one device and one buffer");

  // Memory is planned before a graph is generated (DESIGN.md "Scale"); a read
  // graph is planned as soon as its size is known, before its matrix exists.
  DistMatrix<T> d;
  PathMatrix paths;
  std::optional<DistMatrix<T>> input;
  GeneratorParams gen;
  bool direct = false;
  // --algo auto: fw or sssp from n, m and the backend's rates, once they are known.
  const auto resolve_auto = [&](int64_t n, double m) {
    if (spec.algo != Algo::automatic) return;
    const std::string kind =
        spec.backend == Backend::opencl ? select_devices(spec.device, 1).front().type : "";
    // --sources: sssp computes only those rows (fw all of them).
    const int64_t sources = o.sources.empty()
                                ? n
                                : static_cast<int64_t>(parse_vertex_spec(o.sources, n, "--sources").size());
    const AutoChoice c = choose_algo(n, static_cast<int64_t>(m), sources, spec.backend, kind);
    spec.algo = c.algo;
    rep.choice = "auto: " + c.why;
    if (!c.long_solve.empty()) std::cerr << "note: " << c.long_solve << "\n";
  };
  // An OpenCL solver (context, program load or compile) is built on a thread of
  // its own while the graph is generated or read into the matrix: the two take
  // 0.2-0.5 s each at n = 10 000 (docs/performance/startup.md). Errors keep their
  // order: a graph error is reported first (the future's destructor waits for the
  // solver and drops its error), a solver error at get() below.
  std::future<void> solver_ready;
  const auto start_solver = [&] {
    if (spec.backend == Backend::opencl) {
      session = std::make_shared<Session>(SessionAccess::of(spec, want_hops));
      solver_ready = std::async(std::launch::async, [s = session] { s->prepare<T>(); });
    }
  };
  Stopwatch phase;
  if (o.n && o.input.empty()) {
    gen = generator_params(o, rep.source);
    resolve_auto(generated_vertices(gen), expected_edges(gen));
    if (spec.algo == Algo::sssp)  // the edge list and its CSR, planned from n and m
      check_host_memory(generated_graph_bytes(gen, sizeof(T)),
                        "generating " + describe(gen) + ": n = " +
                            std::to_string(generated_vertices(gen)) + ", up to " +
                            std::to_string(generated_edges_bound(gen)) + " edges");
    if (spec.algo != Algo::sssp) {
      plan_memory<T>(spec, generated_vertices(gen), o.verify, want_paths);
      profile("devices + memory plan", phase.seconds());
      // Straight into the matrix when the range check needs no edge list.
      if constexpr (std::is_integral_v<T>)
        direct = static_cast<double>(generated_max_abs_weight(gen)) *
                     static_cast<double>(gen.n - 1) <
                 static_cast<double>(ValueTraits<T>::finite_limit);
      else
        direct = true;
      start_solver();
    }
  }
  phase = Stopwatch();
  Graph g;
  if (direct) {
    long long edges = 0;
    d = generate_matrix<T>(gen, &edges);
    rep.n = d.n();
    rep.edges = edges;
  } else {
    const bool sparse = spec.algo == Algo::sssp || spec.algo == Algo::automatic;
    g = o.n ? generate_graph(gen) : load_graph(o, rep.source, sparse ? kMaxSparseVertices : kMaxVertices);
    rep.n = g.n;
    rep.edges = static_cast<long long>(g.edges.size());
    check_range<T>(g);
    if (!o.n) resolve_auto(g.n, static_cast<double>(g.edges.size()));
    if (spec.algo != Algo::sssp) {
      if (!o.n) {
        plan_memory<T>(spec, g.n, o.verify, want_paths);
        start_solver();
      }
      d = to_matrix<T>(g);
      g = Graph();
    }
  }
  profile("graph (generation or reading, matrix)", phase.seconds());
  for (int64_t x : o.queries)
    if (x < 0 || x >= rep.n)
      throw UsageError("--query: vertex " + std::to_string(x) + " out of range [0, " +
                       std::to_string(rep.n) + ")");
  if (!o.sources.empty())
    (o.betweenness ? rows.betweenness_sources : rows.sources) =
        parse_vertex_spec(o.sources, rep.n, "--sources");
  if (!o.targets.empty()) rows.targets = parse_vertex_spec(o.targets, rep.n, "--targets");
  if (rows.selected()) {
    rep.rows = rows.rows(rep.n);
    rep.cols = rows.cols(rep.n);
  }
  check_rows_disk<T>(rows, rep.n);
  // sssp without --verify or paths never makes the n x n matrix: rows are
  // streamed to the output and reduced into --stats as batches complete.
  bool streamed = false;

  if (spec.algo == Algo::sssp && !o.verify && !want_paths) {
    const int64_t max_batch = plan_streamed_memory<T>(
        spec, g.n, static_cast<int64_t>(g.edges.size()), !o.stats.empty(), o.betweenness);
    phase = Stopwatch();
    const Csr<T> csr = build_csr<T>(g);
    g = Graph();
    profile("CSR of the edge list", phase.seconds());
    // Not built on a thread beside the graph as fw's solver is: PoCL's LLVM gives
    // the thread that compiles the probes a malloc'ed signal stack, which the
    // AddressSanitizer runtime fails to unmap when that thread exits (the
    // sanitize job's sssp CLI tests aborted; docs/performance/sparse.md).
    phase = Stopwatch();
    auto solver = make_sssp_solver<T>(spec);
    profile("solver ready", phase.seconds());
    solve_streamed<T>(std::move(solver), csr, rows, max_batch, rep);
    streamed = true;
  } else if (spec.algo == Algo::sssp) {
    // The multi-source engine: CSR of the edge list, rows into the n x n matrix.
    plan_sparse_memory<T>(spec, g.n, static_cast<int64_t>(g.edges.size()), o.verify, want_paths);
    const Csr<T> csr = build_csr<T>(g);
    if (o.verify) input = to_matrix<T>(g);
    g = Graph();
    phase = Stopwatch();
    auto solver = make_sssp_solver<T>(spec);
    profile("solver ready", phase.seconds());
    d = DistMatrix<T>(csr.n);
    if (want_paths) size_path_matrix(paths, csr.n);
    MatrixSink<T> sink(d, want_paths ? &paths : nullptr);
    rep.stats = solver->solve_rows(csr, {}, sink, want_paths);
    rep.info = solver->info();
  } else {
    phase = Stopwatch();
    if (!session) session = std::make_shared<Session>(SessionAccess::of(spec, want_hops));
    api::internal_errors([&] {
      if (solver_ready.valid()) solver_ready.get();
      else session->prepare<T>();
    });
    profile("solver ready (waited after the graph)", phase.seconds());
    // The input copy serves --verify and, on a negative cycle, the search for the
    // cycle itself (graph/negative_cycle.hpp): kept for that only when the graph
    // has a negative edge and the copy fits with room for the solve (otherwise a
    // negative cycle is reported with the solver's vertex alone).
    // The memory test first: past it (n = 150 000 and up) the matrix is not scanned.
    const uint64_t matrix_bytes = static_cast<uint64_t>(d.n()) * d.n() * sizeof(T);
    if (o.verify || (host_memory_available() / 4 >= matrix_bytes && any_negative(d.values()))) input = d;
    try {
      const int64_t n = d.n();
      auto r = api::internal_errors([&] {
        return session->all_pairs<T>(Matrix<T>{n, std::move(d.values())}, want_paths);
      });
      d = DistMatrix<T>(n, std::move(r.distances));
      if (want_paths) {
        paths.n = n;
        paths.via = std::move(r.via);
        paths.hops = std::move(r.hops);
      }
      api::undescribe(r, rep.info, rep.stats);
    } catch (const NegativeCycleError& e) {
      rethrow_with_cycle(e, input ? &*input : nullptr);
    }
  }
  rep.paths = want_paths;
  rep.paths_hops = want_hops;
  phase = Stopwatch();

  if (o.verify) {
    const VerifyResult v = verify_result(*input, d, spec.backend == Backend::openmp);
    rep.verify = v.ok ? "ok" : "FAILED";
    rep.verify_detail = v.detail + " vs " + v.reference;
    if (want_paths) {
      // Every pair's path: real edges of the input whose weights add up to d.
      record_paths_check(rep, check_paths(*input, d, paths));
    }
  }
  if (rep.verify != "FAILED") {
    for (size_t k = 0; k + 1 < o.queries.size(); k += 2) {
      PathQuery q;
      q.from = o.queries[k];
      q.to = o.queries[k + 1];
      q.vertices = expand_path(d, paths, q.from, q.to);
      q.length = static_cast<double>(d(q.from, q.to));
      rep.queries.push_back(std::move(q));
    }
  }
  throw_if_cancelled();  // a stop during the solve: no output
  if (!streamed && rep.verify != "FAILED") write_dense_results(d, rows, rep);
  if (!o.paths_output.empty() && rep.verify != "FAILED") {
    write_int_matrix(paths.via, paths.n, o.paths_output,
                     parse_output_format(o.paths_output_format));
    rep.paths_output = o.paths_output;
  }
  rep.wall = wall.seconds();
  if (o.json) {
    JsonWriter j(report_out);
    j.begin_object().field("command", "solve");
    write_json_fields(j, rep);
    j.end_object();
    report_out << "\n";
  } else {
    print_human(report_out, rep);
  }
  profile("after the solve (verify, output, report)", phase.seconds());
  if (rep.verify == "FAILED") {
    print_error("verification failed: " + rep.verify_detail);
    return kExitRuntime;
  }
  if (profiling()) {
    phase.reset();
    session.reset();
    profile("solver released (context, buffers)", phase.seconds());
    phase.reset();
    d = DistMatrix<T>();
    profile("matrix freed", phase.seconds());
  }
  fast_exit_after_output(kExitOk);
  return kExitOk;
}

}  // namespace

Command set_solve_command(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  auto* g = "Graph";
  app.add_option("--n", o->n, "Random directed graph with N vertices")
      ->check(CLI::Range(int64_t{1}, int64_t{kMaxSparseGeneratedVertices}))
      ->group(g);
  app.add_option("--seed", o->seed, "Random seed (default: N, as the paper seeds rand() with n)")
      ->group(g);
  app.add_option("--density", o->density,
                 "Edge probability (default min(1, max(0.1, 20/N)): complete up to 20 vertices, 10% of pairs from 200)")
      ->check(CLI::Range(0.0, 1.0))
      ->group(g);
  app.add_option("--generator", o->generator,
                 "Family of the --n graph: random (default; --density or --degree) | grid "
                 "(K x K 4-neighbour lattice, both directions, n rounded to K^2) | geometric "
                 "(points in the unit square joined both ways to their --degree nearest, "
                 "weight from the length: road-like)")
      ->group(g);
  app.add_option("--degree", o->degree,
                 "random: about D out-edges per vertex (instead of --density); geometric: "
                 "D nearest neighbours (default 6)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 31))
      ->type_name("D")
      ->group(g);
  app.add_option("--weights", o->weights, "Integer edge weights LO:HI (default 1:100)")->group(g);
  app.add_flag("--negative", o->negative,
               "Add negative edges (via vertex potentials: never a negative cycle)")
      ->group(g);
  app.add_option("--input", o->input, "Read the graph from FILE instead")->group(g);
  app.add_option("--format", o->format,
                 "Input format: auto (by extension) | bin (course) | gr (DIMACS) | mtx (Matrix "
                 "Market) | edges (text 'u v w')")
      ->group(g);
  auto* s = "Solver";
  app.add_option("--algo", o->algo,
                 "auto (default: fw or sssp, whichever the estimates say is faster) | fw "
                 "(blocked Floyd-Warshall) | squaring | fw-naive | sssp (multi-source "
                 "Dijkstra / near-far, for sparse graphs)")
      ->group(s);
  app.add_option("--backend", o->backend,
                 "opencl (default; OpenMP if no OpenCL device exists) | openmp | serial")
      ->group(s);
  app.add_option("--device", o->device_list,
                 "OpenCL device: amd | nvidia | intel | cpu | gpu | pocl | P:D | name substring, "
                 "words combined with '+' (amd+gpu); a comma-separated list or gpu:all / all "
                 "solves over several devices (fw) (default: $OCL_SP_DEVICE, else the first "
                 "GPU, else a CPU device)")
      ->delimiter(',')
      ->each([o](const std::string& item) {
        o->device += (o->device.empty() ? "" : ",") + item;
      })
      ->type_name("SPEC")
      ->group(s);
  app.add_option("--type", o->type,
                 "Value type: auto (default: int32 when integer weights keep int32 sums exact, "
                 "int64 when only int64 does, float64 for real weights; float32 where the "
                 "device has no float64) | int32 | int64 | float32 | float64")
      ->check(CLI::IsMember({"auto", "int32", "int64", "float32", "float64"}, CLI::ignore_case))
      ->group(s);
  app.add_option("--wg", o->wg, "Work-group edge T for squaring (4, 8, 16, 32)")->group(s);
  app.add_option("--block", o->block, "Block edge for fw (default: tuned value or built-in)")
      ->group(s);
  app.add_option("--param", o->params,
                 "Any kernel tunable as NAME=VALUE, repeatable (e.g. TILED=1 TM=8 KC=16; "
                 "see README)")
      ->group(s);
  app.add_flag("--no-tuned", o->no_tuned, "Ignore tuned parameters stored by 'ocl_sp sweep'")
      ->group(s);
  auto* sc = "Scale";
  app.add_option("--panel", o->panel,
                 "Panel edge P of the panel engine (fw): forces panels, resident or out of "
                 "core (default: chosen from the memory; rounded up to a multiple of 128)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->group(sc);
  app.add_option("--device-memory", o->device_memory,
                 "Device memory the solve may use per device, e.g. 512M, 20G; a matrix that "
                 "does not fit runs out of core (fw)")
      ->group(sc);
  app.add_option("--host-memory", o->host_memory,
                 "Host memory the solve may use (overrides MemAvailable, cgroup and ulimit "
                 "readings), e.g. 100G")
      ->group(sc);
  app.add_option("--split", o->split,
                 "Partition each chosen OpenCL device into K equal sub-devices "
                 "(clCreateSubDevices), one solve over all of them (fw)")
      ->check(CLI::Range(1, 256))
      ->group(sc);
  app.add_option("--grid", o->grid,
                 "MPI process grid PRxPC of a solve under mpirun (PR x PC = ranks; panel (i,j) "
                 "on rank (i mod PR, j mod PC); default: the most square, PR <= PC; 4x1 = 1D "
                 "row-cyclic)")
      ->type_name("PRxPC")
      ->group(sc);
  app.add_flag("--quiet", o->quiet, "No progress line on stderr")->group(sc);
  auto* out = "Output";
  app.add_option("--output", o->output,
                 "Write the n x n distance matrix (|S| x |T| with --sources/--targets) to FILE, "
                 "atomically; sssp streams the rows as they complete")
      ->group(out);
  app.add_option("--output-format", o->output_format,
                 "bin (raw row-major, no header) | npy | csv (default: from the extension)")
      ->group(out);
  app.add_option("--sources", o->sources,
                 "Rows of the result: 0-based ids and ranges '3,7,10-19' (order kept, repeats "
                 "allowed) or @FILE (one id a line); the output is |S| x |T| (sssp computes "
                 "only these rows); with --stats, the figures of these sources' rows alone")
      ->type_name("SPEC")
      ->group(out);
  app.add_option("--targets", o->targets, "Columns of the result, as --sources")
      ->type_name("SPEC")
      ->group(out);
  app.add_option("--stats", o->stats,
                 "Per-vertex figures to FILE (.csv, .npy or .json): vertex, reach, eccentricity, "
                 "closeness and harmonic centrality as networkx defines them; the report adds "
                 "diameter, radius, reachable pairs and the average shortest path length. With "
                 "--sources SPEC: a line per listed source (SPEC's order, repeats kept), the same "
                 "figures as every vertex's file has for it, the summary over those sources "
                 "(|S| rows each way, not n); not with --targets")
      ->type_name("FILE")
      ->group(out);
  app.add_flag("--betweenness", o->betweenness,
               "With --stats: a betweenness column, networkx's betweenness_centrality "
               "(normalized, exact: every vertex a source; with --sources SPEC the estimate from "
               "those sources, scaled as networkx's k, and still a line per vertex with every "
               "vertex's figures); runs --algo sssp")
      ->group(out);
  app.add_flag("--verify", o->verify,
               "Compare with the CPU reference (exit 1 and no output file on mismatch); with "
               "paths also check every pair's path against the input")
      ->group(out);
  auto* pg = "Paths";
  app.add_flag("--paths", o->paths,
               "Compute the path matrix beside the distances (every backend and algorithm). "
               "via(i,j) = an intermediate vertex k of the recorded shortest i->j path, which "
               "is path(i,k) + path(k,j); -1 when the path is the single edge i->j, on the "
               "diagonal and for unreachable pairs. Ties in distance go to fewer edges, so "
               "expansion terminates even with zero-weight cycles")
      ->group(pg);
  app.add_option("--query", o->queries,
                 "Print a shortest path U -> ... -> V and its length, or 'no path' "
                 "(0-based vertex ids; repeatable; implies --paths)")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)  // each occurrence adds a pair
      ->type_name("VERTEX")  // shown as "--query VERTEX x 2"
      ->group(pg);
  app.add_option("--paths-output", o->paths_output,
                 "Write the n x n via matrix (int32, -1 as above) to FILE, atomically; "
                 "implies --paths")
      ->type_name("FILE")
      ->group(pg);
  app.add_option("--paths-output-format", o->paths_output_format,
                 "bin | npy | csv (default: from the extension of --paths-output)")
      ->group(pg);
  app.add_flag("--json", o->json, "Machine-readable report on stdout")->group(out);
  Command c;
  c.run = [o]() {
    Stopwatch wall;
    if (!o->host_memory.empty()) set_host_memory_limit(parse_size(o->host_memory, "--host-memory"));
    // Ctrl-C / SIGTERM: the running solve stops at its next round, nothing is
    // written (exit 130 / 143); a second signal ends the process at once.
    install_stop_handlers();
    resolve_value_type(*o);
    // Under mpirun with several ranks (or one, given --grid or options the
    // distributed solve takes): one solve across all of them (host/mpi/). Without
    // mpirun --grid can only name the one process.
    if (mpi::launched_world_size() > 1 ||
        (mpi::launched_by_mpi() && (!o->grid.empty() || mpi_takes(*o)))) {
      o->preloaded.reset();  // rank 0 reads the input itself
      return run_mpi(*o, wall);
    }
    if (!o->grid.empty()) {
      const auto g = mpi::parse_grid(o->grid);
      if (g.first * g.second != 1)
        throw UsageError("--grid " + o->grid + " is a process grid of " +
                         std::to_string(g.first * g.second) +
                         " MPI ranks; start the solve with mpirun -np " +
                         std::to_string(g.first * g.second) + " (this run is one process)");
    }
    try {
      const int rc = visit_type(parse_value_type(o->type),
                                [&](auto t) { return run_typed<decltype(t)>(*o, wall); });
      profile("solve command (teardown included)", wall.seconds());
      return rc;
    } catch (const NegativeCycleError& e) {
      // With --json the error is an object too (docs/formats.md "Semantics"); main()
      // then prints the message and exits 3.
      if (o->json) print_negative_cycle_json(*o, e);
      throw;
    }
  };
  return c;
}

}  // namespace ocl_sp
