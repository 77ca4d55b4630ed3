// The multi-source engine (host/sparse/, kernels/sssp.cl): CSR construction, and
// sssp equal to Floyd-Warshall bit for bit (int32) on every backend — serial,
// OpenMP, PoCL, PoCL split in two — on n = 1, sizes around the work-group and the
// batch, disconnected graphs, zero and negative weights, duplicate edges and
// self-loops; float32 the same bits on every sssp backend and within 1e-5 of fw;
// negative cycles with the cycle named; paths; rows for chosen sources.
#include <doctest/doctest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <tuple>
#include <string>
#include <utility>

#include "graph/csr.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "graph/paths.hpp"
#include "solvers/verify.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/lane_order.hpp"
#include "sparse/sssp_plan.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;

namespace {

template <typename T>
DistMatrix<T> fw_reference(DistMatrix<T> d) {
  solve_reference(d, true);
  return d;
}

SolverSpec cpu_spec(Backend b) {
  SolverSpec s;
  s.algo = Algo::sssp;
  s.backend = b;
  return s;
}

// The backends sssp runs on in CI: serial, OpenMP, PoCL, PoCL split in two, and
// PoCL with 8 sources side by side a work-group (kernels/sssp.cl sssp_lanes), on
// one device and split in two.
std::vector<std::pair<std::string, SolverSpec>> sssp_specs(Tunables t = {}) {
  std::vector<std::pair<std::string, SolverSpec>> out = {{"serial", cpu_spec(Backend::serial)},
                                                         {"openmp", cpu_spec(Backend::openmp)}};
  SolverSpec cl = spec(Algo::sssp, t);
  out.push_back({"pocl", cl});
  cl.split = 2;
  out.push_back({"pocl split 2", cl});
  Tunables tl = t;
  tl.emplace("LANES", 8);
  SolverSpec lanes = spec(Algo::sssp, tl);
  out.push_back({"pocl lanes", lanes});
  lanes.split = 2;
  out.push_back({"pocl lanes split 2", lanes});
  return out;
}

// A k x k 4-neighbour lattice (high diameter), weights from a fixed pattern with zeros.
DistMatrix<int32_t> lattice(int64_t k) {
  DistMatrix<int32_t> d(k * k);
  for (int64_t i = 0; i < k * k; ++i) d(i, i) = 0;
  for (int64_t r = 0; r < k; ++r)
    for (int64_t c = 0; c < k; ++c) {
      const int64_t v = r * k + c;
      const auto w = [&](int64_t a, int64_t b) { return static_cast<int32_t>((a * 7 + b * 13) % 10); };
      if (c + 1 < k) d(v, v + 1) = w(v, 1), d(v + 1, v) = w(v, 2);
      if (r + 1 < k) d(v, v + k) = w(v, 3), d(v + k, v) = w(v, 4);
    }
  return d;
}

}  // namespace

TEST_CASE("csr: parallel edges keep the minimum, self-loops, sorted rows, transpose") {
  Graph g;
  g.n = 4;
  g.edges = {{0, 2, 5}, {0, 1, 3}, {0, 2, 4}, {1, 1, 7}, {3, 0, -2}, {2, 3, 1}, {0, 1, 9}};
  const Csr<int32_t> c = build_csr<int32_t>(g);
  CHECK(c.off == std::vector<int64_t>{0, 2, 2, 3, 4});
  CHECK(c.col == std::vector<int32_t>{1, 2, 3, 0});
  CHECK(c.w == std::vector<int32_t>{3, 4, 1, -2});
  CHECK(c.has_negative_weight());
  const Csr<int32_t> t = transpose(c);
  CHECK(t.off == std::vector<int64_t>{0, 1, 2, 3, 4});
  CHECK(t.col == std::vector<int32_t>{3, 0, 0, 2});
  // The same CSR from the dense matrix of the same graph.
  const Csr<int32_t> m = csr_from_matrix(to_matrix<int32_t>(g));
  CHECK(m.off == c.off);
  CHECK(m.col == c.col);
  CHECK(m.w == c.w);
  g.edges.push_back({2, 2, -1});
  CHECK_THROWS_AS(build_csr<int32_t>(g), NegativeCycleError);
  g.edges.back() = {2, 4, 1};
  CHECK_THROWS_AS(build_csr<int32_t>(g), UsageError);
  g.edges.back() = {2, 1, 0.5};
  CHECK_THROWS_AS(build_csr<int32_t>(g), UsageError);  // not an integer
  CHECK_NOTHROW(build_csr<float>(g));
}

TEST_CASE("csr: built on every core, the one-thread CSR; the first bad edge named") {
  // 300 000 edges in random order with parallel edges (float: -0 and +0 among
  // them) and self-loops: the same arrays on 1 and 4 threads and from the sorted
  // edge list; a bad edge late in the list and an earlier one: the earlier named.
  std::mt19937_64 rng(5);
  Graph g;
  g.n = 20000;
  for (int k = 0; k < 300000; ++k) {
    const int64_t u = static_cast<int64_t>(rng() % 20000), v = (u + static_cast<int64_t>(rng() % 12)) % 20000;
    const double w = (k % 7 == 0) ? (k % 2 ? -0.0 : 0.0) : static_cast<double>(rng() % 50);
    g.edges.push_back({u, k % 1000 == 0 ? u : v, w});
  }
  const int threads = omp_get_max_threads();
  const auto built = [&](const Graph& x, int t) {
    omp_set_num_threads(t);
    Csr<float> c = build_csr<float>(x);
    omp_set_num_threads(threads);
    return c;
  };
  const Csr<float> one = built(g, 1), four = built(g, 4);
  Graph sorted = g;
  std::sort(sorted.edges.begin(), sorted.edges.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.u, a.v) < std::tie(b.u, b.v);
  });
  const Csr<float> from_sorted = built(sorted, 4);
  CHECK(one.off == four.off);
  CHECK(one.col == four.col);
  CHECK(one.off == from_sorted.off);
  CHECK(one.col == from_sorted.col);
  const auto bits = [](const std::vector<float>& w) {
    std::vector<uint32_t> b(w.size());
    std::memcpy(b.data(), w.data(), w.size() * 4);
    return b;
  };
  CHECK(bits(one.w) == bits(four.w));
  CHECK(bits(one.w) == bits(from_sorted.w));
  bool increasing = true;
  for (int64_t u = 0; u < one.n; ++u)
    for (int64_t k = one.off[u] + 1; k < one.off[u + 1]; ++k) increasing &= one.col[k - 1] < one.col[k];
  CHECK(increasing);
  CHECK(one.m() < 200000);  // parallel edges merged
  Graph bad = g;
  bad.edges[250000] = {3, 20000, 1};
  bad.edges[120000] = {4, 5, 1.5};
  const auto message = [&](int t) {
    omp_set_num_threads(t);
    std::string msg;
    try {
      build_csr<int32_t>(bad);
    } catch (const UsageError& e) {
      msg = e.what();
    }
    omp_set_num_threads(threads);
    return msg;
  };
  CHECK(message(4).find("not an integer") != std::string::npos);
  CHECK(message(4) == message(1));
}

