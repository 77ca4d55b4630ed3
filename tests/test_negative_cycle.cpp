// Tests of the negative cycle finder (host/graph/negative_cycle.hpp) and of the
// NegativeCycleError it feeds: the cycle found is a real, simple cycle of the
// input with a negative total, on several graph shapes — a vertex that only
// reaches a cycle, a self-loop, a Hamiltonian cycle, cycles planted in random
// dense and sparse graphs, parallel edges — from a solver's hint vertex and
// without one; none is reported where none exists; and the cost stays small at
// n = 2000 dense.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

#include "cpu/cpu_solvers.hpp"
#include "graph/negative_cycle.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

constexpr int32_t kInf = ValueTraits<int32_t>::inf;

// Every edge of `c` exists in `a`, no vertex repeats, the smallest id comes
// first, and the total (returned) is negative and equals c.length.
template <typename T>
double check_cycle(const DistMatrix<T>& a, const FoundCycle& c) {
  REQUIRE(c.found());
  INFO("cycle of " << c.vertices.size() << " vertices, length " << c.length);
  const std::set<int64_t> distinct(c.vertices.begin(), c.vertices.end());
  CHECK(distinct.size() == c.vertices.size());
  CHECK(c.vertices[0] == *distinct.begin());
  const std::optional<double> len = cycle_length(a, c.vertices);
  REQUIRE(len.has_value());
  CHECK(*len < 0);
  CHECK(*len == doctest::Approx(c.length));
  return *len;
}

DistMatrix<int32_t> empty_graph(int64_t n) {
  DistMatrix<int32_t> a(n, kInf);
  for (int64_t i = 0; i < n; ++i) a(i, i) = 0;
  return a;
}

// Random graph with edge probability p and weights in [lo, hi].
DistMatrix<int32_t> random_graph(int64_t n, double p, int lo, int hi, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> w(lo, hi);
  DistMatrix<int32_t> a = empty_graph(n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i != j && coin(rng) < p) a(i, j) = w(rng);
  return a;
}

