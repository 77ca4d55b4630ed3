// Betweenness centrality from the engine's rows (host/sparse/betweenness.hpp):
// against the definition (sum over pairs s, t of sigma(s, v) sigma(v, t) /
// sigma(s, t) from Floyd-Warshall distances) on graphs with many equal shortest
// paths, directed and undirected, disconnected; every backend (serial, OpenMP,
// PoCL, PoCL split in two, lanes, lanes in several launches) the same bits for int32, int64, float and
// double weights; endpoints, edge sums, sampled sources; zero weights, zero-weight
// cycles and negative weights; networkx's scale factors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "solvers/verify.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "cl/device.hpp"
#include "cl/program.hpp"
#include "betweenness_common.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using namespace ocl_sp_bc_test;

TEST_CASE("betweenness: the definition's values on every backend, the same bits (int32)") {
  for (bool directed : {true, false}) {
    for (uint64_t seed : {1u, 2u}) {
      CAPTURE(directed);
      CAPTURE(seed);
      const auto adj = tie_graph<int32_t>(70, seed, directed, 1, 2);
      const Csr<int32_t> g = csr_from_matrix(adj);
      for (bool endpoints : {false, true}) {
        CAPTURE(endpoints);
        const Result r = all_backends_agree(g, {}, endpoints);
        const auto want = reference(adj, endpoints);
        check_close(r.vertex, want);
        double most = 0;
        for (double x : want) most = std::max(most, x);
        CHECK(most > 10);  // the graph has vertices on many shortest paths
      }
    }
  }
}

TEST_CASE("betweenness: edge sums add up to the vertex sums plus each pair once") {
  // Over every tight edge v -> w the shares c add to delta(v) at v: the sum over
  // the edges leaving v equals v's dependency, and summed over all edges each
  // reachable pair (s, t) counts once per edge of its average shortest path.
  const auto adj = tie_graph<int32_t>(40, 5, true, 1, 2);
  const Csr<int32_t> g = csr_from_matrix(adj);
  const Result r = all_backends_agree(g);
  std::vector<double> out(static_cast<size_t>(g.n), 0.0);
  for (int64_t u = 0; u < g.n; ++u)
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k) out[static_cast<size_t>(u)] += r.edge[static_cast<size_t>(k)];
  // delta(v) summed over sources: the vertex sum plus v's own dependencies as a
  // source (pairs (v, t): each reachable t counts once)
  DistMatrix<int32_t> dist = adj;
  solve_reference(dist, true);
  for (int64_t v = 0; v < g.n; ++v) {
    double reach = 0;
    for (int64_t t = 0; t < g.n; ++t) reach += (t != v && dist(v, t) != ValueTraits<int32_t>::inf);
    CHECK(out[static_cast<size_t>(v)] == doctest::Approx(r.vertex[static_cast<size_t>(v)] + reach).epsilon(1e-12));
  }
}

TEST_CASE("betweenness: int64, float and double weights the same bits on every backend") {
  const auto a32 = tie_graph<int32_t>(60, 7, true, 1, 3);
  const Result r32 = all_backends_agree(csr_from_matrix(a32));
  DistMatrix<int64_t> a64(60);
  DistMatrix<double> ad(60);
  for (int64_t i = 0; i < 60; ++i)
    for (int64_t j = 0; j < 60; ++j) {
      const bool e = a32(i, j) != ValueTraits<int32_t>::inf;
      a64(i, j) = e ? a32(i, j) : ValueTraits<int64_t>::inf;
      ad(i, j) = e ? a32(i, j) : ValueTraits<double>::inf;
    }
  CHECK(same_bits(all_backends_agree(csr_from_matrix(a64)).vertex, r32.vertex));
  CHECK(same_bits(all_backends_agree(csr_from_matrix(ad)).vertex, r32.vertex));
  // non-integral weights: ties only where sums meet exactly; still one result
  const auto af = tie_graph<float>(60, 8, false, 1, 3, 0.25);
  const auto ad2 = tie_graph<double>(60, 8, false, 1, 3, 0.1);
  all_backends_agree(csr_from_matrix(af));
  const Result rd = all_backends_agree(csr_from_matrix(ad2));
  double total = 0;
  for (double x : rd.vertex) total += x;
  CHECK(total > 0);
}

