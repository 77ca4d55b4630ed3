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
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

// Random graph in three parts (part 2 unreachable from the others), weights in
// [low, high] (small ranges: many equal shortest paths), symmetric if undirected.
template <typename T>
DistMatrix<T> tie_graph(int64_t n, uint64_t seed, bool directed, int low, int high,
                        double frac = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> w(low, high), part(0, 2);
  std::uniform_real_distribution<double> u01(0, 1);
  std::vector<int> comp(static_cast<size_t>(n));
  for (auto& c : comp) c = part(rng);
  DistMatrix<T> d(n);
  for (int64_t i = 0; i < n; ++i) d(i, i) = 0;
  const double p = std::min(1.0, 4.0 / static_cast<double>(n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = directed ? 0 : i + 1; j < n; ++j) {
      if (i == j || u01(rng) >= p) continue;
      const int ci = comp[static_cast<size_t>(i)], cj = comp[static_cast<size_t>(j)];
      if (!(ci == cj || (ci == 0 && cj == 1))) continue;
      const T v = static_cast<T>(w(rng) + frac * static_cast<double>(w(rng)));
      d(i, j) = v;
      if (!directed) d(j, i) = v;
    }
  return d;
}

// Betweenness by its definition (positive weights): sigma(s, t) counted over
// Floyd-Warshall distances in order of distance, then every pair's share.
template <typename T>
std::vector<double> reference(const DistMatrix<T>& adj, bool endpoints) {
  const int64_t n = adj.n();
  DistMatrix<T> dist = adj;
  solve_reference(dist, true);
  const T inf = ValueTraits<T>::inf;
  std::vector<double> sigma(static_cast<size_t>(n * n), 0.0);
  for (int64_t s = 0; s < n; ++s) {
    std::vector<int64_t> order;
    for (int64_t v = 0; v < n; ++v)
      if (dist(s, v) != inf) order.push_back(v);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return dist(s, a) < dist(s, b); });
    for (int64_t t : order) {
      double c = t == s ? 1.0 : 0.0;
      for (int64_t u = 0; u < n; ++u)
        if (u != t && dist(s, u) != inf && adj(u, t) != inf && dist(s, u) + adj(u, t) == dist(s, t))
          c += sigma[static_cast<size_t>(s * n + u)];
      sigma[static_cast<size_t>(s * n + t)] = c;
    }
  }
  std::vector<double> bc(static_cast<size_t>(n), 0.0);
  for (int64_t s = 0; s < n; ++s)
    for (int64_t t = 0; t < n; ++t) {
      if (s == t || dist(s, t) == inf) continue;
      if (endpoints) bc[static_cast<size_t>(s)] += 1, bc[static_cast<size_t>(t)] += 1;
      for (int64_t v = 0; v < n; ++v)
        if (v != s && v != t && dist(s, v) != inf && dist(v, t) != inf &&
            dist(s, v) + dist(v, t) == dist(s, t))
          bc[static_cast<size_t>(v)] += sigma[static_cast<size_t>(s * n + v)] *
                                        sigma[static_cast<size_t>(v * n + t)] /
                                        sigma[static_cast<size_t>(s * n + t)];
    }
  return bc;
}

SolverSpec cpu(Backend b) {
  SolverSpec s;
  s.algo = Algo::sssp;
  s.backend = b;
  return s;
}

std::vector<std::pair<std::string, SolverSpec>> backends() {
  std::vector<std::pair<std::string, SolverSpec>> out = {{"serial", cpu(Backend::serial)},
                                                         {"openmp", cpu(Backend::openmp)}};
  SolverSpec cl = spec(Algo::sssp, {{"BATCH", 16}});
  out.push_back({"pocl", cl});
  cl.split = 2;
  out.push_back({"pocl split 2", cl});
  SolverSpec lanes = spec(Algo::sssp, {{"LANES", 8}});
  out.push_back({"pocl lanes", lanes});
  // launches of 16 sources (2 groups of 8): Brandes' passes on the device over
  // several batches of rows in lanes, the last one short
  out.push_back({"pocl lanes, batches of 16", spec(Algo::sssp, {{"LANES", 8}, {"BATCH", 16}})});
  return out;
}

