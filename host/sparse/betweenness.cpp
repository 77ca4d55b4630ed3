// Betweenness centrality from distance rows (betweenness.hpp).
#include "sparse/betweenness.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <string>

#include "util/errors.hpp"

namespace ocl_sp {

double betweenness_scale(int64_t n, bool normalized, bool directed, int64_t k, bool endpoints) {
  double scale = 0;  // networkx's None
  const double nn = static_cast<double>(n);
  if (normalized) {
    if (endpoints) {
      if (n >= 2) scale = 1 / (nn * (nn - 1));
    } else if (n > 2) {
      scale = 1 / ((nn - 1) * (nn - 2));
    }
  } else if (!directed) {
    scale = 0.5;
  }
  if (scale != 0 && k > 0) scale = scale * nn / static_cast<double>(k);
  return scale;
}

double edge_betweenness_scale(int64_t n, bool normalized, bool directed, int64_t k) {
  double scale = 0;
  const double nn = static_cast<double>(n);
  if (normalized) {
    if (n > 1) scale = 1 / (nn * (nn - 1));
  } else if (!directed) {
    scale = 0.5;
  }
  if (scale != 0 && k > 0) scale = scale * nn / static_cast<double>(k);
  return scale;
}

Fixed Fixed::of(double x) {
  Fixed f;
  if (!(x > 0)) return f;  // 0 (and nothing else: contributions are >= 0)
  const double whole = std::floor(x);
  f.hi = static_cast<uint64_t>(whole);
  f.lo = static_cast<uint64_t>(std::ldexp(x - whole, 64));  // exact, then truncated
  return f;
}

double Fixed::value() const {
  return static_cast<double>(hi) + std::ldexp(static_cast<double>(lo), -64);
}

FixedSums::FixedSums(int64_t size)
    : hi_(static_cast<size_t>(size)), lo_(static_cast<size_t>(size)) {
  for (auto& x : hi_) x.store(0, std::memory_order_relaxed);
  for (auto& x : lo_) x.store(0, std::memory_order_relaxed);
}

void FixedSums::add(int64_t i, double x) {
  if (!(x > 0)) return;
  const Fixed f = Fixed::of(x);
  const uint64_t h = f.hi, l = f.lo;
  const size_t k = static_cast<size_t>(i);
  const uint64_t before = lo_[k].fetch_add(l, std::memory_order_relaxed);
  const uint64_t carry = before + l < before ? 1 : 0;
  if (h + carry) hi_[k].fetch_add(h + carry, std::memory_order_relaxed);
}

double FixedSums::value(int64_t i) const {
  const size_t k = static_cast<size_t>(i);
  return Fixed{hi_[k].load(std::memory_order_relaxed), lo_[k].load(std::memory_order_relaxed)}
      .value();
}

template <typename T>
void check_betweenness_graph(const Csr<T>& g) {
  for (int64_t u = 0; u < g.n; ++u)
    for (int64_t k = g.off[static_cast<size_t>(u)]; k < g.off[static_cast<size_t>(u) + 1]; ++k)
      if (g.w[static_cast<size_t>(k)] < T{0})
        throw UsageError("betweenness needs weights >= 0 (the edge " + std::to_string(u) + " -> " +
                         std::to_string(g.col[static_cast<size_t>(k)]) + " is negative)");
}

template <typename T>
BetweennessSink<T>::BetweennessSink(const Csr<T>& g, std::vector<int64_t> sources, bool endpoints,
                                    bool edges, int threads)
    : g_(g),
      sources_(std::move(sources)),
      endpoints_(endpoints),
      edges_(edges),
      threads_(threads > 0 ? threads : omp_get_max_threads()),
      vertex_(static_cast<size_t>(threads_)),
      edge_(edges ? g.m() : 0) {
  check_betweenness_graph(g);
}

namespace {

// One source's pass over its row (betweenness.hpp, steps 1-3), into the sums.
// The tight edges are found once (flags beside the CSR, set for the edges of
// reached vertices); indeg and sigma are zero between sources (Kahn's order takes
// every in-degree back to 0, sigma is cleared over the order).
template <typename T>
struct SourcePass {
  std::vector<int32_t> order, indeg;
  std::vector<double> sigma, coeff;
  std::vector<uint8_t> tight;