TEST_CASE("betweenness: sampled sources add only their own dependencies") {
  const auto adj = tie_graph<int32_t>(50, 9, false, 1, 2);
  const Csr<int32_t> g = csr_from_matrix(adj);
  const std::vector<int64_t> all_but = {3, 17, 42, 0, 9};
  const Result sampled = all_backends_agree(g, all_but);
  // the same sources one at a time, summed: the same values
  std::vector<double> sum(static_cast<size_t>(g.n), 0.0);
  for (int64_t s : all_but) {
    const Result one = run<int32_t>(cpu_spec(Backend::serial), g, {s}, false, 1);
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += one.vertex[i];
  }
  check_close(sampled.vertex, sum);
}

TEST_CASE("betweenness: zero weights count every shortest path; zero cycles and negative weights refuse") {
  // 0 -0-> 1 -1-> 2 and 0 -1-> 2: two shortest paths 0 -> 2, 1 on one of them;
  // 3 -0-> 0 puts 0 and 1 on the paths from 3 too.
  Graph e;
  e.n = 4;
  e.edges = {{0, 1, 0}, {1, 2, 1}, {0, 2, 1}, {3, 0, 0}};
  const Csr<int32_t> g = build_csr<int32_t>(e);
  const Result r = all_backends_agree(g);
  // pairs through 0: (3,1), (3,2) (both paths): 1 + 1; through 1: (0,2) 1/2, (3,2) 1/2
  CHECK(r.vertex == std::vector<double>{2.0, 1.0, 0.0, 0.0});
  Graph c = e;
  c.edges.push_back({1, 0, 0});  // 0 <-> 1 at zero cost: infinitely many shortest walks
  const Csr<int32_t> gc = build_csr<int32_t>(c);
  auto solver = make_sssp_solver<int32_t>(cpu_spec(Backend::serial));
  BetweennessSink<int32_t> sink(gc, {}, false, false, 1);
  CHECK_THROWS_AS(solver->solve_rows(gc, {}, sink, false), UsageError);
  Graph neg = e;
  neg.edges.push_back({2, 3, -1});
  const Csr<int32_t> gn = build_csr<int32_t>(neg);
  CHECK_THROWS_AS(BetweennessSink<int32_t>(gn, {}, false, false, 1), UsageError);
}

namespace {

// Brandes for one source over a row, as betweenness.hpp counts (tight edges,
// Kahn's order in CSR order from s), sigma summed pulled over the in-edges in
// the transposed CSR's order (the contract), or in the reverse of it, or pushed
// along Kahn's order (what the host did before); the dependencies into sums.
enum class Order { pull, reversed, push };
template <typename T>
void brandes_one(const Csr<T>& g, const InEdges& in, int64_t s, const std::vector<T>& d, Order how,
                 std::vector<Fixed>& sums) {
  const bool pull = how != Order::push;
  const int64_t n = g.n;
  const T inf = ValueTraits<T>::inf;
  const auto tight = [&](int64_t u, int64_t k) {
    const int64_t v = g.col[static_cast<size_t>(k)];
    return v != u && d[u] != inf && d[v] != inf && d[u] + g.w[static_cast<size_t>(k)] == d[v];
  };
  std::vector<int64_t> indeg(static_cast<size_t>(n), 0), order;
  for (int64_t u = 0; u < n; ++u)
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k)
      if (tight(u, k)) ++indeg[static_cast<size_t>(g.col[static_cast<size_t>(k)])];
  std::vector<double> sigma(static_cast<size_t>(n), 0.0);
  sigma[static_cast<size_t>(s)] = 1;
  order.push_back(s);
  for (size_t h = 0; h < order.size(); ++h) {
    const int64_t u = order[h];
    if (pull && h > 0) {
      double sum = 0;
      const int64_t a = in.off[static_cast<size_t>(u)], b = in.off[static_cast<size_t>(u) + 1];
      for (int64_t j = a; j < b; ++j) {
        const int64_t k = how == Order::reversed ? a + b - 1 - j : j;
        const int64_t p = in.src[static_cast<size_t>(k)];
        if (tight(p, in.edge[static_cast<size_t>(k)])) sum += sigma[static_cast<size_t>(p)];
      }
      sigma[static_cast<size_t>(u)] = sum;
    }
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k) {
      if (!tight(u, k)) continue;
      const int64_t v = g.col[static_cast<size_t>(k)];
      if (!pull) sigma[static_cast<size_t>(v)] += sigma[static_cast<size_t>(u)];
      if (--indeg[static_cast<size_t>(v)] == 0) order.push_back(v);
    }
  }
  std::vector<double> coeff(static_cast<size_t>(n), 0.0);
  for (size_t i = order.size(); i-- > 0;) {
    const int64_t v = order[i];
    double delta = 0;
    for (int64_t k = g.off[v]; k < g.off[v + 1]; ++k)
      if (tight(v, k)) delta += sigma[static_cast<size_t>(v)] * coeff[static_cast<size_t>(g.col[static_cast<size_t>(k)])];
    coeff[static_cast<size_t>(v)] = (1 + delta) / sigma[static_cast<size_t>(v)];
    if (v != s) sums[static_cast<size_t>(v)].add(Fixed::of(delta));
  }
}


}  // namespace

