// Path reconstruction (solve(d, paths)) on every backend x algorithm x type:
// serial, openmp and OpenCL (PoCL, or $OCL_SP_TEST_DEVICE) x fw, squaring, fw-naive
// x int32, float32, on random graphs (seeds printed; OCL_SP_TEST_SEED varies them)
// with ties, zero-weight edges and cycles, negative edges, disconnected parts and n
// not a multiple of any tile. Every pair's reconstructed path must be a real path
// of the input whose length is the distance (check_paths), its edge count the
// recorded hops; hops are the same on every backend (the lexicographic optimum is
// unique); unreachable pairs have no path, via -1 and hops 0.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cpu/cpu_solvers.hpp"
#include "graph/paths.hpp"
#include "report/bench_report.hpp"
#include "solvers/opencl_solvers.hpp"
#include "test_opencl_common.hpp"
#include "tuning/measure.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

uint64_t base_seed() {
  const char* s = std::getenv("OCL_SP_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261123;
}

enum class Kind { ties, zero_cycles, negative, disconnected };
const char* name(Kind k) {
  switch (k) {
    case Kind::ties:
      return "ties (weights 0..3)";
    case Kind::zero_cycles:
      return "zero-weight cycles";
    case Kind::negative:
      return "negative edges";
    case Kind::disconnected:
      return "disconnected";
  }
  return "?";
}
const Kind kKinds[] = {Kind::ties, Kind::zero_cycles, Kind::negative, Kind::disconnected};
const int64_t kSizes[] = {1, 2, 3, 17, 33, 65, 100};

// Random adjacency matrix (0 diagonal, INF = no edge). ties: weights 0..3, many
// equal-length paths; zero_cycles: mostly zero weights, symmetric pairs, so zero
// cycles abound; negative: weights w + p(u) - p(v) (potentials, no negative cycle)
// with w in 0..3; disconnected: three parts, edges inside a part and from part 0
// to part 1 only, weights 0..3.
template <typename T>
DistMatrix<T> random_graph(int64_t n, Kind kind, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> w03(0, 3), part(0, 2), pot(0, 20);
  std::uniform_real_distribution<double> u01(0, 1);
  std::vector<int> p(static_cast<size_t>(n), 0), comp(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) {
    if (kind == Kind::negative) p[static_cast<size_t>(i)] = pot(rng);
    if (kind == Kind::disconnected) comp[static_cast<size_t>(i)] = part(rng);
  }
  const double density = n <= 8 ? 0.5 : std::min(1.0, 6.0 / static_cast<double>(n));
  DistMatrix<T> d(n);
  for (int64_t i = 0; i < n; ++i) d(i, i) = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == j || u01(rng) >= density) continue;
      const int ci = comp[static_cast<size_t>(i)], cj = comp[static_cast<size_t>(j)];
      if (!(ci == cj || (ci == 0 && cj == 1))) continue;
      int w = w03(rng);
      if (kind == Kind::zero_cycles) {
        w = u01(rng) < 0.7 ? 0 : w;
        if (d(j, i) == ValueTraits<T>::inf && u01(rng) < 0.5) d(j, i) = 0;  // a 2-cycle
      }
      d(i, j) = static_cast<T>(w + p[static_cast<size_t>(i)] - p[static_cast<size_t>(j)]);
    }
  return d;
}

template <typename T>
DistMatrix<T> reference(const DistMatrix<T>& g, PathMatrix* p = nullptr) {
  DistMatrix<T> d = g;
  fw_serial(d, p);
  return d;
}

