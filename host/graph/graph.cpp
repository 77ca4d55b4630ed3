// Graph queries, the int32 range guard and the edge list -> dense matrix
// conversion. Everything that can make an int32 solve print wrong numbers is
// refused here, before any solver runs.
#include "graph/graph.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <type_traits>

#include "util/errors.hpp"

namespace ocl_sp {

namespace {

std::string format_weight(double w) {
  std::ostringstream s;
  s.precision(17);
  s << w;
  return s.str();
}

std::string edge_name(const Edge& e) {
  return "edge " + std::to_string(e.u) + " -> " + std::to_string(e.v) + " (weight " +
         format_weight(e.w) + ")";
}

constexpr double kInt32Limit = ValueTraits<int32_t>::finite_limit;

}  // namespace

bool Graph::has_negative_weight() const {
  return std::any_of(edges.begin(), edges.end(), [](const Edge& e) { return e.w < 0; });
}

bool Graph::integer_weights() const {
  return std::all_of(edges.begin(), edges.end(),
                     [](const Edge& e) { return std::isfinite(e.w) && std::floor(e.w) == e.w; });
}

void check_int32_range(const Graph& g) {
  // A shortest simple path has at most n-1 edges, so the sum of the n-1 largest
  // |w| bounds every finite distance (and every partial sum a solver forms from
  // two of them stays below 2 * limit < INF + limit, which norm() handles).
  // Self-loops never lie on a shortest path: they are left out of the bound.
  const char* advice = "; use --type float32 or smaller weights";
  double max_abs = 0, total = 0;
  for (const Edge& e : g.edges) {
    if (e.u == e.v) continue;
    const double a = std::fabs(e.w);
    if (a >= kInt32Limit)
      throw UsageError(edge_name(e) + " is outside the exact int32 range (|w| < " +
                       std::to_string(ValueTraits<int32_t>::finite_limit) + ")" + advice);
    max_abs = std::max(max_abs, a);
    total += a;
  }
  const double k = static_cast<double>(std::max<int64_t>(g.n - 1, 0));
  // Cheap bounds first; the exact top-(n-1) sum is only needed when both fail.
  if (max_abs * k < kInt32Limit || total < kInt32Limit) return;
  std::vector<double> mags;
  mags.reserve(g.edges.size());
  for (const Edge& e : g.edges)
    if (e.u != e.v) mags.push_back(std::fabs(e.w));
  const size_t take = std::min(mags.size(), static_cast<size_t>(k));
  std::nth_element(mags.begin(), mags.begin() + static_cast<std::ptrdiff_t>(take), mags.end(),
                   std::greater<double>());
  double bound = 0;
  for (size_t i = 0; i < take && bound < kInt32Limit; ++i) bound += mags[i];
  if (bound >= kInt32Limit)
    throw UsageError("path lengths could exceed the exact int32 range: the " +
                     std::to_string(take) + " largest |weights| add up to " +
                     format_weight(bound) + " (limit " +
                     std::to_string(ValueTraits<int32_t>::finite_limit) + ")" + advice);
}

template <typename T>
bool edge_weight(const Edge& e, int64_t n, T& w) {
  if (e.u < 0 || e.u >= n || e.v < 0 || e.v >= n)
    throw UsageError(edge_name(e) + " has a vertex outside [0, " + std::to_string(n) + ")");
  if (!std::isfinite(e.w)) throw UsageError(edge_name(e) + " is not finite");
  if (e.u == e.v) {
    if (e.w < 0) throw NegativeCycleError({static_cast<long long>(e.u)}, e.w);  // u -> u
    return false;  // a non-negative self-loop never shortens a path
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (std::floor(e.w) != e.w)
      throw UsageError(edge_name(e) + " is not an integer; use --type float32");
    if (std::fabs(e.w) >= kInt32Limit)
      throw UsageError(edge_name(e) + " is outside the exact int32 range (|w| < " +
                       std::to_string(ValueTraits<int32_t>::finite_limit) +
                       "); use --type float32 or smaller weights");
    w = static_cast<int32_t>(e.w);
  } else {
    if (std::fabs(e.w) > static_cast<double>(std::numeric_limits<float>::max()))
      throw UsageError(edge_name(e) + " does not fit in float32");
    w = static_cast<float>(e.w);
  }
  return true;
}

template <typename T>
DistMatrix<T> to_matrix(const Graph& g) {
  if (g.n <= 0) throw UsageError("graph has no vertices");
  DistMatrix<T> m(g.n, ValueTraits<T>::inf);
  for (int64_t i = 0; i < g.n; ++i) m(i, i) = 0;
  for (const Edge& e : g.edges) {
    T w;
    if (!edge_weight(e, g.n, w)) continue;
    T& cell = m(e.u, e.v);
    if (w < cell) cell = w;  // parallel edges keep the minimum
  }
  return m;
}

template bool edge_weight<int32_t>(const Edge&, int64_t, int32_t&);
template bool edge_weight<float>(const Edge&, int64_t, float&);
template DistMatrix<int32_t> to_matrix<int32_t>(const Graph& g);
template DistMatrix<float> to_matrix<float>(const Graph& g);

}  // namespace ocl_sp
