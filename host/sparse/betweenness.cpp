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

void scale_betweenness_column(std::vector<double>& b, int64_t n, int64_t k) {
  const double scale = betweenness_scale(n, true, true, k, false);
  if (scale != 0)
    for (double& x : b) x *= scale;
}

std::string betweenness_note(int64_t k) {
  return k == 0 ? std::string("betweenness: exact, every vertex a source")
                : "betweenness: estimated from " + std::to_string(k) + " sources (scaled by n / k, as networkx's k)";
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
  // x < 2^63: truncation is floor, and floor(x) a double again, so frac is exact;
  // frac * 2^64 is exact too, then truncated (no libm calls: this runs once per
  // vertex and source)
  f.hi = static_cast<uint64_t>(x);
  const double frac = x - static_cast<double>(f.hi);
  f.lo = static_cast<uint64_t>(frac * 18446744073709551616.0);
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
  add_fixed(i, Fixed::of(x));
}

Fixed FixedSums::fixed(int64_t i) const {
  const size_t k = static_cast<size_t>(i);
  return Fixed{hi_[k].load(std::memory_order_relaxed), lo_[k].load(std::memory_order_relaxed)};
}

void FixedSums::add_fixed(int64_t i, const Fixed& f) {
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
  in_ = in_edges(g);
}

template <typename T>
InEdges in_edges(const Csr<T>& g) {
  // A counting sort of the edges by target, sources taken in order: each
  // vertex's in-edges by source, then CSR order.
  InEdges in;
  const size_t n = static_cast<size_t>(g.n), m = static_cast<size_t>(g.m());
  in.off.assign(n + 1, 0);
  for (size_t k = 0; k < m; ++k) ++in.off[static_cast<size_t>(g.col[k]) + 1];
  for (size_t v = 0; v < n; ++v) in.off[v + 1] += in.off[v];
  in.src.resize(m);
  in.edge.resize(m);
  std::vector<int64_t> at(in.off.begin(), in.off.end() - (n + 1 > 0 ? 1 : 0));
  for (size_t u = 0; u < n; ++u)
    for (int64_t k = g.off[u]; k < g.off[u + 1]; ++k) {
      const size_t p = static_cast<size_t>(at[static_cast<size_t>(g.col[static_cast<size_t>(k)])]++);
      in.src[p] = static_cast<int32_t>(u);
      in.edge[p] = k;
    }
  return in;
}

template <typename T>
void BetweennessSink<T>::add_sums(const std::vector<Fixed>& vertex, int64_t sources) {
  if (vertex.size() != static_cast<size_t>(g_.n))
    throw RuntimeError("internal: betweenness sums of another graph");
  std::vector<Fixed>& mine = vertex_[0];
  if (mine.empty()) mine.resize(vertex.size());
  for (size_t i = 0; i < vertex.size(); ++i) mine[i].add(vertex[i]);
  done_ += sources;
}

template <typename T>
void BetweennessSink<T>::add_sums(const BetweennessSink& other) {
  if (other.g_.n != g_.n || other.edges_ != edges_)
    throw RuntimeError("internal: betweenness sums of another graph");
  std::vector<Fixed>& mine = vertex_[0];
  if (mine.empty()) mine.resize(static_cast<size_t>(g_.n));
  for (const auto& part : other.vertex_)
    if (!part.empty())
      for (size_t i = 0; i < part.size(); ++i) mine[i].add(part[i]);
  if (edges_)
    for (int64_t k = 0; k < edge_.size(); ++k) {
      const Fixed f = other.edge_.fixed(k);
      edge_.add_fixed(k, f);
    }
  done_ += other.done_;
}

