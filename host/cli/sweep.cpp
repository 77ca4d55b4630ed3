// `ocl_sp sweep`: the paper's Table 1 for any device. Walks the tuning space of
// each algorithm (tuning/tuning_space.hpp), skips what a named constraint rules
// out, builds every remaining configuration with make_solver, verifies it against
// the CPU reference, times it (median of --reps) and prints one status line per
// configuration; the fastest per algorithm is stored in the tuning file for this
// device and driver (tuning/tuning_store.hpp), which later solves pick up.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "cl/device.hpp"
#include "cli/commands.hpp"
#include "graph/graph.hpp"
#include "report/bench_report.hpp"
#include "report/report.hpp"
#include "solvers/solver.hpp"
#include "tuning/bench_plan.hpp"
#include "tuning/measure.hpp"
#include "tuning/run_config.hpp"
#include "tuning/tuning_space.hpp"
#include "tuning/tuning_store.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/print_error.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

namespace {

struct SweepOptions {
  std::optional<int64_t> n;  // default: 5000 on GPUs / accelerators, 1000 on CPU devices
  std::vector<std::string> algos{"squaring", "fw"};
  std::vector<std::string> families{"paper", "tiled", "cpu"};  // kernel families to sweep
  bool algos_given = false, families_given = false;  // --algos / --families on the command line
  std::string device, type = "int32";
  int reps = 3, warmup = 1;
  std::optional<uint64_t> seed;
  std::string wg, block;            // value lists, "4,8,16,32"
  std::vector<std::string> params;  // "NAME=v1,v2" or "ALGO:NAME=v1,v2"
  double time_limit = 300;
  bool no_store = false, quiet = false;
  std::string csv, json;
  std::string generator = "random";  // the graph family swept on (sssp: grid, random --degree)
  int64_t degree = 0;
};

// Default problem size: the paper's n = 5000 where a GPU makes it quick; CPU
// devices (PoCL) take minutes per configuration there, so 1000 (the ranking of
// work-group sizes is what matters, and it is stable from there up).
int64_t default_sweep_n(const DeviceEntry& d) { return d.type == "cpu" ? 1000 : 5000; }

// The spaces to sweep (select_tuning_spaces: the tunables given narrow the
// families unless --families is given), with the command line's value lists applied.
std::vector<TuningSpace> build_spaces(const SweepOptions& o) {
  std::vector<Algo> algos;
  for (const auto& a : o.algos)
    if (!trim(a).empty()) algos.push_back(parse_algo(trim(a)));
  if (algos.empty()) throw UsageError("--algos names no algorithm");
  struct Values {
    GivenTunable t;
    std::vector<int> values;
  };
  std::vector<Values> given;
  if (!o.wg.empty()) given.push_back({{"WG", std::nullopt, "--wg"}, parse_int_list(o.wg, "--wg")});
  if (!o.block.empty())
    given.push_back({{"BLOCK", std::nullopt, "--block"}, parse_int_list(o.block, "--block")});
  for (const auto& p : o.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param expects NAME=v1,v2,... or ALGO:NAME=v1,..., got '" + p + "'");
    std::string name = trim(p.substr(0, eq));
    std::optional<Algo> only;
    if (const auto colon = name.find(':'); colon != std::string::npos) {
      only = parse_algo(name.substr(0, colon));
      name = name.substr(colon + 1);
    }
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (name.empty() ||
        name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      throw UsageError("--param: '" + name + "' is not a kernel parameter name");
    given.push_back(
        {{name, only, "--param " + name}, parse_int_list(p.substr(eq + 1), "--param " + name)});
  }
  std::vector<GivenTunable> names;
  for (const auto& g : given) names.push_back(g.t);
  std::vector<TuningSpace> spaces =
      select_tuning_spaces(algos, o.algos_given, o.families, o.families_given, names);
  for (const auto& g : given) {
    bool any = false;
    for (auto& s : spaces)
      if ((!g.t.only || s.algo == *g.t.only) && s.find(g.t.name)) {
        s.set_values(g.t.name, g.values);
        any = true;
      }
    // --wg / --block for families that do not take them are left alone; a
    // tunable no built-in family lists is swept anyway (make_solver decides
    // whether the kernel takes it).
    if (!any && g.t.flag != "--wg" && g.t.flag != "--block")
      for (auto& s : spaces)
        if (!g.t.only || s.algo == *g.t.only) s.set_values(g.t.name, g.values);
  }
  return spaces;
}

void write_sweep_json(const std::string& path, const SweepOptions& o, const DeviceEntry& dev,
                      int64_t n, const std::vector<ResultRow>& rows,
                      const std::vector<ResultRow>& best, const std::string& stored) {
  write_file_atomically(path, [&](std::ostream& out) {
    JsonWriter j(out);
    j.begin_object();
    j.field("schema_version", kBenchSchemaVersion).field("command", "sweep");
    j.field("ocl_sp_version", OCL_SP_VERSION).field("date", utc_timestamp());
    j.key("device").begin_object();
    j.field("id", dev.id()).field("name", dev.name).field("platform", dev.platform_name);
    j.field("vendor", dev.vendor).field("driver", dev.driver_version).field("type", dev.type);
    j.field("tuning_key", device_tuning_key(dev));
    j.field("max_work_group", static_cast<long long>(dev.max_work_group));
    j.field("local_mem", static_cast<long long>(dev.local_mem));
    j.end_object();
    j.key("settings").begin_object();
    j.field("n", static_cast<long long>(n)).field("type", lower(o.type));
    j.field("reps", o.reps).field("warmup", o.warmup);
    j.field("seed", static_cast<long long>(o.seed ? *o.seed : static_cast<uint64_t>(n)));
    j.field("time_limit_s", o.time_limit);
    j.end_object();
    j.key("results").begin_array();
    for (const auto& r : rows) write_json_row(j, r);
    j.end_array();
    j.key("best").begin_array();
    for (const auto& b : best) {
      j.begin_object().field("algorithm", b.algorithm);
      j.key("params").begin_object();
      for (const auto& [k, v] : b.params) j.field(k, v);
      j.end_object();
      j.field("total", b.total).field("t_k", b.t_k).end_object();
    }
    j.end_array();
    if (stored.empty())
      j.key("tuning_file").null();
    else
      j.field("tuning_file", stored);
    j.end_object();
    out << "\n";
  });
}

template <typename T>
int run_typed(const SweepOptions& o) {
  const Stopwatch wall;
  const std::string type = ValueTraits<T>::name();
  const int vb = static_cast<int>(sizeof(T));
  if (o.reps < 1) throw UsageError("--reps must be at least 1");
  if (!(o.time_limit > 0)) throw UsageError("--time-limit must be positive");
  check_output_target(o.csv, "--csv");
  check_output_target(o.json, "--json");
  const std::vector<TuningSpace> spaces = build_spaces(o);
  if (lower(o.device) == "openmp" || lower(o.device) == "serial")
    throw UsageError("sweep tunes OpenCL kernels; --device must name an OpenCL device");
  const DeviceEntry dev = select_device(o.device);
  const int64_t n = o.n ? *o.n : default_sweep_n(dev);
  if (n < 2 || n > 100000) throw UsageError("--n must be in 2..100000");
  check_host_memory(host_bytes_needed(n, vb), "n = " + std::to_string(n));
  const DeviceLimits limits = DeviceLimits::of(dev);
  const std::string key = device_tuning_key(dev);

  BenchColumn col;  // for the estimates and the rows
  col.label = dev.vendor_key();
  col.backend = Backend::opencl;
  col.spec = dev.id();
  col.device = dev.name;
  col.kind = dev.type;
  col.global_mem = dev.global_mem;
  col.max_alloc = dev.max_alloc;

  std::cout << "ocl_sp sweep on " << dev.id() << " " << dev.name << " (" << dev.platform_name
            << ", driver " << dev.driver_version << ")\n"
            << "  n = " << n << ", " << type << ", median of " << o.reps << " after " << o.warmup
            << " warm-up; max work-group " << dev.max_work_group << ", local memory "
            << dev.local_mem / 1024 << " KiB\n"
            << "  time limit " << format_number(o.time_limit)
            << " s per configuration (warm-up + reps; --time-limit)\n";
  std::cout.flush();

  GeneratorParams gp;
  gp.n = n;
  gp.seed = o.seed ? *o.seed : static_cast<uint64_t>(n);
  gp.family = parse_family(o.generator);
  gp.degree = o.degree;
  gp.density = gp.family == GraphFamily::random && gp.degree == 0 ? default_density(n) : 0;
  std::optional<DistMatrix<T>> input;
  {
    Graph g = generate_graph(gp);
    check_range<T>(g);
    input = to_matrix<T>(g);
  }
  const std::string input_key = "n=" + std::to_string(n) + " seed=" + std::to_string(gp.seed);
  ReferenceCache<T> reference;
  RateBook rates;
  std::vector<ResultRow> rows, best_rows;
  std::string stored_in;
  bool any_wrong = false, any_algo_empty = false;
  RunOptions ro;
  ro.warmup = o.warmup;
  ro.reps = o.reps;
  ro.time_limit = o.time_limit;
  ro.quiet = o.quiet;

  size_t algo_first_row = 0;  // the best is chosen over all families of an algorithm
  for (size_t si = 0; si < spaces.size(); ++si) {
    const TuningSpace& space = spaces[si];
    if (si == 0 || spaces[si - 1].algo != space.algo) algo_first_row = rows.size();
    const auto configs = space.configurations();
    std::string names;
    for (const auto& p : space.params) names += (names.empty() ? "" : " x ") + p.name;
    std::cout << "\n"
              << to_string(space.algo) << ": " << configs.size() << " configuration(s)"
              << (names.empty() ? "" : " (" + names + ")") << "\n";
    size_t i = 0;
    for (const auto& cfg : configs) {
      ++i;
      ResultRow row;
      row.column = col.label;
      row.backend = "opencl";
      row.device = dev.name;
      row.vendor = dev.vendor;
      row.driver = dev.driver_version;
      row.algorithm = to_string(space.algo);
      row.type = type;
      row.n = n;
      row.params = cfg;
      row.params_source = "sweep";
      auto finish = [&]() {
        std::printf("  [%*zu/%zu] %s\n", static_cast<int>(std::to_string(configs.size()).size()), i,
                    configs.size(), status_text(row).c_str());
        std::fflush(stdout);
        rows.push_back(row);
      };
      if (auto why = space.rejects(cfg, limits, vb)) {
        row.status = "skipped";
        row.reason = *why;
        finish();
        continue;
      }
      if (auto why = device_misfit(col, space.algo, n, vb)) {
        row.status = "skipped";
        row.reason = *why;
        finish();
        continue;
      }
      std::unique_ptr<Solver<T>> solver;
      ConfigJob<T> job;
      job.column = &col;
      job.algo = space.algo;
      job.n = n;
      // One rate per configuration: another configuration's rate (a faster tile,
      // the other kernel family) does not predict this one's time.
      job.rate_key = col.label + " " + to_string(cfg);
      job.solver = [&](ResultRow& r) -> Solver<T>* {
        SolverSpec spec;
        spec.algo = space.algo;
        spec.backend = Backend::opencl;
        spec.device = dev.id();
        spec.params = cfg;
        spec.use_tuned = false;
        try {
          solver = make_solver<T>(spec);
        } catch (const UsageError& e) {
          // The solver's own limits (allowed values, work-group, local memory).
          r.status = "skipped";
          r.reason = e.what();
        } catch (const std::bad_alloc&) {
          throw;
        } catch (const std::exception& e) {
          r.status = "failed";
          r.reason = describe_exception(e);
        }
        return solver.get();
      };
      job.input = [&]() -> const DistMatrix<T>& { return *input; };
      job.input_key = input_key;
      job.what = to_string(space.algo) + std::string(" configuration ") + std::to_string(i) +
                 " of " + std::to_string(configs.size()) + " (" + to_string(cfg) + ")";
      run_configuration(row, job, rates, reference, ro, wall);
      // The row names the device as the sweep found it, and where its values came from.
      row.vendor = dev.vendor;
      row.driver = dev.driver_version;
      row.params_source = "sweep";
      any_wrong = any_wrong || row.status == "wrong";
      finish();
    }
    // The fastest verified configuration of this algorithm, once its last
    // family has run.
    if (si + 1 < spaces.size() && spaces[si + 1].algo == space.algo) continue;
    // Skipped rows (time limit, constraints) never are: only verified, timed ones.
    const std::optional<size_t> best = fastest_ok_row(rows, algo_first_row);
    if (!best) {
      std::cout << "  no configuration of " << to_string(space.algo)
                << " ran correctly: nothing stored\n";
      any_algo_empty = true;
      continue;
    }
    rows[*best].best = true;
    best_rows.push_back(rows[*best]);
    std::cout << "  best " << to_string(space.algo) << ": " << to_string(rows[*best].params) << ", "
              << format_seconds(rows[*best].total) << " median";
    if (!o.no_store) {
      TunedRecord rec;
      rec.device_key = key;
      rec.algo = space.algo;
      rec.type = ValueTraits<T>::type;
      rec.params = rows[*best].params;
      rec.n = n;
      rec.seconds = rows[*best].total;
      stored_in = store_tuned(rec);
      std::cout << "; stored in " << stored_in;
    }
    std::cout << "\n";
  }

  // Table 1 of the paper, per algorithm: time per configuration.
  for (const auto& space : spaces) {
    TextTable t;
    t.title = "\nTable 1: " + std::string(to_string(space.algo)) + " on " + dev.name +
              ", n = " + std::to_string(n) + ", " + type + " (median seconds)";
    t.header = {"params", "total", "min", "max", "T_k", "relax/s", "status"};
    t.first_numeric = 1;
    for (const auto& r : rows) {
      if (r.algorithm != to_string(space.algo)) continue;
      const bool ok = r.status == "ok";
      // A configuration skipped over the time limit shows its estimate, as Table 2 does.
      const std::string total =
          ok ? format_number(r.total)
          : r.status == "skipped" && r.estimate > o.time_limit
              ? "skip(~" + format_number(r.estimate, r.estimate < 100 ? "%.2g" : "%.0f") + ")"
              : "-";
      t.rows.push_back({to_string(r.params) + (r.best ? " *" : ""), total,
                        ok ? format_number(r.min) : "-",
                        ok ? format_number(r.max) : "-", ok ? format_number(r.t_k) : "-",
                        ok ? format_rate(r.relaxations_per_s) : "-", r.status});
    }
    t.notes.push_back("* = fastest, stored for " + key);
    if (std::any_of(rows.begin(), rows.end(), [&](const ResultRow& r) {
          return r.algorithm == to_string(space.algo) && r.status == "skipped" && r.estimate > o.time_limit;
        }))
      t.notes.push_back("skip(~S) = not run: estimated S seconds for the configuration (" +
                        std::to_string(o.warmup + o.reps) + " solves) exceeds --time-limit " +
                        format_number(o.time_limit) + " s; never stored");
    t.print(std::cout);
  }
  if (o.no_store) std::cout << "\n--no-store: the tuning file was not changed\n";
  if (!o.csv.empty()) {
    save_csv(o.csv, rows);
    std::cout << "wrote " << o.csv << " (csv)\n";
  }
  if (!o.json.empty()) {
    write_sweep_json(o.json, o, dev, n, rows, best_rows, stored_in);
    std::cout << "wrote " << o.json << " (json)\n";
  }
  if (any_wrong) {
    print_error("some configurations gave wrong results (status 'wrong' above)");
    return kExitRuntime;
  }
  if (any_algo_empty) {
    print_error("an algorithm had no configuration that ran correctly");
    return kExitRuntime;
  }
  return kExitOk;
}

}  // namespace

Command set_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* sub = app.add_subcommand(
      "sweep",
      "Sweep work-group / block sizes (the paper's Table 1), store the best per device and driver");
  sub->add_option("--n", o->n,
                  "Graph size (default 5000 on GPUs and accelerators, as the paper; 1000 on CPU "
                  "devices)");
  sub->add_option("--algos", o->algos, "Algorithms, comma-separated (default squaring,fw)")
      ->delimiter(',')
      ->type_name("ALGO");
  sub->add_option("--families", o->families,
                  "Kernel families, comma-separated: paper (the paper's squaring and the "
                  "seeds' blocked FW, TILED=0), tiled (register-tiled, TILED=1) and cpu "
                  "(CPU-shaped fw, one work-item per tile, TILED=2); default all three")
      ->delimiter(',')
      ->check(CLI::IsMember({"paper", "tiled", "cpu"}))
      ->type_name("FAMILY");
  sub->add_option("--device", o->device,
                  "OpenCL device spec as for the solve command (default: $OCL_SP_DEVICE, else "
                  "the first GPU, else a CPU device)");
  sub->add_option("--type", o->type, "Value type: int32 (default) | int64 | float32 | float64")
      ->check(CLI::IsMember({"int32", "int64", "float32", "float64"}, CLI::ignore_case));
  sub->add_option("--reps", o->reps, "Timed solves per configuration (median; default 3)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--warmup", o->warmup, "Untimed solves first (default 1)")
      ->check(CLI::Range(0, 100));
  sub->add_option("--seed", o->seed, "Random seed (default: n)");
  sub->add_option("--generator", o->generator,
                  "Graph family swept on: random (default; --degree D for a sparse one) | grid "
                  "| geometric (sssp's tunables depend on the graph: sweep on one like yours)")
      ->check(CLI::IsMember({"random", "grid", "geometric"}));
  sub->add_option("--degree", o->degree, "--generator random / geometric: edges per vertex")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  sub->add_option("--wg", o->wg,
                  "WG values for the paper's squaring / fw-naive kernels (default 4,8,16,32); "
                  "like --block and --param, sweeps only the families that take it unless "
                  "--families is given")
      ->type_name("T,...");
  sub->add_option("--block", o->block, "BLOCK values for fw (default 8,16,32,64; WPT is swept too)")
      ->type_name("B,...");
  sub->add_option("--param", o->params,
                  "Values of any kernel tunable, NAME=v1,v2 (e.g. WPT=1,2,4), or ALGO:NAME=... "
                  "for one algorithm; repeatable")
      ->type_name("NAME=V,V");
  sub->add_option("--time-limit", o->time_limit,
                  "Skip a configuration estimated to take longer than SECONDS (default 300)")
      ->type_name("SECONDS");
  sub->add_flag("--no-store", o->no_store,
                "Do not write the best configuration to the tuning file");
  sub->add_option("--csv", o->csv, "Write one row per configuration to FILE (CSV)")
      ->type_name("FILE");
  sub->add_option("--json", o->json, "Write the sweep to FILE (JSON, with schema_version)")
      ->type_name("FILE");
  sub->add_flag("--quiet", o->quiet, "No progress lines on stderr");
  Command c;
  c.app = sub;
  c.run = [o, sub]() {
    o->algos_given = sub->get_option("--algos")->count() > 0;
    o->families_given = sub->get_option("--families")->count() > 0;
    return visit_type(parse_value_type(o->type),
                      [&](auto t) { return run_typed<decltype(t)>(*o); });
  };
  return c;
}

}  // namespace ocl_sp
