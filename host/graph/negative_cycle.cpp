// Negative cycle extraction (negative_cycle.hpp): Bellman-Ford in rounds over
// the vertices whose distance changed, with a check of the predecessor graph for
// a cycle after every round.
#include "graph/negative_cycle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ocl_sp {

namespace {

constexpr double kUnreached = std::numeric_limits<double>::infinity();

// A cycle of the predecessor graph (pred[v] = the vertex v was last relaxed
// from), or an empty vector. O(n): each vertex is walked from at most once.
std::vector<int64_t> predecessor_cycle(const std::vector<int64_t>& pred) {
  const int64_t n = static_cast<int64_t>(pred.size());
  std::vector<int64_t> mark(static_cast<size_t>(n), -1);  // the walk that visited it
  for (int64_t s = 0; s < n; ++s) {
    int64_t x = s;
    while (x >= 0 && mark[static_cast<size_t>(x)] < 0) {
      mark[static_cast<size_t>(x)] = s;
      x = pred[static_cast<size_t>(x)];
    }
    if (x < 0 || mark[static_cast<size_t>(x)] != s) continue;  // ended, or an older walk
    // x lies on a cycle: collect it backwards (pred[v] -> v are the edges).
    std::vector<int64_t> back{x};
    for (int64_t y = pred[static_cast<size_t>(x)]; y != x; y = pred[static_cast<size_t>(y)])
      back.push_back(y);
    std::reverse(back.begin(), back.end());  // now each vertex's edge goes to the next
    // back = [.., p(x), x] in edge order: p(x) -> x; rotate the smallest id first.
    std::rotate(back.begin(), std::min_element(back.begin(), back.end()), back.end());
    return back;
  }
  return {};
}

// Bellman-Ford from `source` (or from a virtual source at distance 0 to every
// vertex). out(u, relax) calls relax(v, w) for every edge u -> v of weight w.
// `length` sums a found cycle's weights in the input for the final check.
template <typename Out, typename Length>
FoundCycle bellman_ford(int64_t n, const Out& out, const Length& length,
                           std::optional<int64_t> source) {
  FoundCycle result;
  if (n <= 0) return result;
  const size_t N = static_cast<size_t>(n);
  std::vector<double> dist(N, source ? kUnreached : 0.0);
  std::vector<int64_t> pred(N, -1);
  std::vector<char> queued(N, 0);
  std::vector<int64_t> frontier, next;
  if (source) {
    dist[static_cast<size_t>(*source)] = 0;
    frontier.push_back(*source);
  } else {
    for (int64_t v = 0; v < n; ++v) frontier.push_back(v);
  }
  // With a negative cycle the frontier never empties; by round n + 1 the
  // predecessor graph holds a cycle (exact sums). The bound only stops rounding
  // artefacts of float weights from running on.
  for (int64_t round = 0; round <= n + 1 && !frontier.empty(); ++round) {
    next.clear();
    for (int64_t u : frontier) {
      queued[static_cast<size_t>(u)] = 0;
      const double du = dist[static_cast<size_t>(u)];
      out(u, [&](int64_t v, double w) {
        const double nd = du + w;
        if (nd < dist[static_cast<size_t>(v)]) {
          dist[static_cast<size_t>(v)] = nd;
          pred[static_cast<size_t>(v)] = u;
          if (!queued[static_cast<size_t>(v)]) {
            queued[static_cast<size_t>(v)] = 1;
            next.push_back(v);
          }
        }
      });
    }
    std::swap(frontier, next);
    if (frontier.empty()) break;
    std::vector<int64_t> cycle = predecessor_cycle(pred);
    if (cycle.empty()) continue;
    const std::optional<double> len = length(cycle);
    if (len && *len < 0) {
      result.vertices = std::move(cycle);
      result.length = *len;
      return result;
    }
  }
  return result;
}

template <typename Out, typename Length>
FoundCycle search(int64_t n, const Out& out, const Length& length, std::optional<int64_t> hint) {
  if (hint && *hint >= 0 && *hint < n) {
    FoundCycle c = bellman_ford(n, out, length, hint);
    if (c.found()) return c;
  }
  return bellman_ford(n, out, length, std::nullopt);
}

template <typename T>
bool is_edge(T w) {
  if constexpr (std::is_integral_v<T>)
    return w < ValueTraits<T>::finite_limit;
  else
    return std::isfinite(w);
}

}  // namespace

