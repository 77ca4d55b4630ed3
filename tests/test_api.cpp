// The public C++ API (include/ocl_sp/ocl_sp.hpp) as a user sees it: this file
// includes nothing else of ocl_sp. Results on every backend (OpenCL on PoCL),
// paths, read_graph, and wrong use: an edge id >= n, a bad device string, a
// negative cycle, bad options — each the documented exception with a clear message.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <random>
#include <string>

#include "ocl_sp/ocl_sp.hpp"

namespace {

// 0 -> 1 (4), 1 -> 2 (-2), 0 -> 2 (5), 2 -> 3 (1), a parallel 2 -> 3 (7); 4 isolated.
const std::vector<ocl_sp::Edge> kEdges{{0, 1, 4}, {1, 2, -2}, {0, 2, 5}, {2, 3, 1}, {2, 3, 7}};

template <typename T>
void check_small(const ocl_sp::Result<T>& r) {
  REQUIRE(r.n == 5);
  REQUIRE(r.distances.size() == 25);
  CHECK(r(0, 0) == 0);
  CHECK(r(0, 2) == 2);
  CHECK(r(0, 3) == 3);
  CHECK(r(1, 3) == -1);
  CHECK(r(3, 0) == ocl_sp::unreachable<T>());
  CHECK(r(0, 4) == ocl_sp::unreachable<T>());
}

// The message of the ocl_sp::Error f throws ("" when it throws nothing).
template <typename F>
std::string error_of(const F& f) {
  try {
    f();
  } catch (const ocl_sp::NegativeCycle&) {
    return "negative cycle (unexpected)";
  } catch (const ocl_sp::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE("api") {
  TEST_CASE("api: all_pairs on every backend, int32 and float") {
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Options o;
      o.backend = backend;
      if (std::string(backend) == "opencl") o.device = "pocl";
      const auto r = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
      check_small(r);
      CHECK(r(3, 0) == ocl_sp::kInt32Unreachable);
      CHECK(r.algorithm == "fw");
      CHECK(r.backend == backend);
      CHECK(r.timings.total >= r.timings.solve);
      CHECK(r.relaxations > 0);
      const auto f = ocl_sp::all_pairs<float>(5, kEdges, o);
      check_small(f);
      CHECK(std::isinf(f(3, 0)));
      const auto l = ocl_sp::all_pairs<int64_t>(5, kEdges, o);
      check_small(l);
      CHECK(l(3, 0) == ocl_sp::kInt64Unreachable);
      const auto d = ocl_sp::all_pairs<double>(5, kEdges, o);
      check_small(d);
      CHECK(std::isinf(d(3, 0)));
      // Weights a float32 cannot hold, sums an int32 cannot: exact in double / int64.
      const auto fine = ocl_sp::all_pairs<double>(3, {{0, 1, 0.1}, {1, 2, 0.2}}, o);
      CHECK(fine(0, 2) == 0.1 + 0.2);
      const auto big = ocl_sp::all_pairs<int64_t>(3, {{0, 1, 1e12}, {1, 2, 3}}, o);
      CHECK(big(0, 2) == 1000000000003LL);
    }
  }

  TEST_CASE("api: OpenCL timings split context from programs; algorithm and params") {
    ocl_sp::Options o;
    o.device = "pocl";
    o.algo = "squaring";
    o.wg = 8;
    const auto r = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
    check_small(r);
    CHECK(r.algorithm == "squaring");
    CHECK(contains(r.params, "WG=8"));
    CHECK(r.params_source == "command line");
    CHECK(r.timings.context > 0);
    CHECK(r.timings.programs > 0);
    CHECK(r.timings.setup >= r.timings.context + r.timings.programs);
    CHECK((r.program_cache == "hit" || r.program_cache == "miss"));
  }

  TEST_CASE("api: progress callback and the panel engine's placement") {
    ocl_sp::Options o;
    o.device = "pocl";
    o.panel = 128;  // forces panels: the solve runs the panel engine's progress meter
    std::vector<double> seen;
    std::mutex m;
    o.progress = [&](double f) {
      std::lock_guard<std::mutex> lock(m);
      seen.push_back(f);
    };
    const auto r = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
    check_small(r);
    CHECK(r.placement.rfind("resident panels", 0) == 0);
    REQUIRE(!seen.empty());
    CHECK(seen.back() == 1.0);
    for (size_t i = 0; i < seen.size(); ++i) {
      CHECK(seen[i] >= 0.0);
      CHECK(seen[i] <= 1.0);
      if (i) CHECK(seen[i] >= seen[i - 1]);
    }
  }

  TEST_CASE("api: paths") {
    ocl_sp::Options o;
    o.backend = "openmp";
    o.paths = true;
    const auto r = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
    REQUIRE(r.via.size() == 25);
    CHECK(r.path(0, 3) == std::vector<int64_t>{0, 1, 2, 3});
    CHECK(r.path(2, 2) == std::vector<int64_t>{2});
    CHECK(r.path(3, 0).empty());
    CHECK(contains(error_of([&] { r.path(0, 5); }), "vertex 5 outside [0, 5)"));
    o.paths = false;
    const auto no = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
    CHECK(no.via.empty());
    CHECK(contains(error_of([&] { no.path(0, 3); }), "Options::paths"));
  }

  TEST_CASE("api: wrong use throws ocl_sp::Error with a clear message") {
    ocl_sp::Options o;
    o.backend = "serial";
    CHECK(error_of([&] {
            ocl_sp::all_pairs<int32_t>(3, {{0, 3, 1}}, o);
          }) == "edge 0 -> 3 (weight 1) has a vertex outside [0, 3)");
    CHECK(contains(error_of([&] {
                     ocl_sp::all_pairs<int32_t>(3, {{-1, 0, 1}}, o);
                   }),
                   "outside [0, 3)"));
    CHECK(
        contains(error_of([&] { ocl_sp::all_pairs<int32_t>(0, {}, o); }), "n must be at least 1"));
    CHECK(contains(error_of([&] {
                     ocl_sp::all_pairs<int32_t>(2, {{0, 1, 0.5}}, o);
                   }),
                   "is not an integer"));
    CHECK(contains(error_of([&] {
                     ocl_sp::all_pairs<int32_t>(2, {{0, 1, 1e12}}, o);
                   }),
                   "exact int32 range"));
    ocl_sp::Options bad = o;
    bad.algo = "dijkstra";
    CHECK(contains(error_of([&] { ocl_sp::all_pairs<int32_t>(2, {}, bad); }),
                   "unknown algorithm 'dijkstra'"));
    bad = o;
    bad.backend = "cuda";
    CHECK(contains(error_of([&] { ocl_sp::all_pairs<int32_t>(2, {}, bad); }),
                   "unknown backend 'cuda'"));
    bad = ocl_sp::Options{};
    bad.device = "no-such-device-xyz";
    const std::string dev = error_of([&] { ocl_sp::all_pairs<int32_t>(2, {}, bad); });
    CHECK(contains(dev, "no-such-device-xyz"));
    bad.backend = "openmp";
    CHECK(contains(error_of([&] { ocl_sp::all_pairs<int32_t>(2, {}, bad); }),
                   "cannot be used with backend 'openmp'"));
    bad = ocl_sp::Options{};
    bad.device = "pocl";
    bad.params = {{"NO_SUCH_TUNABLE", 3}};
    CHECK(contains(error_of([&] { ocl_sp::all_pairs<int32_t>(2, {}, bad); }), "NO_SUCH_TUNABLE"));
  }

  TEST_CASE("api: a negative cycle is ocl_sp::NegativeCycle carrying the cycle") {
    // 1 -> 2 -> 3 -> 1 has length -1; vertex 0 only reaches it.
    const std::vector<ocl_sp::Edge> e{{0, 1, 5}, {1, 2, 1}, {2, 3, -3}, {3, 1, 1}};
    for (const char* backend : {"serial", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Options o;
      o.backend = backend;
      if (std::string(backend) == "opencl") o.device = "pocl";
      bool thrown = false;
      try {
        ocl_sp::all_pairs<int32_t>(4, e, o);
      } catch (const ocl_sp::NegativeCycle& c) {
        thrown = true;
        CHECK(c.cycle == std::vector<long long>{1, 2, 3});
        CHECK(c.vertex == 1);
        CHECK(c.length == -1);
        CHECK(std::string(c.what()) ==
              "negative cycle detected: 1 -> 2 -> 3 -> 1 (length -1); no distances written");
      }
      CHECK(thrown);
    }
    // A negative self-loop, caught as the base class.
    std::string base;
    try {
      ocl_sp::all_pairs<float>(2, {{1, 1, -2}});
    } catch (const ocl_sp::Error& x) {
      base = x.what();
    }
    CHECK(contains(base, "negative cycle detected: 1 -> 1 (length -2)"));
  }

  TEST_CASE("api: read_graph reads every format; errors name the file") {
    const std::string dir = OCL_SP_TEST_DATA;
    for (const char* f : {"small.gr", "small.mtx", "small.edges", "small.bin"}) {
      CAPTURE(f);
      const ocl_sp::Graph g = ocl_sp::read_graph(dir + "/" + f);
      CHECK(g.n > 0);
      CHECK(!g.edges.empty());
      ocl_sp::Options o;
      o.backend = "openmp";
      const auto r = ocl_sp::all_pairs<float>(g, o);
      CHECK(r.n == g.n);
    }
    CHECK(ocl_sp::read_graph(dir + "/small.edges", "edges").n ==
          ocl_sp::read_graph(dir + "/small.edges").n);
    CHECK(contains(error_of([] { ocl_sp::read_graph("/nonexistent/g.gr"); }),
                   "cannot open '/nonexistent/g.gr'"));
    CHECK(contains(error_of([&] { ocl_sp::read_graph(dir + "/small.gr", "xml"); }), "xml"));
  }

  // The multi-source engine through the API: rows equal all_pairs (int32 exact),
  // in order, for every backend; a selection keeps its order; bad sources refused.
  TEST_CASE("api: rows from chosen sources on every backend equal all_pairs") {
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Options o;
      o.backend = backend;
      if (std::string(backend) == "opencl") o.device = "pocl";
      const auto want = ocl_sp::all_pairs<int32_t>(5, kEdges, o);
      std::vector<int32_t> got(25, -7);
      int64_t next = 0;
      const auto info = ocl_sp::rows<int32_t>(5, kEdges, {}, [&](int64_t first, int64_t count, const int32_t* r) {
        CHECK(first == next);  // in order, batch by batch
        next = first + count;
        std::memcpy(got.data() + first * 5, r, static_cast<size_t>(count) * 5 * sizeof(int32_t));
      }, o);
      CHECK(next == 5);
      CHECK(got == want.distances);
      CHECK(info.algorithm == "sssp");
      CHECK(info.backend == backend);
      std::vector<double> sel;
      ocl_sp::rows<double>(5, kEdges, {3, 0}, [&](int64_t, int64_t count, const double* r) {
        sel.insert(sel.end(), r, r + count * 5);
      }, o);
      REQUIRE(sel.size() == 10);
      CHECK(std::isinf(sel[0]));  // 3 -> 0: no path
      CHECK(sel[3] == 0);
      CHECK(sel[5 + 3] == 3);     // 0 -> 3 over the negative edge
      CHECK(contains(error_of([&] { ocl_sp::rows<int32_t>(5, kEdges, {5}, [](int64_t, int64_t, const int32_t*) {}, o); }),
                     "source 5 outside [0, 5)"));
    }
    CHECK(contains(error_of([] { ocl_sp::rows<int32_t>(3, {{0, 1, 1}}, {}, nullptr); }), "no sink"));
  }

  // --stats through the API: the figures of a graph with ties and an unreachable
  // part, the same bytes on every backend and device, betweenness normalised as
  // networkx's (directed), counting every shortest path.
  TEST_CASE("api: stats and betweenness, the same bytes on every backend") {
    // Diamond 0 -> {1, 2} -> 3 (two shortest 0 -> 3 paths), 3 -> 4; 5 isolated.
    const std::vector<ocl_sp::Edge> diamond{{0, 1, 1}, {0, 2, 1}, {1, 3, 1}, {2, 3, 1}, {3, 4, 2}};
    std::vector<ocl_sp::Edge> random;
    std::mt19937_64 rng(20261127);
    for (int k = 0; k < 1500; ++k)
      random.push_back({static_cast<int64_t>(rng() % 300), static_cast<int64_t>(rng() % 300),
                        static_cast<double>(1 + rng() % 9)});
    ocl_sp::StatsOptions bc;
    bc.betweenness = true;
    std::vector<ocl_sp::Stats> seen;
    for (const char* backend : {"serial", "openmp", "opencl"}) {
      CAPTURE(backend);
      ocl_sp::Options o;
      o.backend = backend;
      if (std::string(backend) == "opencl") o.device = "pocl";
      const auto s = ocl_sp::stats<int32_t>(6, diamond, o, bc);
      REQUIRE(s.reach.size() == 6);
      CHECK(s.reach[0] == 5);  // 0, 1, 2, 3, 4
      CHECK(s.reach[5] == 1);
      CHECK(s.eccentricity[0] == 4);
      // Distances to 3: from 0 (2), 1 (1), 2 (1): closeness (3/4) * (3/5).
      CHECK(s.closeness[3] == doctest::Approx(0.75 * 0.6));
      CHECK(s.harmonic[3] == doctest::Approx(0.5 + 1 + 1));
      CHECK(s.diameter == 4);
      REQUIRE(s.betweenness.size() == 6);
      // 1 and 2 each carry half of 0 -> 3 and 0 -> 4; 3 carries 0, 1, 2 -> 4.
      // Normalised: / ((n - 1)(n - 2)) = / 20.
      CHECK(s.betweenness[1] == doctest::Approx(1.0 / 20));
      CHECK(s.betweenness[2] == s.betweenness[1]);
      CHECK(s.betweenness[3] == doctest::Approx(3.0 / 20));
      CHECK(s.betweenness[0] == 0);
      CHECK(s.info.algorithm == "sssp");
      seen.push_back(ocl_sp::stats<int32_t>(300, random, o, bc));
      o.split = 2;
      if (std::string(backend) == "opencl") seen.push_back(ocl_sp::stats<int32_t>(300, random, o, bc));
    }
    REQUIRE(seen.size() == 4);
    for (size_t i = 1; i < seen.size(); ++i) {
      CAPTURE(i);
      CHECK(seen[i].reach == seen[0].reach);
      CHECK(std::memcmp(seen[i].closeness.data(), seen[0].closeness.data(), 300 * sizeof(double)) == 0);
      CHECK(std::memcmp(seen[i].harmonic.data(), seen[0].harmonic.data(), 300 * sizeof(double)) == 0);
      CHECK(std::memcmp(seen[i].betweenness.data(), seen[0].betweenness.data(), 300 * sizeof(double)) == 0);
      CHECK(seen[i].average_shortest_path_length == seen[0].average_shortest_path_length);
    }
    CHECK(contains(error_of([] { ocl_sp::stats<int32_t>(0, {}); }), "n must be at least 1"));
  }

  TEST_CASE("api: stats with betweenness on the device reports its pass") {
    // On OpenCL Brandes runs beside the rows (kernels/betweenness.cl): its
    // kernels in the per-kernel seconds (T_k counts them), its relaxations in the
    // count: once where the stats' figures come from the same rows (lanes), else
    // the stats' own pass and its own.
    std::vector<ocl_sp::Edge> random;
    std::mt19937_64 rng(20261127);
    for (int k = 0; k < 1500; ++k)
      random.push_back({static_cast<int64_t>(rng() % 300), static_cast<int64_t>(rng() % 300),
                        static_cast<double>(1 + rng() % 9)});
    ocl_sp::Options o;
    o.backend = "opencl";
    o.device = "pocl";
    ocl_sp::StatsOptions plain, bc;
    bc.betweenness = true;
    const auto without = ocl_sp::stats<int32_t>(300, random, o, plain);
    const auto with = ocl_sp::stats<int32_t>(300, random, o, bc);
    const auto& k = with.info.details.kernel_seconds;
    REQUIRE(k.count("bc_sources") == 1);
    CHECK(with.info.timings.kernels >= k.at("bc_sources"));
    const bool one = std::any_of(with.info.notes.begin(), with.info.notes.end(), [](const std::string& x) {
      return contains(x, "reduced on the device beside the betweenness pass (one pass)");
    });
    CHECK(with.info.relaxations == (one ? 1 : 2) * without.info.relaxations);
    CHECK(with.info.details.kernel_launches > without.info.details.kernel_launches);
  }

  TEST_CASE("api: version and build info") {
    CHECK(std::string(ocl_sp::version()) == OCL_SP_VERSION);
    const std::string info = ocl_sp::build_info();
    CHECK(contains(info, std::string("ocl_sp ") + OCL_SP_VERSION));
    CHECK(contains(info, "revision: "));
    CHECK(contains(info, "OpenCL target: 1.2"));
    CHECK(contains(info, "openmp="));
  }

}  // TEST_SUITE("api")
