// Edge list / dense matrix -> CSR, the transpose and back (csr.hpp).
#include "graph/csr.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>
#include <limits>
#include <numeric>

#include "util/errors.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp {

namespace {

// Sorts each row's (target, weight) pairs by target and keeps the smallest weight
// of parallel edges, compacting in place; off is rewritten.
template <typename T>
void sort_and_dedupe(Csr<T>& g) {
  std::vector<int64_t> keep(static_cast<size_t>(g.n) + 1, 0);
  // By target, then weight (a float's -0 before its +0): the first of parallel
  // edges is the minimum, whatever order the row's edges came in.
  const auto before = [](const std::pair<int32_t, T>& a, const std::pair<int32_t, T>& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second != b.second) return a.second < b.second;
    return std::signbit(a.second) && !std::signbit(b.second);
  };
  const int threads = work_threads(static_cast<size_t>(g.off[g.n]) * (sizeof(T) + 4));
#pragma omp parallel num_threads(threads) if (g.n >= 4096 && threads > 1)
  {
    std::vector<std::pair<int32_t, T>> row;  // one a thread, reused
#pragma omp for schedule(dynamic, 4096)
    for (int64_t u = 0; u < g.n; ++u) {
      const int64_t b = g.off[u], e = g.off[u + 1];
      bool sorted = true;  // strictly increasing targets: nothing to do
      for (int64_t k = b + 1; k < e && sorted; ++k) sorted = g.col[k - 1] < g.col[k];
      if (!sorted) {
        row.resize(static_cast<size_t>(e - b));
        for (int64_t k = b; k < e; ++k) row[k - b] = {g.col[k], g.w[k]};
        std::sort(row.begin(), row.end(), before);
        int64_t out = b;
        for (size_t k = 0; k < row.size(); ++k) {
          if (k > 0 && row[k].first == row[k - 1].first) continue;
          g.col[out] = row[k].first;
          g.w[out] = row[k].second;
          ++out;
        }
        keep[u + 1] = out - b;
      } else {
        keep[u + 1] = e - b;
      }
    }
  }
  // Compact rows to the front (serially: rows only move left).
  int64_t out = 0;
  for (int64_t u = 0; u < g.n; ++u) {
    const int64_t b = g.off[u], k = keep[u + 1];
    if (out != b) {
      std::copy(g.col.begin() + b, g.col.begin() + b + k, g.col.begin() + out);
      std::copy(g.w.begin() + b, g.w.begin() + b + k, g.w.begin() + out);
    }
    g.off[u] = out;
    out += k;
  }
  g.off[g.n] = out;
  g.col.resize(static_cast<size_t>(out));
  g.w.resize(static_cast<size_t>(out));
  g.col.shrink_to_fit();
  g.w.shrink_to_fit();
}

}  // namespace

template <typename T>
bool Csr<T>::has_negative_weight() const {
  return std::any_of(w.begin(), w.end(), [](T x) { return x < 0; });
}

template <typename T>
uint64_t Csr<T>::bytes() const {
  return off.size() * sizeof(int64_t) + col.size() * sizeof(int32_t) + w.size() * sizeof(T);
}

uint64_t csr_bytes(int64_t n, int64_t m, size_t value_size) {
  return static_cast<uint64_t>(n + 1) * 8 + static_cast<uint64_t>(m) * (4 + value_size);
}

template <typename T>
Csr<T> build_csr(const Graph& g) {
  if (g.n <= 0) throw UsageError("graph has no vertices");
  if (g.n > std::numeric_limits<int32_t>::max())
    throw UsageError("graph has " + std::to_string(g.n) + " vertices; at most 2^31 - 1");
  Csr<T> c;
  c.n = g.n;
  c.off.assign(static_cast<size_t>(g.n) + 1, 0);
  const auto edges = static_cast<int64_t>(g.edges.size());
  std::vector<T> w(static_cast<size_t>(edges));
  std::vector<char> used(static_cast<size_t>(edges), 0);
  // Every core (road networks: 10^7-10^8 edges); rows sorted afterwards, so the
  // order edges land in within a row does not matter. A bad edge: the serial loop
  // below throws for the first one in file order.
  const int threads = work_threads(static_cast<size_t>(edges) * sizeof(Edge));
  const bool parallel = edges >= (int64_t{1} << 16) && threads > 1;
  bool bad = false;
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel)
  for (int64_t k = 0; k < edges; ++k) {
    try {
      if (!edge_weight(g.edges[k], g.n, w[k])) continue;
    } catch (...) {
#pragma omp atomic write
      bad = true;
      continue;
    }
    used[k] = 1;
    if (parallel) {
#pragma omp atomic
      ++c.off[g.edges[k].u + 1];
    } else {
      ++c.off[g.edges[k].u + 1];  // one thread: no locked adds
    }
  }
  if (bad)
    for (const Edge& e : g.edges) {
      T x;
      edge_weight(e, g.n, x);
    }
  std::partial_sum(c.off.begin(), c.off.end(), c.off.begin());
  const int64_t m = c.off[g.n];
  c.col.resize(static_cast<size_t>(m));
  c.w.resize(static_cast<size_t>(m));
  std::vector<int64_t> at(c.off.begin(), c.off.end() - 1);
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel)
  for (int64_t k = 0; k < edges; ++k) {
    if (!used[k]) continue;
    int64_t p;
    if (parallel) {
#pragma omp atomic capture
      p = at[g.edges[k].u]++;
    } else {
      p = at[g.edges[k].u]++;
    }
    c.col[p] = static_cast<int32_t>(g.edges[k].v);
    c.w[p] = w[k];
  }
  sort_and_dedupe(c);
  return c;
}