struct Result {
  std::vector<double> vertex, edge;
};

template <typename T>
Result run(const SolverSpec& s, const Csr<T>& g, const std::vector<int64_t>& sources,
           bool endpoints, int threads) {
  auto solver = make_sssp_solver<T>(s);
  BetweennessSink<T> sink(g, sources, endpoints, true, threads);
  solver->solve_rows(g, sources, sink, false);
  CHECK(sink.sources_done() == (sources.empty() ? g.n : static_cast<int64_t>(sources.size())));
  return {sink.vertex_sums(), sink.edge_sums()};
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The vertex sums through betweenness_rows (on an OpenCL backend: Brandes in
// kernels/betweenness.cl beside the rows); `where` says where the sources ran.
template <typename T>
std::vector<double> run_vertex(const SolverSpec& s, const Csr<T>& g, const std::vector<int64_t>& sources,
                               bool endpoints, std::string* where = nullptr) {
  auto solver = make_sssp_solver<T>(s);
  BetweennessSink<T> sink(g, sources, endpoints, false, 0);
  betweenness_rows(*solver, g, sink, where);
  CHECK(sink.sources_done() == (sources.empty() ? g.n : static_cast<int64_t>(sources.size())));
  return sink.vertex_sums();
}

// Every backend's vertex and edge sums of g, the same bits as the serial one's;
// the vertex sums through betweenness_rows too (on the device where OpenCL: every
// source there, or with `wide` some redone on the host: counts past the device's
// wide range).
template <typename T>
Result all_backends_agree(const Csr<T>& g, const std::vector<int64_t>& sources = {},
                          bool endpoints = false, bool wide = false) {
  Result first;
  bool have = false;
  for (auto& [name, s] : backends()) {
    CAPTURE(name);
    for (int threads : {1, 0}) {
      if (threads == 0 && s.backend == Backend::serial) continue;
      const Result r = run<T>(s, g, sources, endpoints, threads);
      if (!have) {
        first = r;
        have = true;
        continue;
      }
      CHECK(same_bits(r.vertex, first.vertex));
      CHECK(same_bits(r.edge, first.edge));
    }
    std::string where;
    CHECK(same_bits(run_vertex<T>(s, g, sources, endpoints, &where), first.vertex));
    // every source on the device (a source the kernel flags is redone on the host,
    // which would hide a wrong source or row behind the same bits)
    if (s.backend == Backend::opencl) {
      CHECK(where.find(" on the device, ") != std::string::npos);
      CHECK((where.find(" on the device, 0 on the host") == std::string::npos) == wide);
    }
  }
  return first;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-12));
  }
}

}  // namespace

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
    const Result one = run<int32_t>(cpu(Backend::serial), g, {s}, false, 1);
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
  auto solver = make_sssp_solver<int32_t>(cpu(Backend::serial));
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

