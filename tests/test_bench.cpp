// Tests of the pure parts of `ocl_sp bench` / `sweep`: size filtering, device
// fit, time estimates, the measurement loop (with CPU solvers and fake ones),
// Table 2 / Table 3, the CSV and JSON rows and the gnuplot script.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "cpu/cpu_solvers.hpp"
#include "graph/graph.hpp"
#include "report/bench_report.hpp"
#include "report/plot.hpp"
#include "tuning/bench_plan.hpp"
#include "tuning/measure.hpp"
#include "tuning/run_config.hpp"
#include "solvers/verify.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

BenchColumn column(const std::string& label, Backend b, const std::string& kind = "cpu") {
  BenchColumn c;
  c.label = label;
  c.backend = b;
  c.kind = kind;
  return c;
}

ResultRow row(const std::string& col, const std::string& algo, int64_t n, double total,
              const std::string& status = "ok") {
  ResultRow r;
  r.column = col;
  r.backend = col == "serial" || col == "openmp" ? col : "opencl";
  r.device = col + " device";
  r.algorithm = algo;
  r.type = "int32";
  r.n = n;
  r.total = r.min = r.max = total;
  r.reps = 3;
  r.status = status;
  return r;
}

DistMatrix<int32_t> random_input(int64_t n, uint64_t seed) {
  GeneratorParams p;
  p.n = n;
  p.seed = seed;
  p.density = default_density(n);
  return to_matrix<int32_t>(generate_random(p));
}

// A solver that returns its input unchanged: wrong for any graph with a 2-hop path.
class IdentitySolver final : public Solver<int32_t> {
 public:
  const SolverInfo& info() const override { return info_; }
  RunStats solve(DistMatrix<int32_t>&, PathMatrix*) override {
    RunStats s;
    s.total = 1e-3;
    return s;
  }

 private:
  SolverInfo info_ = [] {
    SolverInfo i;
    i.algo = "fw";
    i.backend = "opencl";
    return i;
  }();
};

class ThrowingSolver final : public Solver<int32_t> {
 public:
  const SolverInfo& info() const override { return info_; }
  RunStats solve(DistMatrix<int32_t>&, PathMatrix*) override { throw RuntimeError("device lost"); }

 private:
  SolverInfo info_ = [] {
    SolverInfo i;
    i.algo = "fw";
    i.backend = "opencl";
    return i;
  }();
};

// A correct squaring "device" solver (serial FW inside) that reports `seconds`
// per solve, so the time-limit logic can be driven without a slow device.
class ScriptedSolver final : public Solver<int32_t> {
 public:
  explicit ScriptedSolver(double seconds) : seconds_(seconds) {}
  const SolverInfo& info() const override { return info_; }
  RunStats solve(DistMatrix<int32_t>& d, PathMatrix*) override {
    fw_serial(d, nullptr);
    ++solves;
    RunStats s;
    s.total = seconds_;
    return s;
  }
  int solves = 0;

 private:
  double seconds_;
  SolverInfo info_ = [] {
    SolverInfo i;
    i.algo = "squaring";
    i.backend = "opencl";
    i.params = {{"WG", 8}};
    i.params_source = "command line";
    return i;
  }();
};

}  // namespace