template <typename T>
Csr<T> csr_from_matrix(const DistMatrix<T>& a) {
  const int64_t n = a.n();
  Csr<T> c;
  c.n = n;
  c.off.assign(static_cast<size_t>(n) + 1, 0);
  const int threads = copy_threads(static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = 0;
    for (int64_t j = 0; j < n; ++j) k += j != i && a(i, j) != ValueTraits<T>::inf;
    c.off[i + 1] = k;
  }
  std::partial_sum(c.off.begin(), c.off.end(), c.off.begin());
  c.col.resize(static_cast<size_t>(c.off[n]));
  c.w.resize(static_cast<size_t>(c.off[n]));
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = c.off[i];
    for (int64_t j = 0; j < n; ++j)
      if (j != i && a(i, j) != ValueTraits<T>::inf) {
        c.col[k] = static_cast<int32_t>(j);
        c.w[k++] = a(i, j);
      }
  }
  return c;
}

template <typename T>
Csr<T> transpose(const Csr<T>& g) {
  Csr<T> t;
  t.n = g.n;
  t.off.assign(static_cast<size_t>(g.n) + 1, 0);
  for (int32_t v : g.col) ++t.off[v + 1];
  std::partial_sum(t.off.begin(), t.off.end(), t.off.begin());
  t.col.resize(g.col.size());
  t.w.resize(g.w.size());
  std::vector<int64_t> at(t.off.begin(), t.off.end() - 1);
  for (int64_t u = 0; u < g.n; ++u)  // rows in order: each transposed row sorted by source
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k) {
      const int64_t p = at[g.col[k]]++;
      t.col[p] = static_cast<int32_t>(u);
      t.w[p] = g.w[k];
    }
  return t;
}

template <typename T>
Graph to_graph(const Csr<T>& g) {
  Graph out;
  out.n = g.n;
  out.edges.reserve(g.col.size());
  for (int64_t u = 0; u < g.n; ++u)
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k)
      out.edges.push_back({u, g.col[k], static_cast<double>(g.w[k])});
  return out;
}

template struct Csr<int32_t>;
template struct Csr<float>;
template struct Csr<double>;
template struct Csr<int64_t>;
template Csr<int32_t> build_csr<int32_t>(const Graph&);
template Csr<float> build_csr<float>(const Graph&);
template Csr<double> build_csr<double>(const Graph&);
template Csr<int64_t> build_csr<int64_t>(const Graph&);
template Csr<int32_t> csr_from_matrix<int32_t>(const DistMatrix<int32_t>&);
template Csr<float> csr_from_matrix<float>(const DistMatrix<float>&);
template Csr<double> csr_from_matrix<double>(const DistMatrix<double>&);
template Csr<int64_t> csr_from_matrix<int64_t>(const DistMatrix<int64_t>&);
template Csr<int32_t> transpose<int32_t>(const Csr<int32_t>&);
template Csr<float> transpose<float>(const Csr<float>&);
template Csr<double> transpose<double>(const Csr<double>&);
template Csr<int64_t> transpose<int64_t>(const Csr<int64_t>&);
template Graph to_graph<int32_t>(const Csr<int32_t>&);
template Graph to_graph<float>(const Csr<float>&);
template Graph to_graph<double>(const Csr<double>&);
template Graph to_graph<int64_t>(const Csr<int64_t>&);

}  // namespace ocl_sp