namespace {

// The wide counts of a source whose float64 sigma overflows (betweenness.hpp,
// "Sigma beyond float64"): long double where it is x86's 80-bit extended format
// (exponents to 16383), and a long double mantissa with an int64 exponent beyond
// that (or where long double is not the extended format).
constexpr bool kExtended = std::numeric_limits<long double>::max_exponent >= 16384 &&
                           std::numeric_limits<long double>::digits <= 64;

// m * 2^e, m in [0.5, 1) or m == 0 (then e == 0): a count without an upper bound.
struct Scaled {
  long double m = 0;
  int64_t e = 0;
  static Scaled of(long double x) {
    Scaled r;
    int k = 0;
    r.m = std::frexp(x, &k);
    r.e = r.m == 0 ? 0 : k;
    return r;
  }
  void operator+=(const Scaled& b) {
    if (b.m == 0) return;
    if (m == 0) {
      *this = b;
      return;
    }
    // Beyond 2^-128 of the larger, the smaller cannot change the rounded sum (64-bit
    // mantissas at most); below that the shift is exact (normal long doubles).
    constexpr int64_t kFar = 128;
    long double sum;
    int64_t base;
    if (e >= b.e) {
      base = e;
      sum = e - b.e > kFar ? m : m + std::ldexp(b.m, static_cast<int>(b.e - e));
    } else {
      base = b.e;
      sum = b.e - e > kFar ? b.m : std::ldexp(m, static_cast<int>(e - b.e)) + b.m;
    }
    int k = 0;
    m = std::frexp(sum, &k);
    e = base + k;
  }
};

inline bool in_range(long double x) { return x <= std::numeric_limits<long double>::max(); }
inline bool in_range(const Scaled&) { return true; }
inline void set_one(long double& x) { x = 1; }
inline void set_one(Scaled& x) { x = Scaled::of(1); }
// coeff(v) = (1 + delta(v)) / sigma(v); numer >= 1, sigma >= 1
inline long double coefficient(long double numer, long double sigma) { return numer / sigma; }
inline Scaled coefficient(long double numer, const Scaled& sigma) {
  Scaled r = Scaled::of(numer / sigma.m);
  r.e -= sigma.e;
  return r;
}
// c = sigma(v) * coeff(w), a number in [0, n]
inline long double share(long double sigma, long double coeff) { return sigma * coeff; }
inline long double share(const Scaled& sigma, const Scaled& coeff) {
  const int64_t e = sigma.e + coeff.e;
  if (e < -16000) return 0;  // far below the fixed point's 2^-64
  return std::ldexp(sigma.m * coeff.m, static_cast<int>(e));
}

// One source's pass over its row (betweenness.hpp, steps 1-3), into the sums.
// The tight edges are found once (flags beside the CSR, set for the edges of
// reached vertices); indeg and sigma are zero between sources (Kahn's order takes
// every in-degree back to 0, sigma is cleared over the order).
template <typename T>
struct SourcePass {
  std::vector<int32_t> order, indeg;
  std::vector<double> sigma, coeff;
  std::vector<uint8_t> tight;
  std::vector<long double> wide;  // the wide counts, then coefficients (one array)
  std::vector<Scaled> scaled;