TEST_CASE("betweenness: counts past 2^53 summed in the in-edges' order on every backend (device too)") {
  // Float64 rounds path counts past 2^53, so the order of sigma's additions shows
  // in the bits: the pulled sums (the contract) and the pushed ones differ on
  // this graph, and every backend, the device's kernel included, gives the
  // pulled ones' bits (a dropped term or another order would not).
  const Graph e = layered(40, 8, 1);
  const Csr<int32_t> g = build_csr<int32_t>(e);
  const InEdges in = in_edges(g);
  DistMatrix<int32_t> dist = to_matrix<int32_t>(e);
  solve_reference(dist, true);
  const auto sums = [&](Order how) {
    std::vector<Fixed> f(static_cast<size_t>(g.n));
    for (int64_t s = 0; s < g.n; ++s)
      brandes_one(g, in, s, std::vector<int32_t>(dist.data() + s * g.n, dist.data() + (s + 1) * g.n), how, f);
    std::vector<double> out(f.size());
    for (size_t v = 0; v < out.size(); ++v) out[v] = f[v].value();
    return out;
  };
  const std::vector<double> want = sums(Order::pull);
  CHECK(*std::max_element(want.begin(), want.end()) > 0);
  CHECK(!same_bits(want, sums(Order::push)));  // the graph tells the orders apart
  CHECK(!same_bits(want, sums(Order::reversed)));
  const Result r = all_backends_agree(g);
  CHECK(same_bits(r.vertex, want));
}

TEST_CASE("betweenness: vertices on both sides of the kernel's 32-edge masks, counts past 2^53 (device too)") {
  // The kernel marks a vertex's tight edges among its first 32 in- and out-edges
  // in masks and tests the edges of a vertex with more again: layers of 36 vertices,
  // each fed by 30 to 35 of the layer before, give in- and out-degrees on both
  // sides of 32, with path counts past 2^53 summed in the in-edges' order.
  const Graph e = layered(12, 36, 3, 30, 6);
  const Csr<int32_t> g = build_csr<int32_t>(e);
  const InEdges in = in_edges(g);
  int64_t out_lo = 0, out_hi = 0, in_lo = 0, in_hi = 0;
  for (int64_t v = 0; v < g.n; ++v) {
    const int64_t od = g.off[v + 1] - g.off[v];
    const int64_t id = in.off[static_cast<size_t>(v) + 1] - in.off[static_cast<size_t>(v)];
    out_lo += od > 0 && od <= 32;
    out_hi += od > 32;
    in_lo += id > 1 && id <= 32;
    in_hi += id > 32;
  }
  CHECK(out_lo > 10);
  CHECK(out_hi > 10);
  CHECK(in_lo > 10);
  CHECK(in_hi > 10);
  DistMatrix<int32_t> dist = to_matrix<int32_t>(e);
  solve_reference(dist, true);
  const auto sums = [&](Order how) {
    std::vector<Fixed> f(static_cast<size_t>(g.n));
    for (int64_t s = 0; s < g.n; ++s)
      brandes_one(g, in, s, std::vector<int32_t>(dist.data() + s * g.n, dist.data() + (s + 1) * g.n), how, f);
    std::vector<double> out(f.size());
    for (size_t v = 0; v < out.size(); ++v) out[v] = f[v].value();
    return out;
  };
  const std::vector<double> want = sums(Order::pull);
  CHECK(!same_bits(want, sums(Order::reversed)));  // rounded counts: the order shows
  const Result r = all_backends_agree(g);
  CHECK(same_bits(r.vertex, want));
}

