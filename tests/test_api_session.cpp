// ocl_sp::Session and the API's in-memory inputs (include/ocl_sp/ocl_sp.hpp) as a
// user sees them: this file includes nothing else of ocl_sp. Every OpenCL result
// (PoCL) is compared bit for bit (int32) with the serial CPU reference; sizes that
// are not a multiple of the kernels' tile, n = 1, disconnected graphs, negative
// weights and a negative cycle; CSR and dense input, rows with their trees,
// stats, betweenness sums, reuse of the solvers, devices and cancellation.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "ocl_sp/ocl_sp.hpp"

namespace {

// A random directed graph: m distinct edges with weights in [lo, hi], no
// self-loops.
std::vector<ocl_sp::Edge> random_edges(int64_t n, int64_t m, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> v(0, n - 1);
  std::uniform_int_distribution<int> w(lo, hi);
  std::vector<ocl_sp::Edge> e;
  std::set<std::pair<int64_t, int64_t>> seen;
  while (static_cast<int64_t>(e.size()) < m) {
    const int64_t a = v(rng), b = v(rng);
    if (a != b && seen.insert({a, b}).second) e.push_back({a, b, static_cast<double>(w(rng))});
  }
  return e;
}

template <typename T>
ocl_sp::Matrix<T> dense(int64_t n, const std::vector<ocl_sp::Edge>& edges) {
  ocl_sp::Matrix<T> m;
  m.n = n;
  m.values.assign(static_cast<size_t>(n * n), ocl_sp::unreachable<T>());
  for (const auto& e : edges) {
    T& c = m.values[static_cast<size_t>(e.u * n + e.v)];
    c = std::min(c, static_cast<T>(e.w));
  }
  return m;
}

template <typename T>
ocl_sp::CsrGraph<T> csr(int64_t n, const std::vector<ocl_sp::Edge>& edges) {
  ocl_sp::CsrGraph<T> g;
  g.n = n;
  g.offsets.assign(static_cast<size_t>(n) + 1, 0);
  for (const auto& e : edges) ++g.offsets[static_cast<size_t>(e.u) + 1];
  for (int64_t u = 0; u < n; ++u) g.offsets[static_cast<size_t>(u) + 1] += g.offsets[static_cast<size_t>(u)];
  std::vector<int64_t> at(g.offsets.begin(), g.offsets.end() - 1);
  g.targets.resize(edges.size());
  g.weights.resize(edges.size());
  for (const auto& e : edges) {
    const int64_t k = at[static_cast<size_t>(e.u)]++;
    g.targets[static_cast<size_t>(k)] = static_cast<int32_t>(e.v);
    g.weights[static_cast<size_t>(k)] = static_cast<T>(e.w);
  }
  return g;
}

ocl_sp::Options on(const char* backend) {
  ocl_sp::Options o;
  o.backend = backend;
  if (std::string(backend) == "opencl") o.device = "pocl";
  return o;
}

// Graphs every case runs on: n = 1, a size that is no multiple of any tile (37),
// one past a multiple (65), disconnected (two halves and isolated vertices),
// negative weights without a negative cycle (a DAG's forward edges).
struct Case {
  const char* name;
  int64_t n;
  std::vector<ocl_sp::Edge> edges;
};
std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"n = 1", 1, {}});
  c.push_back({"n = 37", 37, random_edges(37, 150, 1, 20, 1)});
  c.push_back({"n = 65", 65, random_edges(65, 300, 0, 9, 2)});
  std::vector<ocl_sp::Edge> halves;
  for (const auto& e : random_edges(20, 60, 1, 5, 3)) halves.push_back(e);
  for (const auto& e : random_edges(20, 60, 1, 5, 4)) halves.push_back({e.u + 20, e.v + 20, e.w});
  c.push_back({"disconnected", 45, halves});  // 40..44 isolated
  std::vector<ocl_sp::Edge> dag;
  for (const auto& e : random_edges(50, 250, -9, 9, 5))
    dag.push_back({std::min(e.u, e.v), std::max(e.u, e.v), e.w});  // forward only: no cycle
  c.push_back({"negative weights", 50, dag});
  return c;
}

}  // namespace

