// CPU solvers against the serial Floyd-Warshall reference: random graphs of many
// shapes (seed shown on failure; OCL_SP_TEST_SEED=S replays or varies them), the
// CLRS example, int32 INF arithmetic near the limits, negative cycles, and the
// product counts of repeated squaring. Every kernel copy this CPU can run is used.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "cpu/cpu_solvers.hpp"
#include "util/errors.hpp"

namespace {

using namespace ocl_sp;

constexpr int32_t kInf = ValueTraits<int32_t>::inf;

// splitmix64: tiny, good enough, and identical everywhere, so a seed replays.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % (hi - lo + 1));
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

uint64_t base_seed() {
  const char* s = std::getenv("OCL_SP_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261121;
}

enum class Kind { sparse, dense, disconnected, zero, negative };
const char* name(Kind k) {
  switch (k) {
    case Kind::sparse:
      return "sparse";
    case Kind::dense:
      return "dense";
    case Kind::disconnected:
      return "disconnected";
    case Kind::zero:
      return "zero-weights";
    case Kind::negative:
      return "negative";
  }
  return "?";
}
const Kind kKinds[] = {Kind::sparse, Kind::dense, Kind::disconnected, Kind::zero, Kind::negative};
const int64_t kSizes[] = {1, 2, 3, 17, 31, 64, 65, 100, 257};

// Random adjacency matrix (0 diagonal, INF = no edge). Negative weights come from
// vertex potentials, w'(u,v) = w + p(u) - p(v) with w >= 0, so every cycle keeps
// its non-negative weight: negative edges, never a negative cycle. `fractional`
// (float only) draws non-integer weights, whose sums round.
template <typename T>
DistMatrix<T> random_graph(int64_t n, Kind kind, uint64_t seed, bool fractional = false) {
  Rng rng{seed};
  DistMatrix<T> g(n);
  const double p = kind == Kind::sparse  ? std::min(1.0, 3.0 / static_cast<double>(n))
                   : kind == Kind::dense ? 0.9
                                         : 0.3;
  std::vector<int64_t> potential(static_cast<size_t>(n), 0);
  if (kind == Kind::negative)
    for (auto& v : potential) v = rng.range(0, 300);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == j) {
        g(i, j) = 0;
        continue;
      }
      if (kind == Kind::disconnected && (i < n / 2) != (j < n / 2)) continue;
      if (rng.uniform() >= p) continue;
      double w = kind == Kind::zero ? static_cast<double>(rng.range(0, 2)) : rng.range(1, 1000);
      if (fractional) w = 1.0 + 99.0 * rng.uniform();
      w += static_cast<double>(potential[i] - potential[j]);
      g(i, j) = static_cast<T>(w);
    }
  return g;
}

// Exact for int32 (rel_tol 0) and for float where the sums cannot round; otherwise
// |a - b| <= rel_tol * max(1, |a|, |b|), INF only equal to INF.
template <typename T>
void check_same(const DistMatrix<T>& want, const DistMatrix<T>& got, double rel_tol) {
  REQUIRE(want.n() == got.n());
  int64_t bad = 0;
  std::string first;
  for (int64_t i = 0; i < want.n(); ++i)
    for (int64_t j = 0; j < want.n(); ++j) {
      const T a = want(i, j), b = got(i, j);
      bool ok = a == b;
      if (!ok && rel_tol > 0 && std::isfinite(static_cast<double>(a)) &&
          std::isfinite(static_cast<double>(b))) {
        const double scale = std::max({1.0, std::fabs(double(a)), std::fabs(double(b))});
        ok = std::fabs(double(a) - double(b)) <= rel_tol * scale;
      }
      if (!ok && bad++ == 0)
        first = "(" + std::to_string(i) + "," + std::to_string(j) + "): want " + std::to_string(a) +
                " got " + std::to_string(b);
    }
  CHECK_MESSAGE(bad == 0, bad << " mismatches, first " << first);
}

template <typename T>
struct Variant {
  std::string name;
  std::function<int(DistMatrix<T>&)> run;  // returns products (0 for FW)
  bool squaring;
};

