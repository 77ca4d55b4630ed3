// `ocl_sp bench`: devices x algorithms x sizes, each configuration verified once
// against the CPU reference and timed as the median of --reps solves, printed as
// one status line per configuration and then as the paper's Table 2 (times) and
// Table 3 (speedups); --csv / --json / --plot write the rows to files.
// Every solver comes from make_solver: what is measured is what users run.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "cl/device.hpp"
#include "cli/bench_sparse.hpp"
#include "cli/commands.hpp"
#include "graph/graph.hpp"
#include "report/bench_report.hpp"
#include "report/plot.hpp"
#include "report/report.hpp"
#include "solvers/solver.hpp"
#include "tuning/bench_plan.hpp"
#include "tuning/measure.hpp"
#include "tuning/run_config.hpp"
#include "tuning/tuning_store.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

ResultRow base_row(const BenchColumn& c, Algo a, const std::string& type, int64_t n) {
  ResultRow r;
  r.column = c.label;
  r.backend = to_string(c.backend);
  r.device = c.device;
  r.vendor = c.vendor;
  r.driver = c.driver;
  r.algorithm = to_string(a);
  r.type = type;
  r.n = n;
  return r;
}

namespace {

struct BenchOptions {
  std::vector<int64_t> sizes;  // empty: the paper's sizes
  std::vector<std::string> algos{"fw", "squaring"};
  std::vector<std::string> devices;  // empty: every OpenCL device + openmp + serial
  std::string type = "int32";
  int reps = 3, warmup = 1;
  std::optional<uint64_t> seed;
  double time_limit = 60;
  std::optional<int> wg, block;
  bool no_tuned = false, quiet = false;
  int split = 1;  // --split K: OpenCL columns as K sub-devices each (fw)
  bool paths = false;  // every solve also computes the path matrix
  std::string csv, json, plot;
  std::string from_csv;  // re-render an earlier run instead of running
  // The sparse families (bench_sparse.cpp): --generator, --degree, --weights.
  std::string generator;
  int64_t degree = 0;
  std::string weights = "1:100";
  std::vector<std::string> params;  // --param NAME=VALUE (with --generator)
};

BenchColumn opencl_column(const DeviceEntry& d) {
  BenchColumn c;
  c.label = d.vendor_key();
  c.backend = Backend::opencl;
  c.spec = d.id();
  c.device = d.name;
  c.vendor = d.vendor;
  c.driver = d.driver_version;
  c.platform = d.platform_name;
  c.kind = d.type;
  c.global_mem = d.global_mem;
  c.max_alloc = d.max_alloc;
  return c;
}

BenchColumn cpu_column(Backend b) {
  BenchColumn c;
  c.label = to_string(b);
  c.backend = b;
  const int threads = b == Backend::openmp ? omp_get_max_threads() : 1;
  c.device =
      cpu_model_name() + " (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  c.driver = b == Backend::openmp ? "OpenMP" : "serial";
  return c;
}

// The device columns in the order given; duplicates (two specs naming one
// device) are dropped with a note; OpenCL labels that repeat get "@P:D".
std::vector<BenchColumn> resolve_columns(const std::vector<std::string>& specs,
                                         std::vector<std::string>& notes) {
  std::vector<BenchColumn> cols;
  std::set<std::string> seen;
  auto add = [&](BenchColumn c) {
    const std::string key = c.backend == Backend::opencl ? c.spec : c.label;
    if (!seen.insert(key).second) {
      notes.push_back("device '" + c.device + "' given twice; benchmarked once");
      return;
    }
    cols.push_back(std::move(c));
  };
  if (specs.empty()) {
    const auto devs = list_devices();
    if (devs.empty())
      notes.push_back("no OpenCL device found (" + no_platform_hint() +
                      "); benchmarking openmp and serial only");
    // The paper's column order: CPU_SP, OMP_SP, then the OpenCL devices.
    add(cpu_column(Backend::serial));
    add(cpu_column(Backend::openmp));
    for (const auto& d : devs) add(opencl_column(d));
  } else {
    for (const auto& raw : specs) {
      std::string s = lower(trim(raw));
      if (s.empty()) continue;
      if (s == "openmp" || s == "serial") {
        add(cpu_column(parse_backend(s)));
        continue;
      }
      for (char& ch : s)
        if (ch == '+') ch = ',';  // "amd+gpu": both words must match (select_device)
      add(opencl_column(select_device(s)));
    }
  }
  if (cols.empty()) throw UsageError("--devices names no device");
  std::map<std::string, int> count;
  for (const auto& c : cols) ++count[c.label];
  for (auto& c : cols)
    if (c.backend == Backend::opencl && count[c.label] > 1) c.label += "@" + c.spec;
  return cols;
}

std::vector<Algo> parse_algos(const std::vector<std::string>& names) {
  std::vector<Algo> out;
  for (const auto& a : names) {
    if (trim(a).empty()) continue;
    const Algo x = parse_algo(trim(a));
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  if (out.empty()) throw UsageError("--algos names no algorithm");
  return out;
}


void write_bench_json(const std::string& path, const BenchOptions& o,
                      const std::vector<BenchColumn>& cols, const std::vector<int64_t>& sizes,
                      const std::vector<Algo>& algos, const std::vector<std::string>& notes,
                      const std::vector<ResultRow>& rows, double elapsed) {
  write_file_atomically(path, [&](std::ostream& out) {
    JsonWriter j(out);
    j.begin_object();
    j.field("schema_version", kBenchSchemaVersion).field("command", "bench");
    j.field("ocl_sp_version", OCL_SP_VERSION).field("date", utc_timestamp());
    j.key("host").begin_object();
    j.field("cpu", cpu_model_name()).field("openmp_threads", omp_get_max_threads());
    j.end_object();
    j.key("settings").begin_object();
    j.field("type", lower(o.type)).field("reps", o.reps).field("warmup", o.warmup);
    if (o.seed)
      j.field("seed", static_cast<long long>(*o.seed));
    else
      j.field("seed", "n");  // each size seeded with its n, as the paper
    j.field("time_limit_s", o.time_limit);
    j.field("paths", o.paths);
    j.key("sizes").begin_array();
    for (auto n : sizes) j.value(static_cast<long long>(n));
    j.end_array();
    j.key("algorithms").begin_array();
    for (auto a : algos) j.value(to_string(a));
    j.end_array();
    j.end_object();
    j.key("columns").begin_array();
    for (const auto& c : cols) {
      j.begin_object().field("label", c.label).field("backend", to_string(c.backend));
      j.field("spec", c.spec).field("device", c.device).field("vendor", c.vendor);
      j.field("driver", c.driver).field("platform", c.platform).field("kind", c.kind);
      j.end_object();
    }
    j.end_array();
    j.key("notes").begin_array();
    for (const auto& n : notes) j.value(n);
    j.end_array();
    j.field("elapsed_s", elapsed);
    j.key("results").begin_array();
    for (const auto& r : rows) write_json_row(j, r);
    j.end_array();
    j.end_object();
    out << "\n";
  });
}

// --from-csv: the tables (and --plot) of an earlier run, e.g. one made on a
// machine without gnuplot. Runs nothing.
int rerender(const BenchOptions& o) {
  if (!o.csv.empty() || !o.json.empty())
    throw UsageError("--from-csv re-renders the tables and --plot only; drop --csv / --json");
  if (!o.plot.empty()) check_plot_target(o.plot);
  std::ifstream in(o.from_csv);
  if (!in) throw UsageError("cannot read '" + o.from_csv + "'");
  const std::vector<ResultRow> rows = read_csv(in, o.from_csv);
  if (rows.empty()) throw UsageError(o.from_csv + ": no result rows");
  std::vector<std::string> ocl;
  for (const auto& r : rows)
    if (r.backend == "opencl" && std::find(ocl.begin(), ocl.end(), r.column) == ocl.end())
      ocl.push_back(r.column);
  time_table(rows).print(std::cout);
  std::cout << "\n";
  speedup_table(rows, ocl).print(std::cout);
  if (!o.plot.empty()) {
    render_plot(bench_plot_spec(rows), o.plot);
    std::cout << "\nwrote " << o.plot << " (plot)\n";
  }
  return kExitOk;
}

template <typename T>
int run_typed(const BenchOptions& o) {
  const Stopwatch wall;
  const int vb = static_cast<int>(sizeof(T));
  const std::string type = ValueTraits<T>::name();
  // Everything that could fail at the end is checked before the first solve.
  if (o.reps < 1) throw UsageError("--reps must be at least 1");
  if (o.warmup < 0) throw UsageError("--warmup must be at least 0");
  if (!(o.time_limit > 0)) throw UsageError("--time-limit must be positive");
  check_output_target(o.csv, "--csv");
  check_output_target(o.json, "--json");
  if (!o.plot.empty()) check_plot_target(o.plot);
  const std::vector<Algo> algos = parse_algos(o.algos);
  std::vector<std::string> notes;
  const std::vector<BenchColumn> cols = resolve_columns(o.devices, notes);
  for (int64_t n : o.sizes)
    if (n < 1 || n > 100000)
      throw UsageError("--sizes: n must be in 1..100000, got " + std::to_string(n));
  const std::vector<int64_t> sizes =
      filter_sizes(o.sizes.empty() ? paper_sizes() : o.sizes, available_host_memory(), vb, &notes,
                   o.paths);
  for (const auto& n : notes) std::cerr << "note: " << n << "\n";
  if (sizes.empty()) throw RuntimeError("no size left to benchmark (see the notes above)");

  std::vector<std::string> ocl_labels;
  for (const auto& c : cols)
    if (c.backend == Backend::opencl) ocl_labels.push_back(c.label);

  struct Slot {
    bool tried = false;
    std::unique_ptr<Solver<T>> solver;
    std::string status, reason;  // when it could not be built
  };
  std::map<std::string, Slot> slots;  // "label/algo"
  RateBook rates;
  ReferenceCache<T> reference;
  std::vector<ResultRow> rows;
  const size_t total = sizes.size() * cols.size() * algos.size();
  const int width = static_cast<int>(std::to_string(total).size());
  RunOptions ro;
  ro.warmup = o.warmup;
  ro.reps = o.reps;
  ro.paths = o.paths;
  ro.time_limit = o.time_limit;
  ro.quiet = o.quiet;
  size_t index = 0;

  std::cout << "ocl_sp bench: " << cols.size() << " device column(s) x " << algos.size()
            << " algorithm(s) x " << sizes.size() << " size(s), " << type << ", median of "
            << o.reps << " (after " << o.warmup << " warm-up), time limit "
            << format_number(o.time_limit) << " s per configuration"
            << (o.paths ? ", with path reconstruction (--paths)" : "") << "\n";
  std::cout.flush();

  for (int64_t n : sizes) {
    std::optional<DistMatrix<T>> input;
    const uint64_t seed = o.seed ? *o.seed : static_cast<uint64_t>(n);
    const std::string input_key = "n=" + std::to_string(n) + " seed=" + std::to_string(seed);
    for (const auto& col : cols) {
      for (Algo algo : algos) {
        ++index;
        ResultRow row = base_row(col, algo, type, n);
        row.paths = o.paths;
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "[%*zu/%zu] ", width, index, total);
        auto finish = [&]() {
          std::cout << prefix << status_text(row) << "\n";
          std::cout.flush();
          rows.push_back(row);
        };
        if (auto why = device_misfit(col, algo, n, vb, o.paths)) {
          row.status = "skipped";
          row.reason = *why;
          finish();
          continue;
        }
        Slot& slot = slots[col.label + "/" + to_string(algo)];
        ConfigJob<T> job;
        job.column = &col;
        job.algo = algo;
        job.n = n;
        job.rate_key = col.label;
        // The solver: built once per device x algorithm, on first need.
        job.solver = [&](ResultRow& r) -> Solver<T>* {
          if (!slot.tried) {
            slot.tried = true;
            SolverSpec spec;
            spec.algo = algo;
            spec.backend = col.backend;
            // A column of several devices: "gpu:all", or a list joined with '/'
            // ("1:0/1:1"): one solve over all of them (fw; DESIGN.md "Scale").
            spec.device = col.spec;
            std::replace(spec.device.begin(), spec.device.end(), '/', ',');
            spec.use_tuned = !o.no_tuned;
            if (col.backend == Backend::opencl) {
              spec.split = algo == Algo::fw ? o.split : 1;
              if (o.wg && algo != Algo::fw) spec.params["WG"] = *o.wg;
              if (o.block && algo == Algo::fw) spec.params["BLOCK"] = *o.block;
            }
            try {
              slot.solver = make_solver<T>(spec);
            } catch (const UsageError& e) {
              // An impossible combination (fw-naive on openmp) or a parameter given
              // here that the device cannot take: skipped. An OpenCL solver that
              // refuses its own default or tuned parameters is broken: failed.
              const bool own_choice = col.backend == Backend::opencl && spec.params.empty();
              slot.status = own_choice ? "failed" : "skipped";
              slot.reason = e.what();
            } catch (const std::bad_alloc&) {
              throw;
            } catch (const std::exception& e) {
              slot.status = "failed";
              slot.reason = describe_exception(e);
            }
          }
          if (!slot.solver) {
            r.status = slot.status;
            r.reason = slot.reason;
          }
          return slot.solver.get();
        };
        job.input = [&]() -> const DistMatrix<T>& {
          if (!input) {
            GeneratorParams p;
            p.n = n;
            p.seed = seed;
            p.density = default_density(n);
            Graph g = generate_random(p);
            check_range<T>(g);
            input = to_matrix<T>(g);
          }
          return *input;
        };
        job.input_key = input_key;
        job.what = "configuration " + std::to_string(index) + " of " + std::to_string(total) +
                   " (n = " + std::to_string(n) + ", " + col.label + " " + to_string(algo) + ")";
        run_configuration(row, job, rates, reference, ro, wall);
        finish();
      }
    }
    reference.clear();  // the next size has another input
  }

  std::cout << "\n";
  time_table(rows).print(std::cout);
  std::cout << "\n";
  speedup_table(rows, ocl_labels).print(std::cout);

  const double elapsed = wall.seconds();
  if (!o.csv.empty()) save_csv(o.csv, rows);
  if (!o.json.empty()) write_bench_json(o.json, o, cols, sizes, algos, notes, rows, elapsed);
  if (!o.plot.empty()) render_plot(bench_plot_spec(rows), o.plot);
  std::cout << "\n" << outcome_line(rows, duration(elapsed)) << "\n";
  for (const auto& [flag, path] :
       {std::pair<std::string, std::string>{"csv", o.csv}, {"json", o.json}, {"plot", o.plot}})
    if (!path.empty()) std::cout << "wrote " << path << " (" << flag << ")\n";
  return outcome_exit_code(rows);
}

}  // namespace

