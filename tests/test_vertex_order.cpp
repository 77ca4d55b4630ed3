// Vertex ids with locality (graph/vertex_order.hpp) and the device engine on a
// renumbered graph (ORDER): hop distances, the order a permutation that brings a
// shuffled lattice's neighbours close, the renumbered CSR the same edges, and one
// engine's rows, float --stats (lanes: the graph as given again) and rows again
// the bytes of the serial engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "graph/vertex_order.hpp"
#include "sparse/sssp_plan.hpp"
#include "test_sssp_common.hpp"

using namespace ocl_sp;
using namespace ocl_sp_test::sssp;

namespace {

// A k x k lattice (both directions, weight 1 + (u + v) % 5) with its ids shuffled.
Csr<int32_t> shuffled_lattice(int64_t k, uint64_t seed) {
  std::vector<int64_t> id(static_cast<size_t>(k * k));
  std::iota(id.begin(), id.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(id.begin(), id.end(), rng);
  Graph g;
  g.n = k * k;
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < k; ++c) {
      const int64_t v = r * k + c;
      const auto add = [&](int64_t a, int64_t b) {
        g.edges.push_back({id[static_cast<size_t>(a)], id[static_cast<size_t>(b)], static_cast<double>(1 + (a + b) % 5)});
      };
      if (c + 1 < k) add(v, v + 1), add(v + 1, v);
      if (r + 1 < k) add(v, v + k), add(v + k, v);
    }
  return build_csr<int32_t>(g);
}

// The median |new_id[u] - new_id[v]| over the edges.
int64_t median_gap(const Csr<int32_t>& g, const std::vector<int32_t>& new_id) {
  std::vector<int64_t> gap;
  for (int64_t u = 0; u < g.n; ++u)
    for (int64_t e = g.off[static_cast<size_t>(u)]; e < g.off[static_cast<size_t>(u) + 1]; ++e)
      gap.push_back(std::abs(int64_t{new_id[static_cast<size_t>(u)]} - new_id[static_cast<size_t>(g.col[static_cast<size_t>(e)])]));
  std::nth_element(gap.begin(), gap.begin() + static_cast<std::ptrdiff_t>(gap.size() / 2), gap.end());
  return gap[gap.size() / 2];
}

}  // namespace

TEST_CASE("vertex order: hop distances over out-edges, on one thread and on many") {
  // 0 -> 1 -> 2 -> 3, 0 -> 2, 4 -> 0 (4 unreached from 0), 5 alone.
  Graph g;
  g.n = 6;
  g.edges = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {0, 2, 9}, {4, 0, 1}};
  const Csr<int32_t> c = build_csr<int32_t>(g);
  CHECK(hop_distances(c.off.data(), c.col.data(), c.n, 0) == std::vector<int32_t>{0, 1, 1, 2, -1, -1});
  CHECK(hop_distances(c.off.data(), c.col.data(), c.n, 4) == std::vector<int32_t>{1, 2, 2, 3, 0, -1});
  // A lattice wide enough for fronts of several threads: the same on 1 and 4.
  const Csr<int32_t> l = shuffled_lattice(300, 3);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = hop_distances(l.off.data(), l.col.data(), l.n, 17);
  omp_set_num_threads(4);
  const auto four = hop_distances(l.off.data(), l.col.data(), l.n, 17);
  omp_set_num_threads(threads);
  CHECK(one == four);
  CHECK(*std::max_element(one.begin(), one.end()) > 299);
}

TEST_CASE("vertex order: positions in order of key, ties in order of position (the radix sort)") {
  std::mt19937_64 rng(5);
  // Past one thread's share (65 536), digits of 11 bits, few distinct keys (ties).
  for (const auto& [n, bits] : std::vector<std::pair<size_t, int>>{{0, 8}, {1, 0}, {1000, 3}, {300000, 13}, {200000, 40}, {70000, 64}}) {
    CAPTURE(n);
    CAPTURE(bits);
    std::vector<uint64_t> keys(n);
    for (auto& k : keys) k = bits == 0 ? 0 : bits == 64 ? rng() : rng() & ((uint64_t{1} << bits) - 1);
    std::vector<int32_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [&](int32_t a, int32_t b) { return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)]; });
    CHECK(order_by_key(keys, bits) == want);
  }
}

TEST_CASE("vertex order: the sources from which the engine renumbers, by the graph's size") {
  CHECK(sssp_order_min_sources(100000) == 4096);
  CHECK(sssp_order_min_sources(300000) == 1524);  // 4096 x 3^-0.9, rounded up
  CHECK(sssp_order_min_sources(1000000) == 516);
  CHECK(sssp_order_min_sources(int64_t{1} << 24) == 512);
  CHECK(sssp_order_min_sources(6000) > 6000);  // small graphs: not for all their rows
  int64_t before = sssp_order_min_sources(1);
  for (int64_t n = 2; n < (int64_t{1} << 31); n = n * 3 / 2 + 1) {
    CHECK(sssp_order_min_sources(n) <= before);
    before = sssp_order_min_sources(n);
  }
}