std::vector<CpuIsa> runnable_isas() {
  std::vector<CpuIsa> v;
  for (CpuIsa isa : {CpuIsa::generic, CpuIsa::avx2, CpuIsa::avx512})
    if (isa <= best_cpu_isa()) v.push_back(isa);
  return v;
}

// Every CPU solver except the reference itself: all block edges with the kernels
// the CPU picks by itself, the default edge and an odd one (7: tile rows that are
// not whole vectors) with each lower instruction set too.
template <typename T>
std::vector<Variant<T>> variants() {
  std::vector<Variant<T>> v;
  auto fw = [&v](int block, CpuIsa isa, bool forced) {
    const std::string tag = forced ? std::string(" ") + to_string(isa) : "";
    v.push_back({"fw_openmp block=" + std::to_string(block) + tag,
                 [block, isa, forced](DistMatrix<T>& d) {
                   if (forced)
                     fw_openmp(d, nullptr, block, isa);
                   else
                     fw_openmp(d, nullptr, block);
                   return 0;
                 },
                 false});
  };
  for (int block : {16, 32, 64, 0, 7, 100}) fw(block, best_cpu_isa(), false);
  v.push_back(
      {"squaring_openmp", [](DistMatrix<T>& d) { return squaring_openmp(d, nullptr); }, true});
  for (CpuIsa isa : runnable_isas()) {
    if (isa == best_cpu_isa()) continue;
    fw(0, isa, true);
    fw(7, isa, true);
    v.push_back({std::string("squaring_openmp ") + to_string(isa),
                 [isa](DistMatrix<T>& d) { return squaring_openmp(d, nullptr, isa); }, true});
  }
  v.push_back(
      {"squaring_serial", [](DistMatrix<T>& d) { return squaring_serial(d, nullptr); }, true});
  return v;
}

template <typename T>
DistMatrix<T> reference(const DistMatrix<T>& g) {
  DistMatrix<T> d = g;
  fw_serial(d, nullptr);
  return d;
}

// Vertex a NegativeCycleError names, -1 when the call returned normally.
long long cycle_vertex(const std::function<void()>& f) {
  try {
    f();
  } catch (const NegativeCycleError& e) {
    return e.vertex;
  }
  return -1;
}

// Runs every solver (reference included) on g; each must report a vertex of
// `on_cycle`.
template <typename T>
void check_negative_cycle(const DistMatrix<T>& g, const std::vector<int64_t>& on_cycle) {
  auto expect_on_cycle = [&](const std::string& what, long long v) {
    INFO(what);
    CHECK(v >= 0);
    CHECK(std::find(on_cycle.begin(), on_cycle.end(), v) != on_cycle.end());
  };
  expect_on_cycle("fw_serial", cycle_vertex([&] {
                    DistMatrix<T> d = g;
                    fw_serial(d, nullptr);
                  }));
  for (const auto& var : variants<T>())
    expect_on_cycle(var.name, cycle_vertex([&] {
                      DistMatrix<T> d = g;
                      var.run(d);
                    }));
}

