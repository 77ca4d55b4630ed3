// The distributed solve's driver (see mpi_fw.hpp): options, the panel plan (the
// panel engine's plan_panels for the process grid), set-up, the rounds, the global
// negative-cycle check, output and report. The parts, one concern a file:
//   mpi_session   MPI_Init/Finalize, exit-code agreement, abort inside the rounds
//   mpi_layout    the 2D block-cyclic layout, generated / scattered local panels
//   mpi_backend*  a rank's primitives: OpenMP (cpu) or its OpenCL device (cl)
//   mpi_rounds    the broadcast rounds with look-ahead
//   mpi_output    every rank writes its panels into the one output file
//   mpi_rows      --sources / --targets selections and --stats, without a gather
//   mpi_report    the report (rank 0)
//
// Errors: set-up steps (options, devices, graph, scatter) end in a collective
// agreement (MPI_Allreduce of the exit code): every rank leaves with the same code,
// the lowest failing rank prints its error. A failure inside the rounds (where a
// peer may be blocked in a broadcast) prints the error and calls MPI_Abort: no
// hang, and nothing has been written (the output is written after the rounds,
// atomically).
#include "mpi/mpi_fw.hpp"

#include "mpi/mpi_env.hpp"
#include "util/errors.hpp"
#include "util/print_error.hpp"

#ifndef OCL_SP_HAVE_MPI

namespace ocl_sp::mpi {

int run_solve(const MpiSolveOptions&, const Stopwatch&) {
  throw UsageError("launched by mpirun with " + std::to_string(launched_world_size()) +
                   " ranks, but this ocl_sp was built without MPI (install libopenmpi-dev and "
                   "configure with -DOCL_SP_MPI=ON), or run it without mpirun");
}

}  // namespace ocl_sp::mpi

#else

#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "cl/device.hpp"
#include "graph/io.hpp"
#include "mpi/mpi_backend.hpp"
#include "mpi/mpi_layout.hpp"
#include "mpi/mpi_output.hpp"
#include "mpi/mpi_paths.hpp"
#include "mpi/mpi_rows.hpp"
#include "mpi/mpi_report.hpp"
#include "mpi/mpi_rounds.hpp"
#include "mpi/mpi_session.hpp"
#include "mpi/mpi_sssp.hpp"
#include "solvers/opencl_fw.hpp"
#include "solvers/panel_engine.hpp"
#include "solvers/solver.hpp"
#include "solvers/verify.hpp"
#include "graph/paths.hpp"
#include "util/atomic_file.hpp"
#include "util/cancel.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"

