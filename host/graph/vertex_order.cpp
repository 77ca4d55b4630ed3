// vertex_order.hpp: hop distances, the Hilbert order of two of them, and a CSR
// renumbered by it.
#include "graph/vertex_order.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <utility>

#include "util/profile.hpp"
#include "util/timer.hpp"
#if defined(__GLIBCXX__)
#include <parallel/algorithm>  // __gnu_parallel::sort (OpenMP)
#endif

namespace ocl_sp {

namespace {

inline void prefetch(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

}  // namespace

std::vector<int32_t> hop_distances(const int64_t* off, const int32_t* col, int64_t n, int64_t source) {
  std::vector<int32_t> dist(static_cast<size_t>(n), -1);
  if (source < 0 || source >= n) return dist;
  // Vertices seen, a bit each (n / 8 bytes: in cache where the distances are not).
  std::vector<uint64_t> bits((static_cast<size_t>(n) + 63) / 64, 0);
  auto* seen = reinterpret_cast<std::atomic<uint64_t>*>(bits.data());
  static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t), "atomic uint64 in place");
  bits[static_cast<size_t>(source) / 64] = uint64_t{1} << (source % 64);
  dist[static_cast<size_t>(source)] = 0;
  std::vector<int32_t> front{static_cast<int32_t>(source)}, next;
  // One parallel region for the whole search (a deep graph has thousands of
  // levels of a few thousand vertices: a fork a level would cost more than the
  // level): each thread expands its share of the front, then copies what it
  // found into the next front at its offset.
  const int threads = omp_get_max_threads();
  std::vector<std::vector<int32_t>> found(static_cast<size_t>(threads));
  std::vector<size_t> at(static_cast<size_t>(threads) + 1, 0);
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<size_t>(omp_get_thread_num());
    std::vector<int32_t>& mine = found[t];
    for (int32_t level = 1;; ++level) {
      mine.clear();
      const auto size = static_cast<int64_t>(front.size());
#pragma omp for schedule(static)
      for (int64_t i = 0; i < size; ++i) {
        // The front's rows lie anywhere: their offsets and targets fetched ahead
        // (memory latency, not bandwidth, bounds a search of a graph in random order).
        if (i + 16 < size) prefetch(&off[front[static_cast<size_t>(i) + 16]]);
        if (i + 8 < size) prefetch(&col[off[front[static_cast<size_t>(i) + 8]]]);
        const int32_t u = front[static_cast<size_t>(i)];
        for (int64_t e = off[u]; e < off[u + 1]; ++e) {
          const int32_t v = col[e];
          std::atomic<uint64_t>& word = seen[static_cast<uint32_t>(v) / 64];
          const uint64_t bit = uint64_t{1} << (static_cast<uint32_t>(v) % 64);
          if (!(word.load(std::memory_order_relaxed) & bit) && !(word.fetch_or(bit, std::memory_order_relaxed) & bit)) {
            dist[static_cast<size_t>(v)] = level;  // v's finder alone writes it
            mine.push_back(v);
          }
        }
      }
#pragma omp single
      {
        for (size_t k = 0; k < found.size(); ++k) at[k + 1] = at[k] + found[k].size();
        next.resize(at.back());
      }
      std::copy(mine.begin(), mine.end(), next.begin() + static_cast<std::ptrdiff_t>(at[t]));
#pragma omp barrier
#pragma omp single
      front.swap(next);
      if (front.empty()) break;  // every thread sees the same front past the single's barrier
    }
  }
  return dist;
}