template <typename T>
DistMatrix<T> from_rows(const std::vector<std::vector<T>>& rows) {
  DistMatrix<T> m(static_cast<int64_t>(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < rows.size(); ++j) m(i, j) = rows[i][j];
  return m;
}

// CLRS Figure 25.1 (the paper's example), vertices 1..5 renamed 0..4.
template <typename T>
void check_clrs() {
  const T X = ValueTraits<T>::inf;
  const DistMatrix<T> g = from_rows<T>(
      {{0, 3, 8, X, -4}, {X, 0, X, 1, 7}, {X, 4, 0, X, X}, {2, X, -5, 0, X}, {X, X, X, 6, 0}});
  const DistMatrix<T> want = from_rows<T>(
      {{0, 1, -3, 2, -4}, {3, 0, -4, 1, -1}, {7, 4, 0, 5, 3}, {2, -1, -5, 0, -2}, {8, 5, 1, 6, 0}});
  {
    INFO("fw_serial");
    check_same(want, reference(g), 0);
  }
  for (const auto& var : variants<T>()) {
    INFO(var.name);
    DistMatrix<T> d = g;
    var.run(d);
    check_same(want, d, 0);
  }
}

template <typename T>
void check_random_graphs(bool fractional) {
  const uint64_t base = base_seed();
  const auto vars = variants<T>();
  for (int64_t n : kSizes)
    for (Kind kind : kKinds) {
      // Fractional weights only where no cancellation can occur (see check_same).
      if (fractional && kind == Kind::negative) continue;
      const uint64_t seed = base * 1000003 + static_cast<uint64_t>(n) * 31 + static_cast<int>(kind);
      INFO("OCL_SP_TEST_SEED=" << base << " n=" << n << " kind=" << name(kind)
                               << " graph seed=" << seed << " type=" << ValueTraits<T>::name()
                               << (fractional ? " fractional" : ""));
      const DistMatrix<T> g = random_graph<T>(n, kind, seed, fractional);
      const DistMatrix<T> want = reference(g);
      for (const auto& var : vars) {
        INFO(var.name);
        DistMatrix<T> d = g;
        const int products = var.run(d);
        // Blocked FW and squaring add the edges of a path in another order than
        // serial FW; with fractional floats that rounds differently.
        check_same(want, d, fractional ? 1e-5 : 0);
        if (var.squaring) CHECK(products <= max_products(n, has_negative_weights(g)));
      }
    }
}

}  // namespace