template <typename T>
std::optional<double> cycle_length(const DistMatrix<T>& a, const std::vector<int64_t>& cycle) {
  if (cycle.empty()) return std::nullopt;
  double sum = 0;
  for (size_t k = 0; k < cycle.size(); ++k) {
    const int64_t u = cycle[k], v = cycle[(k + 1) % cycle.size()];
    if (u < 0 || u >= a.n() || v < 0 || v >= a.n() || !is_edge(a(u, v))) return std::nullopt;
    sum += static_cast<double>(a(u, v));
  }
  return sum;
}

template <typename T>
FoundCycle find_negative_cycle(const DistMatrix<T>& a, std::optional<int64_t> hint) {
  const int64_t n = a.n();
  auto out = [&](int64_t u, const auto& relax) {
    const T* row = a.data() + u * n;
    for (int64_t v = 0; v < n; ++v) {
      const T w = row[v];
      if (is_edge(w) && (v != u || w < 0)) relax(v, static_cast<double>(w));
    }
  };
  auto length = [&](const std::vector<int64_t>& c) { return cycle_length(a, c); };
  return search(n, out, length, hint);
}

FoundCycle find_negative_cycle(const Graph& g, std::optional<int64_t> hint) {
  const int64_t n = g.n;
  if (n <= 0) return {};
  // Out-edges by source (counting sort), skipping edges outside [0, n).
  std::vector<size_t> first(static_cast<size_t>(n) + 1, 0);
  for (const Edge& e : g.edges)
    if (e.u >= 0 && e.u < n && e.v >= 0 && e.v < n) ++first[static_cast<size_t>(e.u) + 1];
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) first[i + 1] += first[i];
  std::vector<int64_t> to(first.back());
  std::vector<double> wt(first.back());
  std::vector<size_t> fill(first.begin(), first.end() - 1);
  for (const Edge& e : g.edges)
    if (e.u >= 0 && e.u < n && e.v >= 0 && e.v < n) {
      const size_t k = fill[static_cast<size_t>(e.u)]++;
      to[k] = e.v;
      wt[k] = e.w;
    }
  auto out = [&](int64_t u, const auto& relax) {
    for (size_t k = first[static_cast<size_t>(u)]; k < first[static_cast<size_t>(u) + 1]; ++k)
      if (std::isfinite(wt[k]) && (to[k] != u || wt[k] < 0)) relax(to[k], wt[k]);
  };
  // The cheapest of parallel edges, as the matrix keeps.
  auto length = [&](const std::vector<int64_t>& c) -> std::optional<double> {
    double sum = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      const int64_t u = c[i], v = c[(i + 1) % c.size()];
      double best = kUnreached;
      for (size_t k = first[static_cast<size_t>(u)]; k < first[static_cast<size_t>(u) + 1]; ++k)
        if (to[k] == v && std::isfinite(wt[k])) best = std::min(best, wt[k]);
      if (best == kUnreached) return std::nullopt;
      sum += best;
    }
    return sum;
  };
  return search(n, out, length, hint);
}

template <typename T>
void rethrow_with_cycle(const NegativeCycleError& e, const DistMatrix<T>* input) {
  if (!e.cycle.empty() || !input) throw e;
  const FoundCycle c = find_negative_cycle(*input, e.vertex);
  if (!c.found()) throw e;
  throw NegativeCycleError(std::vector<long long>(c.vertices.begin(), c.vertices.end()), c.length);
}

template void rethrow_with_cycle<int32_t>(const NegativeCycleError&, const DistMatrix<int32_t>*);
template void rethrow_with_cycle<float>(const NegativeCycleError&, const DistMatrix<float>*);
template void rethrow_with_cycle<double>(const NegativeCycleError&, const DistMatrix<double>*);
template void rethrow_with_cycle<int64_t>(const NegativeCycleError&, const DistMatrix<int64_t>*);
template FoundCycle find_negative_cycle<int32_t>(const DistMatrix<int32_t>&,
                                                    std::optional<int64_t>);
template FoundCycle find_negative_cycle<float>(const DistMatrix<float>&, std::optional<int64_t>);
template FoundCycle find_negative_cycle<double>(const DistMatrix<double>&, std::optional<int64_t>);
template FoundCycle find_negative_cycle<int64_t>(const DistMatrix<int64_t>&, std::optional<int64_t>);
template std::optional<double> cycle_length<int32_t>(const DistMatrix<int32_t>&,
                                                     const std::vector<int64_t>&);
template std::optional<double> cycle_length<float>(const DistMatrix<float>&,
                                                   const std::vector<int64_t>&);
template std::optional<double> cycle_length<double>(const DistMatrix<double>&,
                                                   const std::vector<int64_t>&);
template std::optional<double> cycle_length<int64_t>(const DistMatrix<int64_t>&,
                                                   const std::vector<int64_t>&);

}  // namespace ocl_sp