TEST_CASE("sssp equals fw bit-exactly (int32) on every backend") {
  std::vector<DistMatrix<int32_t>> graphs;
  for (int64_t n : {1, 2, 7, 63, 64, 65, 130, 257}) graphs.push_back(ocl_sp_test::random_graph<int32_t>(n, 11 + n));
  graphs.push_back(ocl_sp_test::random_graph<int32_t>(200, 5, false, 40.0));  // denser
  graphs.push_back(lattice(17));                                              // diameter ~32
  {
    DistMatrix<int32_t> empty(50);  // no edges at all
    for (int64_t i = 0; i < 50; ++i) empty(i, i) = 0;
    graphs.push_back(empty);
  }
  for (auto& [name, s] : sssp_specs()) {
    auto solver = make_solver<int32_t>(s);
    for (const auto& g : graphs) {
      CAPTURE(name);
      CAPTURE(g.n());
      DistMatrix<int32_t> d = g;
      const RunStats st = solver->solve(d, nullptr);
      CHECK(d == fw_reference(g));
      CHECK(st.relaxations >= 0);
    }
  }
}

TEST_CASE("sssp: tunables and batches smaller than the sources on PoCL") {
  const auto g = ocl_sp_test::random_graph<int32_t>(150, 3);
  const auto want = fw_reference(g);
  for (Tunables t : {Tunables{{"WG", 32}, {"BATCH", 64}}, Tunables{{"DELTA", 25}, {"VW", 1}},
                     Tunables{{"DELTA", 1600}, {"WG", 128}, {"VW", 32}},
                     Tunables{{"VW", 8}, {"WG", 64}}, Tunables{{"VW", 32}, {"WG", 32}}}) {
    CAPTURE(to_string(t));
    auto solver = make_solver<int32_t>(spec(Algo::sssp, t));
    DistMatrix<int32_t> d = g;
    solver->solve(d, nullptr);
    CHECK(d == want);
  }
  CHECK_THROWS_AS(make_solver<int32_t>(spec(Algo::sssp, {{"WG", 48}})), UsageError);
  CHECK_THROWS_AS(make_solver<int32_t>(spec(Algo::sssp, {{"TM", 4}})), UsageError);
}

TEST_CASE("sssp lanes: sources side by side equal fw for every lane count, group size and buffer seam") {
  // 4, 16 and 32 lanes, groups of 32-128 work-items, batches that leave the last
  // group part empty, and the distances spread over up to four buffers (at most 1
  // or 2 groups a buffer): every row equals fw's on a random graph and a lattice.
  // A round's queued heads in the default __local set, in global tags
  // (OCL_SP_LANE_SET=0) and in a set of 8 ids (full: heads queued twice a round).
  const std::vector<DistMatrix<int32_t>> graphs = {ocl_sp_test::random_graph<int32_t>(150, 3), lattice(12)};
  const std::pair<const char*, const char*> settings[] = {{"", ""}, {"1", ""}, {"2", ""}, {"", "0"}, {"", "3"}};
  for (const auto& [per_buffer, lane_set] : settings) {
    setenv("OCL_SP_LANE_GROUPS_PER_BUFFER", per_buffer, 1);
    setenv("OCL_SP_LANE_SET", lane_set, 1);
    for (Tunables t : {Tunables{{"LANES", 4}, {"LANE_WG", 32}, {"BATCH", 64}},
                       Tunables{{"LANES", 16}, {"LANE_WG", 64}, {"DELTA", 25}},
                       Tunables{{"LANES", 32}, {"LANE_WG", 128}, {"BATCH", 128}, {"DELTA", 1600}}}) {
      CAPTURE(per_buffer);
      CAPTURE(lane_set);
      CAPTURE(to_string(t));
      auto solver = make_solver<int32_t>(spec(Algo::sssp, t));
      for (const auto& g : graphs) {
        DistMatrix<int32_t> d = g;
        solver->solve(d, nullptr);
        CHECK(d == fw_reference(g));
      }
    }
  }
  unsetenv("OCL_SP_LANE_GROUPS_PER_BUFFER");
  unsetenv("OCL_SP_LANE_SET");
  CHECK_THROWS_AS(make_solver<int32_t>(spec(Algo::sssp, {{"LANES", 3}})), UsageError);
  CHECK_THROWS_AS(make_solver<int32_t>(spec(Algo::sssp, {{"LANE_WG", 48}})), UsageError);
}

// Rows of chosen sources in their order, through the solver's row stream.
template <typename T>
struct CollectRows : RowSink<T> {
  std::vector<T> got;  // row r of the request at r x n
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*, const int32_t*) override {
    if (got.size() < static_cast<size_t>((first + count) * n)) got.resize(static_cast<size_t>((first + count) * n));
    std::copy(d, d + count * n, got.begin() + first * n);
  }
};

template <typename T>
std::pair<std::vector<T>, std::string> rows_of(const SolverSpec& s, const Csr<T>& c, const std::vector<int64_t>& src,
                                               RunStats* stats = nullptr) {
  CollectRows<T> sink;
  const RunStats st = make_sssp_solver<T>(s)->solve_rows(c, src, sink, false);
  if (stats) *stats = st;
  return {sink.got, st.placement};
}

