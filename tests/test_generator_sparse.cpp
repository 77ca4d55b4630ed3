// Tests of the sparse generator families (random with a degree, grid,
// geometric) and generate_graph: determinism, structure, the geometric nearest
// neighbours against brute force, --negative without negative cycles,
// validation, describe(), and the matrix paths. A skipped case times n = 10^6
// (run it with --no-skip).
#include <doctest/doctest.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "graph/graph.hpp"
#include "graph/negative_cycle.hpp"
#include "test_graph_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

GeneratorParams family_params(GraphFamily family, int64_t n, uint64_t seed, int64_t degree = 0,
                              int64_t wlo = 1, int64_t whi = 100, bool negative = false) {
  GeneratorParams p = params(n, seed, 0.0, wlo, whi, negative);
  p.family = family;
  p.degree = degree;
  return p;
}

// Sorted by (u, v), distinct, no self-loops, ids in range, integer weights.
void check_simple(const Graph& g) {
  bool sorted = true, loops = false, in_range = true;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    if (i && std::make_pair(g.edges[i - 1].u, g.edges[i - 1].v) >= std::make_pair(e.u, e.v))
      sorted = false;
    loops = loops || e.u == e.v;
    in_range = in_range && e.u >= 0 && e.v >= 0 && e.u < g.n && e.v < g.n;
  }
  CHECK(sorted);
  CHECK(!loops);
  CHECK(in_range);
  CHECK(g.integer_weights());
}

std::map<std::pair<int64_t, int64_t>, double> edge_map(const Graph& g) {
  std::map<std::pair<int64_t, int64_t>, double> m;
  for (const Edge& e : g.edges) m[{e.u, e.v}] = e.w;
  return m;
}

const GraphFamily kFamilies[] = {GraphFamily::random, GraphFamily::grid, GraphFamily::geometric};

// A degree each family accepts: random and geometric 5, grid none.
int64_t some_degree(GraphFamily f) { return f == GraphFamily::grid ? 0 : 5; }

}  // namespace