TEST_CASE("vertex order: a permutation that brings a shuffled lattice's neighbours close; the renumbered CSR") {
  for (int64_t k : {1, 2, 7, 120}) {
    CAPTURE(k);
    const Csr<int32_t> g = shuffled_lattice(k, 11);
    const std::vector<int32_t> id = locality_order(g.off.data(), g.col.data(), g.n);
    std::vector<int32_t> sorted(id);
    std::sort(sorted.begin(), sorted.end());
    std::vector<int32_t> all(static_cast<size_t>(g.n));
    std::iota(all.begin(), all.end(), 0);
    REQUIRE(sorted == all);
    CHECK(locality_order(g.off.data(), g.col.data(), g.n) == id);  // deterministic
    if (k == 120) {
      // Shuffled: neighbours ~n/3 apart; renumbered: a few ids.
      std::vector<int32_t> same(all.begin(), all.end());
      CHECK(median_gap(g, same) > 2000);
      CHECK(median_gap(g, id) <= 16);
    }
    // The same edges, renumbered, rows sorted by target.
    const Csr<int32_t> r = renumber(g, id);
    REQUIRE(r.n == g.n);
    REQUIRE(r.m() == g.m());
    std::set<std::tuple<int32_t, int32_t, int32_t>> want, got;
    for (int64_t u = 0; u < g.n; ++u)
      for (int64_t e = g.off[static_cast<size_t>(u)]; e < g.off[static_cast<size_t>(u) + 1]; ++e)
        want.insert({id[static_cast<size_t>(u)], id[static_cast<size_t>(g.col[static_cast<size_t>(e)])], g.w[static_cast<size_t>(e)]});
    bool row_sorted = true;
    for (int64_t u = 0; u < r.n; ++u)
      for (int64_t e = r.off[static_cast<size_t>(u)]; e < r.off[static_cast<size_t>(u) + 1]; ++e) {
        got.insert({static_cast<int32_t>(u), r.col[static_cast<size_t>(e)], r.w[static_cast<size_t>(e)]});
        if (e > r.off[static_cast<size_t>(u)]) row_sorted = row_sorted && r.col[static_cast<size_t>(e) - 1] < r.col[static_cast<size_t>(e)];
      }
    CHECK(got == want);
    CHECK(row_sorted);
  }
  // Several parts: vertices no search reaches come last, in id order.
  Graph g;
  g.n = 5;
  g.edges = {{0, 1, 1}, {1, 0, 1}, {3, 4, 1}};
  const Csr<int32_t> c = build_csr<int32_t>(g);
  const std::vector<int32_t> id = locality_order(c.off.data(), c.col.data(), c.n);
  CHECK(id[2] < id[3]);
  CHECK(id[3] < id[4]);
  CHECK(std::max(id[0], id[1]) < id[2]);
}

TEST_CASE_TEMPLATE("sssp ORDER: one engine's rows (renumbered), float --stats in lanes, rows again: the serial bytes",
                   T, int32_t, float) {
  // A geometric graph deep enough for ORDER to renumber it on PoCL.
  GeneratorParams p;
  p.n = 3000;
  p.seed = 9;
  p.family = GraphFamily::geometric;
  const Csr<T> g = build_csr<T>(generate_graph(p));
  const std::vector<int64_t> src{2999, 0, 7, 1500, 7};
  CollectRows<T> want;
  make_sssp_solver<T>(cpu_spec(Backend::serial))->solve_rows(g, src, want, false);
  StatsSink<T> want_stats(g.n);
  {
    std::vector<std::string> notes;
    make_sssp_solver<T>(cpu_spec(Backend::serial))->solve_stats_rows(g, {}, want_stats, want_stats, notes);
  }
  for (int split : {1, 2}) {
    CAPTURE(split);
    SolverSpec s = spec(Algo::sssp, {{"ORDER", 2}});  // renumbered for five sources
    s.split = split;
    auto solver = make_sssp_solver<T>(s);
    CollectRows<T> first, again;
    const RunStats st = solver->solve_rows(g, src, first, false);
    CHECK(st.placement.find("vertex ids with locality") != std::string::npos);
    CHECK(first.got == want.got);
    StatsSink<T> stats(g.n);
    std::vector<std::string> notes;
    solver->solve_stats_rows(g, {}, stats, stats, notes);
    CHECK(stats.vertices().closeness == want_stats.vertices().closeness);
    CHECK(stats.vertices().harmonic == want_stats.vertices().harmonic);
    CHECK(stats.vertices().eccentricity == want_stats.vertices().eccentricity);
    solver->solve_rows(g, src, again, false);
    CHECK(again.got == want.got);
  }
}