TEST_CASE("sssp rows in lanes: transposed on the device, equal to fw and the serial engine at every seam") {
  // Lattices of 169 (not a multiple of 8 or 16) and 144 vertices, a lattice with a
  // negative edge (Johnson); all sources and a list of 38 with repeats in its
  // order; batches of 16 (169 = 10 x 16 + 9: a last group of one source) and 32
  // (16 lanes: a last batch of 9, mid-group; split shares end mid-group); one group a
  // buffer (the buffers' seams); one device (pinned slots: a launch read back in
  // batches of at most 8 or 5 sources, OCL_SP_LANE_SLOT_SOURCES: the next launch's
  // search beside them; 5 not dividing 16: launches of 15) and split in two
  // (run()). int32 rows equal fw's and the serial engine's byte for byte.
  DistMatrix<int32_t> neg = lattice(11);
  neg(0, 1) = -3;
  neg(40, 29) = -1;
  const std::vector<DistMatrix<int32_t>> graphs = {lattice(13), lattice(12), neg};
  std::vector<int64_t> list;
  for (int64_t k = 0; k < 37; ++k) list.push_back((k * 53 + 7) % 121);
  list.push_back(list[3]);
  const std::pair<const char*, const char*> settings[] = {{"", ""}, {"1", "8"}, {"", "5"}};
  for (const auto& [per_buffer, slot_sources] : settings) {
    setenv("OCL_SP_LANE_GROUPS_PER_BUFFER", per_buffer, 1);
    setenv("OCL_SP_LANE_SLOT_SOURCES", slot_sources, 1);
    for (const Tunables& t : {Tunables{}, Tunables{{"BATCH", 16}}, Tunables{{"LANES", 8}, {"BATCH", 16}},
                              Tunables{{"LANES", 16}, {"BATCH", 32}, {"LANE_WG", 64}}}) {
      for (int split : {1, 2}) {
        SolverSpec s = spec(Algo::sssp, t);
        s.split = split;
        for (const auto& g : graphs) {
          for (const bool all : {true, false}) {
            CAPTURE(per_buffer);
            CAPTURE(slot_sources);
            CAPTURE(to_string(t));
            CAPTURE(split);
            CAPTURE(g.n());
            CAPTURE(all);
            const Csr<int32_t> c = csr_from_matrix(g);
            const std::vector<int64_t> src = all ? std::vector<int64_t>{} : list;
            const auto [got, placement] = rows_of(s, c, src);
            CHECK(placement.find("sources a group, rows transposed on the device") != std::string::npos);
            CHECK(got == rows_of(cpu_spec(Backend::serial), c, src).first);
            const DistMatrix<int32_t> want = fw_reference(g);
            std::vector<int32_t> fw;
            for (int64_t r : all ? std::vector<int64_t>() : list)
              fw.insert(fw.end(), want.data() + r * g.n(), want.data() + (r + 1) * g.n());
            CHECK(got == (all ? want.values() : fw));
          }
        }
      }
    }
  }
  // Each source searched once: no batch straddles two launches (169 sources in
  // launches of 15 read in batches of 5: 12 searches and 12 transposes).
  setenv("OCL_SP_LANE_SLOT_SOURCES", "5", 1);
  RunStats st;
  rows_of(spec(Algo::sssp, {{"BATCH", 16}}), csr_from_matrix(graphs[0]), {}, &st);
  CHECK(st.kernel_launches == 24);
  unsetenv("OCL_SP_LANE_GROUPS_PER_BUFFER");
  unsetenv("OCL_SP_LANE_SLOT_SOURCES");
}

TEST_CASE("sssp rows in lanes: chosen by the mean degree, forced by LANES; float rows the per-source bits") {
  // A lattice (degree < 4) takes lanes by default, a random graph of degree ~12 a
  // source a group; LANES=1 and LANES=8 force either. float32 and float64 rows
  // (lanes by default) equal LANES=1's bit for bit, on one device and split in two.
  const Csr<int32_t> lat = csr_from_matrix(lattice(13));
  const Csr<int32_t> dense = csr_from_matrix(ocl_sp_test::random_graph<int32_t>(150, 9, false, 12.0));
  REQUIRE(dense.m() > 5 * dense.n);
  const auto placement = [&](const Tunables& t, const Csr<int32_t>& c) { return rows_of(spec(Algo::sssp, t), c, {}).second; };
  CHECK(placement({}, lat).find("8 sources a group, rows transposed on the device: mean degree 3.69 <= 5") !=
        std::string::npos);
  CHECK(placement({}, dense).find("a source a group: mean degree") != std::string::npos);
  CHECK(placement({{"LANES", 1}}, lat).find("a source a group: LANES=1") != std::string::npos);
  CHECK(placement({{"LANES", 8}}, dense).find("8 sources a group, rows transposed on the device: LANES=8") !=
        std::string::npos);
  const auto check_bits = [&](auto zero) {
    using T = decltype(zero);
    const DistMatrix<T> g = ocl_sp_test::random_graph<T>(131, 17, true, 3.0);
    const Csr<T> c = csr_from_matrix(g);
    for (int split : {1, 2}) {
      CAPTURE(split);
      SolverSpec lanes = spec(Algo::sssp, {{"BATCH", 16}}), one = spec(Algo::sssp, {{"LANES", 1}});
      lanes.split = one.split = split;
      const auto [a, where] = rows_of(lanes, c, {});
      CHECK(where.find("8 sources a group") != std::string::npos);
      const auto b = rows_of(one, c, {}).first;
      REQUIRE(a.size() == b.size());
      CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
    }
  };
  check_bits(0.0f);
  check_bits(0.0);
}