// A layered DAG (L layers of W, each vertex fed by 3 to 6 random vertices of the
// layer before, weight 1) under a random numbering, with one root: path counts
// past 2^53 and rounded, summed over several in-edges whose Kahn
// order (by numbering and discovery) is not their in-edge order.
// feeds_min + [0, feeds_span) feeds a vertex.
Graph layered(int layers, int width, uint64_t seed, int feeds_min = 3, int feeds_span = 4) {
  std::mt19937_64 rng(seed);
  const int64_t n = 1 + static_cast<int64_t>(layers) * width;
  std::vector<int64_t> id(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) id[static_cast<size_t>(i)] = i;
  std::shuffle(id.begin(), id.end(), rng);
  Graph e;
  e.n = n;
  const auto at = [&](int l, int i) { return id[static_cast<size_t>(l == 0 ? 0 : 1 + (l - 1) * width + i)]; };
  for (int l = 1; l <= layers; ++l)
    for (int i = 0; i < width; ++i) {
      if (l == 1) {
        e.edges.push_back({at(0, 0), at(1, i), 1});
        continue;
      }
      const int feeds = feeds_min + static_cast<int>(rng() % static_cast<uint64_t>(feeds_span));
      std::vector<int> from(static_cast<size_t>(width));
      for (int j = 0; j < width; ++j) from[static_cast<size_t>(j)] = j;
      std::shuffle(from.begin(), from.end(), rng);
      for (int f = 0; f < feeds; ++f) e.edges.push_back({at(l - 1, from[static_cast<size_t>(f)]), at(l, i), 1});
    }
  return e;
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

namespace {

// A chain of k "diamonds" over undirected unit edges: hubs a_0 .. a_k, and between
// a_{i-1} and a_i the widths[i-1] middle vertices of diamond i, each joined to both
// hubs. The number of shortest paths a_0 -> a_k is the product of the widths (2^1100
// with 1100 diamonds of 2: past float64's range); vertices: a_0, then per diamond
// its middles and its right hub.
struct Chain {
  std::vector<int> widths;
  std::vector<int64_t> hub;    // hub[i]: a_i
  std::vector<int64_t> first;  // first[i]: diamond i's first middle (i >= 1)
  std::vector<double> upto;    // upto[i]: the middles and right hubs of diamonds 1..i
  int64_t n = 0;

  explicit Chain(std::vector<int> w) : widths(std::move(w)) {
    const size_t k = widths.size();
    hub.assign(k + 1, 0);
    first.assign(k + 1, 0);
    upto.assign(k + 1, 0.0);
    n = 1;
    for (size_t i = 1; i <= k; ++i) {
      upto[i] = upto[i - 1] + widths[i - 1] + 1;
      first[i] = n;
      n += widths[i - 1];
      hub[i] = n++;
    }
  }
  int64_t k() const { return static_cast<int64_t>(widths.size()); }
  int width(int64_t i) const { return widths[static_cast<size_t>(i - 1)]; }
  Graph graph() const {
    Graph e;
    e.n = n;
    for (int64_t i = 1; i <= k(); ++i)
      for (int64_t j = 0; j < width(i); ++j) {
        const int64_t m = first[static_cast<size_t>(i)] + j;
        for (int64_t h : {hub[static_cast<size_t>(i - 1)], hub[static_cast<size_t>(i)]}) {
          e.edges.push_back({h, m, 1});
          e.edges.push_back({m, h, 1});
        }
      }
    return e;
  }
  // Vertices beyond hub a_i on the right (diamonds i+1..k and their hubs), and up
  // to hub a_{i-1} on the left (a_0 and diamonds 1..i-1 with their hubs).
  double right(int64_t i) const { return upto.back() - upto[static_cast<size_t>(i)]; }
  double left(int64_t i) const { return 1 + upto[static_cast<size_t>(i - 1)]; }
  // Source a_j's dependencies: a middle of diamond i splits the pairs (a_j, t) for t
  // at or beyond the diamond's far hub evenly with the diamond's other middles; a hub
  // lies on every path beyond it.
  std::vector<double> from_hub(int64_t j) const {
    std::vector<double> d(static_cast<size_t>(n), 0.0);
    for (int64_t i = 1; i <= k(); ++i) {
      const double share = (i > j ? 1 + right(i) : left(i)) / width(i);
      for (int64_t m = 0; m < width(i); ++m)
        d[static_cast<size_t>(first[static_cast<size_t>(i)] + m)] = share;
      if (i < k() && i != j)
        d[static_cast<size_t>(hub[static_cast<size_t>(i)])] = i > j ? right(i) : left(i + 1) - 1;
    }
    return d;
  }
  // The sums over every source: the pairs across a middle of diamond i (both
  // directions) split evenly among its middles; a hub carries every pair across it,
  // and half of the pairs of middles of each diamond it closes (two paths: through
  // either hub).
  std::vector<double> all() const {
    std::vector<double> b(static_cast<size_t>(n), 0.0);
    for (int64_t i = 1; i <= k(); ++i) {
      const double across = 2 * left(i) * (1 + right(i)) / width(i);
      for (int64_t m = 0; m < width(i); ++m)
        b[static_cast<size_t>(first[static_cast<size_t>(i)] + m)] = across;
    }
    for (int64_t i = 0; i <= k(); ++i) {
      double x = 0;
      if (i > 0 && i < k()) x = 2 * (left(i + 1) - 1) * right(i);
      if (i > 0) x += width(i) * (width(i) - 1) / 2.0;
      if (i < k()) x += width(i + 1) * (width(i + 1) - 1) / 2.0;
      b[static_cast<size_t>(hub[static_cast<size_t>(i)])] = x;
    }
    return b;
  }
};

}  // namespace

TEST_CASE("betweenness: the diamond chain's closed forms are the definition's") {
  // The formulas the tests past float64's range check against, on a chain small
  // enough for the definition (widths 1 to 3; every count in float64).
  const Chain c({2, 3, 1, 2, 3, 2});
  const Graph e = c.graph();
  const auto adj = to_matrix<int32_t>(e);
  const Csr<int32_t> g = build_csr<int32_t>(e);
  check_close(reference(adj, false), c.all());
  check_close(run<int32_t>(cpu(Backend::serial), g, {}, false, 1).vertex, c.all());
  for (int64_t j : {int64_t{0}, int64_t{2}, c.k()}) {
    CAPTURE(j);
    check_close(
        run<int32_t>(cpu(Backend::serial), g, {c.hub[static_cast<size_t>(j)]}, false, 1).vertex,
        c.from_hub(j));
  }
}

TEST_CASE("betweenness: path counts past float64's range, exact in long double") {
  // 1100 diamonds of 2: 2^1100 shortest paths end to end (float64 ends near 2^1024);
  // every value a multiple of 1/2, so exact: the sums equal the closed form's bits.
  const Chain c(std::vector<int>(1100, 2));
  const Csr<int32_t> g = build_csr<int32_t>(c.graph());
  const Result all = run<int32_t>(cpu(Backend::openmp), g, {}, false, 0);
  CHECK(same_bits(all.vertex, c.all()));
  // sources at both ends (counts past float64) and in the middle (within), on
  // every backend: the same bits
  // (the device's wide pass: every source there)
  const std::vector<int64_t> some = {c.hub[0], c.hub[550], c.hub[1100], c.first[3], c.hub[80]};
  const Result r = all_backends_agree(g, some, false, false);
  std::vector<double> want(static_cast<size_t>(c.n), 0.0);
  for (int64_t j : {0, 550, 1100, 80}) {
    const auto d = c.from_hub(j);
    for (size_t i = 0; i < want.size(); ++i) want[i] += d[i];
  }
  const Result mid = run<int32_t>(cpu(Backend::serial), g, {c.first[3]}, false, 1);
  for (size_t i = 0; i < want.size(); ++i) want[i] += mid.vertex[i];
  CHECK(same_bits(r.vertex, want));
}

TEST_CASE("betweenness: counts past float64 with rounding (widths 3 and 2), every backend") {
  // 3^410 2^410 (about 2^1060) paths end to end: counts not powers of two, rounded
  // in the wide arithmetic; within 1e-12 of the closed form, edges and endpoints
  // as on the float64 path; every backend the same bits over sources from both
  // ends (wide: on the device its software extended arithmetic) to the middle
  // (float64).
  std::vector<int> widths;
  for (int i = 0; i < 820; ++i) widths.push_back(i % 2 ? 2 : 3);
  const Chain c(widths);
  const Csr<int32_t> g = build_csr<int32_t>(c.graph());
  std::vector<int64_t> some;
  for (int64_t v = 0; v < c.n; v += 97) some.push_back(v);
  some.push_back(c.n - 1);
  all_backends_agree(g, some, true, false);
  const Result r = run<int32_t>(cpu(Backend::openmp), g, {}, false, 0);
  check_close(r.vertex, c.all());
  // the shares leaving v add up to v's dependencies plus its own n - 1 pairs
  std::vector<double> out(static_cast<size_t>(g.n), 0.0);
  for (int64_t u = 0; u < g.n; ++u)
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k)
      out[static_cast<size_t>(u)] += r.edge[static_cast<size_t>(k)];
  for (int64_t v = 0; v < g.n; ++v)
    CHECK(out[static_cast<size_t>(v)] ==
          doctest::Approx(r.vertex[static_cast<size_t>(v)] + static_cast<double>(g.n - 1))
              .epsilon(1e-12));
  // endpoints: each vertex also counts its n - 1 pairs as a source and as a target
  const Result ends = run<int32_t>(cpu(Backend::openmp), g, {}, true, 0);
  for (int64_t v = 0; v < g.n; ++v)
    CHECK(ends.vertex[static_cast<size_t>(v)] ==
          doctest::Approx(r.vertex[static_cast<size_t>(v)] + 2.0 * static_cast<double>(g.n - 1))
              .epsilon(1e-12));
}

