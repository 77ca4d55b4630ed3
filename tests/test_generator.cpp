// Tests of the random graph generator: bit-exact determinism (a golden hash
// catches any change to the PRNG or the sampling), independence from the OpenMP
// thread count, density, weight ranges, validation, and --negative graphs that
// have negative edges but no negative cycle.
#include <doctest/doctest.h>
#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

#include "graph/graph.hpp"
#include "test_graph_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

// FNV-1a over (u, v, w) of every edge in order: any change in the PRNG, the
// seeding or the sampling order changes it.
uint64_t edge_hash(const Graph& g) {
  uint64_t h = 1469598103934665603ULL;
  const auto mix = [&h](int64_t x) {
    for (int k = 0; k < 8; ++k) {
      h ^= static_cast<uint64_t>(x >> (8 * k)) & 0xff;
      h *= 1099511628211ULL;
    }
  };
  mix(g.n);
  for (const Edge& e : g.edges) {
    mix(e.u);
    mix(e.v);
    mix(static_cast<int64_t>(e.w));
  }
  return h;
}

// Floyd-Warshall in int64 on the raw edge list: true when some d(i,i) < 0.
bool has_negative_cycle(const Graph& g) {
  const int64_t n = g.n;
  const int64_t inf = std::numeric_limits<int64_t>::max() / 4;
  std::vector<int64_t> d(static_cast<size_t>(n * n), inf);
  for (int64_t i = 0; i < n; ++i) d[static_cast<size_t>(i * n + i)] = 0;
  for (const Edge& e : g.edges) {
    int64_t& c = d[static_cast<size_t>(e.u * n + e.v)];
    c = std::min(c, static_cast<int64_t>(e.w));
  }
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t dik = d[static_cast<size_t>(i * n + k)];
      if (dik == inf) continue;
      for (int64_t j = 0; j < n; ++j) {
        const int64_t dkj = d[static_cast<size_t>(k * n + j)];
        if (dkj == inf) continue;
        int64_t& c = d[static_cast<size_t>(i * n + j)];
        c = std::min(c, dik + dkj);
      }
    }
  for (int64_t i = 0; i < n; ++i)
    if (d[static_cast<size_t>(i * n + i)] < 0) return true;
  return false;
}

}  // namespace

