// Betweenness with path counts past float64 (host/sparse/betweenness.hpp): the
// diamond chain's closed forms, counts past float64's and long double's range
// (exact, rounded, scaled), the device's wide pass equal to the host's bits and
// the kernel's software extended arithmetic against x86's long double.
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
  check_close(run<int32_t>(cpu_spec(Backend::serial), g, {}, false, 1).vertex, c.all());
  for (int64_t j : {int64_t{0}, int64_t{2}, c.k()}) {
    CAPTURE(j);
    check_close(
        run<int32_t>(cpu_spec(Backend::serial), g, {c.hub[static_cast<size_t>(j)]}, false, 1).vertex,
        c.from_hub(j));
  }
}

TEST_CASE("betweenness: path counts past float64's range, exact in long double") {
  // 1100 diamonds of 2: 2^1100 shortest paths end to end (float64 ends near 2^1024);
  // every value a multiple of 1/2, so exact: the sums equal the closed form's bits.
  const Chain c(std::vector<int>(1100, 2));
  const Csr<int32_t> g = build_csr<int32_t>(c.graph());
  const Result all = run<int32_t>(cpu_spec(Backend::openmp), g, {}, false, 0);
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
  const Result mid = run<int32_t>(cpu_spec(Backend::serial), g, {c.first[3]}, false, 1);
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
  const Result r = run<int32_t>(cpu_spec(Backend::openmp), g, {}, false, 0);
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
  const Result ends = run<int32_t>(cpu_spec(Backend::openmp), g, {}, true, 0);
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
  const Result one = run<int32_t>(cpu_spec(Backend::serial), g, some, false, 1);
  const Result many = run<int32_t>(cpu_spec(Backend::openmp), g, some, false, 0);
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
