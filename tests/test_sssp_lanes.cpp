// The multi-source engine's lanes (kernels/sssp.cl sssp_lanes, host/sparse/
// opencl_sssp_lanes.cpp): sources side by side in a work-group equal fw and the
// serial engine for every lane count, group size, buffer and slot seam; rows
// transposed on the device and chosen by the mean degree; the output's unreachable
// value written on the device; a group's sources a block of the graph; the plan;
// rows in 16 lanes of their own program (ROW_LANES) and its plan.
#include <doctest/doctest.h>

#include "test_sssp_common.hpp"

using namespace ocl_sp;
using namespace ocl_sp_test::sssp;

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

TEST_CASE("sssp rows in lanes: transposed on the device, equal to fw and the serial engine at every seam") {
  // Lattices of 169 (not a multiple of 8 or 16) and 144 vertices, a lattice with a
  // negative edge (Johnson); all sources and a list of 38 with repeats in its
  // order; batches of 16 (169 = 10 x 16 + 9: a last group of one source) and 32
  // (16 lanes: a last batch of 9, mid-group; split shares end mid-group); one group a
  // buffer (the buffers' seams); one device (pinned slots: a launch read back in
  // batches of at most 8 or 5 sources, OCL_SP_LANE_SLOT_SOURCES: the next launch's
  // search beside them; 5 not dividing 16: launches of 15) and split in two
  // (run()); 16 lanes in rows' own program (ROW_LANES=16, --stats' program 8).
  // int32 rows equal fw's and the serial engine's byte for byte.
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
                              Tunables{{"LANES", 16}, {"BATCH", 32}, {"LANE_WG", 64}},
                              Tunables{{"ROW_LANES", 16}, {"BATCH", 32}}}) {
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
            if (t.count("ROW_LANES"))
              CHECK(placement.find("16 sources a group, rows transposed on the device (the rows' own program") !=
                    std::string::npos);
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
  // source a group (its rows stay in the cache); LANES=1 and LANES=8 force either. float32 and float64 rows
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
  // A handful of sources (fewer than 8 a compute unit) take a source a group on
  // the lattice too, unless LANES=8 is given; the same rows either way.
  const std::vector<int64_t> few = {5, 160, 5, 77, 0};
  const auto [few_rows, few_where] = rows_of(spec(Algo::sssp, {}), lat, few);
  CHECK(few_where.find("a source a group: mean degree 3.69 <= 5, but 5 sources fill fewer than ") !=
        std::string::npos);
  const auto [forced_rows, forced_where] = rows_of(spec(Algo::sssp, {{"LANES", 8}}), lat, few);
  CHECK(forced_where.find("8 sources a group, rows transposed on the device: LANES=8)") != std::string::npos);
  CHECK(few_rows == forced_rows);
  CHECK(few_rows == rows_of(cpu_spec(Backend::serial), lat, few).first);
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

TEST_CASE("sssp rows in lanes: 16 a group in a program of their own (ROW_LANES), the bytes of serial and 8 lanes") {
  // ROW_LANES=16 (the GPUs' default for shallow searches of a mean degree past 5;
  // the lattices' seams in the test above): a random graph of degree ~12 (150
  // vertices, not a multiple of 16), all rows and a list of 17 (repeats, out of
  // order: one past a group of 16), alone and beside LANES=8 in batches of 32 with
  // one group a buffer, on one device and split in two: int32 rows equal the serial
  // engine's, float32 and float64 rows LANES=8's bits. The placement line names
  // the program; ROW_LANES takes 4-32.
  const Csr<int32_t> dense = csr_from_matrix(ocl_sp_test::random_graph<int32_t>(150, 9, false, 12.0));
  std::vector<int64_t> list;
  for (int64_t k = 0; k < 16; ++k) list.push_back((k * 37 + 11) % 150);
  list.push_back(list[5]);
  const Tunables alone{{"ROW_LANES", 16}}, beside{{"ROW_LANES", 16}, {"LANES", 8}, {"BATCH", 32}};
  const auto same_rows = [&](const Tunables& t, int split, const std::vector<int64_t>& src) {
    CAPTURE(to_string(t));
    CAPTURE(split);
    CAPTURE(src.size());
    SolverSpec s = spec(Algo::sssp, t);
    s.split = split;
    const auto [got, placement] = rows_of(s, dense, src);
    CHECK(placement.find("16 sources a group, rows transposed on the device (the rows' own program, groups of 64 "
                         "work-items; 8 for figures): ROW_LANES=16)") != std::string::npos);
    CHECK(got == rows_of(cpu_spec(Backend::serial), dense, src).first);
  };
  setenv("OCL_SP_LANE_GROUPS_PER_BUFFER", "1", 1);
  same_rows(alone, 1, {});
  same_rows(alone, 2, list);
  same_rows(beside, 1, list);
  same_rows(beside, 2, {});
  unsetenv("OCL_SP_LANE_GROUPS_PER_BUFFER");
  const auto check_bits = [&](auto zero) {
    using T = decltype(zero);
    const Csr<T> c = csr_from_matrix(ocl_sp_test::random_graph<T>(131, 17, true, 12.0));
    for (int split : {1, 2}) {
      CAPTURE(split);
      SolverSpec sixteen = spec(Algo::sssp, {{"ROW_LANES", 16}}), eight = spec(Algo::sssp, {{"LANES", 8}});
      sixteen.split = eight.split = split;
      const auto a = rows_of(sixteen, c, list).first, b = rows_of(eight, c, list).first;
      REQUIRE(a.size() == b.size());
      CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
    }
  };
  check_bits(0.0f);
  check_bits(0.0);
  CHECK_THROWS_AS(make_solver<int32_t>(spec(Algo::sssp, {{"ROW_LANES", 12}})), UsageError);
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

namespace {

// An H100-like device for the planner: 132 compute units, 80 GB, a quarter of it
// the largest allocation, groups up to 1024.
SsspDeviceShape h100_shape() {
  SsspDeviceShape d;
  d.budget = 80ull << 30;
  d.max_alloc = 20ull << 30;
  d.compute_units = 132;
  d.max_work_group = 1024;
  return d;
}

// The engine's tunables as the defaults leave them (0: the plan chooses).
Tunables default_sssp_tunables() {
  return {{"WG", 1024}, {"DELTA", 0}, {"BATCH", 0}, {"VW", 0}, {"LANES", 0}, {"LANE_WG", 0}};
}

// A graph of n vertices and mean degree `degree` (weights 50 on average) whose
// breadth-first search from vertex 0 reached `reached` vertices in `levels` levels.
SsspGraphShape shallow_shape(int64_t n, double degree, int64_t levels, int64_t reached) {
  SsspGraphShape g;
  g.n = n;
  g.m = static_cast<int64_t>(degree * static_cast<double>(n));
  g.mean_weight = 50;
  g.depth = {levels, reached};
  return g;
}

}  // namespace

TEST_CASE("sssp plan: bucket widths, batches and lanes groups within the device's memory") {
  // An H100-like device (132 compute units, 80 GB, a quarter of it the largest
  // allocation) and the 1000 x 1000 grid: 56 MB a group of 8 (32 MB distances,
  // 24 MB queues), so fewer groups fit than 132 x 16 resident groups of 128:
  // groups of 256 instead, a launch of 132 x 8 groups.
  SsspGraphShape grid;
  grid.n = 1000000;
  grid.m = 3996000;
  grid.mean_weight = 50.5;
  const SsspDeviceShape h100 = h100_shape();
  const Tunables t = default_sssp_tunables();
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
  // A source a group: the queues in up to four buffers, so a launch is the wanted
  // 132 x 2 x 4 sources, not the 894 of one buffer (the largest allocation).
  CHECK(p.batch_sources == 132 * 2 * 4);
  // The 2^24-vertex geometric graph in int64 (532 MB a source: 400 MB of queues,
  // 134 MB of distances): the device's memory bounds a launch (141 sources), not
  // one buffer of queues (53) nor the distances' one buffer (160).
  SsspGraphShape geo;
  geo.n = int64_t{1} << 24;
  geo.m = 118340736;
  geo.mean_weight = 50.5;
  geo.value_bytes = 8;
  const SsspPlan big = plan_sssp(geo, h100, t, 8, 128);
  CHECK(big.per_source == (uint64_t{1} << 24) * (8 + 24) + 4);
  CHECK(big.batch_sources == static_cast<int64_t>(((80ull << 30) * 9 / 10 - big.graph_bytes) / big.per_source));
  CHECK(big.batch_sources == 141);
  // Memory bounds that launch: no room for a second distance buffer (rows read
  // beside the next launch); the grid's launch of 1 056 sources leaves room.
  CHECK_FALSE(big.dist_twice);
  CHECK(p.dist_twice);
  // The bucket width a source a group: the degree's (16000 / 7.05^2 = 322 %) where
  // the depth is not measured or the searches are shallow, at least 800 % where the
  // breadth-first search passed 2 log2 n levels; DELTA as given either way.
  CHECK(big.percent == doctest::Approx(16000.0 / (7.0534 * 7.0534)).epsilon(0.001));
  SsspGraphShape deep = geo;
  deep.depth = SsspHopDepth{sssp_shallow_levels(geo.n), geo.n / 4};
  CHECK(plan_sssp(deep, h100, t, 8, 128).percent == doctest::Approx(big.percent));
  deep.depth.levels += 1;
  CHECK(plan_sssp(deep, h100, t, 8, 128).percent == doctest::Approx(kSsspDeepPercent));
  CHECK(plan_sssp(deep, h100, t, 8, 128).percent_lanes == doctest::Approx(big.percent_lanes));
  Tunables delta = t;
  delta["DELTA"] = 200;
  CHECK(plan_sssp(deep, h100, delta, 8, 128).percent == doctest::Approx(200.0));
  // A largest allocation of 4 GiB: int64 distances' one buffer holds 32 rows,
  // four buffers of queues 40 sources; int32 rows 64, so the queues bound it.
  SsspDeviceShape narrow = h100;
  narrow.max_alloc = 4ull << 30;
  CHECK(plan_sssp(geo, narrow, t, 8, 128).batch_sources == 32);
  geo.value_bytes = 4;
  CHECK(plan_sssp(geo, narrow, t, 8, 128).batch_sources == 4 * 10);
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

TEST_CASE("sssp plan: rows in lanes where they pay (low degree, or shallow searches with a wave's rows past the cache)") {
  // The H100 of the plan test, groups of 1024 a source (264 resident): the
  // 316 x 316 grid takes lanes (degree 4); random degree 20 at n = 10^5 too (5
  // levels, a wave's rows 106 MB past 48 MiB) but not at n = 10^4 (10.6 MB);
  // geometric degree 7.1 (322 levels) never; float64 rows pass the cache at half
  // the n; a search reaching too few vertices or not measured: a source a group;
  // LANES=1 / 8 as given; no room for a group's rows beside it: a source a group.
  const SsspDeviceShape h100 = h100_shape();
  const Tunables t = default_sssp_tunables();
  const auto shape = [](int64_t n, double degree, int64_t levels, size_t bytes = 4) {
    SsspGraphShape g;
    g.n = n;
    g.m = static_cast<int64_t>(degree * static_cast<double>(n));
    g.mean_weight = 50;
    g.value_bytes = bytes;
    g.depth = {levels, n};
    return g;
  };
  const auto plan = [&](const SsspGraphShape& g, const Tunables& tt = {}) {
    Tunables all = t;
    for (const auto& [k, v] : tt) all[k] = v;
    return plan_sssp(g, h100, all, 8, 128);
  };
  CHECK(sssp_shallow_levels(100000) == 34);
  CHECK(sssp_shallow_levels(1) == 0);
  const SsspPlan grid = plan(shape(99856, 3.99, -1));
  CHECK(grid.lanes_rows);
  CHECK(grid.lanes_rows_reason == "mean degree 3.99 <= 5");
  const SsspPlan big = plan(shape(100000, 20, 5));
  CHECK(big.lanes_rows);
  CHECK(big.lanes_rows_reason ==
        "mean degree 20.00 > 5, searches shallow (5 levels), a wave's rows a source a group 106 MB > 50 MB");
  CHECK(plan(shape(100000, 8, 34)).lanes_rows);
  CHECK_FALSE(plan(shape(100000, 8, 35)).lanes_rows);
  const SsspPlan small = plan(shape(10000, 20, 4));
  CHECK_FALSE(small.lanes_rows);
  CHECK(small.lanes_rows_reason ==
        "mean degree 20.00 > 5, searches shallow (4 levels), a wave's rows a source a group 11 MB <= 50 MB");
  SsspGraphShape deep = shape(100000, 7.06, 35);
  deep.depth.reached = 3000;  // stopped past the levels, far from half the vertices
  const SsspPlan geometric = plan(deep);
  CHECK_FALSE(geometric.lanes_rows);
  CHECK(geometric.lanes_rows_reason == "mean degree 7.06 > 5, searches deep (more than 34 levels)");
  SsspGraphShape few = shape(100000, 20, 3);
  few.depth.reached = 49999;
  CHECK_FALSE(plan(few).lanes_rows);
  CHECK(plan(few).lanes_rows_reason == "mean degree 20.00 > 5, a search from vertex 0 reaches 49999 of 100000 vertices");
  few.depth.reached = 50000;
  CHECK(plan(few).lanes_rows);
  CHECK_FALSE(plan(shape(100000, 20, -1)).lanes_rows);
  CHECK(plan(shape(100000, 20, -1)).lanes_rows_reason == "mean degree 20.00 > 5, search depth not measured");
  CHECK_FALSE(plan(shape(30000, 20, 5)).lanes_rows);  // 32 MB of int32
  CHECK(plan(shape(30000, 20, 5, 8)).lanes_rows);     // 63 MB of float64
  CHECK_FALSE(plan(shape(100000, 20, 5), {{"LANES", 1}}).lanes_rows);
  CHECK(plan(shape(100000, 20, 5), {{"LANES", 1}}).lanes_rows_reason == "LANES=1");
  CHECK(plan(shape(10000, 20, 4), {{"LANES", 8}}).lanes_rows);
  SsspDeviceShape tight = h100;  // 8.1 MB past the graph: a group (5.6 MB), not its rows (3.2 MB more)
  tight.budget = 26ull << 20;
  Tunables push_only = t;  // the graph without its in-edges (pull rounds: sssp plan: pull rounds ...)
  push_only["PULL"] = 100;
  const SsspPlan none = plan_sssp(shape(100000, 20, 5), tight, push_only, 8, 128);
  REQUIRE(none.lane_groups_max >= 1);
  CHECK(none.lane_groups_rows == 0);
  CHECK_FALSE(none.lanes_rows);
  CHECK(none.lanes_rows_reason.find("but no group's rows fit beside it") != std::string::npos);
}

TEST_CASE("sssp plan: pull rounds in the dense middle of shallow searches (PULL)") {
  // PULL=0: sssp_lanes pulls past kSsspPullShallow % of the vertices where the
  // mean degree passes 5 and searches are shallow (random degree 20, n = 10^5 or
  // 10^4), not on the grid (degree 4), a geometric graph (deep) or where the depth
  // was not measured; PULL=1-50 as given on any graph, 100 never. The graph's
  // bytes count its in-edges where it pulls.
  const SsspDeviceShape h100 = h100_shape();
  const auto shape = shallow_shape;
  const auto pull = [&](const SsspGraphShape& g, int given = 0) {
    Tunables t = default_sssp_tunables();
    t["PULL"] = given;
    return plan_sssp(g, h100, t, 8, 128);
  };
  CHECK(kSsspPullShallow == 50);
  // __local bytes: the bitmap in whole 8-byte words, a tile of 8 KiB and its offsets.
  CHECK(sssp_pull_local_bytes(100000, 8, 4) == 3126 * 4 + 8192 + 257 * 4);
  CHECK(sssp_pull_local_bytes(1, 8, 4) == 2 * 4 + 8192 + 257 * 4);
  CHECK(sssp_pull_local_bytes(64, 8, 8) == 2 * 4 + 8192 + 129 * 4);
  CHECK(sssp_pull_local_bytes(65, 16, 4) == 4 * 4 + 8192 + 129 * 4);
  const SsspPlan random5 = pull(shape(100000, 20, 5, 100000));
  CHECK(random5.pull == 50);
  CHECK(random5.graph_bytes == 2 * (100001ull * 4 + 2000000ull * 8));
  CHECK(pull(shape(10000, 20, 4, 10000)).pull == 50);
  CHECK(pull(shape(99856, 3.99, -1, 0)).pull == 0);             // the grid
  CHECK(pull(shape(99856, 3.99, -1, 0)).graph_bytes == 99857ull * 4 + 398425ull * 8);
  CHECK(pull(shape(100000, 7.06, 35, 3000)).pull == 0);         // geometric: deep
  CHECK(pull(shape(100000, 20, 3, 49999)).pull == 0);           // half the vertices not reached
  CHECK(pull(shape(100000, 20, -1, 0)).pull == 0);              // not measured
  CHECK(pull(shape(99856, 3.99, -1, 0), 10).pull == 10);
  CHECK(pull(shape(100000, 20, 5, 100000), 1).pull == 1);
  CHECK(pull(shape(100000, 20, 5, 100000), 100).pull == 0);
  CHECK(pull(shape(100000, 20, 5, 100000), 100).graph_bytes == 100001ull * 4 + 2000000ull * 8);
  // Where rounds pull by default, lanes groups of twice the built size on GPUs
  // (H100, random degree 20 n = 10^5: 5.49 s in 128, 5.22 s in 256): a wave of
  // 132 x 8 groups; not where PULL or LANE_WG is given, nor on a CPU, nor where
  // nothing pulls.
  CHECK(random5.lane_wg == 256);
  CHECK(random5.lane_groups == 132 * 8);
  CHECK(pull(shape(100000, 20, 5, 100000), 50).lane_wg == 128);
  CHECK(pull(shape(100000, 20, 5, 100000), 100).lane_wg == 128);
  CHECK(pull(shape(99856, 3.99, -1, 0)).lane_wg == 128);
  CHECK(pull(shape(100000, 7.06, 35, 3000)).lane_wg == 128);
  Tunables given = default_sssp_tunables();
  given["PULL"] = 0;
  given["LANE_WG"] = 128;
  CHECK(plan_sssp(shape(100000, 20, 5, 100000), h100, given, 8, 128).lane_wg == 128);
  SsspDeviceShape cpu = h100;
  cpu.gpu = false;
  given["LANE_WG"] = 0;
  CHECK(plan_sssp(shape(100000, 20, 5, 100000), cpu, given, 8, 64).lane_wg == 64);
}

TEST_CASE("sssp plan: rows of shallow searches in 16 lanes of their own program on GPUs (ROW_LANES)") {
  // ROW_LANES=0 with LANES=0: 16 lanes in groups of 256, no pull rounds, where the
  // mean degree passes 5 and searches are shallow on a GPU (random degree 20 at n =
  // 10^5); not on the grid, a geometric graph, a CPU, nor where LANES is given.
  // ROW_LANES as given on any device (groups of the built size on a CPU); LANE_WG
  // and PULL 1-99 as given. The plan of that program: groups of 16 lanes, a wave
  // of 132 x 8 groups of 256, the graph's in-edges counted where the LANES
  // program pulls (SsspGraphShape::in_edges), no pull rounds of its own.
  const SsspDeviceShape h100 = h100_shape();
  const auto shape = shallow_shape;
  const auto with = [](const Tunables& tt) {
    Tunables t = default_sssp_tunables();
    t["PULL"] = 0;
    t["ROW_LANES"] = 0;
    for (const auto& [k, v] : tt) t[k] = v;
    return t;
  };
  CHECK(kSsspRowLanes == 16);
  CHECK(kSsspRowLaneWg == 256);
  const SsspGraphShape random5 = shape(100000, 20, 5, 100000);
  CHECK(sssp_shallow_searches(random5));
  const SsspRowProgram r = sssp_row_program(random5, h100, with({}), 128);
  CHECK(r.lanes == 16);
  CHECK(r.t.at("LANES") == 16);
  CHECK(r.t.at("LANE_WG") == 256);
  CHECK(r.t.at("PULL") == 100);
  CHECK(r.t.at("ROW_LANES") == 0);
  CHECK(sssp_row_program(shape(99856, 3.99, -1, 0), h100, with({}), 128).lanes == 0);      // the grid
  CHECK(sssp_row_program(shape(100000, 7.06, 35, 3000), h100, with({}), 128).lanes == 0);  // geometric: deep
  CHECK(sssp_row_program(shape(100000, 20, -1, 0), h100, with({}), 128).lanes == 0);       // not measured
  CHECK(sssp_row_program(random5, h100, with({{"LANES", 8}}), 128).lanes == 0);
  CHECK(sssp_row_program(random5, h100, with({{"LANES", 1}}), 128).lanes == 0);
  SsspDeviceShape cpu = h100;
  cpu.gpu = false;
  CHECK(sssp_row_program(random5, cpu, with({}), 64).lanes == 0);
  const SsspRowProgram forced = sssp_row_program(shape(99856, 3.99, -1, 0), cpu, with({{"ROW_LANES", 16}}), 64);
  CHECK(forced.lanes == 16);
  CHECK(forced.t.at("LANE_WG") == 64);
  CHECK(sssp_row_program(random5, h100, with({{"ROW_LANES", 32}, {"LANES", 8}}), 128).lanes == 32);
  CHECK(sssp_row_program(random5, h100, with({{"LANE_WG", 128}}), 128).t.at("LANE_WG") == 128);
  CHECK(sssp_row_program(random5, h100, with({{"PULL", 30}}), 128).t.at("PULL") == 30);
  CHECK(sssp_row_program(random5, h100, with({{"PULL", 100}}), 128).t.at("PULL") == 100);
  SsspDeviceShape small_groups = h100;
  small_groups.max_work_group = 128;
  CHECK(sssp_row_program(random5, small_groups, with({}), 128).t.at("LANE_WG") == 128);
  // The LANES program pulls there (its in-edges on the device); the rows' program
  // counts them and does not pull.
  const SsspPlan eight = plan_sssp(random5, h100, with({}), 8, 128);
  REQUIRE(eight.pull == 50);
  REQUIRE(eight.lanes_rows);
  SsspGraphShape rows_shape = random5;
  rows_shape.in_edges = true;
  const SsspPlan p = plan_sssp(rows_shape, h100, r.t, r.lanes, 256);
  CHECK(p.pull == 0);
  CHECK(p.graph_bytes == eight.graph_bytes);
  CHECK(p.graph_bytes == 2 * (100001ull * 4 + 2000000ull * 8));
  CHECK(p.lane_wg == 256);
  CHECK(p.lane_groups == 132 * 8);
  CHECK(p.lane_groups_rows == 132 * 8);  // 6.8 GB of rows, within 8 GiB
  CHECK(p.per_group == 100000ull * (16 * 4 + 24) + 16 * (4 + 32));
  CHECK(p.lane_buffer_unit == 100000ull * 16 * 4);
  CHECK(plan_sssp(random5, h100, r.t, r.lanes, 256).graph_bytes == 100001ull * 4 + 2000000ull * 8);
  // ROW_LANES given: rows in lanes whatever the graph (the reason says so).
  const SsspPlan asked = plan_sssp(shape(10000, 20, 4, 10000), h100, with({{"ROW_LANES", 16}}), 8, 128);
  CHECK(asked.lanes_rows);
  CHECK(asked.lanes_rows_reason == "ROW_LANES=16");
  CHECK_FALSE(plan_sssp(shape(10000, 20, 4, 10000), h100, with({}), 8, 128).lanes_rows);
}

TEST_CASE("sssp plan: the search depth of generated graphs (shallow random, deep geometric and grid)") {
  // Breadth-first levels from vertex 0 to half the vertices, stopping past the
  // limit: random graphs of degree 8 and 20 get there within 2 log2 n levels, a
  // geometric one and a lattice do not (the search stops at limit + 1 having
  // reached a part of the graph); out-edges only; a vertex with none: 0 levels,
  // itself reached; a long path hanging off a shallow core does not make it deep.
  const auto depth = [](GraphFamily f, int64_t n, int64_t degree) {
    GeneratorParams p;
    p.n = n;
    p.seed = 7;
    p.family = f;
    p.degree = degree;
    const Csr<int32_t> g = build_csr<int32_t>(generate_graph(p));
    return sssp_hop_depth(g.off.data(), g.col.data(), g.n, 0, sssp_shallow_levels(g.n), (g.n + 1) / 2);
  };
  const SsspHopDepth r20 = depth(GraphFamily::random, 20000, 20), r8 = depth(GraphFamily::random, 20000, 8);
  CHECK(r20.levels >= 3);
  CHECK(r20.levels <= 5);
  CHECK(r20.reached >= 10000);
  CHECK(r8.levels <= 8);
  CHECK(r8.reached >= 10000);
  const SsspHopDepth geo = depth(GraphFamily::geometric, 20000, 6), grid = depth(GraphFamily::grid, 20000, 0);
  CHECK(geo.levels == sssp_shallow_levels(20000) + 1);
  CHECK(geo.reached < 5000);
  CHECK(grid.levels == sssp_shallow_levels(19881) + 1);
  CHECK(grid.reached < 2000);
  const Csr<int32_t> lat = csr_from_matrix(lattice(5));
  const SsspHopDepth full = sssp_hop_depth(lat.off.data(), lat.col.data(), lat.n, 0, 100, 25);
  CHECK(full.levels == 8);  // corner to corner of a 5 x 5 lattice
  CHECK(full.reached == 25);
  const SsspHopDepth part = sssp_hop_depth(lat.off.data(), lat.col.data(), lat.n, 0, 100, 13);
  CHECK(part.levels == 4);  // 1 + 2 + 3 + 4 + 5 = 15 vertices within 4 hops of the corner
  CHECK(part.reached == 15);
  const int64_t off[3] = {0, 0, 1};
  const int32_t col[1] = {0};
  CHECK(sssp_hop_depth(off, col, 2, 0, 10, 1).levels == 0);
  CHECK(sssp_hop_depth(off, col, 2, 0, 10, 2).reached == 1);
  CHECK(sssp_hop_depth(off, col, 2, 1, 10, 2).reached == 2);
  // Vertex 0 to 1..10, then a path 10 -> 11 -> ... -> 29: half (15) at level 5,
  // the end at level 20.
  std::vector<int64_t> o(31, 0);
  std::vector<int32_t> c;
  for (int32_t v = 1; v <= 10; ++v) c.push_back(v);
  o[1] = 10;
  for (int32_t v = 1; v < 30; ++v) {
    if (v >= 10) c.push_back(v + 1 < 30 ? v + 1 : 0);
    o[static_cast<size_t>(v) + 1] = static_cast<int64_t>(c.size());
  }
  CHECK(sssp_hop_depth(o.data(), c.data(), 30, 0, 10, 15).levels == 5);
  CHECK(sssp_hop_depth(o.data(), c.data(), 30, 0, 10, 30).levels == 11);  // past the limit
  CHECK(sssp_hop_depth(o.data(), c.data(), 30, 0, 100, 30).levels == 20);
}