TEST_SUITE("bench") {
  TEST_CASE("paper sizes and products bound") {
    CHECK(paper_sizes() == std::vector<int64_t>{10, 50, 200, 300, 1400, 2000, 5000, 8920, 10000});
    CHECK(products_bound(1) == 1);
    CHECK(products_bound(2) == 1);
    CHECK(products_bound(3) == 1);  // n - 1 = 2 = 2^1
    CHECK(products_bound(5) == 2);  // n - 1 = 4
    CHECK(products_bound(6) == 3);
    CHECK(products_bound(10000) == 14);
    CHECK(relaxation_bound(Algo::fw, 100) == doctest::Approx(1e6));
    CHECK(relaxation_bound(Algo::squaring, 100) == doctest::Approx(7e6));
  }

  TEST_CASE("filter_sizes: sorted, unique, dropped with a note when host memory is short") {
    std::vector<std::string> notes;
    auto kept = filter_sizes({300, 10, 300, 50}, 0, 4, &notes);
    CHECK(kept == std::vector<int64_t>{10, 50, 300});
    CHECK(notes.empty());
    // 1 GiB available: n = 10000 needs 4 x 400 MB, n = 8920 4 x 318 MB.
    kept = filter_sizes(paper_sizes(), 1ull << 30, 4, &notes);
    CHECK(kept == std::vector<int64_t>{10, 50, 200, 300, 1400, 2000, 5000});
    REQUIRE(notes.size() == 2);
    CHECK(notes[0].find("n = 8920") == 0);
    CHECK(notes[1].find("host memory") != std::string::npos);
  }

  TEST_CASE("device_misfit: global memory and max allocation, CPU columns never") {
    BenchColumn gpu = column("nvidia", Backend::opencl, "gpu");
    gpu.global_mem = 1ull << 30;
    gpu.max_alloc = 1ull << 30;
    CHECK_FALSE(device_misfit(gpu, Algo::fw, 10000, 4).has_value());        // 409 MB
    CHECK_FALSE(device_misfit(gpu, Algo::squaring, 10000, 4).has_value());  // 818 MB < 0.9 GiB
    CHECK(device_misfit(gpu, Algo::squaring, 12000, 4).has_value());
    gpu.max_alloc = 256ull << 20;
    auto why = device_misfit(gpu, Algo::fw, 10000, 4);
    REQUIRE(why.has_value());
    CHECK(why->find("max allocation") != std::string::npos);
    CHECK_FALSE(device_misfit(column("serial", Backend::serial), Algo::fw, 100000, 4).has_value());
  }

  TEST_CASE("estimates: conservative default first, then the measured rate") {
    RateBook rb;
    const BenchColumn serial = column("serial", Backend::serial);
    const BenchColumn gpu = column("nvidia", Backend::opencl, "gpu");
    // Nothing measured: serial at n = 10000 is 1e12 / 2e8 = 5000 s per solve.
    Estimate e = rb.estimate(serial, Algo::fw, 10000, 4);
    CHECK(e.per_solve == doctest::Approx(5000));
    CHECK(e.total == doctest::Approx(20000));
    CHECK(e.basis.find("default") == 0);
    CHECK(rb.estimate(gpu, Algo::fw, 10000, 1).per_solve == doctest::Approx(50));
    // Measured 1e9 relax in 1 s at n = 1000: n = 2000 is 8e9 relax -> 8 s.
    rb.record("serial", Algo::fw, 1000, 1e9, 1.0);
    e = rb.estimate(serial, Algo::fw, 2000, 4);
    CHECK(e.per_solve == doctest::Approx(8));
    CHECK(e.total == doctest::Approx(32));
    CHECK(e.basis.find("measured") == 0);
    CHECK(e.basis.find("n = 1000") != std::string::npos);
    // Other algorithms and columns are not affected.
    CHECK(rb.estimate(serial, Algo::squaring, 2000, 1).basis.find("default") == 0);
    // A rate below the default (tiny, overhead-dominated sizes) does not slow the estimate.
    rb.record("nvidia", Algo::fw, 10, 1000, 1e-3);  // 1e6 relax/s
    e = rb.estimate(gpu, Algo::fw, 2000, 1);
    CHECK(e.per_solve == doctest::Approx(8e9 / 2e10));
    // ... but a run of 10 ms or more is trusted even when slower than the default.
    rb.record("nvidia", Algo::fw, 300, 2.7e7, 0.05);  // 5.4e8 relax/s
    e = rb.estimate(gpu, Algo::fw, 2000, 1);
    CHECK(e.per_solve == doctest::Approx(8e9 / 5.4e8));
    CHECK(e.basis.find("measured") == 0);
    // The largest measured n wins.
    rb.record("serial", Algo::fw, 500, 1.25e8, 10.0);
    CHECK(rb.estimate(serial, Algo::fw, 2000, 1).per_solve == doctest::Approx(8));
  }

  TEST_CASE("probe size: halved until one default-rate solve fits the budget") {
    const BenchColumn gpu = column("nvidia", Backend::opencl, "gpu");  // 2e10 relax/s
    // n = 10000 fw: 1e12 relax = 50 s at the default; budget 1 s -> n^3 <= 2e10 -> 2500.
    CHECK(probe_size(gpu, Algo::fw, 10000, 1.0) == 2500);
    CHECK(probe_size(gpu, Algo::fw, 10000, 1e9) == 5000);  // always below n
    CHECK(probe_size(gpu, Algo::fw, 100, 1e-9) == 64);     // never below 64
    CHECK(probe_size(gpu, Algo::fw, 40, 1e-9) == 40);
    RateBook rb;
    CHECK_FALSE(rb.has("nvidia", Algo::fw));
    rb.record("nvidia", Algo::fw, 2500, 1.5625e10, 0.01);
    CHECK(rb.has("nvidia", Algo::fw));
    CHECK_FALSE(rb.has("nvidia", Algo::squaring));
  }

  TEST_CASE("median") {
    CHECK(median({}) == 0);
    CHECK(median({3}) == 3);
    CHECK(median({5, 1, 3}) == 3);
    CHECK(median({4, 1, 3, 2}) == doctest::Approx(2.5));
  }

  TEST_CASE("measure: CPU solver verified and timed; wrong and failing solvers reported") {
    const auto input = random_input(37, 37);  // n not a multiple of any tile
    ReferenceCache<int32_t> ref;
    MeasureOptions mo;
    mo.warmup = 1;
    mo.reps = 3;
    SolverSpec spec;
    spec.algo = Algo::squaring;
    spec.backend = Backend::openmp;
    auto solver = make_solver<int32_t>(spec);
    Measurement m = measure(*solver, input, "n=37", ref, mo);
    CHECK(m.status == "ok");
    CHECK(m.verify == "ok");
    CHECK(m.runs.size() == 3);
    CHECK(m.min_total <= m.median_total);
    CHECK(m.median_total <= m.max_total);
    CHECK(m.relaxations > 0);
    CHECK(ref.has("n=37"));
    CHECK(ref.method() == "serial fw");

    IdentitySolver wrong;
    m = measure(wrong, input, "n=37", ref, mo);
    CHECK(m.status == "wrong");
    CHECK(m.verify == "FAILED");
    CHECK(m.runs.empty());
    CHECK(m.reason.find("mismatches") != std::string::npos);

    ThrowingSolver broken;
    m = measure(broken, input, "n=37", ref, mo);
    CHECK(m.status == "failed");
    CHECK(m.reason == "device lost");
  }

  TEST_CASE("sweep time limit: a configuration over it is a skipped row with its estimate, never the best") {
    // Two configurations of one algorithm on one device, as sweep runs them:
    // each with its own rate key, the same input, n = 100 and a 10 ms limit for
    // warm-up + 1 rep. The default OpenCL CPU rate (1e9 relax/s) estimates 14 ms,
    // so each is probed at n = 64 first: the slow one (1 s per solve) is then
    // estimated far over the limit and skipped, the fast one (0.1 ms) runs.
    const BenchColumn col = column("pocl", Backend::opencl, "cpu");
    const auto input = random_input(100, 100);
    ReferenceCache<int32_t> ref;
    RateBook rates;
    RunOptions ro;
    ro.warmup = 1;
    ro.reps = 1;
    ro.time_limit = 0.01;
    ro.quiet = true;
    const Stopwatch wall;
    ScriptedSolver slow(1.0), fast(1e-4);
    std::vector<ResultRow> rows;
    for (ScriptedSolver* s : {&slow, &fast}) {
      ResultRow r = row("pocl", "squaring", 100, 0, "ok");
      r.total = r.min = r.max = 0;
      r.reps = 0;
      ConfigJob<int32_t> job;
      job.column = &col;
      job.algo = Algo::squaring;
      job.n = 100;
      job.rate_key = s == &slow ? "pocl WG=4" : "pocl WG=8";
      job.solver = [s](ResultRow&) -> Solver<int32_t>* { return s; };
      job.input = [&]() -> const DistMatrix<int32_t>& { return input; };
      job.input_key = "n=100";
      job.what = "test";
      run_configuration(r, job, rates, ref, ro, wall);
      rows.push_back(r);
    }
    const ResultRow& skipped = rows[0];
    CHECK(skipped.status == "skipped");
    CHECK(skipped.estimate > ro.time_limit);
    CHECK(skipped.estimate == doctest::Approx(2 * 7e6 / (64.0 * 64 * 64)));  // 2 solves at the probe's rate
    CHECK(skipped.estimate_basis.find("measured") == 0);
    CHECK(skipped.estimate_basis.find("(probe)") != std::string::npos);
    CHECK(skipped.reason.find("exceeds --time-limit 0.01 s") != std::string::npos);
    CHECK(skipped.reason.find("for 2 solves") != std::string::npos);
    CHECK(skipped.times.empty());
    // The probe only (one solve: a probe solve of 1 s or more counts alone), never
    // verified or timed at n = 100.
    CHECK(slow.solves == 1);
    // The fast configuration is not judged by the slow one's rate.
    const ResultRow& ran = rows[1];
    CHECK(ran.status == "ok");
    CHECK(ran.verify == "ok");
    CHECK(ran.estimate < ro.time_limit);
    CHECK(ran.total == doctest::Approx(1e-4));
    CHECK(ran.params == Tunables{{"WG", 8}});
    CHECK(fast.solves == 2 + 2);  // probe (two short solves), then warm-up + rep
    // The skipped row's total (0) is below the ok one's, yet it is never the best.
    REQUIRE(fastest_ok_row(rows).has_value());
    CHECK(*fastest_ok_row(rows) == 1);
    CHECK_FALSE(fastest_ok_row({rows[0]}).has_value());  // only skipped: nothing to store
  }

  TEST_CASE("run_configuration: no probe possible (n <= 64): skipped on the default estimate") {
    const BenchColumn col = column("pocl", Backend::opencl, "cpu");
    ReferenceCache<int32_t> ref;
    RateBook rates;
    RunOptions ro;
    ro.time_limit = 1e-9;
    ro.quiet = true;
    ScriptedSolver s(1.0);
    bool input_made = false;
    const auto input = random_input(40, 40);
    ResultRow r;
    ConfigJob<int32_t> job;
    job.column = &col;
    job.algo = Algo::fw;
    job.n = 40;
    job.rate_key = "pocl";
    job.solver = [&](ResultRow&) -> Solver<int32_t>* { return &s; };
    job.input = [&]() -> const DistMatrix<int32_t>& {
      input_made = true;
      return input;
    };
    run_configuration(r, job, rates, ref, ro, Stopwatch());
    CHECK(r.status == "skipped");
    CHECK(r.estimate_basis.find("default") == 0);
    CHECK(r.estimate == doctest::Approx(4 * 40.0 * 40 * 40 / 1e9));  // 1 warm-up + 3 reps
    CHECK(s.solves == 0);
    CHECK_FALSE(input_made);
    // A solver that cannot be built: its verdict, not the estimate.
    ResultRow r2;
    job.solver = [](ResultRow& row) -> Solver<int32_t>* {
      row.status = "skipped";
      row.reason = "WG must be one of 4, 8, 16, 32";
      return nullptr;
    };
    run_configuration(r2, job, rates, ref, ro, Stopwatch());
    CHECK(r2.status == "skipped");
    CHECK(r2.reason == "WG must be one of 4, 8, 16, 32");
  }

  TEST_CASE("reference rule: serial fw up to n = 3000, openmp fw beyond, one rule for all") {
    CHECK(reference_method(3000) == "serial fw");
    CHECK(reference_method(3001) == "openmp fw");
    CHECK(reference_method(5000, true) == "serial fw");
    auto d = random_input(20, 20);
    auto want = d;
    fw_serial(want, nullptr);
    CHECK(solve_reference(d) == "serial fw");
    CHECK(compare_matrices(want, d).ok);
    ReferenceCache<int32_t> cache;
    cache.get("x", random_input(20, 20));
    CHECK(cache.method() == reference_method(20));
    CHECK(duration(12.34) == "12.3 s");
    CHECK(duration(245) == "4m05s");
  }

  TEST_CASE("Table 2: one row per n, one column per device x algorithm") {
    std::vector<ResultRow> rows{row("serial", "fw", 10, 0.001), row("pocl", "fw", 10, 0.0005),
                                row("serial", "fw", 5000, 0, "skipped"),
                                row("pocl", "fw", 5000, 2.5)};
    rows[2].estimate = 4200;
    rows.push_back(row("pocl", "squaring", 10, 0, "wrong"));
    const TextTable t = time_table(rows);
    CHECK(t.header == std::vector<std::string>{"n", "serial fw", "pocl fw", "pocl squaring"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"10", "0.001", "0.0005", "WRONG"});
    CHECK(t.rows[1] == std::vector<std::string>{"5000", "skip(~4200)", "2.5", "-"});
    const std::string text = t.str();
    CHECK(text.find("Table 2") != std::string::npos);
    CHECK(text.find("pocl = opencl: pocl device") != std::string::npos);
  }

  TEST_CASE("Table 3: over serial, openmp over OpenCL (R1), between OpenCL devices (R2)") {
    std::vector<ResultRow> rows{row("serial", "fw", 100, 10),
                                row("openmp", "fw", 100, 2),
                                row("pocl", "fw", 100, 1),
                                row("nvidia", "fw", 100, 0.5),
                                row("serial", "fw", 200, 80, "skipped"),
                                row("openmp", "fw", 200, 16),
                                row("pocl", "fw", 200, 8),
                                row("nvidia", "fw", 200, 2)};
    const TextTable t = speedup_table(rows, {"pocl", "nvidia"});
    CHECK(t.header == std::vector<std::string>{"n", "fw serial/openmp", "fw serial/pocl",
                                               "fw serial/nvidia", "fw openmp/pocl",
                                               "fw openmp/nvidia", "fw pocl/nvidia"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0] == std::vector<std::string>{"100", "5x", "10x", "20x", "2x", "4x", "2x"});
    CHECK(t.rows[1] == std::vector<std::string>{"200", "-", "-", "-", "2x", "8x", "4x"});
  }

  TEST_CASE("CSV: a header and one line per row with the same field count, quoted fields") {
    std::vector<ResultRow> rows{row("pocl", "fw", 10, 0.001),
                                row("serial", "fw", 10, 0, "skipped")};
    rows[0].params = {{"BLOCK", 64}, {"WPT", 1}};
    rows[0].device = "cpu, \"fast\"";
    rows[1].reason = "estimated 5000 s, over the limit";
    std::ostringstream o;
    write_csv(o, rows);
    std::istringstream in(o.str());
    std::string line;
    std::vector<std::vector<std::string>> lines;
    while (std::getline(in, line)) lines.push_back(split_csv_line(line));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == csv_columns());
    for (const auto& l : lines) CHECK(l.size() == csv_columns().size());
    auto col = [&](const std::string& name) {
      for (size_t i = 0; i < lines[0].size(); ++i)
        if (lines[0][i] == name) return i;
      FAIL("no column " << name);
      return size_t{0};
    };
    CHECK(lines[1][col("device")] == "cpu, \"fast\"");
    CHECK(lines[1][col("params")] == "BLOCK=64 WPT=1");
    CHECK(lines[1][col("status")] == "ok");
    CHECK(lines[1][col("schema_version")] == std::to_string(kBenchSchemaVersion));
    CHECK(lines[2][col("status")] == "skipped");
    CHECK(lines[2][col("total")].empty());  // no time for a row that did not run
    CHECK(lines[2][col("reason")] == "estimated 5000 s, over the limit");
  }

  TEST_CASE("CSV read back: the rows that were written, line breaks flattened") {
    std::vector<ResultRow> rows{row("pocl", "fw", 10, 0.001), row("serial", "fw", 10, 0, "failed")};
    rows[0].params = {{"BLOCK", 64}, {"WPT", 1}};
    rows[0].t_k = 0.0005;
    rows[0].estimate = 2.5;
    rows[1].reason = "build failed:\nline 1: error\nline 2";
    std::ostringstream o;
    write_csv(o, rows);
    std::istringstream in(o.str());
    const auto back = read_csv(in, "x.csv");
    REQUIRE(back.size() == 2);
    CHECK(back[0].column == "pocl");
    CHECK(back[0].backend == "opencl");
    CHECK(back[0].params == rows[0].params);
    CHECK(back[0].total == doctest::Approx(0.001));
    CHECK(back[0].t_k == doctest::Approx(0.0005));
    CHECK(back[0].estimate == doctest::Approx(2.5));
    CHECK(back[1].status == "failed");
    CHECK(back[1].reason == "build failed: | line 1: error | line 2");
    CHECK(time_table(back).rows == time_table(rows).rows);
    std::istringstream bad("a,b\n1,2\n");
    CHECK_THROWS_AS(read_csv(bad, "bad.csv"), UsageError);
  }

  TEST_CASE("JSON row: fields, null times unless ok") {
    ResultRow ok = row("pocl", "squaring", 64, 0.25);
    ok.params = {{"WG", 16}};
    ok.times = {0.2, 0.25, 0.3};
    ResultRow skipped = row("serial", "fw", 10000, 0, "skipped");
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_array();
    write_json_row(j, ok);
    write_json_row(j, skipped);
    j.end_array();
    const std::string s = o.str();
    CHECK(s.find("\"status\":\"ok\"") != std::string::npos);
    CHECK(s.find("\"params\":{\"WG\":16}") != std::string::npos);
    CHECK(s.find("\"median\":0.25") != std::string::npos);
    CHECK(s.find("\"times\":[0.2,0.25,0.3]") != std::string::npos);
    CHECK(s.find("\"status\":\"skipped\"") != std::string::npos);
    CHECK(s.find("\"total\":null") != std::string::npos);
    CHECK(s.front() == '[');
    CHECK(s.back() == ']');
  }

  TEST_CASE("status line") {
    ResultRow r = row("pocl", "squaring", 64, 0, "skipped");
    r.params = {{"WG", 32}};
    r.reason = "WG*WG <= max work-group size (1024 > 256)";
    const std::string s = status_text(r);
    CHECK(s.find("WG=32") != std::string::npos);
    CHECK(s.find("skipped: WG*WG <= max work-group size") != std::string::npos);
    ResultRow ok = row("pocl", "fw", 64, 0.002);
    ok.relaxations_per_s = 2e9;
    ok.best = true;
    const std::string t = status_text(ok);
    CHECK(t.find("ok  2.00 ms") != std::string::npos);
    CHECK(t.find("relax/s") != std::string::npos);
    CHECK(t.find("<- best") != std::string::npos);
  }

  TEST_CASE("plot: format by extension, series and the gnuplot script") {
    CHECK(plot_format_for("a/b.PNG") == PlotFormat::png);
    CHECK(plot_format_for("x.svg") == PlotFormat::svg);
    CHECK_THROWS_AS(plot_format_for("x.pdf"), UsageError);
    CHECK_THROWS_AS(plot_format_for("png"), UsageError);
    std::vector<ResultRow> rows{
        row("serial", "fw", 10, 0.01),     row("serial", "fw", 50, 0.1),
        row("pocl", "fw", 10, 0.02),       row("pocl", "fw", 50, 0.05),
        row("pocl", "squaring", 10, 0.03), row("pocl", "squaring", 50, 0, "skipped")};
    const PlotSpec spec = bench_plot_spec(rows);
    REQUIRE(spec.time.size() == 3);
    CHECK(spec.time[0].title == "serial fw");
    CHECK(spec.time[2].points.size() == 1);  // the skipped point is left out
    REQUIRE(spec.speedup.size() == 1);       // pocl squaring has no serial or openmp twin
    CHECK_FALSE(spec.speedup[0].hollow);
    CHECK(spec.speedup[0].title == "pocl fw vs serial");
    CHECK(spec.speedup[0].points[1].second == doctest::Approx(2.0));
    const std::string data = gnuplot_data(spec);
    CHECK(data.find("# pocl fw vs serial") != std::string::npos);
    const std::string g = gnuplot_script(spec, "/tmp/d.txt", "/tmp/o'ut.svg", PlotFormat::svg);
    CHECK(g.find("set terminal svg") != std::string::npos);
    CHECK(g.find("set output '/tmp/o''ut.svg'") != std::string::npos);
    CHECK(g.find("multiplot layout 1,2") != std::string::npos);
    CHECK(g.find("set logscale x") != std::string::npos);
    CHECK(g.find("index 3 using 1:2") != std::string::npos);  // the speedup block
    CHECK(g.find("index 4") == std::string::npos);
    // With an openmp column, OpenCL series also get a speedup over openmp (open points).
    rows.push_back(row("openmp", "fw", 50, 0.025));
    const PlotSpec with_omp = bench_plot_spec(rows);
    REQUIRE(with_omp.speedup.size() == 3);
    CHECK(with_omp.speedup[2].title == "pocl fw vs openmp");
    CHECK(with_omp.speedup[2].hollow);
    CHECK(with_omp.speedup[2].points[0].second == doctest::Approx(0.5));
    const std::string p = gnuplot_script(PlotSpec{}, "d", "o.png", PlotFormat::png);
    CHECK(p.find("pngcairo") != std::string::npos);
    CHECK(p.find("no data") != std::string::npos);
  }
}