TEST_CASE("sssp rows: the device writes the output's unreachable value; the host's pass only where rows need it") {
  // A 13 x 13 lattice and 11 vertices with edges into it only (unreachable from
  // every other source): rows with INF, in lanes (the default) and a source a
  // group (LANES=1), one device and split in two, all sources and a list, int32,
  // int64, float32 and float64 (integer weights: exact sums) byte for byte the
  // serial engine's and fw's. Without negative weights no map-back pass on the
  // host; with one (Johnson) the host still maps the rows, the same bytes.
  const auto build = [](auto zero, bool negative) {
    using T = decltype(zero);
    const DistMatrix<int32_t> lat = lattice(13);
    const int64_t k = lat.n(), n = k + 11;
    DistMatrix<T> g(n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const bool in = i < k && j < k && lat(i, j) != ValueTraits<int32_t>::inf;
        g(i, j) = i == j ? T(0) : in ? static_cast<T>(lat(i, j)) : ValueTraits<T>::inf;
      }
    for (int64_t v = k; v < n; ++v) g(v, (v * 7) % k) = T(2);
    if (negative) g(k + 3, 5) = T(-4);
    return g;
  };
  std::vector<int64_t> list;
  for (int64_t k = 0; k < 29; ++k) list.push_back((k * 37 + 5) % 180);
  const auto check = [&](auto zero) {
    using T = decltype(zero);
    for (const bool negative : {false, true}) {
      const DistMatrix<T> g = build(zero, negative);
      const Csr<T> c = csr_from_matrix(g);
      const DistMatrix<T> want = fw_reference(g);
      REQUIRE(std::count(want.values().begin(), want.values().end(), ValueTraits<T>::inf) > 1000);
      for (const Tunables& t : {Tunables{}, Tunables{{"BATCH", 16}}, Tunables{{"LANES", 1}, {"BATCH", 16}}})
        for (int split : {1, 2})
          for (const bool all : {true, false}) {
            CAPTURE(ValueTraits<T>::name());
            CAPTURE(negative);
            CAPTURE(to_string(t));
            CAPTURE(split);
            CAPTURE(all);
            SolverSpec s = spec(Algo::sssp, t);
            s.split = split;
            const std::vector<int64_t> src = all ? std::vector<int64_t>{} : list;
            RunStats st;
            const std::vector<T> got = rows_of(s, c, src, &st).first;
            const std::vector<T> serial = rows_of(cpu_spec(Backend::serial), c, src).first;
            std::vector<T> fw;
            for (int64_t r : all ? std::vector<int64_t>() : list)
              fw.insert(fw.end(), want.data() + r * g.n(), want.data() + (r + 1) * g.n());
            if (all) fw = want.values();
            REQUIRE(got.size() == serial.size());
            REQUIRE(got.size() == fw.size());
            CHECK(std::memcmp(got.data(), serial.data(), got.size() * sizeof(T)) == 0);
            CHECK(std::memcmp(got.data(), fw.data(), got.size() * sizeof(T)) == 0);
            CHECK(st.kernel_seconds.count("rows: map back / trees (host)") == (negative ? 1u : 0u));
          }
    }
  };
  check(int32_t{0});
  check(int64_t{0});
  check(0.0f);
  check(0.0);
}

TEST_CASE("sssp lanes: a group's sources are a block of the lattice, every source placed once") {
  // A 16 x 16 lattice, sources in id order (row segments): 8 lanes take 2 x 4
  // blocks, 16 lanes 4 x 4 blocks; any other graph, count or repeats: a
  // permutation whose groups are whole runs of 4, the short run last.
  const Csr<int32_t> g = csr_from_matrix(lattice(16));
  std::vector<int64_t> ids(256);
  for (int64_t i = 0; i < 256; ++i) ids[static_cast<size_t>(i)] = i;
  std::vector<int32_t> mark;
  for (int lanes : {8, 16}) {
    CAPTURE(lanes);
    const std::vector<int32_t> order = lane_order(g.off.data(), g.col.data(), g.n, ids.data(), 256, lanes, mark);
    const int64_t rows = lanes / 4;
    for (size_t q0 = 0; q0 < 256; q0 += static_cast<size_t>(lanes)) {
      int64_t r_lo = 16, r_hi = -1, c_lo = 16, c_hi = -1;
      for (size_t q = q0; q < q0 + static_cast<size_t>(lanes); ++q) {
        const int64_t v = order[q];
        r_lo = std::min(r_lo, v / 16), r_hi = std::max(r_hi, v / 16);
        c_lo = std::min(c_lo, v % 16), c_hi = std::max(c_hi, v % 16);
      }
      CAPTURE(q0);
      CHECK(r_hi - r_lo + 1 == rows);
      CHECK(c_hi - c_lo + 1 == 4);
    }
    std::vector<int32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int32_t i = 0; i < 256; ++i) CHECK(sorted[static_cast<size_t>(i)] == i);
    CHECK(std::all_of(mark.begin(), mark.end(), [](int32_t m) { return m == -1; }));  // left for the next call
  }
  const Csr<int32_t> r = csr_from_matrix(ocl_sp_test::random_graph<int32_t>(100, 5));
  std::vector<int64_t> some;
  for (int64_t i = 0; i < 83; ++i) some.push_back((i * 37) % 100 % 60);  // repeats too
  for (int lanes : {4, 8, 16, 32}) {
    CAPTURE(lanes);
    const std::vector<int32_t> order = lane_order(r.off.data(), r.col.data(), r.n, some.data(), 83, lanes, mark);
    REQUIRE(order.size() == 83);
    for (size_t q = 0; q < 80; q += 4) {  // whole runs
      CHECK(order[q] % 4 == 0);
      for (size_t k = 1; k < 4; ++k) CHECK(order[q + k] == order[q] + static_cast<int32_t>(k));
    }
    for (size_t q = 80; q < 83; ++q) CHECK(order[q] == static_cast<int32_t>(q));  // the short run last
    std::vector<int32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int32_t i = 0; i < 83; ++i) CHECK(sorted[static_cast<size_t>(i)] == i);
    if (lanes == 4)
      for (int32_t i = 0; i < 83; ++i) CHECK(order[static_cast<size_t>(i)] == i);
    CHECK(std::all_of(mark.begin(), mark.end(), [](int32_t m) { return m == -1; }));
  }
}