TEST_CASE("betweenness: counts past long double's range in the scaled form") {
  // 16400 diamonds of 2: 2^16400 paths end to end, past long double's 2^16384 too
  // (and past float64's where long double is float64); the sources at the ends
  // take the scaled form, the middle one long double (x86) or the scaled form. All
  // exact multiples of 1/2: the closed form's bits, threads or not.
  const Chain c(std::vector<int>(16400, 2));
  const Csr<int32_t> g = build_csr<int32_t>(c.graph());
  const std::vector<int64_t> some = {c.hub[0], c.hub[8200], c.hub[16400]};
  const Result one = run<int32_t>(cpu(Backend::serial), g, some, false, 1);
  const Result many = run<int32_t>(cpu(Backend::openmp), g, some, false, 0);
  std::vector<double> want(static_cast<size_t>(c.n), 0.0);
  for (int64_t j : {0, 8200, 16400}) {
    const auto d = c.from_hub(j);
    for (size_t i = 0; i < want.size(); ++i) want[i] += d[i];
  }
  CHECK(same_bits(one.vertex, want));
  CHECK(same_bits(many.vertex, want));
  CHECK(same_bits(many.edge, one.edge));
  // the device: the middle source in its wide pass (2^8200 paths), the ends past
  // its range (2^16000) redone on the host
  std::string where;
  CHECK(same_bits(run_vertex<int32_t>(spec(Algo::sssp, {{"BATCH", 16}}), g, some, false, &where), want));
  CHECK(where == "1 sources on the device, 2 on the host (counts past the device's wide range)");
}