// Everything the convention promises for one solved (d, p) of input g.
template <typename T>
void check_solution(const DistMatrix<T>& g, const DistMatrix<T>& want_d, const PathMatrix& want_p,
                    const DistMatrix<T>& d, const PathMatrix& p) {
  const int64_t n = g.n();
  REQUIRE(d.n() == n);
  REQUIRE(p.n == n);
  REQUIRE(p.via.size() == static_cast<size_t>(n * n));
  REQUIRE(p.hops.size() == static_cast<size_t>(n * n));
  int64_t bad_d = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) bad_d += want_d(i, j) != d(i, j);
  CHECK_MESSAGE(bad_d == 0, bad_d << " distances differ from fw_serial");
  const std::string problem = check_paths(g, d, p);
  CHECK_MESSAGE(problem.empty(), problem);
  if (!problem.empty() || bad_d) return;
  int64_t bad = 0;
  std::string first;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const size_t ij = static_cast<size_t>(i * n + j);
      const auto path = expand_path(d, p, i, j);
      std::string why;
      if (p.hops[ij] != want_p.hops[ij]) why = "hops differ from fw_serial's";
      if (d(i, j) == ValueTraits<T>::inf) {
        if (p.via[ij] != -1 || p.hops[ij] != 0 || !path.empty()) why = "unreachable pair not -1/0";
      } else if (static_cast<int64_t>(path.size()) - 1 != p.hops[ij]) {
        why = "path edge count != hops";
      } else if ((i == j || p.hops[ij] == 1) != (p.via[ij] == -1)) {
        why = "via -1 exactly for direct edges and the diagonal";
      }
      if (!why.empty() && bad++ == 0)
        first = "(" + std::to_string(i) + ", " + std::to_string(j) + "): " + why + " (via " +
                std::to_string(p.via[ij]) + ", hops " + std::to_string(p.hops[ij]) +
                ", want hops " + std::to_string(want_p.hops[ij]) + ")";
    }
  CHECK_MESSAGE(bad == 0, bad << " pairs break the convention, first " << first);
}

// One solver (built once, reused across sizes and graphs as bench does) on every
// kind x size.
template <typename T>
void check_solver(Solver<T>& s, const std::string& label, uint64_t salt) {
  for (Kind kind : kKinds)
    for (int64_t n : kSizes) {
      const uint64_t seed =
          base_seed() + salt * 1000 + static_cast<uint64_t>(n) * 7 + static_cast<uint64_t>(kind);
      INFO(label << " " << ValueTraits<T>::name() << ", " << name(kind) << ", n = " << n
                 << ", seed " << seed);
      const DistMatrix<T> g = random_graph<T>(n, kind, seed);
      PathMatrix want_p;
      const DistMatrix<T> want_d = reference(g, &want_p);
      DistMatrix<T> d = g;
      PathMatrix p;
      const RunStats st = s.solve(d, &p);
      CHECK(st.paths);
      check_solution(g, want_d, want_p, d, p);
    }
}

SolverSpec cpu_spec(Algo a, Backend b) {
  SolverSpec s;
  s.algo = a;
  s.backend = b;
  s.use_tuned = false;
  return s;
}

// Every vertex of a 4-clique joined by zero-weight edges in both directions, plus
// a tail 3 -> 4 -> 5 of zero weight and a shortcut 0 -> 5 of weight 0: every
// order of relaxations finds ties everywhere. With "replace on equal distance"
// FW records via(1,2) = 0 and via(0,2) = 1, and expanding 1 -> 2 loops forever.
template <typename T>
DistMatrix<T> zero_clique() {
  DistMatrix<T> g(6);
  for (int64_t i = 0; i < 6; ++i) g(i, i) = 0;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j)
      if (i != j) g(i, j) = 0;
  g(3, 4) = 0;
  g(4, 5) = 0;
  g(0, 5) = 0;
  return g;
}

// The CLRS / OCL_SP paper example (5 vertices, negative edges, no negative cycle).
template <typename T>
DistMatrix<T> paper_graph() {
  DistMatrix<T> g(5);
  for (int64_t i = 0; i < 5; ++i) g(i, i) = 0;
  const int e[][3] = {{0, 1, 3}, {0, 2, 8}, {0, 4, -4}, {1, 3, 1}, {1, 4, 7},
                      {2, 1, 4}, {3, 0, 2}, {3, 2, -5}, {4, 3, 6}};
  for (const auto& x : e) g(x[0], x[1]) = static_cast<T>(x[2]);
  return g;
}