TEST_SUITE("api") {
  TEST_CASE("api: Session::all_pairs of a Matrix equals the CPU reference bit for bit") {
    ocl_sp::Session reference(on("serial"));
    for (const char* backend : {"openmp", "opencl"}) {
      ocl_sp::Session s(on(backend));
      for (const Case& c : cases()) {
        CAPTURE(backend);
        CAPTURE(c.name);
        const auto want = reference.all_pairs<int32_t>(c.n, c.edges);
        const auto got = s.all_pairs<int32_t>(dense<int32_t>(c.n, c.edges));
        CHECK(got.n == c.n);
        CHECK(got.distances == want.distances);
        CHECK(got.backend == backend);
        const auto f = s.all_pairs<double>(dense<double>(c.n, c.edges));
        for (size_t k = 0; k < want.distances.size(); ++k)
          CHECK(f.distances[k] == (want.distances[k] == ocl_sp::kInt32Unreachable
                                       ? ocl_sp::unreachable<double>()
                                       : static_cast<double>(want.distances[k])));
      }
      // n = 1: a single zero; a negative self-loop on the diagonal is a negative cycle.
      const auto one = s.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{1, {ocl_sp::kInt32Unreachable}});
      CHECK(one.distances == std::vector<int32_t>{0});
      CHECK_THROWS_AS(s.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{2, {0, 1, 1, -1}}), ocl_sp::NegativeCycle);
    }
  }

  TEST_CASE("api: a Session keeps its solvers; details report them") {
    ocl_sp::Session s(on("opencl"));
    const auto edges = random_edges(37, 100, 1, 9, 7);
    const auto first = s.all_pairs<int32_t>(37, edges);
    const auto second = s.all_pairs<int32_t>(dense<int32_t>(37, edges));
    CHECK_FALSE(first.details.reused);
    CHECK(second.details.reused);
    CHECK(second.distances == first.distances);
    CHECK(second.timings.total == second.timings.solve);  // no set-up in a reused call
    CHECK(first.details.param_values.count("BLOCK") == 1);
    CHECK(first.details.kernel_launches > 0);
    CHECK_FALSE(first.details.vendor.empty());
    // The multi-source engine is a solver of its own, kept as well.
    std::vector<int32_t> rows;
    const auto r1 = s.rows<int32_t>(csr<int32_t>(37, edges), {3},
                                    ocl_sp::RowsSink<int32_t>([&](int64_t, int64_t count, const int32_t* d) {
                                      rows.assign(d, d + count * 37);
                                    }));
    CHECK_FALSE(r1.details.reused);
    CHECK(r1.algorithm == "sssp");
    CHECK(std::vector<int32_t>(first.distances.begin() + 3 * 37, first.distances.begin() + 4 * 37) == rows);
    const auto r2 = s.rows<int32_t>(csr<int32_t>(37, edges), {3},
                                    ocl_sp::RowsSink<int32_t>([](int64_t, int64_t, const int32_t*) {}));
    CHECK(r2.details.reused);
    // prepare(): the solver is built before the first solve.
    ocl_sp::Session early(on("opencl"));
    early.prepare<float>();
    CHECK(early.all_pairs<float>(dense<float>(37, edges)).details.reused);
  }

  TEST_CASE("api: Session::all_pairs with paths gives via and hops that describe the paths") {
    const auto edges = random_edges(37, 120, 1, 9, 17);
    const auto want = ocl_sp::all_pairs<int32_t>(37, edges, on("serial"));
    for (const char* backend : {"serial", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Session s(on(backend));
      const auto r = s.all_pairs<int32_t>(dense<int32_t>(37, edges), true);
      CHECK(r.distances == want.distances);
      REQUIRE(r.via.size() == 37 * 37);
      REQUIRE(r.hops.size() == 37 * 37);
      CHECK(r.details.paths);
      for (int64_t i = 0; i < 37; ++i)
        for (int64_t j = 0; j < 37; ++j) {
          const auto p = r.path(i, j);
          if (r(i, j) == ocl_sp::kInt32Unreachable) {
            CHECK(p.empty());
            continue;
          }
          CHECK(static_cast<int64_t>(p.size()) - 1 == r.hops[static_cast<size_t>(i * 37 + j)]);
          int64_t length = 0;  // the path's edges add up to the distance
          for (size_t k = 0; k + 1 < p.size(); ++k) {
            int64_t best = ocl_sp::kInt32Unreachable;
            for (const auto& e : edges)
              if (e.u == p[k] && e.v == p[k + 1]) best = std::min<int64_t>(best, static_cast<int64_t>(e.w));
            length += best;
          }
          CHECK(length == r(i, j));
        }
      // Without paths: neither matrix.
      const auto plain = s.all_pairs<int32_t>(dense<int32_t>(37, edges), false);
      CHECK(plain.via.empty());
      CHECK(plain.hops.empty());
      // Options::hops = false: the same via matrix, no hops (on the device's route
      // never read back), and path() still expands it.
      ocl_sp::Options o = on(backend);
      o.hops = false;
      ocl_sp::Session lean(o);
      const auto v = lean.all_pairs<int32_t>(dense<int32_t>(37, edges), true);
      CHECK(v.distances == want.distances);
      CHECK(v.via == r.via);
      CHECK(v.hops.empty());
      CHECK(v.path(0, 36) == r.path(0, 36));
    }
  }

  TEST_CASE("api: Session::rows of a CsrGraph, with and without trees, equal the reference") {
    ocl_sp::Session reference(on("serial"));
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      ocl_sp::Session s(on(backend));
      for (const Case& c : cases()) {
        CAPTURE(backend);
        CAPTURE(c.name);
        const auto want = reference.all_pairs<int32_t>(c.n, c.edges);
        const std::vector<int64_t> sources{c.n - 1, 0};
        std::vector<int32_t> got(static_cast<size_t>(2 * c.n), -7);
        std::vector<int32_t> parents(static_cast<size_t>(2 * c.n), -7);
        s.rows<int32_t>(csr<int32_t>(c.n, c.edges), sources,
                        ocl_sp::TreeRowsSink<int32_t>(
                            [&](int64_t first, int64_t count, const int32_t* d, const int32_t* p) {
                              std::copy(d, d + count * c.n, got.begin() + first * c.n);
                              std::copy(p, p + count * c.n, parents.begin() + first * c.n);
                            }));
        for (size_t r = 0; r < 2; ++r) {
          const int64_t src = sources[r];
          for (int64_t v = 0; v < c.n; ++v) {
            const int32_t d = got[r * c.n + v];
            CHECK(d == want(src, v));
            const int32_t p = parents[r * c.n + v];
            if (v == src || d == ocl_sp::kInt32Unreachable) {
              CHECK(p == -1);
            } else {
              // The parent's distance plus an edge parent -> v is v's distance.
              REQUIRE(p >= 0);
              bool tight = false;
              for (const auto& e : c.edges)
                if (e.u == p && e.v == v && got[r * c.n + p] + static_cast<int32_t>(e.w) == d) tight = true;
              CHECK(tight);
            }
          }
        }
      }
    }
  }

  TEST_CASE("api: Session::stats of a CsrGraph and of a Matrix equal the free stats()") {
    for (const char* backend : {"serial", "opencl"}) {
      ocl_sp::Session s(on(backend));
      for (const Case& c : cases()) {
        CAPTURE(backend);
        CAPTURE(c.name);
        const auto want = ocl_sp::stats<int32_t>(c.n, c.edges, on("serial"));
        const auto a = s.stats<int32_t>(csr<int32_t>(c.n, c.edges));
        const auto b = s.stats<int32_t>(dense<int32_t>(c.n, c.edges));
        for (const auto* got : {&a, &b}) {
          CHECK(got->reach == want.reach);
          CHECK(got->eccentricity == want.eccentricity);
          CHECK(got->closeness == want.closeness);
          CHECK(got->harmonic == want.harmonic);
          CHECK(got->diameter == want.diameter);
          CHECK(got->radius == want.radius);
          CHECK(got->reachable_pairs == want.reachable_pairs);
          CHECK(got->average_shortest_path_length == want.average_shortest_path_length);
        }
        CHECK(a.info.algorithm == "sssp");
        CHECK(b.info.algorithm == "fw");
        CHECK(a.vertex.empty());
        CHECK(a.sources == 0);
        // Chosen sources (repeats kept): their lines of the full figures.
        ocl_sp::StatsOptions some;
        some.sources = {c.n - 1, 0, c.n - 1};
        const auto p = s.stats<int32_t>(csr<int32_t>(c.n, c.edges), some);
        CHECK(p.vertex == some.sources);
        const auto q = ocl_sp::stats<int32_t>(c.n, c.edges, on(backend), some);  // the free function
        CHECK(q.vertex == p.vertex);
        CHECK(q.closeness == p.closeness);
        CHECK(q.sources == p.sources);
        CHECK(p.sources == (c.n == 1 ? 1 : 2));
        REQUIRE(p.reach.size() == 3);
        for (size_t k = 0; k < 3; ++k) {
          const auto v = static_cast<size_t>(some.sources[k]);
          CHECK(p.reach[k] == want.reach[v]);
          CHECK(p.eccentricity[k] == want.eccentricity[v]);
          CHECK(p.closeness[k] == want.closeness[v]);
          CHECK(p.harmonic[k] == want.harmonic[v]);
        }
      }
      ocl_sp::StatsOptions bc;
      bc.betweenness = true;
      CHECK_THROWS_AS(s.stats<int32_t>(dense<int32_t>(3, {{0, 1, 1}}), bc), ocl_sp::InvalidArgument);
      ocl_sp::StatsOptions bad;
      bad.sources = {3};
      CHECK_THROWS_AS(s.stats<int32_t>(csr<int32_t>(3, {{0, 1, 1}}), bad), ocl_sp::InvalidArgument);
      bad.sources = {0};
      CHECK_THROWS_AS(s.stats<int32_t>(dense<int32_t>(3, {{0, 1, 1}}), bad), ocl_sp::InvalidArgument);
    }
  }

  TEST_CASE("api: Session::betweenness sums are stats' betweenness before the rescale") {
    const auto edges = random_edges(40, 160, 1, 4, 11);
    ocl_sp::StatsOptions what;
    what.betweenness = true;
    const auto want = ocl_sp::stats<int32_t>(40, edges, on("serial"), what);
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Session s(on(backend));
      ocl_sp::BetweennessOptions o;
      o.edges = true;
      const auto b = s.betweenness<int32_t>(csr<int32_t>(40, edges), o);
      REQUIRE(b.vertex.size() == 40);
      CHECK(b.edge.size() == edges.size());
      const double scale = 1.0 / (39.0 * 38.0);  // networkx: directed, normalised
      for (size_t v = 0; v < 40; ++v) CHECK(b.vertex[v] * scale == doctest::Approx(want.betweenness[v]));
      // Sources: the sums over those only; 0 sources give zeros.
      ocl_sp::BetweennessOptions some;
      some.sources = {0, 5};
      const auto part = s.betweenness<int32_t>(csr<int32_t>(40, edges), some);
      for (size_t v = 0; v < 40; ++v) CHECK(part.vertex[v] <= b.vertex[v] + 1e-12);
    }
    ocl_sp::Session s(on("serial"));
    CHECK_THROWS_AS(s.betweenness<int32_t>(csr<int32_t>(3, {{0, 1, -1}})), ocl_sp::InvalidArgument);
  }

  TEST_CASE("api: a negative cycle in a Matrix or a CsrGraph is NegativeCycle") {
    const std::vector<ocl_sp::Edge> cyc{{0, 1, 2}, {1, 2, -5}, {2, 0, 1}, {2, 3, 1}};
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Session s(on(backend));
      CHECK_THROWS_AS(s.all_pairs<int32_t>(dense<int32_t>(4, cyc)), ocl_sp::NegativeCycle);
      CHECK_THROWS_AS(s.rows<int32_t>(csr<int32_t>(4, cyc), {},
                                      ocl_sp::RowsSink<int32_t>([](int64_t, int64_t, const int32_t*) {})),
                      ocl_sp::NegativeCycle);
      CHECK_THROWS_AS(s.stats<int32_t>(csr<int32_t>(4, cyc)), ocl_sp::NegativeCycle);
      // With the edge list the cycle itself is found.
      try {
        s.all_pairs<int32_t>(4, cyc);
        FAIL("no NegativeCycle");
      } catch (const ocl_sp::NegativeCycle& e) {
        CHECK(e.cycle == std::vector<long long>{0, 1, 2});
        CHECK(e.length == -2);
      }
    }
  }

  TEST_CASE("api: the structs grow at their ends (a positional initializer keeps its meaning)") {
    // docs/library.md: fields are added at the ends of Result, SolveInfo, Stats and
    // Options. Stats::vertex (a vector<int64_t> as reach) had been put first: this
    // initializer filled vertex, not reach; Result::hops before algorithm did not compile.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // the rest default, on purpose
    const ocl_sp::Stats st{{3, 1}, {2.0, 0.0}};
    CHECK(st.reach == std::vector<int64_t>{3, 1});
    CHECK(st.eccentricity == std::vector<double>{2.0, 0.0});
    CHECK(st.vertex.empty());
    const ocl_sp::Result<int32_t> r{1, {0}, {-1}, "fw", "serial"};
#pragma GCC diagnostic pop
    CHECK(r.algorithm == "fw");
    CHECK(r.backend == "serial");
    CHECK(r.hops.empty());
  }

  TEST_CASE("api: malformed in-memory graphs and options are InvalidArgument") {
    ocl_sp::Session s(on("serial"));
    const ocl_sp::RowsSink<int32_t> none = [](int64_t, int64_t, const int32_t*) {};
    auto g = csr<int32_t>(3, {{0, 1, 1}});
    auto bad_target = g;
    bad_target.targets[0] = 3;
    CHECK_THROWS_WITH_AS(s.rows<int32_t>(bad_target, {}, none), doctest::Contains("outside [0, 3)"),
                         ocl_sp::InvalidArgument);
    auto short_offsets = g;
    short_offsets.offsets.pop_back();
    CHECK_THROWS_AS(s.rows<int32_t>(short_offsets, {}, none), ocl_sp::InvalidArgument);
    auto odd_weights = g;
    odd_weights.weights.push_back(1);
    CHECK_THROWS_AS(s.rows<int32_t>(odd_weights, {}, none), ocl_sp::InvalidArgument);
    CHECK_THROWS_WITH_AS(s.rows<int32_t>(g, {3}, none), doctest::Contains("source 3"), ocl_sp::InvalidArgument);
    auto huge = csr<int32_t>(3, {{0, 1, 1 << 29}, {1, 2, 1 << 29}});
    CHECK_THROWS_WITH_AS(s.stats<int32_t>(huge), doctest::Contains("exact int32 range"),
                         ocl_sp::InvalidArgument);
    CHECK_NOTHROW(s.stats<int64_t>(csr<int64_t>(3, {{0, 1, 1 << 29}, {1, 2, 1 << 29}})));
    CHECK_THROWS_AS(s.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{3, {0, 1}}), ocl_sp::InvalidArgument);
    // A Matrix's values are checked as an edge list's weights: a value past the
    // exact range (here past INF too) or a NaN was solved, and came back as a
    // wrong distance (the edge unreachable; NaN in every distance it touched).
    const int32_t I = ocl_sp::unreachable<int32_t>();
    for (const char* backend : {"serial", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Session m(on(backend));
      CHECK_THROWS_WITH_AS(m.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{3, {0, 2000000000, I, I, 0, 1, I, I, 0}}),
                           doctest::Contains("(0, 1) is outside the exact int32 range"),
                           ocl_sp::InvalidArgument);
      CHECK_THROWS_WITH_AS(m.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{3, {0, (1 << 28) + 1, I, I, 0, 1 << 28, I, I, 0}}),
                           doctest::Contains("largest |weights| of the matrix add up to"),
                           ocl_sp::InvalidArgument);
      CHECK_THROWS_WITH_AS(m.all_pairs<int64_t>(ocl_sp::Matrix<int64_t>{2, {-(int64_t{1} << 61), 0, 0, 0}}),
                           doctest::Contains("(0, 0) is outside the exact int64 range"),
                           ocl_sp::InvalidArgument);
      const float F = ocl_sp::unreachable<float>();
      CHECK_THROWS_WITH_AS(m.all_pairs<float>(ocl_sp::Matrix<float>{3, {0, NAN, F, F, 0, 2, F, F, 0}}),
                           doctest::Contains("(0, 1) is not a weight"), ocl_sp::InvalidArgument);
      CHECK_THROWS_AS(m.all_pairs<double>(ocl_sp::Matrix<double>{2, {0, -HUGE_VAL, 1, 0}}),
                      ocl_sp::InvalidArgument);
      CHECK_THROWS_AS(m.stats<float>(ocl_sp::Matrix<float>{2, {NAN, 1, 1, 0}}), ocl_sp::InvalidArgument);
      // Within the bound: unreachable entries, a negative self-loop and weights
      // whose n - 1 largest add up to just below the limit are solved.
      const auto ok = m.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{3, {0, (1 << 28) - 1, I, I, 0, 1 << 28, I, I, 0}});
      CHECK(ok.distances[2] == (1 << 29) - 1);
      CHECK_THROWS_AS(m.all_pairs<int32_t>(ocl_sp::Matrix<int32_t>{2, {-1, 1, I, 0}}), ocl_sp::NegativeCycle);
    }
    ocl_sp::Options bad;
    bad.algo = "dijkstra";
    CHECK_THROWS_AS(ocl_sp::Session{bad}, ocl_sp::InvalidArgument);
    ocl_sp::Options per_graph;  // the command line's choice per graph is not a Session's
    per_graph.algo = "auto";
    CHECK_THROWS_WITH_AS(ocl_sp::Session{per_graph}, doctest::Contains("choose_algorithm"),
                         ocl_sp::InvalidArgument);
    ocl_sp::Options dev;
    dev.device = "no-such-device-anywhere";
    CHECK_THROWS_AS(ocl_sp::Session(dev).all_pairs<int32_t>(2, {}), ocl_sp::Error);
  }

  TEST_CASE("api: devices, float64 support, the automatic choice, stopping") {
    const auto list = ocl_sp::devices();
    bool pocl = false;
    for (const auto& d : list) pocl = pocl || d.vendor_key == "pocl";
    CHECK(pocl);
    CHECK(ocl_sp::devices_compute_in_float64("pocl"));
    ocl_sp::Options o = on("opencl");
    const auto dense_choice = ocl_sp::choose_algorithm(100, 9900, 100, o);
    CHECK(dense_choice.algo == "fw");
    const auto sparse_choice = ocl_sp::choose_algorithm(100000, 300000, 2, o);
    CHECK(sparse_choice.algo == "sssp");
    CHECK_FALSE(sparse_choice.why.empty());
    // A stop asked for before the solve: the multi-source engine (which looks
    // between batches) throws Cancelled, then the next solve runs.
    ocl_sp::Session s(on("openmp"));
    const auto edges = random_edges(300, 3000, 1, 9, 13);
    const ocl_sp::RowsSink<int32_t> none = [](int64_t, int64_t, const int32_t*) {};
    ocl_sp::request_stop();
    CHECK(ocl_sp::stop_requested());
    CHECK_THROWS_AS(s.rows<int32_t>(csr<int32_t>(300, edges), {}, none), ocl_sp::Cancelled);
    ocl_sp::clear_stop();
    CHECK_FALSE(ocl_sp::stop_requested());
    int64_t rows = 0;
    s.rows<int32_t>(csr<int32_t>(300, edges), {}, ocl_sp::RowsSink<int32_t>([&](int64_t, int64_t count, const int32_t*) {
                      rows += count;
                    }));
    CHECK(rows == 300);
  }
}