TEST_CASE("betweenness: counts past float64 rounded in sums of unequal terms, the device's wide pass the host's bits") {
  // 500 layers of 8, each vertex fed by 3 to 6 of the layer before: path counts
  // up to about 4.5^500 (2^1085) from the first layers' sources, sums of terms
  // of different sizes rounded in the extended format (alignment, ties, carries),
  // coefficients divided and shares multiplied with rounding; the root, the first
  // layers and a spread of others, on every backend and placement the same bits,
  // every source on the device
  // (the float64 ones and, where float64 overflows, its wide pass).
  const Graph e = layered(500, 8, 11);
  const Csr<int32_t> g = build_csr<int32_t>(e);
  // the counts from the root (the vertex nothing feeds) pass float64's range
  const InEdges in = in_edges(g);
  int64_t root = -1;
  for (int64_t v = 0; v < g.n; ++v)
    if (in.off[static_cast<size_t>(v) + 1] == in.off[static_cast<size_t>(v)]) root = v;
  REQUIRE(root >= 0);
  std::vector<long double> count(static_cast<size_t>(g.n), 0);
  std::vector<int64_t> queue{root};
  std::vector<int> fed(static_cast<size_t>(g.n), 0);
  count[static_cast<size_t>(root)] = 1;
  long double most = 1;
  for (size_t h = 0; h < queue.size(); ++h) {
    const int64_t u = queue[h];
    most = std::max(most, count[static_cast<size_t>(u)]);
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k) {
      const size_t v = static_cast<size_t>(g.col[static_cast<size_t>(k)]);
      count[v] += count[static_cast<size_t>(u)];
      if (++fed[v] == in.off[v + 1] - in.off[v]) queue.push_back(static_cast<int64_t>(v));
    }
  }
  CHECK(most > static_cast<long double>(std::numeric_limits<double>::max()));
  // the root and the first layers (wide), and every 97th vertex (mostly float64)
  std::vector<int64_t> some(queue.begin(), queue.begin() + 60);
  for (int64_t v = 0; v < g.n; v += 97) some.push_back(v);
  const Result r = all_backends_agree(g, some, false, false);
  CHECK(*std::max_element(r.vertex.begin(), r.vertex.end()) > 0);
  const Result ends = all_backends_agree(g, some, true, false);
  CHECK(!same_bits(ends.vertex, r.vertex));
  // the other layout (exponents in the in-degree array, not the records' in-edge
  // masks; and the in-edge counters there too): the same bits
  const ocl_sp_test::EnvGuard layout("OCL_SP_EXTRA_BUILD_OPTIONS",
                                     std::string("-DWIDE_EXP_IN_MASK=0 -DBC_CNT=0"));
  const ocl_sp_test::EnvGuard indeg("OCL_SP_BC_INDEG", std::string("1"));
  for (bool endpoints : {false, true}) {
    std::string where;
    CHECK(same_bits(run_vertex<int32_t>(spec(Algo::sssp, {{"LANES", 8}, {"BATCH", 16}}), g, some, endpoints, &where),
                    endpoints ? ends.vertex : r.vertex));
    CHECK(where.find(" on the device, 0 on the host") != std::string::npos);
  }
}