TEST_CASE("sssp plan: bucket widths, batches and lanes groups within the device's memory") {
  // An H100-like device (132 compute units, 80 GB, a quarter of it the largest
  // allocation) and the 1000 x 1000 grid: 56 MB a group of 8 (32 MB distances,
  // 24 MB queues), so fewer groups fit than 132 x 16 resident groups of 128:
  // groups of 256 instead, a launch of 132 x 8 groups.
  SsspGraphShape grid;
  grid.n = 1000000;
  grid.m = 3996000;
  grid.mean_weight = 50.5;
  SsspDeviceShape h100;
  h100.budget = 80ull << 30;
  h100.max_alloc = 20ull << 30;
  h100.compute_units = 132;
  h100.max_work_group = 1024;
  const Tunables t = {{"WG", 1024}, {"DELTA", 0}, {"BATCH", 0}, {"VW", 0}, {"LANES", 0}, {"LANE_WG", 0}};
  const SsspPlan p = plan_sssp(grid, h100, t, 8, 128);
  CHECK(p.per_group == 1000000ull * (8 * 4 + 24) + 8 * (4 + 32));
  CHECK(p.graph_bytes == 1000001ull * 4 + 3996000ull * 8);
  CHECK(p.lane_buffer_unit == 1000000ull * 8 * 4);  // the distances (32 MB) outweigh the queues (24 MB)
  const int64_t fit = static_cast<int64_t>(((80ull << 30) * 9 / 10 - p.graph_bytes) / p.per_group);
  CHECK(p.lane_groups_max == fit);
  CHECK(p.lane_wg == 256);
  CHECK(p.lane_groups == 132 * 8);
  CHECK(p.percent_lanes == doctest::Approx(6400.0 / (3.996 * 3.996)));
  CHECK(p.percent == doctest::Approx(16000.0 / (3.996 * 3.996)));
  CHECK(p.vw_log == 2);  // a virtual warp of 4: the mean degree
  CHECK(p.batch_sources == (20ll << 30) / (1000000 * 24));  // the queues' largest allocation, under 132 x 2 x 4
  // Room for every resident group: 128 stays; BATCH and LANE_WG as given; a
  // device with room for one source but no group of lanes.
  SsspGraphShape small = grid;
  small.n = 10000;
  small.m = 39600;
  const SsspPlan q = plan_sssp(small, h100, t, 8, 128);
  CHECK(q.lane_wg == 128);
  CHECK(q.lane_groups == 132 * 16);
  Tunables given = t;
  given["BATCH"] = 100;
  given["LANE_WG"] = 128;
  const SsspPlan r = plan_sssp(grid, h100, given, 8, 128);
  CHECK(r.lane_wg == 128);
  CHECK(r.lane_groups == 13);
  CHECK(r.batch_sources == 100);
  SsspDeviceShape tiny = h100;
  tiny.budget = 90ull << 20;
  const SsspPlan s = plan_sssp(grid, tiny, t, 8, 128);
  CHECK(s.lane_groups_max == 0);
  CHECK(s.batch_sources >= 1);
  tiny.budget = 30ull << 20;
  CHECK(plan_sssp(grid, tiny, t, 8, 128).batch_sources == 0);
}

TEST_CASE("sssp lanes: --stats in one pass equals the host's two passes bit for bit") {
  // Row figures (reach, eccentricity, sums) and column figures (closeness,
  // harmonic: the column sums continued in source order, as the host adds them)
  // of a directed graph with unreachable pairs, from one lanes pass on PoCL (on
  // one device and split in two), against the serial engine's rows of the graph
  // and of its reverse reduced on the host. Negative weights (potentials to undo)
  // and LANES=1 decline, leaving the sink untouched.
  const auto nonnegative = [](int64_t n, uint64_t seed) {
    DistMatrix<int32_t> m = ocl_sp_test::random_graph<int32_t>(n, seed);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (m(i, j) != ValueTraits<int32_t>::inf) m(i, j) = std::abs(m(i, j));
    return m;
  };
  for (uint64_t seed : {3u, 8u}) {
    DistMatrix<int32_t> m = nonnegative(97, seed);
    for (int64_t j = 0; j < 97; ++j)
      if (j != 5) m(5, j) = ValueTraits<int32_t>::inf;  // 5 reaches nothing but itself
    const Csr<int32_t> g = csr_from_matrix(m);
    StatsSink<int32_t> host(g.n);
    auto serial = make_sssp_solver<int32_t>(cpu_spec(Backend::serial));
    host.set_pass(StatsSink<int32_t>::from);
    serial->solve_rows(g, {}, host, false);
    host.set_pass(StatsSink<int32_t>::to);
    serial->solve_rows(transpose(g), {}, host, false);
    // BATCH 16: launches of 2 groups, 7 of them, taking the two lane sets in turn
    // on two queues (the column figures of each wait for the previous launch's).
    for (auto [split, batch] : {std::pair{1, 0}, {2, 0}, {1, 16}, {2, 16}}) {
      CAPTURE(split);
      CAPTURE(batch);
      SolverSpec s = spec(Algo::sssp, {{"BATCH", batch}});
      s.split = split;
      StatsSink<int32_t> dev(g.n);
      RunStats st;
      REQUIRE(make_sssp_solver<int32_t>(s)->solve_stats(g, dev, st));
      CHECK(dev.rows_reduced_by_engine() == 2 * g.n);
      CHECK(dev.vertices().reach == host.vertices().reach);
      CHECK(dev.vertices().eccentricity == host.vertices().eccentricity);
      CHECK(dev.vertices().sum_from == host.vertices().sum_from);
      CHECK(dev.vertices().closeness == host.vertices().closeness);
      CHECK(dev.vertices().harmonic == host.vertices().harmonic);  // handed on in source order
      CHECK(dev.vertices().reach[5] == 1);
    }
  }
  StatsSink<int32_t> untouched(3);
  RunStats st;
  DistMatrix<int32_t> neg(3);
  neg(0, 1) = -2;
  neg(1, 2) = 3;
  for (int64_t i = 0; i < 3; ++i) neg(i, i) = 0;
  CHECK_FALSE(make_sssp_solver<int32_t>(spec(Algo::sssp, {}))->solve_stats(csr_from_matrix(neg), untouched, st));
  const Csr<int32_t> small = csr_from_matrix(nonnegative(20, 2));
  StatsSink<int32_t> taken(20);
  CHECK(make_sssp_solver<int32_t>(spec(Algo::sssp, {}))->solve_stats(small, taken, st));  // the same graph is taken
  CHECK_FALSE(make_sssp_solver<int32_t>(spec(Algo::sssp, {{"LANES", 1}}))->solve_stats(small, untouched, st));
  CHECK_FALSE(make_sssp_solver<int32_t>(cpu_spec(Backend::openmp))->solve_stats(small, untouched, st));
  CHECK(untouched.rows_reduced_by_engine() == 0);
}

