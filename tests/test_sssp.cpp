// The multi-source engine (host/sparse/, kernels/sssp.cl): CSR construction, and
// sssp equal to Floyd-Warshall bit for bit (int32) on every backend — serial,
// OpenMP, PoCL, PoCL split in two — on n = 1, sizes around the work-group and the
// batch, disconnected graphs, zero and negative weights, duplicate edges and
// self-loops; float32 the same bits on every sssp backend and within 1e-5 of fw;
// negative cycles with the cycle named; paths; rows for chosen sources; auto; the
// CPU queues; batches in flight; a launch's queues over several buffers. Lanes: test_sssp_lanes.cpp; --stats: test_sssp_stats.cpp.
#include <doctest/doctest.h>

#include "test_sssp_common.hpp"

using namespace ocl_sp;
using namespace ocl_sp_test::sssp;


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

TEST_CASE("sssp ORDER_WG: the renumbered searches' group size") {
  // 512 on GPUs up to 2 x 10^5 vertices where WG is the default 1 024; WG on
  // CPU devices, past that size or where WG was changed; as given otherwise.
  CHECK(sssp_order_wg(100000, true, 1024, 0) == 512);
  CHECK(sssp_order_wg(kSsspOrderWgMaxN, true, 1024, 0) == 512);
  CHECK(sssp_order_wg(kSsspOrderWgMaxN + 1, true, 1024, 0) == 1024);
  CHECK(sssp_order_wg(100000, true, 256, 0) == 256);
  CHECK(sssp_order_wg(100000, false, 64, 0) == 64);
  CHECK(sssp_order_wg(100000, false, 64, 128) == 128);
  CHECK(sssp_order_wg(10000000, true, 1024, 1024) == 1024);
}

TEST_CASE("sssp a source a group, its row in __local memory (LOCAL_ROW): fw's bytes") {
  // Where it is taken: GPUs by default, every device with 2, never with 1; only
  // where the row and 64 bytes fit.
  CHECK(sssp_local_row(12272, 4, 49152, true, 0));
  CHECK_FALSE(sssp_local_row(12273, 4, 49152, true, 0));
  CHECK_FALSE(sssp_local_row(6200, 8, 49152, true, 0));
  CHECK_FALSE(sssp_local_row(100, 4, 49152, false, 0));
  CHECK(sssp_local_row(100, 4, 49152, false, 2));
  CHECK_FALSE(sssp_local_row(100, 4, 49152, true, 1));
  CHECK_FALSE(sssp_local_row(0, 4, 49152, true, 2));
  // Sizes around the work-group, every virtual warp, batches smaller than the
  // sources, a graph in two parts: the rows fw's.
  for (int64_t n : {int64_t{1}, int64_t{31}, int64_t{64}, int64_t{150}}) {
    const auto g = ocl_sp_test::random_graph<int32_t>(n, 7);
    const auto want = fw_reference(g);
    for (Tunables t : {Tunables{{"LOCAL_ROW", 2}, {"LANES", 1}}, Tunables{{"LOCAL_ROW", 2}, {"LANES", 1}, {"WG", 32}, {"BATCH", 64}},
                       Tunables{{"LOCAL_ROW", 2}, {"LANES", 1}, {"VW", 32}, {"WG", 64}, {"DELTA", 25}}}) {
      CAPTURE(n);
      CAPTURE(to_string(t));
      auto solver = make_solver<int32_t>(spec(Algo::sssp, t));
      DistMatrix<int32_t> d = g;
      const RunStats st = solver->solve(d, nullptr);
      CHECK(d == want);
      CHECK(st.placement.find("its row in __local memory") != std::string::npos);
    }
  }
}

TEST_CASE("sssp a source a group: a launch's queues over several buffers, the same bytes at every seam") {
  // sssp_near_far's queues in up to four buffers (sssp.cl GROUP_SCRATCH; at most
  // K sources a buffer, OCL_SP_SOURCES_PER_BUFFER, and at least a quarter of the
  // launch): launches of 16 sources in buffers of 5, 5, 5, 1 (150 sources: a last
  // launch of 6 in two buffers) or 7, 7, 2 or 4 x 4, of 32 in 4 x 8, and one
  // buffer (PoCL's largest allocation holds them), one device and split in two. int32 rows equal fw's, float32 rows the serial
  // engine's bits, and --stats --sources' figures (reduced on the device) the
  // serial engine's, for 150 sources (negative weights: Johnson's raw rows) and a
  // list with repeats (the weights' magnitudes: rows as the output writes them).
  const auto g = ocl_sp_test::random_graph<int32_t>(150, 3);
  const auto want = fw_reference(g);
  DistMatrix<int32_t> pos = g;
  for (int32_t& x : pos.values())
    if (x != ValueTraits<int32_t>::inf) x = std::abs(x);
  const auto want_pos = fw_reference(pos);
  const Csr<int32_t> c = csr_from_matrix(pos);
  REQUIRE(csr_from_matrix(g).has_negative_weight());
  REQUIRE(!c.has_negative_weight());
  const auto gf = ocl_sp_test::random_graph<float>(97, 41, true);
  const Csr<float> cf = csr_from_matrix(gf);
  const auto serial_f = rows_of(cpu_spec(Backend::serial), cf, {}).first;
  const std::vector<int64_t> list = {149, 3, 77, 3, 0, 120, 64, 65, 66, 12, 149};
  StatsSink<int32_t> ref(c.n, list);
  std::vector<std::string> notes;
  make_sssp_solver<int32_t>(cpu_spec(Backend::serial))->solve_stats_rows(c, list, ref, ref, notes);
  for (const std::string per_buffer : {"5", "7", "1", ""}) {
    setenv("OCL_SP_SOURCES_PER_BUFFER", per_buffer.c_str(), 1);
    for (const int batch : {16, 32}) {
      for (const int split : {1, 2}) {
        CAPTURE(per_buffer);
        CAPTURE(batch);
        CAPTURE(split);
        SolverSpec s = spec(Algo::sssp, {{"LANES", 1}, {"BATCH", batch}, {"WG", 64}});
        s.split = split;
        DistMatrix<int32_t> d = g;
        const RunStats st = make_solver<int32_t>(s)->solve(d, nullptr);
        CHECK(d == want);
        // One buffer: sssp_near_far; several: sssp_near_far_bufs (the buffer
        // picked in the kernel costs the one-buffer case 9-15 % on an H100).
        const bool one = per_buffer.empty();
        CHECK(st.kernel_seconds.count("sssp_near_far") == (one ? 1u : 0u));
        CHECK(st.kernel_seconds.count("sssp_near_far_bufs") == (one ? 0u : 1u));
        const auto [rows, placement] = rows_of(s, c, list);
        CHECK(placement.find("a source a group") != std::string::npos);
        std::vector<int32_t> fw;
        for (int64_t r : list) fw.insert(fw.end(), want_pos.data() + r * c.n, want_pos.data() + (r + 1) * c.n);
        CHECK(rows == fw);
        CHECK(rows_of(s, cf, {}).first == serial_f);
        StatsSink<int32_t> got(c.n, list);
        notes.clear();
        make_sssp_solver<int32_t>(s)->solve_stats_rows(c, list, got, got, notes);
        const VertexStats &a = got.vertices(), &b = ref.vertices();
        CHECK(a.reach == b.reach);
        CHECK(a.eccentricity == b.eccentricity);
        CHECK(a.sum_from == b.sum_from);
        CHECK(a.closeness == b.closeness);
        CHECK(a.harmonic == b.harmonic);
      }
    }
  }
  unsetenv("OCL_SP_SOURCES_PER_BUFFER");
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
