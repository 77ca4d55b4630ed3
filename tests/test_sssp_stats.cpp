// --stats on the multi-source engine: the device's one pass (rows and columns
// reduced there) and the CPU engines' columns gathered from the forward rows give
// the bytes of the host's reduction on every placement, integer and real weights.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "test_sssp_common.hpp"

using namespace ocl_sp;
using namespace ocl_sp_test::sssp;

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
  StatsSink<int32_t> chosen(g.n, {0, 1, 2});
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

TEST_CASE("--stats --sources: the sources' lines of full --stats, bit for bit, from their rows alone") {
  // Row r of a sink built with sources is sources[r] (repeats kept): its forward
  // row and its row of the reversed graph give exactly the figures full --stats
  // gives that vertex (integer sums are exact; harmonic in vertex order, as the
  // columns add it in source order), on the CPU engines and PoCL (rows reduced on
  // the device), with negative weights and unreachable vertices; 2K rows solved,
  // not n; the summary counts each distinct source once. fw's matrix gives the
  // same lines (stats_from_matrix picks the rows and columns), and
  // vertex_figures picks them from every vertex's figures.
  DistMatrix<int32_t> m = ocl_sp_test::random_graph<int32_t>(71, 9);
  for (int64_t j = 0; j < 71; ++j)
    if (j != 4) m(4, j) = ValueTraits<int32_t>::inf;  // 4 reaches nothing but itself
  const Csr<int32_t> g = csr_from_matrix(m);
  REQUIRE(g.has_negative_weight());
  const std::vector<int64_t> sources = {70, 4, 0, 9, 4, 33};
  StatsSink<int32_t> full(g.n);
  std::vector<std::string> notes;
  make_sssp_solver<int32_t>(cpu_spec(Backend::serial))->solve_stats_rows(g, {}, full, full, notes);
  const VertexStats& w = full.vertices();
  const auto check_lines = [&](const StatsSink<int32_t>& s, const VertexStats& want) {
    const VertexStats& v = s.vertices();
    REQUIRE(v.reach.size() == sources.size());
    CHECK(v.vertex == sources);
    for (size_t r = 0; r < sources.size(); ++r) {
      CAPTURE(r);
      const size_t x = static_cast<size_t>(sources[r]);
      CHECK(v.reach[r] == want.reach[x]);
      CHECK(v.eccentricity[r] == want.eccentricity[x]);
      CHECK(v.sum_from[r] == want.sum_from[x]);
      CHECK(v.closeness[r] == want.closeness[x]);
      CHECK(v.harmonic[r] == want.harmonic[x]);
    }
  };
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    const SolverSpec sp = k == 0 ? cpu_spec(Backend::serial) : k == 1 ? cpu_spec(Backend::openmp) : spec(Algo::sssp, {});
    for (bool negative : {true, false}) {
      CAPTURE(negative);
      DistMatrix<int32_t> mm = m;
      if (!negative)
        for (int32_t& x : mm.values())
          if (x != ValueTraits<int32_t>::inf) x = std::abs(x);
      const Csr<int32_t> gg = csr_from_matrix(mm);
      StatsSink<int32_t> ref(gg.n);
      notes.clear();
      make_sssp_solver<int32_t>(cpu_spec(Backend::serial))->solve_stats_rows(gg, {}, ref, ref, notes);
      StatsSink<int32_t> s(gg.n, sources);
      notes.clear();
      const RunStats st = make_sssp_solver<int32_t>(sp)->solve_stats_rows(gg, sources, s, s, notes);
      CHECK(st.relaxations == 2 * sssp_relaxations(static_cast<int64_t>(sources.size()), gg.m()));
      check_lines(s, ref.vertices());
    }
  }
  StatsSink<int32_t> s(g.n, sources);
  notes.clear();
  make_sssp_solver<int32_t>(cpu_spec(Backend::openmp))->solve_stats_rows(g, sources, s, s, notes);
  const GraphStats gs = s.summary();
  CHECK(gs.sources == 5);
  long long pairs = 0;
  double diameter = 0, radius = 1e300;
  for (int64_t v : {70, 4, 0, 9, 33}) {
    pairs += w.reach[static_cast<size_t>(v)] - 1;
    diameter = std::max(diameter, w.eccentricity[static_cast<size_t>(v)]);
    radius = std::min(radius, w.eccentricity[static_cast<size_t>(v)]);
  }
  CHECK(gs.reachable_pairs == pairs);
  CHECK(gs.diameter == diameter);
  CHECK(gs.radius == 0);  // vertex 4 reaches nothing
  CHECK(radius == 0);
  CHECK(full.summary().sources == 0);
  // A sink of other sources than the solve's is a programming error.
  StatsSink<int32_t> other(g.n, {1, 2});
  CHECK_THROWS_AS(make_sssp_solver<int32_t>(cpu_spec(Backend::serial))->solve_stats_rows(g, sources, other, other, notes),
                  std::logic_error);
  CHECK_THROWS_AS(StatsSink<int32_t>(g.n, {71}), UsageError);
  // fw's matrix: the same lines.
  DistMatrix<int32_t> d(g.n);
  {
    MatrixSink<int32_t> ms(d, nullptr);
    make_sssp_solver<int32_t>(cpu_spec(Backend::serial))->solve_rows(g, {}, ms, false);
  }
  StatsSink<int32_t> dense(g.n, sources);
  stats_from_matrix(d, dense);
  check_lines(dense, w);
  // Every vertex's figures, picked.
  std::vector<RowFigures> rowf(static_cast<size_t>(g.n)), colf(static_cast<size_t>(g.n));
  for (int64_t v = 0; v < g.n; ++v) {
    rowf[static_cast<size_t>(v)] = row_figures(d.data() + v * g.n, g.n, false);
    RowFigures c;
    continue_figures(c, d.data() + v, g.n, g.n, true);
    colf[static_cast<size_t>(v)] = c;
  }
  StatsSink<int32_t> picked(g.n, sources);
  picked.set_pass(StatsSink<int32_t>::from);
  picked.vertex_figures(rowf.data());
  picked.set_pass(StatsSink<int32_t>::to);
  picked.vertex_figures(colf.data());
  check_lines(picked, w);
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


TEST_CASE("--stats FILE.json: every figure and the summary read back to the same bits as the csv's") {
  // An int64 graph's eccentricity past 9 digits and closeness' 17: the .json file
  // wrote 9 significant digits (112812051030017 -> 112812051000000).
  VertexStats v;
  v.reach = {299, 1};
  v.eccentricity = {112812051030017.0, 0};
  v.closeness = {1.2480639859476342e-14, 0};
  v.harmonic = {4.0901997959665271e-12, 0};
  GraphStats g;
  g.diameter = 182378120314194.0;
  g.radius = 0;
  g.reachable_pairs = 298;
  g.average_shortest_path_length = 85089778312345.67;
  ocl_sp_test::TempDir dir("ocl_sp_stats_json");
  const std::string path = dir.path() + "/st.json";
  write_stats_file(path, v, g);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* s : {"\"eccentricity\":[112812051030017,0]", "\"closeness\":[1.2480639859476342e-14,0]",
                        "\"harmonic\":[4.0901997959665271e-12,0]", "\"diameter\":182378120314194",
                        "\"average_shortest_path_length\":85089778312345.672"}) {
    CAPTURE(s);
    CHECK(text.find(s) != std::string::npos);
  }
}
