// Helpers of the betweenness suites (test_betweenness.cpp, test_betweenness_wide.cpp):
// graphs with many equal shortest paths and path counts past 2^53, the
// definition's values from Floyd-Warshall, the backends every result is
// compared on and the comparisons (the same bits, or close).
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "solvers/verify.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "cl/device.hpp"
#include "cl/program.hpp"
#include "test_opencl_common.hpp"
#include "test_sssp_common.hpp"
#include "util/errors.hpp"

namespace ocl_sp_bc_test {

using namespace ocl_sp;
using ocl_sp_test::sssp::cpu_spec;

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

inline std::vector<std::pair<std::string, SolverSpec>> backends() {
  std::vector<std::pair<std::string, SolverSpec>> out = {{"serial", cpu_spec(Backend::serial)},
                                                         {"openmp", cpu_spec(Backend::openmp)}};
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

inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
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
    // (several devices: each one's share, and every device takes some where
    // there are sources enough)
    if (s.backend == Backend::opencl) {
      CAPTURE(where);
      const int64_t count = sources.empty() ? g.n : static_cast<int64_t>(sources.size());
      std::smatch m;
      if (s.split > 1) {
        REQUIRE(std::regex_search(where, m, std::regex(" on 2 devices \\(([0-9]+) \\+ ([0-9]+)\\), ")));
        const int64_t a = std::stoll(m[1].str()), b = std::stoll(m[2].str());
        CHECK(a + b == count);
        if (count >= 2) CHECK((a > 0 && b > 0));
      } else {
        CHECK(where.find(" on the device, ") != std::string::npos);
      }
      CHECK((where.find(", 0 on the host") == std::string::npos) == wide);
    }
  }
  return first;
}

inline void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-12));
  }
}


// A layered DAG (L layers of W, each vertex fed by 3 to 6 random vertices of the
// layer before, weight 1) under a random numbering, with one root: path counts
// past 2^53 and rounded, summed over several in-edges whose Kahn
// order (by numbering and discovery) is not their in-edge order.
// feeds_min + [0, feeds_span) feeds a vertex.
inline Graph layered(int layers, int width, uint64_t seed, int feeds_min = 3, int feeds_span = 4) {
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

}  // namespace ocl_sp_bc_test