TEST_SUITE("generator") {
  TEST_CASE("default density rule") {
    CHECK(default_density(1) == 1.0);
    CHECK(default_density(20) == 1.0);
    CHECK(default_density(40) == 0.5);
    CHECK(default_density(100) == 0.2);
    CHECK(default_density(200) == 0.1);
    CHECK(default_density(20000) == 0.1);
  }

  TEST_CASE("same parameters give the same graph; the golden hash pins the PRNG") {
    const GeneratorParams p = params(60, 42, 0.2, 1, 100);
    const Graph a = generate_random(p), b = generate_random(p);
    CHECK(same_edges(a, b));
    CHECK(a.edges.size() == 658u);
    CHECK(edge_hash(a) == 9450177656728961824ULL);
    REQUIRE(a.edges.size() >= 3);
    // The same values, readable: a failing hash with these intact points at weights.
    CHECK(a.edges[0].u == 0);
    CHECK(a.edges[0].v == 5);
    CHECK(a.edges[0].w == 12);
    CHECK(a.edges[1].v == 11);
    CHECK(a.edges[1].w == 40);
    CHECK(a.edges[2].v == 25);
    CHECK(a.edges[2].w == 54);

    const Graph neg = generate_random(params(40, 7, 0.5, -10, 50, true));
    CHECK(neg.edges.size() == 781u);
    CHECK(edge_hash(neg) == 18396585505670602586ULL);

    const Graph other = generate_random(params(60, 43, 0.2, 1, 100));
    CHECK(!same_edges(a, other));
  }

  TEST_CASE("output does not depend on the OpenMP thread count") {
    const GeneratorParams p = params(300, 5, 0.05, -3, 1000);
    CHECK(same_on_any_thread_count([&] { return generate_random(p); }));
  }

  TEST_CASE("edges: sorted, distinct pairs, no self-loops, weights in range") {
    const Graph g = generate_random(params(200, 11, 0.3, -5, 17));
    CHECK(g.n == 200);
    std::set<std::pair<int64_t, int64_t>> seen;
    bool sorted = true, in_range = true, loops = false;
    std::set<int64_t> weights;
    for (size_t i = 0; i < g.edges.size(); ++i) {
      const Edge& e = g.edges[i];
      if (i && std::make_pair(g.edges[i - 1].u, g.edges[i - 1].v) >= std::make_pair(e.u, e.v))
        sorted = false;
      if (e.w < -5 || e.w > 17 || std::floor(e.w) != e.w) in_range = false;
      loops = loops || e.u == e.v;
      seen.insert({e.u, e.v});
      weights.insert(static_cast<int64_t>(e.w));
    }
    CHECK(sorted);
    CHECK(in_range);
    CHECK(!loops);
    CHECK(seen.size() == g.edges.size());
    CHECK(weights.size() == 23);  // every value of [-5, 17] appears among ~12000 edges
    CHECK(g.integer_weights());
  }

  TEST_CASE("density is respected") {
    // 300 * 299 pairs at p = 0.3: mean 26910, sd ~137; 4% is > 7 sd.
    const Graph g = generate_random(params(300, 3, 0.3, 1, 9));
    const double pairs = 300.0 * 299.0;
    CHECK(std::fabs(static_cast<double>(g.edges.size()) / pairs - 0.3) < 0.012);
    // density 0 means the default: complete for n <= 20, 10% for n >= 200.
    CHECK(generate_random(params(15, 1, 0.0, 1, 9)).edges.size() == 15 * 14);
    const Graph d = generate_random(params(1000, 1, 0.0, 1, 9));
    CHECK(std::fabs(static_cast<double>(d.edges.size()) / (1000.0 * 999.0) - 0.1) < 0.005);
    CHECK(generate_random(params(30, 2, 1.0, 1, 9)).edges.size() == 30 * 29);
    CHECK(generate_random(params(1, 2, 1.0, 1, 9)).edges.empty());
    const Graph sparse = generate_random(params(500, 2, 1e-3, 1, 9));
    CHECK(sparse.edges.size() > 150);
    CHECK(sparse.edges.size() < 350);
  }

  TEST_CASE("negative graphs: negative edges, never a negative cycle") {
    for (int64_t n : {50, 120, 200}) {
      for (uint64_t seed : {1ULL, 99ULL}) {
        const GeneratorParams p = params(n, seed, 0.2, 1, 100, true);
        CAPTURE(n);
        CAPTURE(seed);
        const Graph g = generate_random(p);
        CHECK(g.has_negative_weight());
        size_t negative = 0;
        for (const Edge& e : g.edges) negative += e.w < 0;
        const double frac = static_cast<double>(negative) / static_cast<double>(g.edges.size());
        CHECK(frac > 0.10);
        CHECK(frac < 0.25);
        CHECK(!has_negative_cycle(g));
        CHECK_NOTHROW(to_matrix<int32_t>(g));
        CHECK_NOTHROW(check_int32_range(g));
      }
    }
    // Dense with zero-weight base edges: the tightest case for the potentials.
    CHECK(!has_negative_cycle(generate_random(params(80, 4, 1.0, 0, 0, true))));
    CHECK(!has_negative_cycle(generate_random(params(80, 5, 0.5, -50, 3, true))));
  }

  TEST_CASE("invalid parameters are usage errors") {
    CHECK_THROWS_AS(generate_random(params(0, 1, 0.5, 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(-4, 1, 0.5, 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(kMaxGeneratedVertices + 1, 1, 0.5, 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, -0.1, 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, 1.5, 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, std::nan(""), 1, 9)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, 0.5, 9, 1)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, 0.5, 1, kMaxGeneratorWeight + 1)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, 0.5, -kMaxGeneratorWeight - 1, 1)), UsageError);
    CHECK_THROWS_AS(generate_random(params(10, 1, 0.5, -9, -1, true)), UsageError);
    CHECK_NOTHROW(validate(params(10, 1, 0.5, -9, -1)));  // negative cycles on request are fine
    CHECK_NOTHROW(validate(params(100000, 1, 0.5, 5, 5)));
  }

  TEST_CASE("a 2000-vertex default graph converts for an int32 solve") {
    const Graph g = generate_random(params(2000, 2000, 0.0, 1, 100));
    CHECK(g.edges.size() > 350000);
    CHECK_NOTHROW(check_int32_range(g));
    const DistMatrix<int32_t> m = to_matrix<int32_t>(g);
    CHECK(m.n() == 2000);
  }
}

