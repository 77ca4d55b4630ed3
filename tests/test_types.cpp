// int64 and float64 end to end (--type int64|float64): every algorithm on every
// backend (serial, OpenMP, PoCL, PoCL panels and split devices) against exact
// references computed here independently (Bellman-Ford in __int128 / long
// double): int64 bit-exact with weights up to 2^40, float64 within 1e-12
// relative; n = 1, n not a multiple of any tile, disconnected parts, negative
// weights, negative cycles, paths; --type auto's choice, the range refusals, the
// fp64 device check, the writers' dtypes and the readers' precision.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "graph/graph.hpp"
#include "graph/io.hpp"
#include "graph/paths.hpp"
#include "solvers/opencl_base.hpp"
#include "test_opencl_common.hpp"
#include "util/errors.hpp"

using namespace ocl_sp;
using ocl_sp_test::random_graph;
using ocl_sp_test::TempDir;

namespace {

// Weights of random_graph scaled so that int64 sums need more than 32 bits:
// |w| up to about 60 * (2^34 + 3) ~ 2^40, odd low bits.
DistMatrix<int64_t> big_int_graph(int64_t n, uint64_t seed) {
  DistMatrix<int64_t> d = random_graph<int64_t>(n, seed);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i != j && d(i, j) != ValueTraits<int64_t>::inf) d(i, j) *= (int64_t{1} << 34) + 3;
  return d;
}

// Bellman-Ford from every source in a wider type (A = __int128 or long double);
// unreachable stays at ValueTraits<T>::inf. The input must have no negative cycle.
template <typename T, typename A>
DistMatrix<T> wide_reference(const DistMatrix<T>& w) {
  const int64_t n = w.n();
  const T inf = ValueTraits<T>::inf;
  DistMatrix<T> out(n, inf);
  std::vector<A> dist(static_cast<size_t>(n));
  std::vector<char> reached(static_cast<size_t>(n));
  for (int64_t s = 0; s < n; ++s) {
    std::fill(reached.begin(), reached.end(), 0);
    dist[static_cast<size_t>(s)] = 0;
    reached[static_cast<size_t>(s)] = 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (int64_t u = 0; u < n; ++u) {
        if (!reached[static_cast<size_t>(u)]) continue;
        for (int64_t v = 0; v < n; ++v) {
          if (u == v || w(u, v) == inf) continue;
          const A nd = dist[static_cast<size_t>(u)] + static_cast<A>(w(u, v));
          if (!reached[static_cast<size_t>(v)] || nd < dist[static_cast<size_t>(v)]) {
            dist[static_cast<size_t>(v)] = nd;
            reached[static_cast<size_t>(v)] = 1;
            changed = true;
          }
        }
      }
    }
    for (int64_t v = 0; v < n; ++v)
      if (reached[static_cast<size_t>(v)]) out(s, v) = static_cast<T>(dist[static_cast<size_t>(v)]);
  }
  return out;
}

SolverSpec cpu(Algo a, Backend b) {
  SolverSpec s;
  s.algo = a;
  s.backend = b;
  return s;
}

// Every algorithm x backend placement the value types run in CI.
std::vector<std::pair<std::string, SolverSpec>> placements() {
  std::vector<std::pair<std::string, SolverSpec>> out;
  for (Algo a : {Algo::fw, Algo::squaring, Algo::fw_naive, Algo::sssp}) {
    const std::string name = to_string(a);
    out.push_back({name + " serial", cpu(a, Backend::serial)});
    if (a != Algo::fw_naive) out.push_back({name + " openmp", cpu(a, Backend::openmp)});
    out.push_back({name + " pocl", spec(a)});
  }
  SolverSpec panels = spec(Algo::fw);
  panels.panel = 64;
  out.push_back({"fw pocl panels 64", panels});
  SolverSpec split = spec(Algo::fw);
  split.split = 2;
  out.push_back({"fw pocl split 2", split});
  SolverSpec tiled1 = spec(Algo::fw, {{"TILED", 1}});
  out.push_back({"fw pocl TILED=1", tiled1});
  // The staging ring (NVIDIA's default): one fw kernel for phases 2, 3 and the GEMM.
  SolverSpec ring = spec(Algo::fw, {{"TILED", 1}, {"BLOCK", 64}, {"KC", 16}, {"STAGES", 2}});
  out.push_back({"fw pocl TILED=1 STAGES=2", ring});
  SolverSpec sq_tiled = spec(Algo::squaring, {{"TILED", 1}});
  out.push_back({"squaring pocl TILED=1", sq_tiled});
  return out;
}

