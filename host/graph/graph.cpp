// Graph queries, the int32 range guard and the edge list -> dense matrix
// conversion. Everything that can make an int32 solve print wrong numbers is
// refused here, before any solver runs.
#include "graph/graph.hpp"

#include <algorithm>
#include <cctype>
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

}  // namespace

bool Graph::has_negative_weight() const {
  return std::any_of(edges.begin(), edges.end(), [](const Edge& e) { return e.w < 0; });
}

bool Graph::integer_weights() const {
  return std::all_of(edges.begin(), edges.end(),
                     [](const Edge& e) { return std::isfinite(e.w) && std::floor(e.w) == e.w; });
}

double largest_sum(std::vector<double>& mags, size_t take, double limit) {
  take = std::min(take, mags.size());
  std::nth_element(mags.begin(), mags.begin() + static_cast<std::ptrdiff_t>(take), mags.end(),
                   std::greater<double>());
  double bound = 0;
  for (size_t i = 0; i < take && bound < limit; ++i) bound += mags[i];
  return bound;
}

template <typename T>
void check_range(const Graph& g) {
  if constexpr (std::is_floating_point_v<T>) {
    (void)g;  // float types: no exactness bound (edge_weight checks each weight fits)
  } else {
    // A shortest simple path has at most n-1 edges, so the sum of the n-1 largest
    // |w| bounds every finite distance (and every partial sum a solver forms from
    // two of them stays below 2 * limit < INF + limit, which norm() handles).
    // Self-loops never lie on a shortest path: they are left out of the bound.
    const double limit = static_cast<double>(ValueTraits<T>::finite_limit);
    const std::string name = ValueTraits<T>::name();
    const std::string limit_text = std::to_string(ValueTraits<T>::finite_limit);
    const char* advice = std::is_same_v<T, int32_t>
                             ? "; use --type int64, --type float64 or smaller weights"
                             : "; use --type float64 or smaller weights";
    double max_abs = 0, total = 0;
    for (const Edge& e : g.edges) {
      if (e.u == e.v) continue;
      const double a = std::fabs(e.w);
      if (a >= limit)
        throw UsageError(edge_name(e) + " is outside the exact " + name + " range (|w| < " +
                         limit_text + ")" + advice);
      max_abs = std::max(max_abs, a);
      total += a;
    }
    const double k = static_cast<double>(std::max<int64_t>(g.n - 1, 0));
    // Cheap bounds first; the exact top-(n-1) sum is only needed when both fail.
    if (max_abs * k < limit || total < limit) return;
    std::vector<double> mags;
    mags.reserve(g.edges.size());
    for (const Edge& e : g.edges)
      if (e.u != e.v) mags.push_back(std::fabs(e.w));
    const size_t take = std::min(mags.size(), static_cast<size_t>(k));
    const double bound = largest_sum(mags, take, limit);
    if (bound >= limit)
      throw UsageError("path lengths could exceed the exact " + name + " range: the " +
                       std::to_string(take) + " largest |weights| add up to " +
                       format_weight(bound) + " (limit " + limit_text + ")" + advice);
  }
}

void check_int32_range(const Graph& g) { check_range<int32_t>(g); }

ValueType auto_value_type(const Graph& g) {
  if (!g.integer_weights()) return ValueType::float64;
  const auto exact = [&](auto t) {
    try {
      check_range<decltype(t)>(g);
      for (const Edge& e : g.edges)
        if (std::fabs(e.w) > 9007199254740992.0) return false;  // not read exactly
      return true;
    } catch (const UsageError&) {
      return false;
    }
  };
  if (exact(int32_t{})) return ValueType::int32;
  if (exact(int64_t{})) return ValueType::int64;
  return ValueType::float64;
}

ValueType parse_value_type(const std::string& s) {
  std::string t;
  for (char c : s) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "int32") return ValueType::int32;
  if (t == "int64") return ValueType::int64;
  if (t == "float32") return ValueType::float32;
  if (t == "float64") return ValueType::float64;
  throw UsageError("unknown value type '" + s + "' (int32, int64, float32, float64)");
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
  if constexpr (std::is_integral_v<T>) {
    const char* wider = std::is_same_v<T, int32_t> ? "; use --type int64 or float64"
                                                     : "; use --type float64";
    if (std::floor(e.w) != e.w)
      throw UsageError(edge_name(e) + " is not an integer; use --type float64 or float32");
    if (std::fabs(e.w) >= static_cast<double>(ValueTraits<T>::finite_limit))
      throw UsageError(edge_name(e) + " is outside the exact " + ValueTraits<T>::name() +
                       " range (|w| < " + std::to_string(ValueTraits<T>::finite_limit) + ")" +
                       wider);
    // Past 2^53 a double holds only every other integer: the file's value may
    // already have been rounded when it was read.
    if (std::fabs(e.w) > 9007199254740992.0)
      throw UsageError(edge_name(e) + " is beyond 2^53, where weights are not read exactly");
    w = static_cast<T>(e.w);
  } else {
    if (std::fabs(e.w) > static_cast<double>(std::numeric_limits<T>::max()))
      throw UsageError(edge_name(e) + " does not fit in " + ValueTraits<T>::name() +
                       "; use --type float64");
    w = static_cast<T>(e.w);
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

template void check_range<int32_t>(const Graph&);
template void check_range<float>(const Graph&);
template void check_range<double>(const Graph&);
template void check_range<int64_t>(const Graph&);
template bool edge_weight<int32_t>(const Edge&, int64_t, int32_t&);
template bool edge_weight<float>(const Edge&, int64_t, float&);
template bool edge_weight<double>(const Edge&, int64_t, double&);
template bool edge_weight<int64_t>(const Edge&, int64_t, int64_t&);
template DistMatrix<int32_t> to_matrix<int32_t>(const Graph& g);
template DistMatrix<float> to_matrix<float>(const Graph& g);
template DistMatrix<double> to_matrix<double>(const Graph& g);
template DistMatrix<int64_t> to_matrix<int64_t>(const Graph& g);

}  // namespace ocl_sp