TEST_SUITE("generator") {
  TEST_CASE("generate_matrix: the same matrix as to_matrix(generate_random), edges counted") {
    for (const auto& p : {params(1, 3, 0.5, 1, 9), params(97, 11, 0.3, -5, 40), params(150, 7, 0.1, 0, 9, true),
                          params(30, 2, 1.0, 1, 100)}) {
      INFO("n = " << p.n << ", seed " << p.seed);
      const Graph g = generate_random(p);
      long long edges = -1;
      CHECK(generate_matrix<int32_t>(p, &edges) == to_matrix<int32_t>(g));
      CHECK(edges == static_cast<long long>(g.edges.size()));
      CHECK(generate_matrix<float>(p, nullptr) == to_matrix<float>(g));
      double worst = 0;
      for (const Edge& e : g.edges) worst = std::max(worst, std::fabs(e.w));
      CHECK(worst <= static_cast<double>(generated_max_abs_weight(p)));
    }
  }
}

TEST_SUITE("matrix") {
  // Past 64 MiB the constructor (assign_touched) first touches the pages on
  // several threads, then stores the fill value: every value is the fill, to the
  // bit (a -0.0 fill is not the touched pages' +0.0), and a zero fill leaves the
  // zeros.
  TEST_CASE("large matrices: every value is the fill, on every type") {
    const auto all = [](const auto& m, auto want) {
      for (const auto x : m.values())
        if (std::memcmp(&x, &want, sizeof x) != 0) return false;
      return true;
    };
    const DistMatrix<int32_t> a(4200);
    CHECK(a.values().size() == size_t{4200} * 4200);
    CHECK(all(a, ValueTraits<int32_t>::inf));
    const DistMatrix<float> b(4150, -0.0f);
    CHECK(all(b, -0.0f));
    const DistMatrix<double> c(3000, 0.0);
    CHECK(all(c, 0.0));
    const DistMatrix<int64_t> d(2999, int64_t{-7});
    CHECK(d.values().size() == size_t{2999} * 2999);
    CHECK(all(d, int64_t{-7}));
    const DistMatrix<int32_t> small(100, 5);
    CHECK(all(small, 5));
  }
  // An MPI rank's local matrix is assigned in place (init_local): a vector that
  // held other values, smaller or already large enough, holds only the fill.
  TEST_CASE("assign_touched: a used vector refilled, larger and smaller") {
    std::vector<int32_t> v(1000, 3);
    const size_t big = (size_t{64} << 20) / sizeof(int32_t) + 5;
    assign_touched(v, big, int32_t{9});
    REQUIRE(v.size() == big);
    CHECK(std::all_of(v.begin(), v.end(), [](int32_t x) { return x == 9; }));
    v[17] = 4;
    assign_touched(v, big - 3, int32_t{-1});  // capacity already there: no new pages
    REQUIRE(v.size() == big - 3);
    CHECK(std::all_of(v.begin(), v.end(), [](int32_t x) { return x == -1; }));
    assign_touched(v, 10, int32_t{2});
    CHECK(v == std::vector<int32_t>(10, 2));
  }
  // The generator's matrix past 64 MiB: sized without a fill of its own
  // (to_be_written), every value then written by the rows' threads; the same
  // matrix as the edge list's, and as the earlier order (OCL_SP_MATRIX_FILL=assign).
  TEST_CASE("generate_matrix past 64 MiB: the edge list's matrix, in either fill order") {
    const DistMatrix<int32_t> z = DistMatrix<int32_t>::to_be_written(4100);
    CHECK(z.values().size() == size_t{4100} * 4100);
    const GeneratorParams p = params(4111, 3, 0.02, 1, 50);
    const DistMatrix<int32_t> want = to_matrix<int32_t>(generate_random(p));
    CHECK(generate_matrix<int32_t>(p, nullptr) == want);
    ::setenv("OCL_SP_MATRIX_FILL", "assign", 1);
    const DistMatrix<int32_t> old = generate_matrix<int32_t>(p, nullptr);
    const DistMatrix<int64_t> wide(4100, int64_t{-3});
    ::unsetenv("OCL_SP_MATRIX_FILL");
    CHECK(old == want);
    CHECK(std::all_of(wide.values().begin(), wide.values().end(), [](int64_t x) { return x == -3; }));
  }
}