TEST_CASE("sssp --stats on the CPU engines: the columns from the rows in one pass, the two passes' bits") {
  // Every vertex a source and integer distances: the columns' figures (closeness,
  // harmonic) are gathered from the forward rows as they pass, in source order,
  // instead of a second pass over the reversed graph: the same doubles bit for
  // bit, over batches smaller than the graph, with unreachable pairs and with
  // negative weights (potentials undone before the rows reach the sink). Chosen
  // sources and, for integers, an engine that reduces rows itself (PoCL, one
  // source a group) keep two passes; float distances never take the reversed
  // graph's (its sums round otherwise): columns from the rows there too.
  const auto two_passes = [](const Csr<int32_t>& g) {
    StatsSink<int32_t> s(g.n);
    auto serial = make_sssp_solver<int32_t>(cpu_spec(Backend::serial));
    s.set_pass(StatsSink<int32_t>::from);
    serial->solve_rows(g, {}, s, false);
    s.set_pass(StatsSink<int32_t>::to);
    serial->solve_rows(transpose(g), {}, s, false);
    return s.vertices();
  };
  const auto same = [](const VertexStats& a, const VertexStats& b) {
    CHECK(a.reach == b.reach);
    CHECK(a.eccentricity == b.eccentricity);
    CHECK(a.sum_from == b.sum_from);
    CHECK(a.closeness == b.closeness);
    CHECK(a.harmonic == b.harmonic);
  };
  const auto has = [](const std::vector<std::string>& notes, const std::string& what) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& l) { return l.find(what) != std::string::npos; });
  };
  DistMatrix<int32_t> m = ocl_sp_test::random_graph<int32_t>(83, 5);
  for (int64_t j = 0; j < 83; ++j)
    if (j != 4) m(4, j) = ValueTraits<int32_t>::inf;  // 4 reaches nothing but itself
  DistMatrix<int32_t> pos = m;
  for (int64_t i = 0; i < 83; ++i)
    for (int64_t j = 0; j < 83; ++j)
      if (pos(i, j) != ValueTraits<int32_t>::inf) pos(i, j) = std::abs(pos(i, j));
  for (const DistMatrix<int32_t>* dm : {&pos, &m}) {
    const Csr<int32_t> g = csr_from_matrix(*dm);
    CAPTURE(g.has_negative_weight());
    REQUIRE_FALSE(transpose(g).col == g.col);  // directed: a second pass would be needed
    const VertexStats want = two_passes(g);
    for (Backend b : {Backend::serial, Backend::openmp})
      for (int64_t batch : {0, 1, 10}) {
        CAPTURE(to_string(b));
        CAPTURE(batch);
        auto solver = make_sssp_solver<int32_t>(cpu_spec(b));
        solver->set_max_batch(batch);
        StatsSink<int32_t> s(g.n);
        std::vector<std::string> notes;
        const RunStats st = solver->solve_stats_rows(g, {}, s, s, notes);
        CHECK(has(notes, "gathered from the rows"));
        CHECK_FALSE(has(notes, "second pass"));
        CHECK(st.relaxations == sssp_relaxations(g.n, g.m()));  // one pass's worth
        CHECK(s.rows_reduced_here() == 2 * g.n);
        same(s.vertices(), want);
      }
  }
  const Csr<int32_t> g = csr_from_matrix(pos);
  std::vector<std::string> notes;
  StatsSink<int32_t> chosen(g.n);
  make_sssp_solver<int32_t>(cpu_spec(Backend::openmp))->solve_stats_rows(g, {0, 1, 2}, chosen, chosen, notes);
  CHECK(has(notes, "second pass"));
  CHECK_FALSE(has(notes, "gathered from the rows"));
  notes.clear();
  DistMatrix<float> mf(83);
  for (int64_t i = 0; i < 83; ++i)
    for (int64_t j = 0; j < 83; ++j)
      mf(i, j) = pos(i, j) == ValueTraits<int32_t>::inf ? ValueTraits<float>::inf : pos(i, j) * 0.37f;
  const Csr<float> gf = csr_from_matrix(mf);
  StatsSink<float> floats(gf.n);
  make_sssp_solver<float>(cpu_spec(Backend::openmp))->solve_stats_rows(gf, {}, floats, floats, notes);
  CHECK(has(notes, "gathered from the rows"));
  CHECK_FALSE(has(notes, "second pass"));
  notes.clear();
  StatsSink<float> floats_dev(gf.n);
  make_sssp_solver<float>(spec(Algo::sssp, {{"LANES", 1}}))->solve_stats_rows(gf, {}, floats_dev, floats_dev, notes);
  CHECK(has(notes, "gathered from the rows"));
  CHECK_FALSE(has(notes, "second pass"));
  notes.clear();
  StatsSink<int32_t> dev(g.n);
  make_sssp_solver<int32_t>(spec(Algo::sssp, {{"LANES", 1}}))->solve_stats_rows(g, {}, dev, dev, notes);
  CHECK(has(notes, "second pass"));
  CHECK(dev.rows_reduced_by_engine() == 2 * g.n);
  same(dev.vertices(), two_passes(g));  // the harmonic sums in vertex order on the device too
}

TEST_CASE_TEMPLATE("sssp --stats with real weights: the forward rows' figures on every placement, bit for bit", T,
                   float, double) {
  // Fractional weights (no sum exact): closeness and harmonic of column v are
  // the forward rows' d(u, v) (each summed in path order from u) added in source
  // order, and the rows' sums in vertex order, as stats_from_matrix adds the
  // serial engine's rows: the CPU engines over any batch, PoCL's one lanes pass
  // (one device, split in two, launches of 16), one source a group (rows reduced
  // on the device, columns gathered on the host) and a symmetric graph.
  DistMatrix<int32_t> m = ocl_sp_test::random_graph<int32_t>(91, 11);
  for (int64_t j = 0; j < 91; ++j)
    if (j != 6) m(6, j) = ValueTraits<int32_t>::inf;  // 6 reaches nothing but itself
  for (bool symmetric : {false, true}) {
    CAPTURE(symmetric);
    DistMatrix<T> mt(91);
    for (int64_t i = 0; i < 91; ++i)
      for (int64_t j = 0; j < 91; ++j) {
        const int32_t x = symmetric ? (i < j ? m(i, j) : m(j, i)) : m(i, j);
        mt(i, j) = i == j ? T(0)
                   : x == ValueTraits<int32_t>::inf
                       ? ValueTraits<T>::inf
                       : static_cast<T>(std::abs(x) % 97) * static_cast<T>(0.1373) + static_cast<T>(0.0219);
      }
    const Csr<T> g = csr_from_matrix(mt);
    DistMatrix<T> rows(91);
    {
      MatrixSink<T> sink(rows, nullptr);
      make_sssp_solver<T>(cpu_spec(Backend::serial))->solve_rows(g, {}, sink, false);
    }
    StatsSink<T> want(91);
    stats_from_matrix(rows, want);
    // The reversed graph's sums really round otherwise (else this tests nothing).
    StatsSink<T> reversed(91);
    reversed.set_pass(StatsSink<T>::to);
    make_sssp_solver<T>(cpu_spec(Backend::serial))->solve_rows(transpose(g), {}, reversed, false);
    CHECK(reversed.vertices().closeness != want.vertices().closeness);
    const auto same = [&](const VertexStats& a) {
      CHECK(a.reach == want.vertices().reach);
      CHECK(a.eccentricity == want.vertices().eccentricity);
      CHECK(a.sum_from == want.vertices().sum_from);
      CHECK(a.closeness == want.vertices().closeness);
      CHECK(a.harmonic == want.vertices().harmonic);
    };
    for (Backend b : {Backend::serial, Backend::openmp})
      for (int64_t batch : {0, 1, 10}) {
        CAPTURE(to_string(b));
        CAPTURE(batch);
        auto solver = make_sssp_solver<T>(cpu_spec(b));
        solver->set_max_batch(batch);
        StatsSink<T> s(91);
        std::vector<std::string> notes;
        solver->solve_stats_rows(g, {}, s, s, notes);
        same(s.vertices());
      }
    for (auto [split, batch, lanes] : {std::tuple{1, 0, 0}, {2, 0, 0}, {1, 16, 0}, {2, 16, 0}, {1, 0, 1}}) {
      CAPTURE(split);
      CAPTURE(batch);
      CAPTURE(lanes);
      SolverSpec sp = spec(Algo::sssp, lanes ? Tunables{{"LANES", lanes}} : Tunables{{"BATCH", batch}});
      sp.split = split;
      StatsSink<T> s(91);
      std::vector<std::string> notes;
      make_sssp_solver<T>(sp)->solve_stats_rows(g, {}, s, s, notes);
      same(s.vertices());
    }
  }
}