template <typename T>
void check_hand_made(Solver<T>& s, const std::string& label) {
  INFO(label << " " << ValueTraits<T>::name());
  {
    const DistMatrix<T> g = zero_clique<T>();
    DistMatrix<T> d = g;
    PathMatrix p;
    s.solve(d, &p);
    CHECK(check_paths(g, d, p).empty());
    // Inside the clique every pair is one zero edge: hops 1, no intermediate.
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 4; ++j)
        if (i != j) {
          CHECK(p.hops[static_cast<size_t>(i * 6 + j)] == 1);
          CHECK(p.via[static_cast<size_t>(i * 6 + j)] == -1);
        }
    CHECK(expand_path(d, p, 0, 5) == std::vector<int64_t>{0, 5});
    CHECK(expand_path(d, p, 1, 5) == std::vector<int64_t>{1, 0, 5});
    CHECK(expand_path(d, p, 5, 0).empty());  // unreachable
  }
  {
    const DistMatrix<T> g = paper_graph<T>();
    DistMatrix<T> d = g;
    PathMatrix p;
    s.solve(d, &p);
    CHECK(check_paths(g, d, p).empty());
    CHECK(d(0, 1) == 1);
    CHECK(expand_path(d, p, 0, 1) == std::vector<int64_t>{0, 4, 3, 2, 1});
    CHECK(expand_path(d, p, 2, 0) == std::vector<int64_t>{2, 1, 3, 0});
  }
  {
    // A negative cycle is still reported with paths.
    DistMatrix<T> g(3);
    for (int64_t i = 0; i < 3; ++i) g(i, i) = 0;
    g(0, 1) = 1;
    g(1, 2) = -3;
    g(2, 0) = 1;
    PathMatrix p;
    CHECK_THROWS_AS(s.solve(g, &p), NegativeCycleError);
  }
}

template <typename T>
void check_cpu() {
  struct Case {
    Algo algo;
    Backend backend;
  };
  const Case cases[] = {{Algo::fw, Backend::serial},
                        {Algo::squaring, Backend::serial},
                        {Algo::fw_naive, Backend::serial},
                        {Algo::fw, Backend::openmp},
                        {Algo::squaring, Backend::openmp}};
  uint64_t salt = 1;
  for (const auto& c : cases) {
    auto s = make_solver<T>(cpu_spec(c.algo, c.backend));
    const std::string label = std::string(to_string(c.backend)) + " " + to_string(c.algo);
    check_solver(*s, label, salt++);
    check_hand_made(*s, label);
  }
}

}  // namespace