template <typename T>
double max_rel_error(const DistMatrix<T>& want, const DistMatrix<T>& got) {
  double worst = 0;
  for (int64_t i = 0; i < want.n(); ++i)
    for (int64_t j = 0; j < want.n(); ++j) {
      const double a = want(i, j), b = got(i, j);
      if (std::isinf(a) || std::isinf(b)) {
        if (a != b) return INFINITY;
        continue;
      }
      worst = std::max(worst, std::fabs(a - b) / std::max(1.0, std::fabs(a)));
    }
  return worst;
}

}  // namespace

TEST_SUITE("value types int64 and float64") {
  TEST_CASE("traits: unreachable values and the int64 store rule") {
    CHECK(ValueTraits<int64_t>::inf == 4611686018427387903LL);
    CHECK(ValueTraits<int64_t>::norm(ValueTraits<int64_t>::inf + ValueTraits<int64_t>::lowest) ==
          ValueTraits<int64_t>::inf);
    CHECK(ValueTraits<int64_t>::norm(ValueTraits<int64_t>::inf + 5) == ValueTraits<int64_t>::inf);
    CHECK(ValueTraits<int64_t>::norm(-(int64_t{1} << 62)) == ValueTraits<int64_t>::lowest);
    CHECK(std::isinf(ValueTraits<double>::inf));
    CHECK(parse_value_type("FLOAT64") == ValueType::float64);
    CHECK(parse_value_type("int64") == ValueType::int64);
    CHECK_THROWS_AS(parse_value_type("int16"), UsageError);
    CHECK(std::string(to_string(ValueType::int64)) == "int64");
  }

  TEST_CASE("int64: every algorithm and placement equals an exact __int128 reference") {
    for (int64_t n : {1, 37, 130}) {
      const DistMatrix<int64_t> w = big_int_graph(n, 100 + static_cast<uint64_t>(n));
      const DistMatrix<int64_t> want = wide_reference<int64_t, __int128>(w);
      for (const auto& [name, sp] : placements()) {
        CAPTURE(name);
        CAPTURE(n);
        DistMatrix<int64_t> d = w;
        make_solver<int64_t>(sp)->solve(d, nullptr);
        CHECK(d == want);
      }
    }
  }

  TEST_CASE("float64: every algorithm and placement within 1e-12 of a long double reference") {
    for (int64_t n : {1, 37, 130}) {
      const DistMatrix<double> w = random_graph<double>(n, 300 + static_cast<uint64_t>(n), true);
      const DistMatrix<double> want = wide_reference<double, long double>(w);
      for (const auto& [name, sp] : placements()) {
        CAPTURE(name);
        CAPTURE(n);
        DistMatrix<double> d = w;
        make_solver<double>(sp)->solve(d, nullptr);
        CHECK(max_rel_error(want, d) <= 1e-12);
      }
    }
  }

  TEST_CASE("negative cycles are found in int64 and float64 on every placement") {
    DistMatrix<int64_t> wi = big_int_graph(40, 7);
    wi(3, 4) = -(int64_t{1} << 40);
    wi(4, 3) = int64_t{1} << 39;
    DistMatrix<double> wf = random_graph<double>(40, 8, true);
    wf(3, 4) = -1e12;
    wf(4, 3) = 0.5e12;
    for (const auto& [name, sp] : placements()) {
      CAPTURE(name);
      DistMatrix<int64_t> di = wi;
      CHECK_THROWS_AS(make_solver<int64_t>(sp)->solve(di, nullptr), NegativeCycleError);
      DistMatrix<double> df = wf;
      CHECK_THROWS_AS(make_solver<double>(sp)->solve(df, nullptr), NegativeCycleError);
    }
  }

  TEST_CASE("paths in int64 and float64 expand to paths of the input") {
    const DistMatrix<int64_t> wi = big_int_graph(70, 21);
    const DistMatrix<double> wf = random_graph<double>(70, 22, true);
    for (const auto& [name, sp] : placements()) {
      CAPTURE(name);
      if (sp.algo == Algo::fw && sp.split > 1) continue;  // paths beside one device only
      DistMatrix<int64_t> di = wi;
      PathMatrix pi;
      make_solver<int64_t>(sp)->solve(di, &pi);
      CHECK(check_paths(wi, di, pi) == "");
      DistMatrix<double> df = wf;
      PathMatrix pf;
      if (sp.panel > 0) {  // beyond one buffer paths come from exact sums: integers only
        CHECK_THROWS_AS(make_solver<double>(sp)->solve(df, &pf), UsageError);
        continue;
      }
      make_solver<double>(sp)->solve(df, &pf);
      CHECK(check_paths(wf, df, pf) == "");
    }
  }

  TEST_CASE("--type auto picks the narrowest exact type") {
    Graph g;
    g.n = 3;
    g.edges = {{0, 1, 3}, {1, 2, 4}};
    CHECK(auto_value_type(g) == ValueType::int32);
    g.edges = {{0, 1, 3e9}, {1, 2, 4}};
    CHECK(auto_value_type(g) == ValueType::int64);
    g.edges = {{0, 1, 1234.5678912345}, {1, 2, 4}};
    CHECK(auto_value_type(g) == ValueType::float64);
    g.edges = {{0, 1, std::ldexp(1.0, 61)}, {1, 2, 4}};  // past int64's exact range
    CHECK(auto_value_type(g) == ValueType::float64);
    GeneratorParams p;
    p.n = 1000;
    CHECK(auto_value_type(p) == ValueType::int32);
    p.whi = int64_t{1} << 24;
    p.n = 200;
    CHECK(auto_value_type(p) == ValueType::int64);  // 199 x 2^24 > 2^29
  }

  TEST_CASE("int64 refuses what cannot stay exact, float64 what does not fit") {
    Graph g;
    g.n = 5;
    g.edges = {{0, 1, std::ldexp(1.0, 59)}, {1, 2, std::ldexp(1.0, 59)}, {2, 3, std::ldexp(1.0, 59)},
               {3, 4, std::ldexp(1.0, 59)}};
    CHECK_THROWS_WITH_AS(check_range<int64_t>(g), doctest::Contains("exact int64 range"), UsageError);
    CHECK_NOTHROW(check_range<double>(g));
    g.edges = {{0, 1, std::ldexp(1.0, 40)}, {1, 2, 3}};
    CHECK_NOTHROW(check_range<int64_t>(g));
    CHECK_THROWS_AS(check_range<int32_t>(g), UsageError);
    int64_t w = 0;
    CHECK_THROWS_WITH_AS(edge_weight(Edge{0, 1, std::ldexp(1.0, 54)}, 2, w),
                         doctest::Contains("2^53"), UsageError);
    CHECK_THROWS_WITH_AS(edge_weight(Edge{0, 1, 2.5}, 2, w), doctest::Contains("not an integer"),
                         UsageError);
    double x = 0;
    CHECK(edge_weight(Edge{0, 1, 1234.5678912345}, 2, x));
    CHECK(x == 1234.5678912345);
  }

  TEST_CASE("a device without cl_khr_fp64 refuses float64 before any work") {
    DeviceEntry dev;
    dev.name = "Imaginary GPU";
    dev.extensions = "cl_khr_global_int32_base_atomics cl_khr_fp16";
    CHECK_THROWS_WITH_AS(detail::check_value_type(dev, ValueType::float64),
                         doctest::Contains("'Imaginary GPU' has no double precision (extension "
                                           "cl_khr_fp64)"),
                         UsageError);
    CHECK_NOTHROW(detail::check_value_type(dev, ValueType::int64));
    CHECK_NOTHROW(detail::check_value_type(dev, ValueType::float32));
    dev.extensions = "cl_khr_fp64x cl_khr_fp64_extra";  // whole words only
    CHECK_THROWS_AS(detail::check_value_type(dev, ValueType::float64), UsageError);
    dev.extensions = "cl_khr_byte cl_khr_fp64";
    CHECK_NOTHROW(detail::check_value_type(dev, ValueType::float64));
  }

  TEST_CASE("writers: npy dtypes <i8 and <f8, 8-byte bin values, csv in full precision") {
    TempDir dir("ocl_sp_types");
    DistMatrix<int64_t> di(2, ValueTraits<int64_t>::inf);
    di(0, 0) = 0;
    di(1, 1) = 0;
    di(0, 1) = int64_t{1} << 40;
    DistMatrix<double> df(2, ValueTraits<double>::inf);
    df(0, 0) = 0;
    df(1, 1) = 0;
    df(0, 1) = 1234.5678912345;
    const auto slurp = [](const std::string& p) {
      std::ifstream f(p, std::ios::binary);
      std::stringstream s;
      s << f.rdbuf();
      return s.str();
    };
    write_matrix(di, dir.path() + "/i.npy", OutputFormat::npy);
    write_matrix(df, dir.path() + "/f.npy", OutputFormat::npy);
    const std::string ni = slurp(dir.path() + "/i.npy"), nf = slurp(dir.path() + "/f.npy");
    CHECK(ni.find("'descr': '<i8'") != std::string::npos);
    CHECK(nf.find("'descr': '<f8'") != std::string::npos);
    REQUIRE(ni.size() >= 32);
    int64_t last = 0;
    std::memcpy(&last, ni.data() + ni.size() - 16, 8);  // (1, 0): unreachable
    CHECK(last == 4611686018427387903LL);
    double v = 0;
    std::memcpy(&v, nf.data() + nf.size() - 24, 8);  // (0, 1)
    CHECK(v == 1234.5678912345);
    write_matrix(di, dir.path() + "/i.bin", OutputFormat::bin);
    CHECK(slurp(dir.path() + "/i.bin").size() == 4 * 8);
    write_matrix(df, dir.path() + "/f.csv", OutputFormat::csv);
    CHECK(slurp(dir.path() + "/f.csv") == "0,1234.5678912345\ninf,0\n");
    write_matrix(di, dir.path() + "/i.csv", OutputFormat::csv);
    CHECK(slurp(dir.path() + "/i.csv") == "0,1099511627776\n4611686018427387903,0\n");
  }

  TEST_CASE("readers keep a weight's full double precision") {
    const Graph m = parse_graph(
        "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1234.5678912345\n", "x.mtx",
        InputFormat::mtx);
    REQUIRE(m.edges.size() == 1);
    CHECK(m.edges[0].w == 1234.5678912345);
    const Graph gr = parse_graph("p sp 2 1\na 1 2 1099511627779\n", "x.gr", InputFormat::gr);
    REQUIRE(gr.edges.size() == 1);
    CHECK(gr.edges[0].w == 1099511627779.0);
    const Graph el = parse_graph("0 1 0.1000000000000000055511151231257827\n", "x.edges",
                                 InputFormat::edges);
    REQUIRE(el.edges.size() == 1);
    CHECK(el.edges[0].w == 0.1);
  }
}