TEST_CASE("sssp float32: the same bits on every backend, within 1e-5 of fw") {
  for (int64_t n : {1, 65, 200}) {
    const auto g = ocl_sp_test::random_graph<float>(n, 40 + n, true);
    const auto want = fw_reference(g);
    std::optional<DistMatrix<float>> first;
    for (auto& [name, s] : sssp_specs()) {
      CAPTURE(name);
      CAPTURE(n);
      DistMatrix<float> d = g;
      make_solver<float>(s)->solve(d, nullptr);
      CHECK(compare_matrices(want, d).ok);
      if (!first)
        first = d;
      else
        CHECK(d == *first);
    }
  }
}

TEST_CASE("sssp: negative cycles are named as fw names them") {
  // 1 -> 2 -> 3 -> 1 has length -1; vertex 0 reaches it.
  DistMatrix<int32_t> g(5);
  for (int64_t i = 0; i < 5; ++i) g(i, i) = 0;
  g(0, 1) = 4;
  g(1, 2) = -3;
  g(2, 3) = 1;
  g(3, 1) = 1;
  g(3, 4) = 2;
  for (auto& [name, s] : sssp_specs()) {
    CAPTURE(name);
    DistMatrix<int32_t> d = g;
    try {
      make_solver<int32_t>(s)->solve(d, nullptr);
      FAIL("no negative cycle reported");
    } catch (const NegativeCycleError& e) {
      CHECK(e.cycle == std::vector<long long>{1, 2, 3});
      CHECK(e.length == -1);
    }
  }
}

TEST_CASE("sssp paths: every pair's path is made of input edges and adds up") {
  for (auto& [name, s] : sssp_specs()) {
    CAPTURE(name);
    for (int64_t n : {1, 66}) {
      const auto g = ocl_sp_test::random_graph<int32_t>(n, 7 + n);
      DistMatrix<int32_t> d = g;
      PathMatrix p;
      make_solver<int32_t>(s)->solve(d, &p);
      CHECK(d == fw_reference(g));
      CHECK(check_paths(g, d, p) == "");
    }
    // Zero-weight cycles: fewest hops among equal lengths keep expansion finite.
    DistMatrix<int32_t> z = lattice(6);
    for (auto& x : z.values())
      if (x != ValueTraits<int32_t>::inf) x = 0;
    DistMatrix<int32_t> d = z;
    PathMatrix p;
    make_solver<int32_t>(s)->solve(d, &p);
    CHECK(check_paths(z, d, p) == "");
    CHECK(expand_path(d, p, 0, 35).size() == 11);  // corner to corner: 10 edges
  }
}

TEST_CASE("sssp rows: chosen sources in their order, repeats allowed") {
  const auto g = ocl_sp_test::random_graph<int32_t>(90, 21);
  const auto want = fw_reference(g);
  const Csr<int32_t> c = csr_from_matrix(g);
  const std::vector<int64_t> sources = {89, 0, 17, 17, 45};
  struct Collect : RowSink<int32_t> {
    std::vector<std::vector<int32_t>> got;
    void rows(int64_t first, int64_t count, int64_t n, const int32_t* d, const int32_t*,
              const int32_t*) override {
      for (int64_t r = 0; r < count; ++r) {
        if (static_cast<int64_t>(got.size()) <= first + r) got.resize(first + r + 1);
        got[first + r].assign(d + r * n, d + (r + 1) * n);
      }
    }
  };
  for (auto& [name, s] : sssp_specs({{"BATCH", 64}})) {
    CAPTURE(name);
    Collect sink;
    auto solver = make_sssp_solver<int32_t>(s);
    solver->solve_rows(c, sources, sink, false);
    REQUIRE(sink.got.size() == sources.size());
    for (size_t i = 0; i < sources.size(); ++i)
      CHECK(sink.got[i] == std::vector<int32_t>(want.data() + sources[i] * 90,
                                                 want.data() + (sources[i] + 1) * 90));
    CHECK_THROWS_AS(solver->solve_rows(c, {90}, sink, false), UsageError);
  }
}

TEST_CASE("auto: sparse graphs go to sssp, dense ones to fw") {
  CHECK(choose_algo(10000, 40000, 10000, Backend::openmp, "").algo == Algo::sssp);
  CHECK(choose_algo(2000, 400000, 2000, Backend::openmp, "").algo == Algo::fw);
  CHECK(choose_algo(100000, 2000000, 100000, Backend::opencl, "gpu").algo == Algo::sssp);
  CHECK(choose_algo(5000, 2500000, 5000, Backend::opencl, "gpu").algo == Algo::fw);
  const AutoChoice c = choose_algo(10000, 40000, 10000, Backend::serial, "");
  CHECK(c.why.find("sssp") == 0);
  CHECK(c.sssp_seconds < c.fw_seconds);
  CHECK(c.long_solve.empty());
}

