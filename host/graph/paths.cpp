// Path expansion and checking (see paths.hpp).
#include "graph/paths.hpp"

#include <cmath>
#include <sstream>

#include "util/errors.hpp"

namespace ocl_sp {

template <typename T>
PathMatrix initial_paths(const DistMatrix<T>& d) {
  PathMatrix p;
  p.n = d.n();
  const size_t nn = static_cast<size_t>(d.n() * d.n());
  p.via.assign(nn, -1);
  p.hops.assign(nn, 0);
  for (int64_t i = 0; i < d.n(); ++i)
    for (int64_t j = 0; j < d.n(); ++j)
      if (i != j && d(i, j) != ValueTraits<T>::inf) p.hops[static_cast<size_t>(i * d.n() + j)] = 1;
  return p;
}

template <typename T>
std::vector<int64_t> expand_path(const DistMatrix<T>& d, const PathMatrix& p, int64_t u, int64_t v) {
  const int64_t n = d.n();
  if (u < 0 || v < 0 || u >= n || v >= n || p.n != n)
    throw RuntimeError("path query outside the matrix");
  if (u == v) return {u};
  if (d(u, v) == ValueTraits<T>::inf) return {};
  std::vector<int64_t> out{u};
  // Explicit stack of (i, j) segments still to expand, rightmost at the bottom.
  std::vector<std::pair<int64_t, int64_t>> stack{{u, v}};
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    const size_t ij = static_cast<size_t>(i * n + j);
    const int32_t k = p.via[ij];
    if (k < 0) {
      out.push_back(j);
      continue;
    }
    const size_t ik = static_cast<size_t>(i * n + k), kj = static_cast<size_t>(k * n + j);
    if (k >= n || p.hops[ik] < 1 || p.hops[kj] < 1 || p.hops[ik] >= p.hops[ij] ||
        p.hops[kj] >= p.hops[ij]) {
      std::ostringstream m;
      m << "inconsistent path matrix at (" << i << ", " << j << "): via " << k;
      throw RuntimeError(m.str());
    }
    stack.push_back({k, j});
    stack.push_back({i, k});
  }
  return out;
}

template <typename T>
std::string check_paths(const DistMatrix<T>& w, const DistMatrix<T>& d, const PathMatrix& p) {
  const int64_t n = d.n();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      std::ostringstream where;
      where << "pair (" << i << ", " << j << "): ";
      std::vector<int64_t> path;
      try {
        path = expand_path(d, p, i, j);
      } catch (const RuntimeError& e) {
        return where.str() + e.what();
      }
      if (d(i, j) == ValueTraits<T>::inf) {
        if (!path.empty()) return where.str() + "a path for an unreachable pair";
        continue;
      }
      if (path.empty() || path.front() != i || path.back() != j) return where.str() + "no path";
      // Sum in the solver's own arithmetic order is unknown; int32 must be exact,
      // float32 within rounding of the path's length.
      double sum = 0;
      for (size_t e = 0; e + 1 < path.size(); ++e) {
        const T we = w(path[e], path[e + 1]);
        if (path[e] == path[e + 1] || we == ValueTraits<T>::inf) {
          std::ostringstream m;
          m << where.str() << "edge " << path[e] << " -> " << path[e + 1] << " is not in the graph";
          return m.str();
        }
        sum += static_cast<double>(we);
      }
      const double got = static_cast<double>(d(i, j));
      const bool ok = std::is_integral_v<T>
                          ? sum == got
                          : std::fabs(sum - got) <= 1e-4 * std::fmax(1.0, std::fabs(got));
      if (!ok) {
        std::ostringstream m;
        m << where.str() << "path length " << sum << " != distance " << got;
        return m.str();
      }
    }
  return "";
}

template PathMatrix initial_paths(const DistMatrix<int32_t>&);
template PathMatrix initial_paths(const DistMatrix<float>&);
template std::vector<int64_t> expand_path(const DistMatrix<int32_t>&, const PathMatrix&, int64_t,
                                          int64_t);
template std::vector<int64_t> expand_path(const DistMatrix<float>&, const PathMatrix&, int64_t,
                                          int64_t);
template std::string check_paths(const DistMatrix<int32_t>&, const DistMatrix<int32_t>&,
                                 const PathMatrix&);
template std::string check_paths(const DistMatrix<float>&, const DistMatrix<float>&,
                                 const PathMatrix&);

}  // namespace ocl_sp