namespace {

// A value of the kernel's wide_t (m 2^(e - 63), m's top bit set) as a long double.
long double wide_value(uint64_t m, int e) { return m == 0 ? 0.0L : std::ldexp(static_cast<long double>(m), e - 63); }

// x (positive, normal) as the kernel's (m, e).
std::pair<uint64_t, int> wide_parts(long double x) {
  if (x == 0) return {0, 0};
  int k = 0;
  const long double f = std::frexp(x, &k);  // [0.5, 1)
  return {static_cast<uint64_t>(std::ldexp(f, 64)), k - 1};
}

}  // namespace

TEST_CASE("betweenness: the kernel's wide arithmetic is x86's long double, bit for bit") {
  // kernels/betweenness.cl's software extended numbers (64-bit significands,
  // round to nearest even) against the host's x87 long double on operands that
  // reach every case of the rounding: equal and far exponents (the smaller one
  // beyond 64 and 128 bits), ties with and without bits below, carries out of the
  // significand, quotients above and below 1; and the conversion to float64.
  REQUIRE(std::numeric_limits<long double>::digits == 64);
  const DeviceEntry dev = select_device("pocl");
  const cl::Context ctx(dev.device);
  const std::string test = R"CL(
__kernel void wide_ops(__global const ulong* am, __global const int* ae, __global const ulong* bm,
                       __global const int* be, __global ulong* om, __global int* oe, __global double* od) {
  const int i = get_global_id(0);
  wide_t a, b;
  a.m = am[i]; a.e = ae[i]; b.m = bm[i]; b.e = be[i];
  const wide_t r[3] = {wide_add(a, b), wide_mul(a, b), wide_div(a, b)};
  for (int k = 0; k < 3; ++k) { om[3 * i + k] = r[k].m; oe[3 * i + k] = r[k].e; }
  od[i] = wide_double(a);
}
)CL";
  const std::string source = kernel_source("common.cl") + kernel_source("betweenness.cl") + test;
  cl::Program prog(ctx, source);
  try {
    prog.build({dev.device}, "-DVALUE_INT32 -DHAVE_FP64 -cl-std=CL1.2");
  } catch (...) {
    FAIL(prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev.device));
  }
  std::mt19937_64 rng(7);
  std::vector<uint64_t> am, bm;
  std::vector<int> ae, be;
  const uint64_t top = uint64_t{1} << 63;
  const auto mant = [&](int kind) -> uint64_t {
    switch (kind) {
      case 0: return top | rng();                        // any
      case 1: return top | (rng() & ~uint64_t{0xffff});  // low bits clear: exact sums, ties
      case 2: return ~uint64_t{0} - (rng() & 0xf);       // near 2^64: carries
      case 3: return top | (rng() & 0xf);                // near 2^63
      default: return top | (uint64_t{1} << (rng() % 63));
    }
  };
  for (int i = 0; i < 60000; ++i) {
    const int ea = static_cast<int>(rng() % 4000) - 2000;
    const int gaps[] = {0, 1, 2, 11, 12, 53, 63, 64, 65, 100, 127, 128, 129, 300};
    const int gap = i % 3 ? gaps[rng() % 14] : static_cast<int>(rng() % 140);
    const bool swap = rng() & 1;
    const uint64_t ma = mant(static_cast<int>(rng() % 5)), mb = mant(static_cast<int>(rng() % 5));
    am.push_back(swap ? mb : ma);
    ae.push_back(swap ? ea - gap : ea);
    bm.push_back(swap ? ma : mb);
    be.push_back(swap ? ea : ea - gap);
  }
  // zeros, ones, and float64's edges for the conversion
  for (const auto& [m, e] : std::vector<std::pair<uint64_t, int>>{
           {0, 0}, {top, 0}, {top, -1022}, {top, -1023}, {~uint64_t{0}, -1023}, {~uint64_t{0}, 1022},
           {top | 0x400, 0}, {top | 0xc00, 0}, {top | 0x401, 5}, {top | 0x3ff, 5}}) {
    am.push_back(m);
    ae.push_back(e);
    bm.push_back(top);
    be.push_back(0);
  }
  const size_t count = am.size();
  cl::CommandQueue q(ctx, dev.device);
  cl::Buffer bam(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * 8, am.data());
  cl::Buffer bae(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * 4, ae.data());
  cl::Buffer bbm(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * 8, bm.data());
  cl::Buffer bbe(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * 4, be.data());
  cl::Buffer bom(ctx, CL_MEM_WRITE_ONLY, count * 3 * 8), boe(ctx, CL_MEM_WRITE_ONLY, count * 3 * 4),
      bod(ctx, CL_MEM_WRITE_ONLY, count * 8);
  cl::Kernel k(prog, "wide_ops");
  int arg = 0;
  for (cl::Buffer* b : {&bam, &bae, &bbm, &bbe, &bom, &boe, &bod}) k.setArg(arg++, *b);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(count), cl::NullRange);
  std::vector<uint64_t> om(count * 3);
  std::vector<int> oe(count * 3);
  std::vector<double> od(count);
  q.enqueueReadBuffer(bom, CL_TRUE, 0, om.size() * 8, om.data());
  q.enqueueReadBuffer(boe, CL_TRUE, 0, oe.size() * 4, oe.data());
  q.enqueueReadBuffer(bod, CL_TRUE, 0, od.size() * 8, od.data());
  int bad = 0;
  for (size_t i = 0; i < count; ++i) {
    const long double a = wide_value(am[i], ae[i]), b = wide_value(bm[i], be[i]);
    const long double want[3] = {a + b, a * b, b != 0 ? a / b : 0.0L};
    for (int j = 0; j < 3 && bad < 10; ++j) {
      const auto [m, e] = wide_parts(want[j]);
      if (om[3 * i + j] != m || (m != 0 && oe[3 * i + j] != e)) {
        ++bad;
        CAPTURE(i);
        CAPTURE(j);
        CHECK(om[3 * i + j] == m);
        CHECK(oe[3 * i + j] == e);
      }
    }
    // float64 below its normal range: 0 (the fixed point's 2^-64 takes nothing there)
    const double d = a < 0x1p-1022L ? 0.0 : static_cast<double>(a);
    if (std::memcmp(&od[i], &d, 8) != 0 && bad < 10) {
      ++bad;
      CAPTURE(i);
      CHECK(od[i] == d);
    }
  }
  CHECK(bad == 0);
}