TEST_SUITE("cpu_solvers") {
  TEST_CASE("max_products follows ceil(log2(n-1)), ceil(log2(n)) with negative weights") {
    CHECK(max_products(0, false) == 0);
    CHECK(max_products(1, false) == 0);
    CHECK(max_products(1, true) == 0);
    CHECK(max_products(2, false) == 1);
    CHECK(max_products(2, true) == 1);
    CHECK(max_products(3, false) == 1);
    CHECK(max_products(3, true) == 2);
    CHECK(max_products(5, false) == 2);
    CHECK(max_products(5, true) == 3);
    CHECK(max_products(9, false) == 3);
    CHECK(max_products(9, true) == 4);
    CHECK(max_products(1024, false) == 10);
    CHECK(max_products(1025, false) == 10);
    CHECK(max_products(1025, true) == 11);
    CHECK(max_products(2000, false) == 11);
    CHECK(max_products(10000, false) == 14);
  }

  TEST_CASE("CLRS figure 25.1: every solver gives the textbook distances") {
    const std::string isa = to_string(best_cpu_isa());
    INFO("best instruction set here: " << isa);
    SUBCASE("int32") { check_clrs<int32_t>(); }
    SUBCASE("float32") { check_clrs<float>(); }
  }

  TEST_CASE("random graphs: int32 bit-exact with serial FW") {
    MESSAGE("random graphs from OCL_SP_TEST_SEED=", base_seed());
    check_random_graphs<int32_t>(false);
  }

  TEST_CASE("random graphs: float32 with integer weights exact, fractional within 1e-5") {
    check_random_graphs<float>(false);
    check_random_graphs<float>(true);
  }

  TEST_CASE("many block rounds on two threads: n = 600, block 32 (6859 tile tasks)") {
    for (Kind kind : {Kind::sparse, Kind::negative}) {
      const uint64_t seed = base_seed() + 600 + static_cast<int>(kind);
      INFO("n=600 kind=" << name(kind) << " graph seed=" << seed);
      const DistMatrix<int32_t> g = random_graph<int32_t>(600, kind, seed);
      const DistMatrix<int32_t> want = reference(g);
      DistMatrix<int32_t> d = g;
      fw_openmp(d, nullptr, 32);
      check_same(want, d, 0);
    }
  }

  TEST_CASE("edge cases: empty graph, block larger than n, bad arguments") {
    for (const auto& var : variants<int32_t>()) {
      INFO(var.name);
      DistMatrix<int32_t> empty(0);
      CHECK(var.run(empty) == 0);
      CHECK(empty.n() == 0);
    }
    DistMatrix<int32_t> empty(0);
    fw_serial(empty, nullptr);
    const DistMatrix<int32_t> g = random_graph<int32_t>(31, Kind::dense, base_seed());
    DistMatrix<int32_t> d = g;
    fw_openmp(d, nullptr, 1000);
    check_same(reference(g), d, 0);
    CHECK_THROWS_AS(fw_openmp(d, nullptr, -1), UsageError);
    // Path reconstruction works on every CPU solver (tests/test_paths.cpp checks it).
    PathMatrix paths;
    CHECK_THROWS_AS(fw_openmp(d, &paths, -1), UsageError);
    for (auto* run : {+[](DistMatrix<int32_t>& m, PathMatrix& p) { fw_openmp(m, &p, 0); },
                      +[](DistMatrix<int32_t>& m, PathMatrix& p) { squaring_openmp(m, &p); },
                      +[](DistMatrix<int32_t>& m, PathMatrix& p) { squaring_serial(m, &p); },
                      +[](DistMatrix<int32_t>& m, PathMatrix& p) { fw_serial(m, &p); }}) {
      DistMatrix<int32_t> m = g;
      run(m, paths);
      check_same(reference(g), m, 0);
      CHECK(paths.n == g.n());
    }
    if (best_cpu_isa() != CpuIsa::avx512)
      CHECK_THROWS_AS(fw_openmp(d, nullptr, 0, CpuIsa::avx512), UsageError);
  }

  TEST_CASE("int32 arithmetic near the limits stays exact; INF + negative stays INF") {
    const int32_t big = 1 << 28;
    // Chain 0 -> 1 -> 2 -> 3 -> 4 with weights 2^28, 2^28 - 1, -2^28, -(2^28 - 7):
    // d(0,2) = 2^29 - 1 is the largest finite distance, d(2,4) = 7 - 2^29 nearly the
    // smallest. Nothing leads back, so below the diagonal everything stays INF
    // although INF + (-2^28) is far below INF; vertex 5 is isolated.
    const int32_t e[4] = {big, big - 1, -big, -(big - 7)};
    DistMatrix<int32_t> g(6);
    for (int i = 0; i < 6; ++i) g(i, i) = 0;
    for (int i = 0; i < 4; ++i) g(i, i + 1) = e[i];
    DistMatrix<int32_t> want(6);
    for (int i = 0; i < 6; ++i) {
      int64_t s = 0;
      for (int j = i; j < 5; ++j) {
        want(i, j) = static_cast<int32_t>(s);
        if (j < 4) s += e[j];
      }
      want(i, i) = 0;
    }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        if (want(i, j) != kInf) REQUIRE(std::abs(int64_t{want(i, j)}) < (int64_t{1} << 29));
    CHECK(want(2, 4) == 7 - (1 << 29));
    CHECK(want(0, 2) == (1 << 29) - 1);
    check_same(want, reference(g), 0);
    for (const auto& var : variants<int32_t>()) {
      INFO(var.name);
      DistMatrix<int32_t> d = g;
      var.run(d);
      check_same(want, d, 0);
    }

    // Random graph whose paths stay below 2^29 with weights of ~2^20 and negative
    // edges: no sum may overflow or leave INF.
    const int64_t n = 100;
    DistMatrix<int32_t> h = random_graph<int32_t>(n, Kind::negative, base_seed() + 7);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (i != j && h(i, j) != kInf) h(i, j) *= 1 << 10;  // |w| < 1300 * 2^10 ~ 2^20.3
    const DistMatrix<int32_t> want_h = reference(h);
    for (const auto& var : variants<int32_t>()) {
      INFO(var.name << " large weights, seed " << base_seed() + 7);
      DistMatrix<int32_t> d = h;
      var.run(d);
      check_same(want_h, d, 0);
    }
  }

  TEST_CASE("negative cycles are reported with a vertex on the cycle") {
    SUBCASE("Hamiltonian cycle through all n vertices (needs the extra product)") {
      for (int64_t n : {5, 9}) {
        INFO("n=" << n);
        DistMatrix<int32_t> g(n);
        for (int64_t i = 0; i < n; ++i) {
          g(i, i) = 0;
          g(i, (i + 1) % n) = i == 0 ? -static_cast<int32_t>(n) : 1;  // total -1
        }
        std::vector<int64_t> all;
        for (int64_t i = 0; i < n; ++i) all.push_back(i);
        check_negative_cycle(g, all);
        DistMatrix<float> gf(n);
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < n; ++j)
            gf(i, j) = g(i, j) == kInf ? ValueTraits<float>::inf : static_cast<float>(g(i, j));
        check_negative_cycle(gf, all);
      }
    }
    SUBCASE("short cycle inside a larger graph; only its vertices can be named") {
      for (int64_t n : {17, 65, 100}) {
        const uint64_t seed = base_seed() * 7 + n;
        INFO("n=" << n << " seed=" << seed);
        DistMatrix<int32_t> g = random_graph<int32_t>(n, Kind::sparse, seed);
        Rng rng{seed};
        std::vector<int64_t> cyc;
        while (cyc.size() < 3) {
          const int64_t v = rng.range(0, n - 1);
          if (std::find(cyc.begin(), cyc.end(), v) == cyc.end()) cyc.push_back(v);
        }
        // Cycle vertices keep only their cycle edges going out, so nothing else
        // can come back from the cycle: its strongly connected component is the
        // cycle itself, whatever edges lead into it.
        for (int64_t v : cyc)
          for (int64_t j = 0; j < n; ++j)
            if (j != v) g(v, j) = kInf;
        g(cyc[0], cyc[1]) = 5;
        g(cyc[1], cyc[2]) = -9;
        g(cyc[2], cyc[0]) = 3;  // total -1
        check_negative_cycle(g, cyc);
      }
    }
    SUBCASE("weights near -2^28 drive values to the clamp without overflow") {
      const int32_t w = -(1 << 28);
      DistMatrix<int32_t> g(4);
      for (int i = 0; i < 4; ++i) g(i, i) = 0;
      g(0, 1) = w;
      g(1, 2) = w;
      g(2, 0) = w;
      g(2, 3) = 1;  // 3 hangs off the cycle and is not on it
      check_negative_cycle(g, {0, 1, 2});
    }
    SUBCASE("a negative self-loop on the diagonal, n = 1 and n = 3") {
      DistMatrix<int32_t> one(1);
      one(0, 0) = -1;
      check_negative_cycle(one, {0});
      DistMatrix<int32_t> three(3);
      for (int i = 0; i < 3; ++i) three(i, i) = 0;
      three(1, 1) = -2;
      three(0, 1) = 4;
      check_negative_cycle(three, {1});
    }
  }

  TEST_CASE("repeated squaring stops as soon as a product changes nothing") {
    // Complete graph with weights in [10, 19]: two edges cost at least 20, so the
    // input already holds the distances and the first product changes nothing.
    const int64_t n = 64;
    DistMatrix<int32_t> g(n);
    Rng rng{base_seed()};
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        g(i, j) = i == j ? 0 : static_cast<int32_t>(rng.range(10, 19));
    const DistMatrix<int32_t> want = reference(g);
    CHECK(want == g);
    for (const auto& var : variants<int32_t>()) {
      if (!var.squaring) continue;
      INFO(var.name);
      DistMatrix<int32_t> d = g;
      CHECK(var.run(d) == 1);
      CHECK(d == want);
    }
    // A directed path 0 -> 1 -> ... -> 8 needs walks of 8 edges: 3 products change
    // something, the 4th confirms; max_products(9) = 3 ends it at 3 instead.
    DistMatrix<int32_t> path(9);
    for (int64_t i = 0; i < 9; ++i) path(i, i) = 0;
    for (int64_t i = 0; i + 1 < 9; ++i) path(i, i + 1) = 1;
    for (const auto& var : variants<int32_t>()) {
      if (!var.squaring) continue;
      INFO(var.name);
      DistMatrix<int32_t> d = path;
      CHECK(var.run(d) == 3);
      CHECK(d(0, 8) == 8);
    }
    // Same path with n = 12 vertices (3 isolated): 4 products allowed, the 4th
    // changes nothing.
    DistMatrix<int32_t> longer(12);
    for (int64_t i = 0; i < 12; ++i) longer(i, i) = 0;
    for (int64_t i = 0; i + 1 < 9; ++i) longer(i, i + 1) = 1;
    for (const auto& var : variants<int32_t>()) {
      if (!var.squaring) continue;
      INFO(var.name);
      DistMatrix<int32_t> d = longer;
      CHECK(var.run(d) == 4);
      CHECK(d(0, 8) == 8);
    }
  }

  TEST_CASE("make_cpu_solver: info, stats and refused combinations") {
    const DistMatrix<int32_t> g = random_graph<int32_t>(40, Kind::dense, base_seed());
    const DistMatrix<int32_t> want = reference(g);

    SolverSpec spec;
    spec.algo = Algo::fw;
    spec.backend = Backend::openmp;
    auto fw = make_cpu_solver<int32_t>(spec);
    CHECK(fw->info().algo == "fw");
    CHECK(fw->info().backend == "openmp");
    CHECK(fw->info().device.find("thread") != std::string::npos);
    CHECK(fw->info().params.at("BLOCK") == default_fw_block());
    CHECK(fw->info().params_source == "built-in");
    DistMatrix<int32_t> d = g;
    RunStats st = fw->solve(d, nullptr);
    CHECK(d == want);
    CHECK(st.relaxations == doctest::Approx(40.0 * 40 * 40));
    CHECK(st.t_k >= 0);
    CHECK(st.total >= st.t_k);

    spec.params["BLOCK"] = 16;
    auto fw16 = make_cpu_solver<int32_t>(spec);
    CHECK(fw16->info().params.at("BLOCK") == 16);
    CHECK(fw16->info().params_source == "command line");
    d = g;
    fw16->solve(d, nullptr);
    CHECK(d == want);

    spec.params["BLOCK"] = 0;
    CHECK_THROWS_AS(make_cpu_solver<int32_t>(spec), UsageError);
    spec.params.clear();
    spec.params["TILE"] = 8;
    CHECK_THROWS_AS(make_cpu_solver<int32_t>(spec), UsageError);
    spec.params.clear();

    spec.algo = Algo::squaring;
    for (Backend b : {Backend::openmp, Backend::serial}) {
      spec.backend = b;
      auto sq = make_cpu_solver<int32_t>(spec);
      CHECK(sq->info().algo == "squaring");
      CHECK(sq->info().params.empty());
      d = g;
      st = sq->solve(d, nullptr);
      CHECK(d == want);
      CHECK(st.products >= 1);
      CHECK(st.relaxations == doctest::Approx(40.0 * 40 * 40 * st.products));
    }

    spec.algo = Algo::fw_naive;
    spec.backend = Backend::serial;
    auto naive = make_cpu_solver<float>(spec);
    CHECK(naive->info().algo == "fw-naive");
    CHECK(naive->info().device.find("(1 thread)") != std::string::npos);
    spec.backend = Backend::openmp;
    CHECK_THROWS_AS(make_cpu_solver<int32_t>(spec), UsageError);

    spec.algo = Algo::fw;
    spec.backend = Backend::serial;
    auto serial = make_cpu_solver<int32_t>(spec);
    PathMatrix paths;
    d = g;
    CHECK(serial->solve(d, &paths).paths);
    CHECK(paths.n == g.n());

    DistMatrix<int32_t> cyc(2);
    cyc(0, 0) = cyc(1, 1) = 0;
    cyc(0, 1) = -3;
    cyc(1, 0) = 2;
    CHECK_THROWS_AS(serial->solve(cyc, nullptr), NegativeCycleError);
  }
}
