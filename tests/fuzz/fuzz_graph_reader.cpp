// libFuzzer harness for one graph reader (bin, gr, mtx or edges, chosen at
// compile time with -DOCL_SP_FUZZ_FORMAT=...): the bytes are parsed from memory
// with parse_graph(), as read_graph(path) would after reading the file.
// Accepted: a Graph with 1 <= n <= kMaxVertices, every edge inside [0, n), every
// weight finite (integral for bin and gr), no more edges than the input could
// hold; or a UsageError whose message names the file and a line / byte offset.
// Small graphs then go through to_matrix and the int32 range check, which may
// only throw UsageError or NegativeCycleError, and the negative cycle finder is
// checked against a plain Floyd-Warshall.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "graph/graph.hpp"
#include "graph/io.hpp"
#include "graph/negative_cycle.hpp"
#include "util/errors.hpp"

#ifndef OCL_SP_FUZZ_FORMAT
#error "define OCL_SP_FUZZ_FORMAT as bin, gr, mtx or edges"
#endif

using namespace ocl_sp;
using ocl_sp_fuzz::fuzz_fail;

namespace {

constexpr InputFormat kFormat = InputFormat::OCL_SP_FUZZ_FORMAT;
const std::string kName = std::string("fuzz.") + to_string(kFormat);

bool names_place(const std::string& msg) {
  if (msg.rfind(kName + ": ", 0) != 0) return false;
  const std::string where = kFormat == InputFormat::bin ? ": byte offset " : ": line ";
  return msg.find(where) == kName.size();
}

template <typename T>
void convert(const Graph& g) {
  try {
    if constexpr (std::is_integral_v<T>) check_int32_range(g);
    const DistMatrix<T> d = to_matrix<T>(g);
    FUZZ_CHECK(d.n() == g.n);
    for (int64_t i = 0; i < g.n; ++i) FUZZ_CHECK(d(i, i) == 0);
  } catch (const UsageError&) {
  } catch (const NegativeCycleError& e) {
    FUZZ_CHECK(e.vertex >= 0 && e.vertex < g.n);
  }
}

// Differential check of the negative cycle finder (graph/negative_cycle.hpp) on
// small graphs with exact (integral, |w| <= 2^40) weights: a plain Floyd-Warshall
// in doubles says whether a negative cycle exists; the finder must agree, from
// no hint and from every vertex with d(i,i) < 0, and what it returns must be a
// simple cycle of the input with that negative length.
void check_cycle_finder(const Graph& g) {
  const int64_t n = g.n;
  std::vector<double> d(static_cast<size_t>(n * n), INFINITY);
  for (int64_t i = 0; i < n; ++i) d[static_cast<size_t>(i * n + i)] = 0;
  for (const Edge& e : g.edges) {
    if (e.w != std::floor(e.w) || std::fabs(e.w) > 1099511627776.0) return;
    double& c = d[static_cast<size_t>(e.u * n + e.v)];
    c = std::min(c, e.w);
  }
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double via = d[static_cast<size_t>(i * n + k)] + d[static_cast<size_t>(k * n + j)];
        // Clamp runaway negative values (a cycle goes around): still negative.
        if (via < d[static_cast<size_t>(i * n + j)])
          d[static_cast<size_t>(i * n + j)] = std::max(via, -1e30);
      }
  std::vector<int64_t> hints;
  for (int64_t i = 0; i < n; ++i)
    if (d[static_cast<size_t>(i * n + i)] < 0) hints.push_back(i);
  auto valid = [&](const FoundCycle& c) {
    FUZZ_CHECK(c.found());
    std::vector<char> seen(static_cast<size_t>(n), 0);
    double sum = 0;
    for (size_t k = 0; k < c.vertices.size(); ++k) {
      const int64_t u = c.vertices[k], v = c.vertices[(k + 1) % c.vertices.size()];
      FUZZ_CHECK(u >= 0 && u < n && !seen[static_cast<size_t>(u)]);
      seen[static_cast<size_t>(u)] = 1;
      double best = INFINITY;
      for (const Edge& e : g.edges)
        if (e.u == u && e.v == v) best = std::min(best, e.w);
      FUZZ_CHECK(best != INFINITY);
      sum += best;
    }
    FUZZ_CHECK(sum < 0 && sum == c.length);
    FUZZ_CHECK(*std::min_element(c.vertices.begin(), c.vertices.end()) == c.vertices[0]);
  };
  const FoundCycle any = find_negative_cycle(g);
  FUZZ_CHECK(any.found() == !hints.empty());
  if (any.found()) valid(any);
  for (int64_t h : hints) valid(find_negative_cycle(g, h));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = ocl_sp_fuzz::bytes(data, size);
  Graph g;
  try {
    g = parse_graph(text, kName, kFormat);
  } catch (const UsageError& e) {
    if (!names_place(e.what()))
      fuzz_fail(std::string("UsageError without file and place: ") + e.what());
    return 0;
  }
  // Any other exception escapes and aborts: a finding.
  FUZZ_CHECK(g.n >= 1 && g.n <= kMaxVertices);
  // Every edge costs the input at least a few bytes (bin: 12; text: "1 2\n"; a
  // symmetric mtx entry yields two edges from "1 2\n").
  FUZZ_CHECK(g.edges.size() <= size + 1);
  for (const Edge& e : g.edges) {
    FUZZ_CHECK(e.u >= 0 && e.u < g.n && e.v >= 0 && e.v < g.n);
    FUZZ_CHECK(std::isfinite(e.w));
    if (kFormat == InputFormat::bin || kFormat == InputFormat::gr)
      FUZZ_CHECK(e.w == std::floor(e.w));
  }
  if (g.n <= 256) {
    convert<int32_t>(g);
    convert<float>(g);
  }
  if (g.n <= 48 && g.edges.size() <= 400) check_cycle_finder(g);
  return 0;
}