namespace ocl_sp::mpi {

bool uses_opencl(const MpiSolveOptions& o) {
  if (o.backend.empty()) return !list_devices().empty() || !o.device.empty();
  const Backend b = parse_backend(o.backend);
  if (b == Backend::serial)
    throw UsageError("--backend serial is single-process; under mpirun use openmp or opencl");
  return b == Backend::opencl;
}

bool check_backend_and_graph(const MpiSolveOptions& o) {
  const bool opencl = uses_opencl(o);
  if (!opencl && !o.device.empty())
    throw UsageError("--device selects an OpenCL device; it cannot be used with --backend openmp");
  if (o.generated && !o.input.empty()) throw UsageError("give either --n or --input, not both");
  if (!o.generated && o.input.empty())
    throw UsageError("no graph: give --n N for a random graph or --input FILE (see --help)");
  if (o.queries.size() % 2) throw UsageError("--query expects two vertex ids, U and V");
  return opencl;
}

namespace {

// This process's peak resident memory in bytes (getrusage: KiB on Linux).
uint64_t peak_rss_bytes() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

// This rank's device budget (OpenCL) or host memory (OpenMP), the weakest over
// all ranks, so every rank plans the same panels.
detail::DeviceBudget weakest_budget(const detail::DeviceBudget& mine) {
  uint64_t v[2] = {mine.memory, mine.max_alloc}, w[2] = {0, 0};
  MPI_Allreduce(v, w, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  int backed = mine.host_backed ? 1 : 0, any = 0;
  MPI_Allreduce(&backed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  detail::DeviceBudget b = mine;
  b.memory = w[0];
  b.max_alloc = w[1];
  b.host_backed = any != 0;
  return b;
}

template <typename T>
int run_typed(const MpiSolveOptions& o, AlgoChoice& c, const Stopwatch& wall, const Session& s) {
  Outcome out;
  Report rep;
  rep.choice = c.why;
  Layout lay;
  bool opencl = false;
  GeneratorParams gen;
  Graph read;  // rank 0, file input: the edge list, sent to the panels' owners
  std::optional<OutputTarget> target, paths_target;
  OutputFormat output_format = OutputFormat::bin, paths_format = OutputFormat::bin;
  std::pair<int, int> grid{0, 0};
  int64_t n = 0;

  // 1. Options (identical on every rank) and, on rank 0, the input file.
  out.step([&] {
    if (!o.unsupported.empty())
      throw UsageError(o.unsupported + " not supported by the distributed solve (" +
                       std::to_string(s.size) + " MPI ranks); it runs --algo fw (distances, --paths)");
    grid = o.grid.empty() ? default_grid(s.size) : parse_grid(o.grid);
    if (grid.first * grid.second != s.size)
      throw UsageError("--grid " + o.grid + " is a process grid of " +
                       std::to_string(grid.first * grid.second) + " ranks, but the job has " +
                       std::to_string(s.size) + " (mpirun -np " +
                       std::to_string(grid.first * grid.second) + ", or another --grid)");
    if (o.betweenness)
      throw UsageError("--betweenness runs on the multi-source engine: --algo sssp or auto");
    if (parse_algo(o.algo) != Algo::fw)
      throw UsageError("--algo " + o.algo + ": the distributed solve (" + std::to_string(s.size) +
                       " MPI ranks) runs blocked Floyd-Warshall (--algo fw) or the multi-source "
                       "engine (--algo sssp)");
    opencl = check_backend_and_graph(o);
    if (!o.paths_output.empty()) {
      if (o.paths_output == o.output)
        throw UsageError("--output and --paths-output name the same file '" + o.output + "'");
      paths_format = o.paths_output_format == "auto" ? detect_output_format(o.paths_output)
                                                     : parse_output_format(o.paths_output_format);
      if (s.rank == 0) paths_target = resolve_output(o.paths_output);
    }
    if (s.rank == 0 && o.check_rows) o.check_rows();
    if (!o.output.empty()) {  // rank 0 creates the file, every rank writes into it
      output_format = o.output_format == "auto" ? detect_output_format(o.output)
                                                : parse_output_format(o.output_format);
      if (s.rank == 0) target = resolve_output(o.output);
    }
    if (o.generated) {
      gen = o.generator(rep.source);
      n = generated_vertices(gen);  // grid: K^2
      double limit = 0;  // none for the floats
      if constexpr (std::is_integral_v<T>) limit = static_cast<double>(ValueTraits<T>::finite_limit);
      if (limit > 0 &&
          static_cast<double>(generated_max_abs_weight(gen)) * static_cast<double>(gen.n - 1) >= limit)
        throw UsageError("--n " + std::to_string(gen.n) + " with weights up to " +
                         std::to_string(generated_max_abs_weight(gen)) +
                         ": path lengths could leave the exact " + ValueTraits<T>::name() +
                         " range; use --type int64, float64 or smaller --weights");
    } else if (s.rank == 0) {
      rep.source = o.input;
      Graph g = c.graph ? std::move(*c.graph) : read_graph(o.input, parse_input_format(o.format));
      c.graph.reset();
      check_range<T>(g);
      rep.edges = static_cast<long long>(g.edges.size());
      n = g.n;
      if (g.n <= 0) throw UsageError("graph has no vertices");
      read = std::move(g);
    }
  });
  if (int c = agree(out, s)) return c;
  long long n_all = n;
  MPI_Bcast(&n_all, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  n = n_all;
  out.step([&] {
    for (int64_t x : o.queries)
      if (x < 0 || x >= n)
        throw UsageError("--query: vertex " + std::to_string(x) + " out of range [0, " +
                         std::to_string(n) + ")");
  });
  if (int c = agree(out, s)) return c;
  std::vector<int64_t> sel_rows, sel_cols;  // --sources / --targets (mpi_rows.hpp)
  if (int c = select_vertices(o.sources, o.targets, n, s, sel_rows, sel_cols)) return c;
  const bool selected = !sel_rows.empty();
  rep.rows = static_cast<long long>(sel_rows.size());
  rep.cols = static_cast<long long>(sel_cols.size());

  // 2. This rank's device (or host memory): what the panel plan must fit.
  DeviceEntry entry;
  detail::DeviceBudget mine;
  out.step([&] {
    if (opencl) {
      entry = rank_device(o.device, launched_local_rank());
      mine = detail::device_budgets({entry}, 0).front();
    } else {
      mine.name = "host";
      mine.memory = mine.max_alloc = host_memory_available();
    }
  });
  if (int c = agree(out, s)) return c;
  const detail::DeviceBudget budget = weakest_budget(mine);
  // Every rank plans with the same panel multiple (the broadcasts' counts must
  // match): 128 when any rank computes on OpenCL, even if this one has no device.
  int any_opencl = opencl ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any_opencl, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

  // 3. Panels (the panel engine's planner for this process grid), memory, backend.
  std::vector<T> local, input_local;
  std::unique_ptr<RankBackend<T>> be;
  out.step([&] {
    const int multiple = any_opencl ? 128 : 32;  // OpenCL: the panel kernels' tile edges
    const uint64_t room = host_memory_available();
    const detail::PanelPlan plan =
        detail::plan_panels(n, sizeof(T), {budget}, o.panel.value_or(0), multiple, multiple, 1,
                            room, detail::PanelGrid{grid.first, grid.second});
    lay.place(n, plan.p, grid.first, grid.second, s.rank);
    const uint64_t vs = sizeof(T), p = static_cast<uint64_t>(lay.p);
    const uint64_t mat = lay.local_elems() * vs;
    const uint64_t bufs = vs * (2 * (p * p + p * static_cast<uint64_t>(lay.mc()) + p * static_cast<uint64_t>(lay.mr())) +
                                std::max(p * static_cast<uint64_t>(lay.mc()), p * static_cast<uint64_t>(lay.mr())));
    // --paths: the input kept, via and hops (int32), and per panel row the
    // gathered blocks, the P x n distance strip and its via / hops rows
    uint64_t need = mat * (o.verify || o.paths ? 2 : 1) + bufs + (opencl ? plan.host_bytes : 0) +
                    (o.paths ? lay.local_elems() * 8 + p * static_cast<uint64_t>(lay.n) * (2 * vs + 8) : 0);
    // --stats: the running figures of the rows and columns, n of each way on rank 0
    if (!o.stats.empty())
      need += 32 * static_cast<uint64_t>(lay.mr() + lay.mc()) + (s.rank == 0 ? 112 * static_cast<uint64_t>(lay.n) : 0);
    const bool whole = s.rank == 0 && o.verify;
    if (whole) need += static_cast<uint64_t>(lay.n) * lay.n * vs * 3;
    check_host_memory(need, "rank " + std::to_string(s.rank) + ": " + format_bytes(static_cast<double>(mat)) +
                                " of panels (n = " + std::to_string(lay.n) + ", " +
                                std::to_string(grid.first) + " x " + std::to_string(grid.second) +
                                " ranks, P = " + std::to_string(lay.p) + ")" +
                                (whole ? " plus the gathered matrices for --verify" : ""));
    init_local(lay, local);
    if (opencl) {
      SolverSpec spec;
      spec.algo = Algo::fw;
      spec.backend = Backend::opencl;
      spec.device = o.device;
      be = make_cl_backend<T>(lay, local, detail::make_fw_panel_device<T>(entry, spec, nullptr, lay.p));
      rep.backend_kind = "opencl";
    } else {
      be = make_cpu_backend<T>(lay, local);
      rep.backend_kind = "openmp";
    }
  });
  if (int c = agree(out, s)) return c;

  // 4. The graph: generated per rank (own panel rows, own columns kept) or
  // scattered from rank 0.
  Stopwatch setup;
  long long edges = 0, made = 0;
  if (o.generated) {
    std::exception_ptr failed;
    edges = generate_local(lay, gen, local, failed, made);
    out.step([&] {
      if (failed) std::rethrow_exception(failed);
    });
  }
  if (int c = agree(out, s)) return c;
  // After the agreement: a rank whose generation failed must not leave the others
  // inside a collective it never enters.
  if (o.generated) MPI_Allreduce(&edges, &rep.edges, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (!o.generated) {
    // Rank 0 sorts the edges by the rank of their panel (to_matrix's checks on
    // each), every rank fills its panels from its own.
    std::vector<RankEdges<T>> lists;
    out.step([&] {
      if (s.rank != 0) return;
      lists.resize(static_cast<size_t>(s.size));
      for (const Edge& e : read.edges) {
        T w;
        if (!edge_weight(e, read.n, w)) continue;
        auto& x = lists[static_cast<size_t>(lay.rank_of(static_cast<int>((e.u / lay.p) % lay.pr),
                                                         static_cast<int>((e.v / lay.p) % lay.pc)))];
        x.u.push_back(static_cast<int32_t>(e.u));
        x.v.push_back(static_cast<int32_t>(e.v));
        x.w.push_back(w);
      }
      read = Graph();
    });
    if (int c = agree(out, s)) return c;
    rep.bytes_scatter = scatter_edges(lay, s.rank == 0 ? &lists : nullptr, local, s.rank, s.size);
  }
  normalise(local);
  if (o.verify || o.paths) input_local = local;
  rep.t_setup = setup.seconds();
  const double setup_rss = static_cast<double>(peak_rss_bytes());  // the set-up's peak

  // 5. The rounds: a failure here aborts the job (a peer may wait in a broadcast).
  RoundTimes times;
  double sent = 0;
  {
    const GridComms comms(lay);
    // Declared outside the try: on an error inside the rounds (Ctrl-C included)
    // its buffers must outlive the broadcasts still posted into them until
    // abort_job has ended the job.
    std::optional<DistributedFw<T>> fw;
    try {
      fw.emplace(lay, *be, comms);
      times = fw->run();
      sent = fw->bytes_sent();
    } catch (...) {
      abort_job(s, std::current_exception());
    }
  }

  // 6. Negative cycles, globally: the lowest vertex with d(i,i) < 0.
  long long neg = LLONG_MAX, neg_all = LLONG_MAX;
  for (size_t li = 0; li < lay.rows.size() && neg == LLONG_MAX; ++li) {
    const int64_t i = lay.rows[li];
    if (!lay.has_col(i)) continue;
    const T* blk = local.data() + (static_cast<int64_t>(li) * lay.p * lay.mc() + lay.lcol(i) * lay.p);
    for (int64_t a = 0; a < lay.real(i); ++a)
      if (blk[a * lay.mc() + a] < 0) {
        neg = i * lay.p + a;
        break;
      }
  }
  MPI_Allreduce(&neg, &neg_all, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  if (neg_all != LLONG_MAX) {
    if (s.rank == 0) print_error(NegativeCycleError(neg_all).what());
    return kExitNegativeCycle;
  }

  // 6b. --paths: the path matrix in the distances' layout (mpi_paths.hpp).
  LocalPaths lp;
  if (o.paths) {
    out.step([&] {
      if constexpr (std::is_same_v<T, float>) {
        // Exact sums, as one process needs them beyond one buffer (panel_paths.hpp).
        double largest = 0;
        int integral = 1;
        for (const T x : input_local)
          if (x != ValueTraits<T>::inf) {
            largest = std::max(largest, std::fabs(static_cast<double>(x)));
            integral &= std::floor(static_cast<double>(x)) == static_cast<double>(x);
          }
        MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &integral, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!integral || largest * static_cast<double>(std::max<int64_t>(n - 1, 1)) >= 16777216.0)
          throw UsageError("--paths under MPI rebuilds the paths from exact float32 sums: the "
                           "weights must be integers and n x the largest |weight| below 2^24; "
                           "use --type int32");
      }
      const GridComms comms(lay);
      lp = rebuild_local_paths(lay, local, input_local, comms.row);
    });
    if (int c = agree(out, s)) return c;
    rep.paths = true;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "rebuilt by every rank for its panels from the distances: %lld edges are "
                  "shortest paths, shared; %.3f s",
                  lp.tight, lp.seconds);
    rep.paths_detail = buf;
  }

  // 7. Statistics to rank 0.
  gather_rank_figures(s, {times.compute, times.wait, be->kernel_seconds(), sent}, be->describe(),
                      {&rep.compute, &rep.wait, &rep.kernels, &rep.sent}, rep.devices);
  {
    const auto m = be->moves();
    std::vector<std::string> unused;
    gather_rank_figures(s, {m.upload, m.readback, m.pin, m.pin_wait, m.pinned}, "",
                        {&rep.upload, &rep.readback, &rep.pin, &rep.pin_wait, &rep.pinned}, unused);
  }
  MPI_Reduce(&sent, &rep.bytes_bcast, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  // Per round, the slowest / latest rank's figure.
  const auto round_max = [&](const std::vector<double>& mine, std::vector<double>& out) {
    out.assign(mine.size(), 0.0);
    MPI_Reduce(mine.data(), out.data(), static_cast<int>(lay.q), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  };
  round_max(times.round_compute, rep.round_compute);
  round_max(times.round_wait, rep.round_wait);
  round_max(times.round_pivot, rep.round_pivot);
  round_max(times.round_posted, rep.round_posted);
  round_max(times.round_arrived, rep.round_arrived);
  double slowest = 0;
  MPI_Reduce(&times.solve, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (s.rank == 0) rep.t_solve = slowest;

  // 8. --verify: result and input to rank 0 (the CPU reference needs the whole
  // matrix); then the output, which every rank writes without a gather.
  bool failed = false;
  if (o.verify) {
    Stopwatch gather;
    DistMatrix<T> d, input;
    out.step([&] {
      if (s.rank == 0) {
        d = DistMatrix<T>(lay.n);
        input = DistMatrix<T>(lay.n);
      }
    });
    if (int c = agree(out, s)) return c;
    gather_matrix(lay, local, &d, s.rank);
    gather_matrix(lay, input_local, &input, s.rank);
    rep.bytes_gather = 2.0 * static_cast<double>(lay.n) * lay.n * sizeof(T);
    rep.t_gather = gather.seconds();
    DistMatrix<int32_t> via, hops;
    if (o.paths) {
      out.step([&] {
        if (s.rank == 0) {
          via = DistMatrix<int32_t>(lay.n, -1);
          hops = DistMatrix<int32_t>(lay.n, 0);
        }
      });
      if (int c = agree(out, s)) return c;
      gather_matrix(lay, lp.via, &via, s.rank);
      gather_matrix(lay, lp.hops, &hops, s.rank);
    }
    out.step([&] {
      if (s.rank != 0) return;
      const VerifyResult v = verify_result(input, d, !opencl);
      rep.verify = v.ok ? "ok" : "FAILED";
      rep.verify_detail = v.detail + " vs " + v.reference;
      failed = !v.ok;
      if (o.paths) {  // every pair's path: edges of the input adding up to d
        PathMatrix pm;
        pm.n = lay.n;
        pm.via = std::move(via.values());
        pm.hops = std::move(hops.values());
        if (!record_paths_check(rep, check_paths(input, d, pm))) failed = true;
      }
    });
    if (int c = agree(out, s)) return c;
    int f = failed ? 1 : 0;
    MPI_Bcast(&f, 1, MPI_INT, 0, MPI_COMM_WORLD);
    failed = f != 0;
  }
  out.step([] { throw_if_cancelled(); });
  if (int c = agree(out, s)) return c;
  if (!o.output.empty() && !failed) {
    Stopwatch w;
    OutputStats ost;
    const OutputTarget* to = s.rank == 0 ? &*target : nullptr;
    if (int c = selected ? write_selection(lay, local, sel_rows, sel_cols, to, output_format, s, ost)
                         : write_distributed(lay, local, to, output_format, s, ost))
      return c;
    rep.output = o.output;
    rep.output_mode = ost.mode;
    rep.bytes_output = ost.bytes_to_root;
    rep.t_write = w.seconds();
  }
  if (!o.stats.empty() && !failed) {
    Stopwatch w;
    if (int c = write_stats(lay, local, o.stats, s, rep.graph_stats, sel_rows)) return c;
    rep.stats_output = o.stats;
    rep.t_stats = w.seconds();
  }
  if (o.paths && !failed) {
    // --query: row u of the distances and of via on rank 0, the predecessor walk.
    for (size_t k = 0; k + 1 < o.queries.size(); k += 2) {
      const int64_t u = o.queries[k], v = o.queries[k + 1];
      const std::vector<T> d_row = row_to_root(lay, local, u, s.rank);
      const std::vector<int32_t> via_row = row_to_root(lay, lp.via, u, s.rank);
      out.step([&] {
        if (s.rank == 0) rep.queries.push_back(path_query(d_row, via_row, u, v));
      });
      if (int c = agree(out, s)) return c;
    }
    if (!o.paths_output.empty()) {
      OutputStats ost;
      if (int c = write_distributed(lay, lp.via, s.rank == 0 ? &*paths_target : nullptr,
                                    paths_format, s, ost))
        return c;
      rep.paths_output = o.paths_output;
    }
  }
  // Every rank's peak resident memory (the report's proof that no rank held the matrix).
  const double rss = static_cast<double>(peak_rss_bytes());
  rep.peak_rss.assign(static_cast<size_t>(s.size), 0.0);
  MPI_Gather(&rss, 1, MPI_DOUBLE, rep.peak_rss.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const double made_values = static_cast<double>(made);
  rep.generated.assign(static_cast<size_t>(s.size), 0.0);
  MPI_Gather(&made_values, 1, MPI_DOUBLE, rep.generated.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  rep.setup_rss.assign(static_cast<size_t>(s.size), 0.0);
  MPI_Gather(&setup_rss, 1, MPI_DOUBLE, rep.setup_rss.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  rep.wall = wall.seconds();

  // 9. Report (rank 0 only).
  if (s.rank == 0) {
    print_report(o, rep, lay, s.size, target && target->is_stdout(), ValueTraits<T>::name());
    if (failed) print_error("verification failed: " + rep.verify_detail);
  }
  int code = failed ? kExitRuntime : kExitOk, worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst) s.reporter = 0;  // rank 0 printed it
  return worst;
}

}  // namespace

int run_solve(const MpiSolveOptions& o, const Stopwatch& wall) {
  Session s;
  int code = 0;
  try {
    AlgoChoice c;
    code = choose_algorithm(o, s, c);
    if (code == 0 && c.algo == "sssp") {
      code = run_sssp(o, c, wall, s);
    } else if (code == 0) {
      MpiSolveOptions fw = o;
      fw.algo = c.algo;
      code = visit_type(parse_value_type(o.type),
                        [&](auto t) { return run_typed<decltype(t)>(fw, c, wall, s); });
    }
  } catch (...) {
    abort_job(s, std::current_exception());
  }
  return s.exit_code(code);
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