TEST_SUITE("generator") {
  TEST_CASE("sparse generator: family names and describe()") {
    CHECK(parse_family("random") == GraphFamily::random);
    CHECK(parse_family("grid") == GraphFamily::grid);
    CHECK(parse_family("geometric") == GraphFamily::geometric);
    for (GraphFamily f : kFamilies) CHECK(parse_family(to_string(f)) == f);
    try {
      parse_family("Grid");
      FAIL("no UsageError");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()) == "--generator must be random, grid or geometric (got 'Grid')");
    }

    // The plain random family: exactly the CLI's former text.
    GeneratorParams p = family_params(GraphFamily::random, 100, 7);
    p.density = 0.0;
    CHECK(describe(p) == "random (seed 7, density 0.2, weights 1:100)");
    p.density = 0.123456;
    p.negative = true;
    p.wlo = -5;
    char buf[160];
    std::snprintf(buf, sizeof buf, "random (seed %llu, density %.4g, weights %lld:%lld%s)", 7ULL,
                  0.123456, -5LL, 100LL, ", negative edges");
    CHECK(describe(p) == buf);
    CHECK(describe(family_params(GraphFamily::random, 100, 7, 20)) ==
          "random (seed 7, degree 20, weights 1:100)");
    CHECK(describe(family_params(GraphFamily::grid, 10000, 7)) ==
          "grid 100x100 (seed 7, weights 1:100)");
    CHECK(describe(family_params(GraphFamily::grid, 10050, 7, 0, 1, 100, true)) ==
          "grid 100x100 (seed 7, weights 1:100, negative edges)");
    CHECK(describe(family_params(GraphFamily::geometric, 1000, 3)) ==
          "geometric (seed 3, degree 6, weights 1:100)");
    CHECK(describe(family_params(GraphFamily::geometric, 1000, 3, 9, 0, 50)) ==
          "geometric (seed 3, degree 9, weights 0:50)");
  }

  TEST_CASE("sparse generator: deterministic, seed-dependent, thread-count independent") {
    for (GraphFamily f : kFamilies) {
      CAPTURE(to_string(f));
      const GeneratorParams p = family_params(f, 3000, 17, some_degree(f), -3, 1000);
      CHECK(same_on_any_thread_count([&] { return generate_graph(p); }));
      const Graph one = generate_graph(p);
      CHECK(same_edges(one, generate_graph(p)));
      GeneratorParams q = p;
      q.seed = 18;
      CHECK(!same_edges(one, generate_graph(q)));
      check_simple(one);
    }
    // The plain random family is generate_random itself.
    GeneratorParams plain = family_params(GraphFamily::random, 60, 42);
    plain.density = 0.2;
    CHECK(same_edges(generate_graph(plain), generate_random(plain)));
    CHECK_THROWS_AS(generate_random(family_params(GraphFamily::grid, 60, 42)), std::logic_error);
  }

  TEST_CASE("sparse generator: grid is the K x K 4-neighbour lattice, both directions") {
    CHECK(generated_vertices(family_params(GraphFamily::grid, 1, 1)) == 1);
    CHECK(generated_vertices(family_params(GraphFamily::grid, 2, 1)) == 1);
    CHECK(generated_vertices(family_params(GraphFamily::grid, 56, 1)) == 49);  // sqrt 7.48
    CHECK(generated_vertices(family_params(GraphFamily::grid, 57, 1)) == 64);  // sqrt 7.55
    CHECK(generated_vertices(family_params(GraphFamily::grid, kMaxGeneratedVertices, 1)) ==
          1448 * 1448);
    CHECK(generated_vertices(family_params(GraphFamily::random, 57, 1)) == 57);
    CHECK(generate_graph(family_params(GraphFamily::grid, 2, 1)).edges.empty());
    for (int64_t n : {4, 30, 400, 1000}) {
      const GeneratorParams p = family_params(GraphFamily::grid, n, 5, 0, 3, 9);
      const Graph g = generate_graph(p);
      const auto k = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
      CAPTURE(n);
      CHECK(g.n == k * k);
      CHECK(static_cast<int64_t>(g.edges.size()) == 4 * k * (k - 1));
      check_simple(g);
      const auto m = edge_map(g);
      bool lattice = true, both = true, weights = true;
      for (const Edge& e : g.edges) {
        const int64_t r1 = e.u / k, c1 = e.u % k, r2 = e.v / k, c2 = e.v % k;
        lattice = lattice && std::abs(r1 - r2) + std::abs(c1 - c2) == 1;
        both = both && m.count({e.v, e.u});
        weights = weights && e.w >= 3 && e.w <= 9;
      }
      CHECK(lattice);
      CHECK(both);
      CHECK(weights);
    }
    // Each direction draws its own weight.
    const Graph g = generate_graph(family_params(GraphFamily::grid, 400, 5, 0, 1, 1000000));
    const auto m = edge_map(g);
    size_t differ = 0;
    for (const Edge& e : g.edges) differ += m.at({e.v, e.u}) != e.w;
    CHECK(differ > g.edges.size() * 9 / 10);
  }

  TEST_CASE("sparse generator: random with a degree has about D out-edges per vertex") {
    for (int64_t d : {1, 4, 20}) {
      const Graph g = generate_graph(family_params(GraphFamily::random, 20000, 9, d, 1, 9));
      CAPTURE(d);
      const double mean = static_cast<double>(g.edges.size()) / 20000.0;
      CHECK(std::fabs(mean / static_cast<double>(d) - 1.0) < 0.03);
      check_simple(g);
      // Columns spread over the whole row, below and above the diagonal.
      size_t below = 0;
      for (const Edge& e : g.edges) below += e.v < e.u;
      CHECK(std::fabs(static_cast<double>(below) / static_cast<double>(g.edges.size()) - 0.5) <
            0.03);
    }
    // D = n - 1 is the complete graph; n = 2 with D = 1 both edges.
    CHECK(generate_graph(family_params(GraphFamily::random, 30, 2, 29)).edges.size() == 30 * 29);
    CHECK(generate_graph(family_params(GraphFamily::random, 2, 2, 1)).edges.size() == 2);
    // Every pair equally likely: each column of a small graph near D / (n - 1) n.
    const Graph g = generate_graph(family_params(GraphFamily::random, 50, 4, 10));
    std::vector<int> indeg(50, 0);
    for (const Edge& e : g.edges) ++indeg[static_cast<size_t>(e.v)];
    CHECK(*std::min_element(indeg.begin(), indeg.end()) >= 1);
    CHECK(*std::max_element(indeg.begin(), indeg.end()) <= 30);
  }

  TEST_CASE("sparse generator: geometric joins each point both ways to its nearest") {
    for (int64_t degree : {0, 3, 10}) {
      const GeneratorParams p = family_params(GraphFamily::geometric, 500, 21, degree, 2, 40);
      const int64_t k = degree ? degree : 6;
      CAPTURE(degree);
      const Graph g = generate_graph(p);
      check_simple(g);
      const auto m = edge_map(g);
      // Brute force on the exact coordinates (multiples of 2^-31).
      const auto pts = geometric_points(p);
      REQUIRE(pts.size() == 500u);
      std::vector<std::set<int64_t>> expect(500);
      for (int64_t i = 0; i < 500; ++i) {
        std::vector<std::pair<uint64_t, int64_t>> by_dist;
        for (int64_t j = 0; j < 500; ++j) {
          if (j == i) continue;
          const auto dx = static_cast<int64_t>(std::ldexp(pts[i][0] - pts[j][0], 31));
          const auto dy = static_cast<int64_t>(std::ldexp(pts[i][1] - pts[j][1], 31));
          by_dist.push_back({static_cast<uint64_t>(dx * dx + dy * dy), j});
        }
        std::sort(by_dist.begin(), by_dist.end());
        for (int64_t t = 0; t < k; ++t) {
          expect[static_cast<size_t>(i)].insert(by_dist[static_cast<size_t>(t)].second);
          expect[static_cast<size_t>(by_dist[static_cast<size_t>(t)].second)].insert(i);
        }
      }
      std::vector<std::set<int64_t>> got(500);
      bool symmetric = true, weights = true;
      double top = 0;
      for (const Edge& e : g.edges) {
        got[static_cast<size_t>(e.u)].insert(e.v);
        const auto back = m.find({e.v, e.u});
        symmetric = symmetric && back != m.end() && back->second == e.w;
        weights = weights && e.w >= 2 && e.w <= 40;
        top = std::max(top, e.w);
      }
      CHECK(got == expect);
      CHECK(symmetric);
      CHECK(weights);
      CHECK(top == 40);  // the longest edge weighs whi
      size_t fewest = g.edges.size();
      for (const auto& s : got) fewest = std::min(fewest, s.size());
      CHECK(fewest >= static_cast<size_t>(k));
    }
    // Weights grow with length: the shortest edges weigh less than the longest.
    const GeneratorParams p = family_params(GraphFamily::geometric, 2000, 8, 0, 1, 1000);
    const Graph g = generate_graph(p);
    std::set<double> distinct;
    for (const Edge& e : g.edges) distinct.insert(e.w);
    CHECK(*distinct.begin() >= 1);
    CHECK(distinct.size() > 300);
    // Tiny graphs: the default degree shrinks to n - 1.
    CHECK(generate_graph(family_params(GraphFamily::geometric, 1, 1)).edges.empty());
    CHECK(generate_graph(family_params(GraphFamily::geometric, 4, 1)).edges.size() == 12);
    CHECK(generate_graph(family_params(GraphFamily::geometric, 7, 1)).edges.size() == 42);
  }

  TEST_CASE("sparse generator: --negative gives negative edges and no negative cycle") {
    for (GraphFamily f : kFamilies) {
      for (uint64_t seed : {1ULL, 99ULL}) {
        CAPTURE(to_string(f));
        CAPTURE(seed);
        const GeneratorParams p = family_params(f, 2500, seed, some_degree(f), 1, 100, true);
        const Graph g = generate_graph(p);
        size_t negative = 0;
        double worst = 0;
        for (const Edge& e : g.edges) {
          negative += e.w < 0;
          worst = std::max(worst, std::fabs(e.w));
        }
        CHECK(negative > g.edges.size() / 20);
        CHECK(worst <= static_cast<double>(generated_max_abs_weight(p)));
        CHECK(!find_negative_cycle(g).found());
        // Zero base weights: the tightest case, every cycle of length exactly 0.
        CHECK(!find_negative_cycle(
                   generate_graph(family_params(f, 400, seed, some_degree(f), 0, 0, true)))
                   .found());
      }
    }
  }

  TEST_CASE("sparse generator: weights stay within generated_max_abs_weight") {
    for (GraphFamily f : kFamilies) {
      for (const auto& range :
           {std::make_pair(-7, 12), std::make_pair(5, 5), std::make_pair(0, 3)}) {
        const GeneratorParams p =
            family_params(f, 300, 2, some_degree(f), range.first, range.second);
        double lo = 1e18, hi = -1e18;
        for (const Edge& e : generate_graph(p).edges) {
          lo = std::min(lo, e.w);
          hi = std::max(hi, e.w);
        }
        CAPTURE(to_string(f));
        CHECK(lo >= range.first);
        CHECK(hi <= range.second);
        CHECK(std::max(std::fabs(lo), std::fabs(hi)) <=
              static_cast<double>(generated_max_abs_weight(p)));
      }
    }
  }

  TEST_CASE("sparse generator: generate_matrix and generate_rows match the edge list") {
    for (GraphFamily f : kFamilies) {
      CAPTURE(to_string(f));
      const GeneratorParams p = family_params(f, 90, 6, some_degree(f), -4, 30, true);
      const Graph g = generate_graph(p);
      long long edges = -1;
      const DistMatrix<int32_t> m = generate_matrix<int32_t>(p, &edges);
      CHECK(m == to_matrix<int32_t>(g));
      CHECK(edges == static_cast<long long>(g.edges.size()));
      CHECK(generate_matrix<float>(p, nullptr) == to_matrix<float>(g));
      const std::vector<int32_t> rows = generate_rows<int32_t>(p, 17, 40, &edges);
      const int64_t n = g.n;
      CHECK(std::equal(rows.begin(), rows.end(), m.data() + 17 * n));
      long long in_rows = 0;
      for (const Edge& e : g.edges) in_rows += e.u >= 17 && e.u < 40;
      CHECK(edges == in_rows);
      CHECK_THROWS_AS(generate_rows<int32_t>(p, 0, n + 1, nullptr), UsageError);
    }
  }

  TEST_CASE("dense model: generate_rows_cyclic_into keeps a process column's panels of the rows") {
    GeneratorParams p;
    p.n = 203;
    p.seed = 11;
    p.density = 0.3;
    p.negative = true;
    const std::vector<int64_t> all = generate_rows<int64_t>(p, 0, p.n, nullptr);
    for (const auto& [panel, cols] : {std::pair<int64_t, int>{32, 3}, {50, 2}, {64, 1}, {7, 4}}) {
      for (int col = 0; col < cols; ++col) {
        CAPTURE(panel);
        CAPTURE(cols);
        CAPTURE(col);
        const int64_t q = (p.n + panel - 1) / panel, mine = (q - col + cols - 1) / cols;
        const int64_t ld = mine * panel + 3, row0 = 40, row1 = 111;
        const int64_t inf = ValueTraits<int64_t>::inf;
        std::vector<int64_t> out(static_cast<size_t>((row1 - row0) * ld), inf);
        const long long kept = generate_rows_cyclic_into<int64_t>(p, row0, row1, panel, cols, col, out.data(), ld);
        long long want_kept = 0;
        for (int64_t i = row0; i < row1; ++i)
          for (int64_t J = col, k = 0; J < q; J += cols, ++k)
            for (int64_t c = 0; c < panel; ++c) {
              const int64_t j = J * panel + c;
              const int64_t got = out[static_cast<size_t>((i - row0) * ld + k * panel + c)];
              const int64_t want = j < p.n ? all[static_cast<size_t>(i * p.n + j)] : inf;
              CHECK(got == want);
              want_kept += j < p.n && j != i && want != inf;
            }
        CHECK(kept == want_kept);
        for (int64_t i = row0; i < row1; ++i)  // the row's padding past its panels untouched
          for (int64_t x = mine * panel; x < ld; ++x) CHECK(out[static_cast<size_t>((i - row0) * ld + x)] == inf);
      }
    }
    GeneratorParams g = p;
    g.family = GraphFamily::grid;
    g.density = 0;
    std::vector<int64_t> out(100);
    CHECK_THROWS_AS(generate_rows_cyclic_into<int64_t>(g, 0, 1, 10, 1, 0, out.data(), 10), std::logic_error);
  }

  TEST_CASE("sparse generator: invalid parameters are usage errors") {
    const auto message = [](const GeneratorParams& p) {
      try {
        validate(p);
      } catch (const UsageError& e) {
        return std::string(e.what());
      }
      return std::string("no error");
    };
    CHECK(message(family_params(GraphFamily::random, 10, 1, -1)) ==
          "--degree must be at least 1 (got -1)");
    CHECK(message(family_params(GraphFamily::grid, 100, 1, 4)) ==
          "--degree does not apply to --generator grid: grid has degree 4 (got --degree 4)");
    CHECK(message(family_params(GraphFamily::random, 10, 1, 10)) ==
          "--degree 10 needs more vertices: at most n - 1 = 9 neighbours per vertex with --n 10");
    CHECK(message(family_params(GraphFamily::geometric, 10, 1, 12)) ==
          "--degree 12 needs more vertices: at most n - 1 = 9 neighbours per vertex with --n 10");
    GeneratorParams both = family_params(GraphFamily::random, 100, 1, 5);
    both.density = 0.1;
    CHECK(message(both) == "--generator random takes --degree or --density, not both");
    CHECK_THROWS_AS(generate_graph(both), UsageError);
    CHECK_THROWS_AS(generate_graph(family_params(GraphFamily::grid, 0, 1)), UsageError);
    CHECK_THROWS_AS(
        generate_graph(family_params(GraphFamily::geometric, kMaxSparseGeneratedVertices + 1, 1)),
        UsageError);
    // The sparse families go to 2^24 vertices, the dense random model to 2^21.
    CHECK_NOTHROW(validate(family_params(GraphFamily::geometric, kMaxSparseGeneratedVertices, 1)));
    CHECK_NOTHROW(validate(family_params(GraphFamily::grid, kMaxSparseGeneratedVertices, 1)));
    CHECK_NOTHROW(validate(family_params(GraphFamily::random, kMaxSparseGeneratedVertices, 1, 4)));
    CHECK_THROWS_AS(validate(family_params(GraphFamily::grid, kMaxSparseGeneratedVertices + 1, 1)),
                    UsageError);
    CHECK_THROWS_AS(validate(family_params(GraphFamily::random, kMaxGeneratedVertices + 1, 1)),
                    UsageError);
    CHECK_THROWS_AS(generate_graph(family_params(GraphFamily::grid, 100, 1, 0, 1, -1, true)),
                    UsageError);
    // grid and geometric ignore --density.
    for (GraphFamily f : {GraphFamily::grid, GraphFamily::geometric}) {
      GeneratorParams p = family_params(f, 100, 1);
      p.density = 0.5;
      CHECK_NOTHROW(validate(p));
      GeneratorParams q = p;
      q.density = 0;
      CHECK(same_edges(generate_graph(p), generate_graph(q)));
    }
    CHECK_NOTHROW(validate(family_params(GraphFamily::geometric, 10, 1, 9)));
  }

  TEST_CASE("sparse generator: the edge bound holds and the memory plan covers the edges") {
    for (GraphFamily f : {GraphFamily::random, GraphFamily::grid, GraphFamily::geometric})
      for (int64_t n : {1, 2, 7, 50, 3000}) {
        for (int64_t degree : {0, 1, 3, 6}) {
          if (f == GraphFamily::grid && degree != 0) continue;
          if (degree > n - 1 || (f == GraphFamily::random && degree == 0 && n > 50)) continue;
          const GeneratorParams p = family_params(f, n, 9, degree);
          CAPTURE(describe(p));
          CAPTURE(n);
          const Graph g = generate_graph(p);
          const auto m = static_cast<int64_t>(g.edges.size());
          CHECK(m <= generated_edges_bound(p));
          if (f == GraphFamily::grid) CHECK(m == generated_edges_bound(p));
          if (f == GraphFamily::geometric && n > 6) CHECK(generated_edges_bound(p) <= 3 * m);
          CHECK(generated_graph_bytes(p, 4) >=
                static_cast<uint64_t>(m) * (sizeof(Edge) + 8) + static_cast<uint64_t>(g.n) * 8);
          CHECK(generated_graph_bytes(p, 8) >= generated_graph_bytes(p, 4));
        }
      }
    // 2^24 road-like vertices: a few GB, planned without generating.
    const GeneratorParams big = family_params(GraphFamily::geometric, kMaxSparseGeneratedVertices, 1);
    CHECK(generated_edges_bound(big) == 12 * kMaxSparseGeneratedVertices);
    CHECK(generated_graph_bytes(big, 4) > (uint64_t{4} << 30));
    CHECK(generated_graph_bytes(big, 4) < (uint64_t{12} << 30));
  }

  TEST_CASE("sparse generator: n = 10^6 timings" * doctest::skip()) {
    const auto time = [](const GeneratorParams& p) {
      const auto t0 = std::chrono::steady_clock::now();
      const Graph g = generate_graph(p);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      MESSAGE(describe(p) << ": n " << g.n << ", " << g.edges.size() << " edges, " << s << " s ("
                          << omp_get_max_threads() << " threads)");
    };
    time(family_params(GraphFamily::random, 1000000, 1, 4));
    time(family_params(GraphFamily::grid, 1000000, 1));
    time(family_params(GraphFamily::geometric, 1000000, 1, 6));
    time(family_params(GraphFamily::random, kMaxGeneratedVertices, 1, 4));
    time(family_params(GraphFamily::grid, kMaxGeneratedVertices, 1));
    time(family_params(GraphFamily::geometric, kMaxGeneratedVertices, 1, 6, 1, 100, true));
  }
}