// The hint a solver gives: the lowest i with d(i,i) < 0 (serial FW, or serial
// repeated squaring, whose walks go around a cycle more readily).
template <typename T>
int64_t solver_hint(DistMatrix<T> a, bool squaring = false) {
  try {
    if (squaring)
      squaring_serial(a, nullptr);
    else
      fw_serial(a, nullptr);
  } catch (const NegativeCycleError& e) {
    return e.vertex;
  }
  return -1;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_SUITE("negative_cycle") {
  TEST_CASE("a short cycle, rotated to its smallest vertex, with its length") {
    DistMatrix<int32_t> a = empty_graph(8);
    a(3, 7) = 2;
    a(7, 5) = -9;
    a(5, 3) = 3;  // 3 -> 7 -> 5 -> 3: -4
    a(0, 3) = 1;
    for (std::optional<int64_t> hint : {std::optional<int64_t>{}, std::optional<int64_t>{0},
                                        std::optional<int64_t>{5}, std::optional<int64_t>{99}}) {
      const FoundCycle c = find_negative_cycle(a, hint);
      check_cycle(a, c);
      CHECK(c.vertices == std::vector<int64_t>{3, 7, 5});
      CHECK(c.length == -4);
    }
  }

  TEST_CASE("a vertex that only reaches the cycle is not on what is reported") {
    // 0 -> {3 -> 4 -> 5 -> 3 (length -28)} -> 0: vertex 0 lies on a closed walk
    // of negative length (d(0,0) < 0 once a solver goes around the cycle) but not
    // on a negative cycle; 7 only reaches it; 0 -> 1 -> 2 -> 6 lead nowhere.
    DistMatrix<int32_t> a = empty_graph(8);
    a(0, 3) = 1;
    a(3, 4) = 1;
    a(4, 5) = 1;
    a(5, 3) = -30;
    a(5, 0) = 1;
    a(7, 0) = 1;
    a(0, 1) = 1;
    a(1, 2) = -1;
    a(2, 6) = 1;
    for (int64_t hint : {int64_t{0}, int64_t{7}, solver_hint(a), solver_hint(a, true)}) {
      INFO("hint " << hint);
      const FoundCycle c = find_negative_cycle(a, hint);
      CHECK(check_cycle(a, c) == -28);
      CHECK(c.vertices == std::vector<int64_t>{3, 4, 5});
    }
  }

  TEST_CASE("the solvers' lowest vertex with d(i,i) < 0 can be off the cycle") {
    // Found by a search over random 6-vertex graphs: serial FW names vertex 0,
    // whose only cycles (0 -> 2 -> 1 -> 0: 5, via 4: 10) are positive; the
    // negative one is 2 -> 4 -> 2.
    DistMatrix<int32_t> a = empty_graph(6);
    a(0, 2) = -6;
    a(1, 0) = 11;
    a(2, 1) = 0;
    a(2, 4) = -5;
    a(4, 1) = 10;
    a(4, 2) = -5;
    a(4, 3) = -1;
    a(4, 5) = -2;
    CHECK(solver_hint(a) == 0);
    FoundCycle c = find_negative_cycle(a, solver_hint(a));
    CHECK(check_cycle(a, c) == -10);
    CHECK(c.vertices == std::vector<int64_t>{2, 4});
    // Repeated squaring names vertex 0 here (0 -> 2 -> 0: 4); the cycle is
    // 1 -> 5 -> 4 -> 2 -> 3 -> 1 (-6).
    DistMatrix<int32_t> b = empty_graph(6);
    b(0, 2) = -1;
    b(1, 5) = -4;
    b(2, 0) = 5;
    b(2, 3) = -3;
    b(2, 5) = 11;
    b(3, 1) = 4;
    b(4, 2) = -6;
    b(5, 4) = 3;
    CHECK(solver_hint(b, true) == 0);
    c = find_negative_cycle(b, solver_hint(b, true));
    CHECK(check_cycle(b, c) == -6);
    CHECK(c.vertices == std::vector<int64_t>{1, 5, 4, 2, 3});
  }

  TEST_CASE("a negative self-loop is a cycle of one vertex") {
    DistMatrix<int32_t> a = empty_graph(4);
    a(0, 1) = 1;
    a(1, 2) = 1;
    a(2, 2) = -1;
    const FoundCycle c = find_negative_cycle(a, 0);
    CHECK(c.vertices == std::vector<int64_t>{2});
    CHECK(c.length == -1);
    Graph g;
    g.n = 4;
    g.edges = {{0, 1, 1}, {1, 2, 1}, {2, 2, -1}, {3, 3, 5}};
    const FoundCycle e = find_negative_cycle(g);
    CHECK(e.vertices == std::vector<int64_t>{2});
    CHECK(e.length == -1);
  }

  TEST_CASE("no negative cycle: negative edges, zero cycles, a hint that reaches nothing") {
    DistMatrix<int32_t> a = empty_graph(5);
    a(0, 1) = -5;
    a(1, 2) = 5;
    a(2, 0) = 0;  // 0 -> 1 -> 2 -> 0: length 0
    a(3, 4) = -7;
    CHECK_FALSE(find_negative_cycle(a).found());
    CHECK_FALSE(find_negative_cycle(a, 3).found());
    CHECK_FALSE(find_negative_cycle(DistMatrix<int32_t>{}).found());
    // A negative cycle the hint cannot reach is still found (virtual source).
    a(4, 3) = 6;  // 3 -> 4 -> 3: -1
    const FoundCycle c = find_negative_cycle(a, 0);
    CHECK(c.vertices == std::vector<int64_t>{3, 4});
  }

  TEST_CASE("Hamiltonian cycle through every vertex, int32 and float32") {
    for (int64_t n : {2, 5, 64, 300}) {
      INFO("n = " << n);
      DistMatrix<int32_t> a = empty_graph(n);
      DistMatrix<float> f(n, ValueTraits<float>::inf);
      for (int64_t i = 0; i < n; ++i) {
        f(i, i) = 0;
        a(i, (i + 1) % n) = i == 0 ? -static_cast<int32_t>(n) : 1;  // total -1
        f(i, (i + 1) % n) = static_cast<float>(a(i, (i + 1) % n));
      }
      for (std::optional<int64_t> hint :
           {std::optional<int64_t>{}, std::optional<int64_t>{n - 1}}) {
        const FoundCycle c = find_negative_cycle(a, hint);
        CHECK(check_cycle(a, c) == -1);
        CHECK(static_cast<int64_t>(c.vertices.size()) == n);
        const FoundCycle cf = find_negative_cycle(f, hint);
        CHECK(check_cycle(f, cf) == -1);
        CHECK(cf.vertices == c.vertices);
      }
    }
  }

  TEST_CASE("cycles planted in random graphs, from the solver's hint and without") {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const int64_t n = 20 + static_cast<int64_t>(seed * 13 % 90);
      const double p = seed % 3 == 0 ? 0.5 : 0.06;
      INFO("seed " << seed << ", n " << n << ", p " << p);
      DistMatrix<int32_t> a = random_graph(n, p, seed % 2 ? -3 : 1, 40, seed);
      // A negative cycle of 2..6 vertices somewhere (the random negative edges
      // of odd seeds may add more).
      std::mt19937_64 rng(seed * 977);
      std::vector<int64_t> cyc;
      const size_t len = 2 + seed % 5;
      while (cyc.size() < len) {
        const int64_t v = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
        if (std::find(cyc.begin(), cyc.end(), v) == cyc.end()) cyc.push_back(v);
      }
      for (size_t k = 0; k < cyc.size(); ++k) a(cyc[k], cyc[(k + 1) % cyc.size()]) = 1;
      a(cyc.back(), cyc[0]) = -static_cast<int32_t>(len) - 1;
      const int64_t hint = solver_hint(a);
      REQUIRE(hint >= 0);
      check_cycle(a, find_negative_cycle(a, hint));
      check_cycle(a, find_negative_cycle(a));
      // The same graph as an edge list, with a costlier parallel copy of each edge.
      Graph g;
      g.n = n;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (i != j && a(i, j) != kInf) {
            g.edges.push_back({i, j, static_cast<double>(a(i, j)) + 7});
            g.edges.push_back({i, j, static_cast<double>(a(i, j))});
          }
      const FoundCycle e = find_negative_cycle(g, hint);
      CHECK(check_cycle(a, e) == doctest::Approx(e.length));
    }
  }

  TEST_CASE("n = 2000 dense: found in well under a second or two") {
    // Release: ~0.05 s; the bound leaves room for sanitizer builds and a busy machine.
    const int64_t n = 2000;
    DistMatrix<int32_t> a = random_graph(n, 1.0, 1, 100, 7);
    a(1500, 900) = 1;
    a(900, 1999) = 1;
    a(1999, 1500) = -3;
    auto t0 = std::chrono::steady_clock::now();
    const FoundCycle c = find_negative_cycle(a, 0);
    const double dense = seconds_since(t0);
    CHECK(check_cycle(a, c) == -1);
    CHECK(c.vertices == std::vector<int64_t>{900, 1999, 1500});
    // The slow shape: a Hamiltonian cycle of weight -1 whose negative edge is far
    // from the start, every other pair an expensive edge.
    DistMatrix<int32_t> h = random_graph(n, 1.0, 5000, 9000, 8);
    for (int64_t i = 0; i < n; ++i) h(i, (i + 1) % n) = i == n - 1 ? -static_cast<int32_t>(n) : 1;
    t0 = std::chrono::steady_clock::now();
    const FoundCycle hc = find_negative_cycle(h, 0);
    const double ham = seconds_since(t0);
    CHECK(check_cycle(h, hc) == -1);
    MESSAGE("n = 2000 dense: planted 3-cycle " << dense << " s, Hamiltonian " << ham << " s");
    CHECK(dense < 5.0);
    CHECK(ham < 20.0);
  }

  TEST_CASE("NegativeCycleError: message with the cycle, the vertex, the length") {
    const NegativeCycleError e({3, 7, 5}, -4);
    CHECK(std::string(e.what()) ==
          "negative cycle detected: 3 -> 7 -> 5 -> 3 (length -4); no distances written");
    CHECK(e.vertex == 3);
    CHECK(e.cycle == std::vector<long long>{3, 7, 5});
    CHECK(e.length == -4);
    const NegativeCycleError one({2}, -0.5);
    CHECK(std::string(one.what()) ==
          "negative cycle detected: 2 -> 2 (length -0.5); no distances written");
    std::vector<long long> big;
    for (long long i = 0; i < 40; ++i) big.push_back(i);
    const NegativeCycleError b(big, -1);
    CHECK(std::string(b.what()) ==
          "negative cycle detected: 0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> 9 -> ... (28 "
          "more) -> 38 -> 39 -> 0 (40 vertices, length -1); no distances written");
    CHECK(b.cycle.size() == 40);
    // Lengths beyond long long print as reals (no undefined cast; found by fuzzing).
    CHECK(std::string(NegativeCycleError({1, 2}, -1e300).what()) ==
          "negative cycle detected: 1 -> 2 -> 1 (length -1e+300); no distances written");
    const NegativeCycleError v(5);
    CHECK(v.cycle.empty());
    CHECK(v.vertex == 5);
    CHECK(std::string(v.what()).find("vertex 5") != std::string::npos);
  }
}