  void run(const Csr<T>& g, const InEdges& in, int64_t s, const T* d, bool endpoints,
           std::vector<Fixed>& vertex, FixedSums* edge) {
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
    // Kahn's order from s; each vertex's sigma pulled over its tight in-edges
    // when it comes out of the queue (its predecessors all came out before).
    const int64_t* ioff = in.off.data();
    const int32_t* isrc = in.src.data();
    const int64_t* iedge = in.edge.data();
    int64_t tail = 0;
    if (indeg[static_cast<size_t>(s)] != 0) {
      clear();
      throw UsageError("betweenness: a cycle of zero-weight edges through vertex " +
                       std::to_string(s) + " (infinitely many shortest paths)");
    }
    order[static_cast<size_t>(tail++)] = static_cast<int32_t>(s);
    sigma[static_cast<size_t>(s)] = 1.0;
    bool overflow = false;
    for (int64_t head = 0; head < tail; ++head) {
      const int64_t u = order[static_cast<size_t>(head)];
      if (head > 0) {
        double sum = 0;
        for (int64_t k = ioff[u]; k < ioff[u + 1]; ++k)
          if (d[isrc[k]] != inf && tight[static_cast<size_t>(iedge[k])])
            sum += sigma[static_cast<size_t>(isrc[k])];
        sigma[static_cast<size_t>(u)] = sum;
      }
      overflow |= !(sigma[static_cast<size_t>(u)] <= std::numeric_limits<double>::max());
      for (int64_t k = off[u]; k < off[u + 1]; ++k) {
        if (!tight[static_cast<size_t>(k)]) continue;
        const size_t v = static_cast<size_t>(col[k]);
        if (--indeg[v] == 0) order[static_cast<size_t>(tail++)] = static_cast<int32_t>(v);
      }
    }
    if (tail != reached) {
      clear();
      throw UsageError("betweenness: a cycle of zero-weight edges reached from vertex " +
                       std::to_string(s) + " (infinitely many shortest paths)");
    }
    if (overflow) {
      for (int64_t i = 0; i < tail; ++i)
        sigma[static_cast<size_t>(order[static_cast<size_t>(i)])] = 0.0;
      if (!kExtended || !wide_pass(wide, g, in, s, d, tail, endpoints, vertex, edge))
        wide_pass(scaled, g, in, s, d, tail, endpoints, vertex, edge);
    } else {
      // Dependencies back along the order.
      for (int64_t i = tail - 1; i >= 0; --i) {
        const int64_t v = order[static_cast<size_t>(i)];
        const double sv = sigma[static_cast<size_t>(v)];
        sigma[static_cast<size_t>(v)] = 0.0;  // zero for the next source
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
    }
    if (endpoints) vertex[static_cast<size_t>(s)].add(Fixed::of(static_cast<double>(reached - 1)));
  }

  // Steps 2 and 3 again for s in W's arithmetic, over the order and tight edges
  // already found; false (nothing added) when a count passes W's range.
  template <typename W>
  bool wide_pass(std::vector<W>& cnt, const Csr<T>& g, const InEdges& in, int64_t s, const T* d,
                 int64_t tail, bool endpoints, std::vector<Fixed>& vertex, FixedSums* edge) {
    const int64_t* off = g.off.data();
    const int32_t* col = g.col.data();
    const T inf = ValueTraits<T>::inf;
    if (cnt.size() != order.size()) cnt.assign(order.size(), W{});
    set_one(cnt[static_cast<size_t>(s)]);
    for (int64_t i = 0; i < tail; ++i) {
      const int64_t u = order[static_cast<size_t>(i)];
      if (i > 0) {  // pulled, as the float64 counts
        W sum{};
        for (int64_t k = in.off[static_cast<size_t>(u)]; k < in.off[static_cast<size_t>(u) + 1]; ++k) {
          const int32_t p = in.src[static_cast<size_t>(k)];
          if (d[p] != inf && tight[static_cast<size_t>(in.edge[static_cast<size_t>(k)])])
            sum += cnt[static_cast<size_t>(p)];
        }
        cnt[static_cast<size_t>(u)] = sum;
      }
      if (!in_range(cnt[static_cast<size_t>(u)])) return false;
    }
    // Back along the order; cnt[v] becomes coeff(v) once v is done (its count is
    // read only there; its predecessors read the coefficient).
    for (int64_t i = tail - 1; i >= 0; --i) {
      const int64_t v = order[static_cast<size_t>(i)];
      const W sv = cnt[static_cast<size_t>(v)];
      long double delta = 0;
      for (int64_t k = off[v]; k < off[v + 1]; ++k) {
        if (!tight[static_cast<size_t>(k)]) continue;
        const long double c = share(sv, cnt[static_cast<size_t>(col[k])]);
        delta += c;
        if (edge) edge->add(k, static_cast<double>(c));
      }
      cnt[static_cast<size_t>(v)] = coefficient(1 + delta, sv);
      if (v != s)
        vertex[static_cast<size_t>(v)].add(
            Fixed::of(static_cast<double>(endpoints ? delta + 1 : delta)));
    }
    return true;
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
  // The error of the first failing row in the list's order (whatever thread
  // meets it first): every backend and placement reports the same source.
  std::exception_ptr failure;
  int64_t failed_at = count;
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
        pass.run(g_, in_, s, d + r * n, endpoints_, mine, edges_ ? &edge_ : nullptr);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_lock);
        if (r < failed_at) {
          failure = std::current_exception();
          failed_at = r;
        }
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  done_ += count;
}

template <typename T>
std::vector<Fixed> BetweennessSink<T>::vertex_fixed() const {
  std::vector<Fixed> out(static_cast<size_t>(g_.n));
  for (const auto& part : vertex_)
    if (!part.empty())
      for (size_t i = 0; i < out.size(); ++i) out[i].add(part[i]);
  return out;
}

template <typename T>
std::vector<double> BetweennessSink<T>::vertex_sums() const {
  const std::vector<Fixed> f = vertex_fixed();
  std::vector<double> out(f.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = f[i].value();
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
  template InEdges in_edges<T>(const Csr<T>& g);                 \
  template void check_betweenness_graph<T>(const Csr<T>& g);
OCL_SP_BETWEENNESS(int32_t)
OCL_SP_BETWEENNESS(int64_t)
OCL_SP_BETWEENNESS(float)
OCL_SP_BETWEENNESS(double)
#undef OCL_SP_BETWEENNESS

}  // namespace ocl_sp