TEST_CASE("auto: each source's row counts, and a solve past an hour says so") {
  // 10^8 vertices and one arc: sssp still does 10^8 rows of 10^8 distances.
  const AutoChoice huge = choose_algo(100000000, 1, 100000000, Backend::opencl, "gpu");
  CHECK(huge.sssp_seconds > 24 * 3600.0);
  CHECK(huge.long_solve.find("estimated at") != std::string::npos);
  CHECK(huge.long_solve.find("hours") != std::string::npos);
  // The same graph's rows dominate its edges: the row term is in the estimate.
  const AutoChoice few = choose_algo(100000000, 1, 10, Backend::opencl, "gpu");
  CHECK(few.sssp_seconds > 10 * 1e8 / 1e11);
  CHECK(few.long_solve.empty());
  // fw on a GPU pays its copies: n = 10 000 is more than n^3 / rate.
  const AutoChoice fw = choose_algo(10000, 50000000, 10000, Backend::opencl, "gpu");
  CHECK(fw.fw_seconds > 1e12 / 1.2e13 * 1.5);
}

TEST_CASE("sssp CPU queues: Dial's buckets (small weights, wrap-around) and the radix heap") {
  // Weights from {0, 1, 63, 64, 4000, 4095}: 4096 buckets, gaps across the bitmap's
  // words and around the ring; then the same graph scaled past the bucket limit.
  std::mt19937_64 rng(77);
  const int32_t picks[] = {0, 1, 63, 64, 4000, 4095};
  for (int32_t scale : {1, 300}) {
    DistMatrix<int32_t> g(120);
    for (int64_t i = 0; i < 120; ++i) g(i, i) = 0;
    for (int64_t i = 0; i < 120; ++i)
      for (int k = 0; k < 3; ++k) {
        const int64_t j = static_cast<int64_t>(rng() % 120);
        if (j != i) g(i, j) = picks[rng() % 6] * scale;
      }
    const auto want = fw_reference(g);
    for (Backend b : {Backend::serial, Backend::openmp}) {
      CAPTURE(scale);
      DistMatrix<int32_t> d = g;
      make_solver<int32_t>(cpu_spec(b))->solve(d, nullptr);
      CHECK(d == want);
    }
  }
}

// An engine with slots: the solver keeps the next batch in flight while the
// host maps back and hands on the current one (sssp_solver.cpp). Wraps the
// serial Dijkstra engine in batches of 7, computing a batch when it is waited
// for; logs submits, waits and the sink's batches; can fail.
namespace {
struct SlottedEngine final : SsspEngine<int32_t>, SlotEngine<int32_t> {
  std::unique_ptr<SsspEngine<int32_t>> inner = make_dijkstra_engine<int32_t>(cpu_spec(Backend::serial));
  std::vector<int32_t> slot[2];
  std::vector<int64_t> pending[2];
  std::vector<std::string>* log = nullptr;
  int fail_at = -1;  // the wait that throws (-1: none)
  int waits = 0;
  int64_t n = 0;
  SolverInfo& info() override { return inner->info(); }
  void prepare(const Csr<int32_t>& g, RunStats& st) override {
    n = g.n;
    inner->prepare(g, st);
  }
  int64_t batch(int64_t) const override { return 7; }
  int host_threads() const override { return 2; }
  void run(const int64_t*, int64_t, int32_t*, RunStats&) override { FAIL("run() with slots"); }
  bool slots(int64_t b) override {
    for (auto& s : slot) s.assign(static_cast<size_t>(b * n), -1);
    return true;
  }
  void submit(int k, const int64_t* sources, int64_t count) override {
    log->push_back("submit " + std::to_string(sources[0]));
    pending[k].assign(sources, sources + count);
  }
  void wait(int k, RunStats& st) override {
    if (waits++ == fail_at) throw RuntimeError("device lost");
    log->push_back("wait " + std::to_string(pending[k][0]));
    inner->run(pending[k].data(), static_cast<int64_t>(pending[k].size()), slot[k].data(), st);
  }
  int32_t* slot_rows(int k) override { return slot[k].data(); }
};
struct LogSink final : RowSink<int32_t> {
  MatrixSink<int32_t>* inner;
  std::vector<std::string>* log;
  void rows(int64_t first, int64_t count, int64_t n, const int32_t* d, const int32_t* via,
            const int32_t* hops) override {
    log->push_back("rows " + std::to_string(first));
    inner->rows(first, count, n, d, via, hops);
  }
};
}  // namespace

TEST_CASE("sssp: the next batch is in flight while the host hands on this one; rows, paths, errors") {
  auto g = ocl_sp_test::random_graph<int32_t>(61, 5);
  g(3, 4) = -2;  // a negative edge: potentials to undo on every row
  const auto want = fw_reference(g);
  const Csr<int32_t> c = csr_from_matrix(g);
  std::vector<std::string> log;
  auto engine = std::make_unique<SlottedEngine>();
  SlottedEngine* e = engine.get();
  e->log = &log;
  SsspSolver<int32_t> solver(std::move(engine));
  DistMatrix<int32_t> d(61);
  PathMatrix p;
  size_path_matrix(p, 61);
  MatrixSink<int32_t> matrix(d, &p);
  LogSink sink;
  sink.inner = &matrix;
  sink.log = &log;
  solver.solve_rows(c, {}, sink, true);
  CHECK(d.values() == want.values());
  CHECK(check_paths(g, d, p).empty());
  // submit 0, submit 7, wait 0, rows 0, submit 14, wait 7, rows 7, ...: the next
  // batch goes in before this one is waited for (its kernels beside this read).
  REQUIRE(log.size() == 9 * 3);
  CHECK(log[0] == "submit 0");
  size_t at = 1;
  for (int k = 0; k < 9; ++k) {
    CAPTURE(k);
    if (k < 8) CHECK(log[at++] == "submit " + std::to_string(7 * (k + 1)));
    CHECK(log[at++] == "wait " + std::to_string(7 * k));
    CHECK(log[at++] == "rows " + std::to_string(7 * k));
  }
  // A batch that fails: the error comes through.
  e->waits = 0;
  e->fail_at = 4;
  CHECK_THROWS_WITH_AS(solver.solve_rows(c, {}, sink, false), "device lost", RuntimeError);
}