TEST_SUITE("paths") {
  TEST_CASE("expand_path rejects a via matrix that would loop") {
    // 0 -> 1 -> 2, all zero: via(0,2) = 1 is fine; via(0,1) = 2 with hops that do
    // not shrink is the loop a tie-broken-by-nothing FW can record.
    DistMatrix<int32_t> d(3, 0);
    PathMatrix p;
    p.n = 3;
    p.via = {-1, 2, 1, -1, -1, -1, -1, -1, -1};
    p.hops = {0, 2, 2, 0, 0, 1, 0, 0, 0};
    CHECK_THROWS_AS(expand_path(d, p, 0, 2), RuntimeError);
    CHECK_THROWS_AS(expand_path(d, p, 0, 1), RuntimeError);
  }

  TEST_CASE("CPU backends: serial and openmp x fw, squaring, fw-naive x int32, float32") {
    MESSAGE("paths: random graphs from OCL_SP_TEST_SEED=", base_seed(),
            " (each case's own seed is shown on failure)");
    check_cpu<int32_t>();
    check_cpu<float>();
  }

  TEST_CASE("bench --paths: measured solves check the paths; rows carry paths and memory") {
    auto s = make_solver<int32_t>(cpu_spec(Algo::fw, Backend::openmp));
    const DistMatrix<int32_t> g = random_graph<int32_t>(37, Kind::zero_cycles, base_seed() + 3);
    ReferenceCache<int32_t> ref;
    MeasureOptions mo;
    mo.warmup = 0;
    mo.reps = 2;
    mo.paths = true;
    const Measurement m = measure(*s, g, "n=37", ref, mo);
    CHECK(m.status == "ok");
    CHECK(m.verify_detail.find("paths ok") != std::string::npos);
    CHECK(m.paths_bytes == doctest::Approx(37.0 * 37 * 8));
    ResultRow r;
    r.column = "openmp";
    r.algorithm = "fw";
    r.n = 37;
    r.reps = 2;
    r.paths = true;
    r.paths_bytes = m.paths_bytes;
    std::stringstream csv;
    write_csv(csv, {r});
    const auto back = read_csv(csv, "rows.csv");
    REQUIRE(back.size() == 1);
    CHECK(back[0].paths);
    CHECK(back[0].paths_bytes == doctest::Approx(r.paths_bytes));
    std::ostringstream json;
    JsonWriter j(json);
    write_json_row(j, r);
    CHECK(json.str().find("\"paths\":true") != std::string::npos);
    CHECK(status_text(r).find("paths +") != std::string::npos);
  }

  TEST_CASE("OpenMP FW with paths: every block edge, larger n, stats") {
    const DistMatrix<int32_t> g = random_graph<int32_t>(150, Kind::ties, base_seed() + 99);
    PathMatrix want_p;
    const DistMatrix<int32_t> want_d = reference(g, &want_p);
    for (int block : {0, 1, 7, 16, 64, 200}) {
      INFO("block " << block << ", seed " << base_seed() + 99);
      DistMatrix<int32_t> d = g;
      PathMatrix p;
      fw_openmp(d, &p, block);
      check_solution(g, want_d, want_p, d, p);
    }
    auto s = make_solver<int32_t>(cpu_spec(Algo::fw, Backend::openmp));
    DistMatrix<int32_t> d = g;
    PathMatrix p;
    const RunStats st = s->solve(d, &p);
    CHECK(st.paths);
    CHECK(st.paths_bytes == doctest::Approx(150.0 * 150 * 8));
    d = g;
    CHECK_FALSE(s->solve(d, nullptr).paths);
  }

  TEST_CASE("OpenCL: fw, squaring, fw-naive x int32, float32 (both kernel families)") {
    // TILED=1 (register-tiled) solvers run the path kernels with their own tiling.
    // Each configuration costs two program builds (distances, paths) on a cold PoCL
    // cache, 1-3 s each here, so the tiling variants share the types out: fw runs
    // int32 with the default tiles and float32 with BLOCK=16 WPT=4 (several rows per
    // work-item); fw TILED=1 reuses the default path programs. The float32 packed
    // path is covered by the next test case.
    // fw takes packed keys for graphs with small non-negative integer weights
    // (most kinds here); `general` turns that off so kernels/paths.cl sees every kind.
    struct Case {
      Algo algo;
      Tunables t;
      ValueType type;
      bool general = false;
    };
    const std::vector<Case> cases = {
        {Algo::fw, {}, ValueType::int32},
        {Algo::fw, {}, ValueType::int32, true},
        {Algo::fw, {{"BLOCK", 16}, {"WPT", 4}}, ValueType::float32, true},
        {Algo::fw, {{"TILED", 1}, {"BLOCK", 64}}, ValueType::int32},
        {Algo::squaring, {}, ValueType::int32},
        {Algo::squaring, {}, ValueType::float32},
        {Algo::fw_naive, {}, ValueType::int32},
        {Algo::fw_naive, {}, ValueType::float32},
    };
    // fw's default route for exact sums rebuilds the paths from the distances
    // (test_panel_paths.cpp); these cases are about the path kernels themselves.
    const ocl_sp_test::EnvGuard kernels("OCL_SP_PATHS_REBUILD", std::string("0"));
    uint64_t salt = 11;
    for (const auto& c : cases) {
      const std::string label = std::string("opencl ") + to_string(c.algo) + " " + to_string(c.t) +
                                (c.general ? " (general kernels)" : "");
      ocl_sp_test::EnvGuard no_packed("OCL_SP_NO_PACKED_PATHS",
                                      c.general ? std::optional<std::string>("1") : std::nullopt);
      if (c.type == ValueType::int32) {
        auto s = make_opencl_solver<int32_t>(spec(c.algo, c.t));
        check_solver(*s, label, salt++);
        check_hand_made(*s, label);
      } else {
        // float32 with integral weights: sums are exact, so hops match too.
        auto s = make_opencl_solver<float>(spec(c.algo, c.t));
        check_solver(*s, label, salt++);
        check_hand_made(*s, label);
      }
    }
  }

  TEST_CASE("OpenCL fw: packed keys where weights are small non-negative integers, else general") {
    // fw with paths runs kernels/fw_paths_packed.cl for int32 and integral float32
    // graphs without negative weights, kernels/paths.cl otherwise, and reruns the
    // latter when a shortest distance outgrows the packed keys' exact range (the
    // path kernels' route: by default exact sums take the rebuild).
    const ocl_sp_test::EnvGuard kernels("OCL_SP_PATHS_REBUILD", std::string("0"));
    auto si = make_opencl_solver<int32_t>(spec(Algo::fw));
    // (float32 with the tiles of the case above: its programs come from the cache)
    auto sf = make_opencl_solver<float>(spec(Algo::fw, {{"BLOCK", 16}, {"WPT", 4}}));
    const uint64_t seed = base_seed() + 77;
    INFO("seed " << seed);
    auto run = [&](auto& solver, const auto& g) {
      auto d = g;
      PathMatrix p;
      const RunStats st = solver->solve(d, &p);
      CHECK(d == reference(g));
      const std::string problem = check_paths(g, d, p);
      CHECK_MESSAGE(problem.empty(), problem);
      // The route and why come first ("route: packed keys (...); fw_paths_packed.cl ...").
      const std::string& k = st.paths_kernels;
      const size_t at = k.find("); ");
      CHECK(k.rfind("route: ", 0) == 0);
      return at == std::string::npos ? k : k.substr(at + 3);
    };
    CHECK(run(si, random_graph<int32_t>(70, Kind::ties, seed)).find("fw_paths_packed.cl") == 0);
    CHECK(run(sf, random_graph<float>(70, Kind::ties, seed)).find("fw_paths_packed.cl") == 0);
    CHECK(run(si, random_graph<int32_t>(70, Kind::negative, seed)).find("paths.cl") == 0);
    // Non-integral float weights take the general kernels.
    DistMatrix<float> frac = random_graph<float>(40, Kind::ties, seed);
    for (int64_t i = 0; i + 1 < 40; ++i) frac(i, i + 1) = 0.5f;
    CHECK(run(sf, frac).find("paths.cl") == 0);
    // A chain of heavy edges: every edge fits (n = 65: exact below 16383), the
    // distances do not, so the packed attempt flags them and the general kernels rerun.
    DistMatrix<int32_t> chain(65);
    for (int64_t i = 0; i < 65; ++i) chain(i, i) = 0;
    for (int64_t i = 0; i + 1 < 65; ++i) chain(i, i + 1) = 16000;
    chain(3, 1) = 0;  // and a zero-weight back edge
    const std::string fell = run(si, chain);
    CHECK(fell.find("paths.cl") == 0);
    CHECK(fell.find("after fw_paths_packed.cl") != std::string::npos);
    // The same solver still takes the fast path afterwards.
    CHECK(run(si, random_graph<int32_t>(33, Kind::zero_cycles, seed)).find("fw_paths_packed.cl") ==
          0);
  }

  TEST_CASE("float32 with fractional weights and zero-weight cycles: rounding is repaired") {
    // Potentials in quarters keep every cycle's true length >= 0, fractional weights
    // (0.1, 0.3, ...) make sums round, and zero weights make zero cycles: one
    // summation order then sees a cycle as slightly negative and the recorded via
    // would loop without repair_paths. Every backend must give expandable paths.
    const uint64_t seed = base_seed() + 4242;
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    const int64_t n = 90;
    std::uniform_int_distribution<int> quarter(0, 40), pick(0, 4);
    std::uniform_real_distribution<double> u01(0, 1);
    const float frac[] = {0.0f, 0.1f, 0.3f, 1.3f, 2.7f};
    std::vector<double> pot(static_cast<size_t>(n));
    for (auto& x : pot) x = quarter(rng) * 0.25;
    DistMatrix<float> g(n);
    for (int64_t i = 0; i < n; ++i) g(i, i) = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (i != j && u01(rng) < 0.08)
          g(i, j) = static_cast<float>(frac[pick(rng)] + pot[static_cast<size_t>(i)] -
                                       pot[static_cast<size_t>(j)]);
    const DistMatrix<float> want = reference(g);
    auto run = [&](Solver<float>& s, const std::string& label) {
      INFO(label);
      DistMatrix<float> d = g;
      PathMatrix p;
      const RunStats st = s.solve(d, &p);
      int64_t off = 0;  // distances: as the serial reference, within float rounding
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          const float a = want(i, j), b = d(i, j);
          off += std::isinf(a) || std::isinf(b)
                     ? a != b
                     : std::fabs(a - b) > 1e-4f * std::max(1.0f, std::fabs(a));
        }
      CHECK(off == 0);
      const std::string problem = check_paths(g, d, p);
      CHECK_MESSAGE(problem.empty(), problem);
      return st.paths_kernels;
    };
    for (Algo a : {Algo::fw, Algo::squaring, Algo::fw_naive})
      for (Backend b : {Backend::serial, Backend::openmp}) {
        if (a == Algo::fw_naive && b == Backend::openmp) continue;
        run(*make_solver<float>(cpu_spec(a, b)), std::string(to_string(b)) + " " + to_string(a));
      }
    // The OpenCL configurations of the test case above (their programs are cached).
    // (the OpenCL solvers say when they repaired: this graph must need it)
    CHECK(
        run(*make_opencl_solver<float>(spec(Algo::fw, {{"BLOCK", 16}, {"WPT", 4}})), "opencl fw")
            .find("float rounding") != std::string::npos);
    run(*make_opencl_solver<float>(spec(Algo::squaring)), "opencl squaring");
    run(*make_opencl_solver<float>(spec(Algo::fw_naive)), "opencl fw-naive");
  }

  TEST_CASE("OpenCL squaring and fw-naive: exact sums take the distance kernels and the host's search") {
    // Their path kernels' via would be replaced by the tight-edge search anyway:
    // with exact sums they are skipped, and the path matrices are the serial
    // solver's bytes; OCL_SP_PATHS_REBUILD=0 keeps the path kernels (the same bytes).
    const uint64_t seed = base_seed() + 91;
    INFO("seed " << seed);
    for (Algo a : {Algo::squaring, Algo::fw_naive})
      for (Kind kind : {Kind::ties, Kind::negative}) {
        CAPTURE(to_string(a));
        const DistMatrix<int32_t> g = random_graph<int32_t>(70, kind, seed);
        DistMatrix<int32_t> want = g;
        PathMatrix pw;
        make_solver<int32_t>(cpu_spec(Algo::fw, Backend::serial))->solve(want, &pw);
        auto s = make_opencl_solver<int32_t>(spec(a));
        DistMatrix<int32_t> d = g;
        PathMatrix p;
        const RunStats st = s->solve(d, &p);
        CHECK(d == want);
        CHECK(st.paths);
        CHECK(st.paths_kernels.rfind("distance kernels, then via and hops", 0) == 0);
        CHECK(p.via == pw.via);
        CHECK(p.hops == pw.hops);
        const ocl_sp_test::EnvGuard kernels("OCL_SP_PATHS_REBUILD", std::string("0"));
        DistMatrix<int32_t> d2 = g;
        PathMatrix p2;
        const RunStats st2 = s->solve(d2, &p2);
        CHECK(st2.paths_kernels.find("paths.cl") != std::string::npos);
        CHECK(d2 == want);
        CHECK(p2.via == pw.via);
      }
  }

  TEST_CASE("OpenCL: the path program is built lazily and distance-only solves are unchanged") {
    const ocl_sp_test::EnvGuard kernels("OCL_SP_PATHS_REBUILD", std::string("0"));  // the path kernels' route
    auto s = make_opencl_solver<int32_t>(spec(Algo::fw));
    const DistMatrix<int32_t> g = random_graph<int32_t>(65, Kind::negative, base_seed() + 5);
    DistMatrix<int32_t> d0 = g;
    const RunStats plain = s->solve(d0, nullptr);
    CHECK_FALSE(plain.paths);
    DistMatrix<int32_t> d1 = g;
    PathMatrix p;
    const RunStats first = s->solve(d1, &p);
    CHECK(first.paths);
    CHECK(first.paths_setup > 0);
    CHECK(first.paths_bytes >= 2.0 * 65 * 65 * 4);
    CHECK(first.paths_kernels.find("BLOCK=") != std::string::npos);
    CHECK(first.paths_cache != "");
    DistMatrix<int32_t> d2 = g;
    PathMatrix p2;
    CHECK(s->solve(d2, &p2).paths_setup == 0);
    CHECK(d0 == d1);
    CHECK(d1 == d2);
    CHECK(p.hops == p2.hops);
    DistMatrix<int32_t> d3 = g;
    s->solve(d3, nullptr);
    CHECK(d3 == d0);
    // n = 0 with paths: an empty matrix, no launch.
    DistMatrix<int32_t> empty(0);
    PathMatrix pe;
    s->solve(empty, &pe);
    CHECK(pe.n == 0);
  }
}