TEST_CASE("betweenness: the kernel's build options give the same bits (loads, counters, sources taken)") {
  // bc_sources' layout and scheduling options (kernels/betweenness.cl: BC_PRED,
  // BC_CNT, BC_DYN, on by default) change which loads are made, where Kahn's
  // counters live and which group takes which source, never a sum or its order:
  // the layered graph of the masks' test (counts past 2^53, degrees on both sides
  // of 32) the same bits with each off, in launches of 16 sources (the counter of
  // sources taken zeroed for each) and work-groups of 32 (levels of 36: a
  // work-item takes two vertices of a level).
  const Graph e = layered(12, 36, 3, 30, 6);
  const Csr<int32_t> g = build_csr<int32_t>(e);
  std::vector<int64_t> all(static_cast<size_t>(g.n));
  for (int64_t v = 0; v < g.n; ++v) all[static_cast<size_t>(v)] = v;
  const Result want = all_backends_agree(g, all, false, false);
  const ocl_sp_test::EnvGuard wg("OCL_SP_BC_WG", std::string("32"));
  const ocl_sp_test::EnvGuard indeg("OCL_SP_BC_INDEG", std::string("1"));  // BC_CNT=0 keeps counters there
  for (const char* options : {"-DBC_PRED=0 -DBC_CNT=0 -DBC_DYN=0", "-DBC_PRED=0", "-DBC_CNT=0", "-DBC_DYN=0"}) {
    CAPTURE(options);
    const ocl_sp_test::EnvGuard build("OCL_SP_EXTRA_BUILD_OPTIONS", std::string(options));
    std::string where;
    CHECK(same_bits(run_vertex<int32_t>(spec(Algo::sssp, {{"LANES", 8}, {"BATCH", 16}}), g, all, false, &where),
                    want.vertex));
    CHECK(where.find(" on the device, 0 on the host") != std::string::npos);
  }
}

TEST_CASE("betweenness: the device's scratch is released by the engine's next prepare") {
  // Brandes' scratch on the device is sized beside the rows' plan; a later solve
  // on the same engine plans the rows with the whole budget, so it must go.
  const Csr<int32_t> g = csr_from_matrix(tie_graph<int32_t>(60, 4, false, 1, 3));
  auto solver = make_sssp_solver<int32_t>(spec(Algo::sssp, {{"BATCH", 16}}));
  auto* dev = engine_capability<BetweennessEngine<int32_t>>(&solver->engine());
  REQUIRE(dev != nullptr);
  CHECK(dev->scratch_bytes() == 0);
  BetweennessSink<int32_t> sink(g, {}, false, false, 0);
  std::string where;
  betweenness_rows(*solver, g, sink, &where);
  CHECK(where.find("60 sources on the device") != std::string::npos);
  CHECK(dev->scratch_bytes() > 0);
  BetweennessSink<int32_t> rows(g, {0, 5}, false, false, 1);
  solver->solve_rows(g, {0, 5}, rows, false);
  CHECK(dev->scratch_bytes() == 0);
  // and it comes back for the next betweenness: the same bits
  BetweennessSink<int32_t> again(g, {}, false, false, 0);
  betweenness_rows(*solver, g, again, nullptr);
  CHECK(dev->scratch_bytes() > 0);
  CHECK(same_bits(again.vertex_sums(), sink.vertex_sums()));
}

TEST_CASE("betweenness: networkx's scale factors") {
  CHECK(betweenness_scale(10, true, true, 0, false) == 1.0 / (9.0 * 8.0));
  CHECK(betweenness_scale(10, true, false, 0, false) == 1.0 / (9.0 * 8.0));
  CHECK(betweenness_scale(10, true, false, 0, true) == 1.0 / (10.0 * 9.0));
  CHECK(betweenness_scale(10, false, false, 0, false) == 0.5);
  CHECK(betweenness_scale(10, false, true, 0, false) == 0.0);  // none
  CHECK(betweenness_scale(2, true, true, 0, false) == 0.0);
  CHECK(betweenness_scale(10, true, true, 4, false) == 1.0 / (9.0 * 8.0) * 10.0 / 4.0);
  CHECK(edge_betweenness_scale(10, true, true, 0) == 1.0 / (10.0 * 9.0));
  CHECK(edge_betweenness_scale(10, false, false, 5) == 0.5 * 10.0 / 5.0);
  CHECK(edge_betweenness_scale(1, true, false, 0) == 0.0);
}

TEST_CASE("betweenness: fixed-point sums do not depend on the order of additions") {
  std::vector<double> xs;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1000);
  for (int i = 0; i < 2000; ++i) xs.push_back(u(rng) * std::pow(10.0, -static_cast<int>(i % 9)));
  FixedSums a(1), b(1);
  for (double x : xs) a.add(0, x);
  for (auto it = xs.rbegin(); it != xs.rend(); ++it) b.add(0, *it);
  CHECK(a.value(0) == b.value(0));
  double plain = 0;
  for (double x : xs) plain += x;
  CHECK(a.value(0) == doctest::Approx(plain).epsilon(1e-14));
}