namespace {

// Position of (x, y) along the Hilbert curve of a 2^bits x 2^bits square.
uint64_t hilbert_index(uint64_t x, uint64_t y, int bits) {
  uint64_t d = 0;
  for (uint64_t s = uint64_t{1} << (bits - 1); s > 0; s >>= 1) {
    const uint64_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

// The vertex farthest by `score` (the smallest id among ties); -1 when none
// scores >= 0.
template <typename F>
int64_t farthest(int64_t n, const F& score) {
  double best = -1;
  int64_t at = -1;
  for (int64_t v = 0; v < n; ++v) {
    const double s = score(v);
    if (s > best) {
      best = s;
      at = v;
    }
  }
  return at;
}

}  // namespace

std::vector<int32_t> locality_order(int64_t n, const DistanceSearch& search, double unit) {
  std::vector<int32_t> new_id(static_cast<size_t>(n));
  if (n <= 0) return new_id;
  const Stopwatch clock;
  std::vector<double> d0, da, db, dq;
  const auto at = [](const std::vector<double>& d, int64_t v) { return d[static_cast<size_t>(v)]; };
  search(0, d0);
  const int64_t a = std::max<int64_t>(0, farthest(n, [&](int64_t v) { return at(d0, v); }));
  d0 = {};
  search(a, da);
  const int64_t b = std::max<int64_t>(0, farthest(n, [&](int64_t v) { return at(da, v); }));
  search(b, db);
  const int64_t q = farthest(n, [&](int64_t v) { return at(da, v) < 0 || at(db, v) < 0 ? -1.0 : std::min(at(da, v), at(db, v)); });
  db = {};
  search(q < 0 ? b : q, dq);
  profile("vertex order: four searches", clock.seconds());
  // Coordinates in units of `unit` (about a hop), at most 2^30; vertices reached
  // from neither a nor q past every coordinate: last, in id order.
  double top = 0;
  for (int64_t v = 0; v < n; ++v) top = std::max({top, at(da, v), at(dq, v)});
  const double scale = 1 / std::max({unit, top / double(1 << 30), 1e-300});
  const auto cell = static_cast<uint64_t>(top * scale) + 1;
  int bits = 1;
  while ((uint64_t{1} << bits) <= cell) ++bits;
  const auto coord = [&](const std::vector<double>& d, int64_t v) {
    return at(d, v) < 0 ? cell : std::min(cell, static_cast<uint64_t>(at(d, v) * scale));
  };
  std::vector<std::pair<uint64_t, int32_t>> key(static_cast<size_t>(n));
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v)
    key[static_cast<size_t>(v)] = {hilbert_index(coord(da, v), coord(dq, v), bits), static_cast<int32_t>(v)};
#if defined(__GLIBCXX__)
  __gnu_parallel::sort(key.begin(), key.end());
#else
  std::sort(key.begin(), key.end());
#endif
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) new_id[static_cast<size_t>(key[static_cast<size_t>(i)].second)] = static_cast<int32_t>(i);
  profile("vertex order: searches, Hilbert keys and their sort", clock.seconds());
  return new_id;
}

std::vector<int32_t> locality_order(const int64_t* off, const int32_t* col, int64_t n) {
  return locality_order(
      n,
      [&](int64_t s, std::vector<double>& d) {
        const std::vector<int32_t> hops = hop_distances(off, col, n, s);
        d.assign(hops.begin(), hops.end());
      },
      1.0);
}

template <typename T>
Csr<T> renumber(const Csr<T>& g, const std::vector<int32_t>& new_id) {
  Csr<T> r;
  r.n = g.n;
  const auto n = static_cast<size_t>(g.n);
  std::vector<int64_t> degree(n + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < g.n; ++u)
    degree[static_cast<size_t>(new_id[static_cast<size_t>(u)]) + 1] =
        g.off[static_cast<size_t>(u) + 1] - g.off[static_cast<size_t>(u)];
  r.off.resize(n + 1);
  std::partial_sum(degree.begin(), degree.end(), r.off.begin());
  r.col.resize(g.col.size());
  r.w.resize(g.w.size());
  // The old rows in order (the reads stream; each row lands whole at its new
  // place), then each new row sorted by target (short rows: insertion sort).
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < g.n; ++u) {
    if (u + 8 < g.n) {
      const auto ahead = static_cast<size_t>(r.off[static_cast<size_t>(new_id[static_cast<size_t>(u) + 8])]);
      prefetch(&r.col[std::min(ahead, r.col.size() - 1)]);
      prefetch(&r.w[std::min(ahead, r.w.size() - 1)]);
    }
    auto to = static_cast<size_t>(r.off[static_cast<size_t>(new_id[static_cast<size_t>(u)])]);
    for (int64_t e = g.off[static_cast<size_t>(u)]; e < g.off[static_cast<size_t>(u) + 1]; ++e, ++to) {
      if (static_cast<size_t>(e) + 32 < g.col.size()) prefetch(&new_id[static_cast<size_t>(g.col[static_cast<size_t>(e) + 32])]);
      r.col[to] = new_id[static_cast<size_t>(g.col[static_cast<size_t>(e)])];
      r.w[to] = g.w[static_cast<size_t>(e)];
    }
  }
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < g.n; ++u) {
    const auto lo = static_cast<size_t>(r.off[static_cast<size_t>(u)]), hi = static_cast<size_t>(r.off[static_cast<size_t>(u) + 1]);
    for (size_t i = lo + 1; i < hi; ++i)
      for (size_t j = i; j > lo && r.col[j - 1] > r.col[j]; --j) {
        std::swap(r.col[j - 1], r.col[j]);
        std::swap(r.w[j - 1], r.w[j]);
      }
  }
  return r;
}

template Csr<int32_t> renumber(const Csr<int32_t>&, const std::vector<int32_t>&);
template Csr<int64_t> renumber(const Csr<int64_t>&, const std::vector<int32_t>&);
template Csr<float> renumber(const Csr<float>&, const std::vector<int32_t>&);
template Csr<double> renumber(const Csr<double>&, const std::vector<int32_t>&);

}  // namespace ocl_sp