Command set_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* sub = app.add_subcommand(
      "bench",
      "Benchmark devices x algorithms x sizes: medians, verified results, the paper's Tables 2 "
      "and 3");
  sub->add_option("--sizes", o->sizes,
                  "Graph sizes n, comma-separated (default: the paper's 10,50,200,300,1400,2000,"
                  "5000,8920,10000, those that fit host memory)")
      ->delimiter(',')
      ->type_name("N");
  sub->add_option("--algos", o->algos, "Algorithms, comma-separated (default fw,squaring)")
      ->delimiter(',')
      ->type_name("ALGO");
  sub->add_option("--devices", o->devices,
                  "Device columns, comma-separated: OpenCL specs as for --device (join words of "
                  "one spec with '+', e.g. amd+gpu; several devices in one column: gpu:all or "
                  "1:0/1:1, fw only), plus openmp and serial (default: serial, openmp, then "
                  "every OpenCL device)")
      ->delimiter(',')
      ->type_name("SPEC");
  sub->add_option("--split", o->split,
                  "Partition each OpenCL column's device into K sub-devices, one fw solve over "
                  "them (other algorithms run on the whole device)")
      ->check(CLI::Range(1, 256));
  sub->add_option("--type", o->type, "Value type: int32 (default) | int64 | float32 | float64")
      ->check(CLI::IsMember({"int32", "int64", "float32", "float64"}, CLI::ignore_case));
  sub->add_option("--reps", o->reps, "Timed solves per configuration; median, min, max (default 3)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--warmup", o->warmup, "Untimed solves before the reps (default 1)")
      ->check(CLI::Range(0, 100));
  sub->add_option("--seed", o->seed, "Random seed for every size (default: each size uses n)");
  sub->add_option("--time-limit", o->time_limit,
                  "Skip a configuration whose estimated time (warm-up + reps) exceeds SECONDS "
                  "(default 60)")
      ->type_name("SECONDS");
  sub->add_option("--wg", o->wg,
                  "WG for the OpenCL squaring / fw-naive solvers (default: tuned, else built-in)")
      ->type_name("T");
  sub->add_option("--block", o->block,
                  "BLOCK for the OpenCL fw solver (default: tuned, else built-in)")
      ->type_name("B");
  sub->add_flag("--no-tuned", o->no_tuned, "Ignore parameters stored by 'ocl_sp sweep'");
  sub->add_option("--csv", o->csv, "Write one row per configuration to FILE (CSV)")
      ->type_name("FILE");
  sub->add_option("--json", o->json, "Write the results to FILE (JSON, with schema_version)")
      ->type_name("FILE");
  sub->add_option("--plot", o->plot,
                  "Draw time vs n and speedups to FILE (.png or .svg; needs gnuplot)")
      ->type_name("FILE");
  sub->add_flag("--quiet", o->quiet, "No progress lines on stderr");
  sub->add_flag("--paths", o->paths,
                "Run every configuration with path reconstruction (the via and hop matrices "
                "beside the distances, as ocl_sp --paths); rows carry paths=1 and the extra "
                "memory (paths_bytes); the first solve also checks every pair's path");
  sub->add_option("--from-csv", o->from_csv,
                  "Run nothing: print the tables of an earlier --csv FILE (and draw --plot)")
      ->type_name("FILE");
  Command c;
  c.app = sub;
  sub->add_option("--generator", o->generator,
                  "Benchmark a sparse family instead of the paper's dense graphs: random "
                  "(with --degree) | grid | geometric; algorithms fw, sssp, auto; sssp keeps "
                  "no n x n matrix and is checked on sampled rows against serial Dijkstra")
      ->check(CLI::IsMember({"random", "grid", "geometric"}));
  sub->add_option("--degree", o->degree, "--generator random / geometric: out-edges / nearest "
                                         "neighbours per vertex")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  sub->add_option("--weights", o->weights, "--generator: integer weights LO:HI (default 1:100)");
  sub->add_option("--param", o->params,
                  "--generator: a tunable of the OpenCL solvers as NAME=VALUE, repeatable "
                  "(e.g. WG=1024 VW=16 for sssp)")
      ->type_name("NAME=VALUE");
  c.run = [o]() {
    if (!o->from_csv.empty()) return rerender(*o);
    if (!o->generator.empty()) {
      if (o->sizes.empty()) throw UsageError("bench --generator needs --sizes");
      SparseBenchOptions s;
      s.sizes = o->sizes;
      s.algos = o->algos;
      std::vector<std::string> notes;
      s.columns = resolve_columns(o->devices, notes);
      for (const auto& n : notes) std::cout << "note: " << n << "\n";
      s.generator.family = parse_family(o->generator);
      s.generator.degree = o->degree;
      const auto colon = o->weights.find(':');
      try {
        if (colon == std::string::npos) throw std::invalid_argument("no colon");
        s.generator.wlo = std::stoll(o->weights.substr(0, colon));
        s.generator.whi = std::stoll(o->weights.substr(colon + 1));
      } catch (const std::exception&) {
        throw UsageError("--weights expects LO:HI, got '" + o->weights + "'");
      }
      s.type = o->type;
      s.reps = o->reps;
      s.warmup = o->warmup;
      s.split = o->split;
      s.seed = o->seed;
      s.time_limit = o->time_limit;
      s.no_tuned = o->no_tuned;
      s.csv = o->csv;
      s.json = o->json;
      for (const auto& p : o->params) {
        const auto eq = p.find('=');
        try {
          if (eq == std::string::npos || eq == 0) throw std::invalid_argument(p);
          size_t used = 0;
          s.params[p.substr(0, eq)] = std::stoi(p.substr(eq + 1), &used);
          if (eq + 1 + used != p.size()) throw std::invalid_argument(p);
        } catch (const std::exception&) {
          throw UsageError("--param expects NAME=INTEGER, got '" + p + "'");
        }
      }
      check_output_target(s.csv, "--csv");
      check_output_target(s.json, "--json");
      return run_sparse_bench(s);
    }
    return visit_type(parse_value_type(o->type),
                      [&](auto t) { return run_typed<decltype(t)>(*o); });
  };
  return c;
}

}  // namespace ocl_sp