  void run(const Csr<T>& g, int64_t s, const T* d, bool endpoints, std::vector<Fixed>& vertex,
           FixedSums* edge) {
    const int64_t n = g.n;
    const size_t un = static_cast<size_t>(n);
    if (vertex.empty()) vertex.resize(un);
    if (order.size() != un) {
      order.assign(un, 0);
      indeg.assign(un, 0);
      sigma.assign(un, 0.0);
      coeff.assign(un, 0.0);
      tight.assign(static_cast<size_t>(g.m()), 0);
    }
    const T inf = ValueTraits<T>::inf;
    const int64_t* off = g.off.data();
    const int32_t* col = g.col.data();
    const T* w = g.w.data();
    int64_t reached = 0;
    for (int64_t u = 0; u < n; ++u) {
      const T du = d[u];
      if (du == inf) continue;
      ++reached;
      for (int64_t k = off[u]; k < off[u + 1]; ++k) {
        const int64_t v = col[k];
        const bool t = v != u && d[v] != inf && du + w[k] == d[v];
        tight[static_cast<size_t>(k)] = t;
        indeg[static_cast<size_t>(v)] += t;
      }
    }
    // Kahn's order from s, sigma pushed along it.
    int64_t tail = 0;
    if (indeg[static_cast<size_t>(s)] != 0) {
      clear();
      throw UsageError("betweenness: a cycle of zero-weight edges through vertex " +
                       std::to_string(s) + " (infinitely many shortest paths)");
    }
    order[static_cast<size_t>(tail++)] = static_cast<int32_t>(s);
    sigma[static_cast<size_t>(s)] = 1.0;
    for (int64_t head = 0; head < tail; ++head) {
      const int64_t u = order[static_cast<size_t>(head)];
      const double su = sigma[static_cast<size_t>(u)];
      for (int64_t k = off[u]; k < off[u + 1]; ++k) {
        if (!tight[static_cast<size_t>(k)]) continue;
        const size_t v = static_cast<size_t>(col[k]);
        sigma[v] += su;
        if (--indeg[v] == 0) order[static_cast<size_t>(tail++)] = static_cast<int32_t>(v);
      }
    }
    if (tail != reached) {
      clear();
      throw UsageError("betweenness: a cycle of zero-weight edges reached from vertex " +
                       std::to_string(s) + " (infinitely many shortest paths)");
    }
    // Dependencies back along the order.
    bool overflow = false;
    for (int64_t i = tail - 1; i >= 0; --i) {
      const int64_t v = order[static_cast<size_t>(i)];
      const double sv = sigma[static_cast<size_t>(v)];
      sigma[static_cast<size_t>(v)] = 0.0;  // zero for the next source
      if (!std::isfinite(sv)) overflow = true;
      double delta = 0;
      for (int64_t k = off[v]; k < off[v + 1]; ++k) {
        if (!tight[static_cast<size_t>(k)]) continue;
        const double c = sv * coeff[static_cast<size_t>(col[k])];
        delta += c;
        if (edge) edge->add(k, c);
      }
      coeff[static_cast<size_t>(v)] = (1 + delta) / sv;
      if (v != s) vertex[static_cast<size_t>(v)].add(Fixed::of(endpoints ? delta + 1 : delta));
    }
    if (overflow)
      throw RuntimeError("betweenness: the number of shortest paths from vertex " +
                         std::to_string(s) + " exceeds float64's range");
    if (endpoints) vertex[static_cast<size_t>(s)].add(Fixed::of(static_cast<double>(reached - 1)));
  }

  // After a refused source: the scratch back to zero.
  void clear() {
    std::fill(indeg.begin(), indeg.end(), 0);
    std::fill(sigma.begin(), sigma.end(), 0.0);
  }
};

}  // namespace

template <typename T>
void BetweennessSink<T>::rows(int64_t first, int64_t count, int64_t n, const T* d,
                              const int32_t*, const int32_t*) {
  if (n != g_.n) throw RuntimeError("internal: betweenness rows of another graph");
  std::exception_ptr failure;
  std::mutex failure_lock;
  const int threads = threads_;
#pragma omp parallel num_threads(threads) if (threads > 1 && count > 1)
  {
    SourcePass<T> pass;
    std::vector<Fixed>& mine = vertex_[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < count; ++r) {
      const int64_t row = first + r;
      const int64_t s = sources_.empty() ? row : sources_[static_cast<size_t>(row)];
      try {
        pass.run(g_, s, d + r * n, endpoints_, mine, edges_ ? &edge_ : nullptr);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  done_ += count;
}

template <typename T>
std::vector<double> BetweennessSink<T>::vertex_sums() const {
  std::vector<double> out(static_cast<size_t>(g_.n));
  for (size_t i = 0; i < out.size(); ++i) {
    Fixed total;
    for (const auto& part : vertex_)
      if (!part.empty()) total.add(part[i]);
    out[i] = total.value();
  }
  return out;
}

template <typename T>
std::vector<double> BetweennessSink<T>::edge_sums() const {
  std::vector<double> out(static_cast<size_t>(edge_.size()));
  for (int64_t i = 0; i < edge_.size(); ++i) out[static_cast<size_t>(i)] = edge_.value(i);
  return out;
}

#define OCL_SP_BETWEENNESS(T)                                    \
  template class BetweennessSink<T>;                             \
  template void check_betweenness_graph<T>(const Csr<T>& g);
OCL_SP_BETWEENNESS(int32_t)
OCL_SP_BETWEENNESS(int64_t)
OCL_SP_BETWEENNESS(float)
OCL_SP_BETWEENNESS(double)
#undef OCL_SP_BETWEENNESS

}  // namespace ocl_sp
