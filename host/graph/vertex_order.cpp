// vertex_order.hpp: hop distances, the Hilbert order of two of them, and a CSR
// renumbered by it.
#include "graph/vertex_order.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <numeric>
#include <utility>

#include "util/profile.hpp"
#include "util/timer.hpp"

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
// scores >= 0. Each thread's best of its block, then the blocks' in order.
template <typename F>
int64_t farthest(int64_t n, const F& score) {
  std::vector<std::pair<int64_t, int64_t>> best(static_cast<size_t>(omp_get_max_threads()), {-1, -1});
#pragma omp parallel
  {
    std::pair<int64_t, int64_t>& mine = best[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (int64_t v = 0; v < n; ++v) {
      const int64_t s = score(v);
      if (s > mine.first) mine = {s, v};
    }
  }
  std::pair<int64_t, int64_t> at{-1, -1};
  for (const auto& b : best)  // static blocks in thread order: ids increase
    if (b.first > at.first) at = b;
  return at.second;
}

// One stable pass of the radix sort: words by their digit at `shift` (kDigit
// bits) from `from` into `to`, with their positions `at` into `at_to` where
// given; each thread counts and places its block (bucket-major, thread-minor).
constexpr int kDigit = 9;
void radix_pass(const uint64_t* from, uint64_t* to, const int32_t* at, int32_t* at_to, size_t n, int shift,
                int threads, std::vector<size_t>& count) {
  constexpr size_t kBuckets = size_t{1} << kDigit;
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<size_t>(omp_get_thread_num());
    const size_t lo = n * t / static_cast<size_t>(threads), hi = n * (t + 1) / static_cast<size_t>(threads);
    size_t* c = &count[t * kBuckets];
    std::fill(c, c + kBuckets, size_t{0});
    for (size_t i = lo; i < hi; ++i) ++c[(from[i] >> shift) & (kBuckets - 1)];
#pragma omp barrier
#pragma omp single
    {
      size_t sum = 0;
      for (size_t b = 0; b < kBuckets; ++b)
        for (size_t k = 0; k < static_cast<size_t>(threads); ++k) {
          const size_t x = count[k * kBuckets + b];
          count[k * kBuckets + b] = sum;
          sum += x;
        }
    }
    for (size_t i = lo; i < hi; ++i) {
      const size_t dst = c[(from[i] >> shift) & (kBuckets - 1)]++;
      to[dst] = from[i];
      if (at) at_to[dst] = at[i];
    }
  }
}

}  // namespace

// A stable radix sort of kDigit bits a pass. Keys of up to 32 bits travel with
// their positions in one word (key << 32 | position); longer ones beside them.
std::vector<int32_t> order_by_key(const std::vector<uint64_t>& keys, int bits) {
  const auto n = keys.size();
  std::vector<int32_t> at(n);
  const int threads = std::max(1, std::min<int>(omp_get_max_threads(), static_cast<int>(n / 65536) + 1));
  std::vector<size_t> count(static_cast<size_t>(threads) * (size_t{1} << kDigit));
  // Buffers left unset (each pass writes every word): no serial first touch.
  std::unique_ptr<uint64_t[]> word(new uint64_t[n]), word2(new uint64_t[n]);
  const bool packed = bits <= 32;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t i = 0; i < n; ++i) {
    word[i] = packed ? keys[i] << 32 | i : keys[i];
    at[i] = static_cast<int32_t>(i);
  }
  std::vector<int32_t> at2(packed ? 0 : n);
  for (int shift = 0; shift < bits; shift += kDigit) {
    radix_pass(word.get(), word2.get(), packed ? nullptr : at.data(), packed ? nullptr : at2.data(), n,
               shift + (packed ? 32 : 0), threads, count);
    word.swap(word2);
    if (!packed) at.swap(at2);
  }
  if (packed) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (size_t i = 0; i < n; ++i) at[i] = static_cast<int32_t>(word[i] & 0xffffffffu);
  }
  return at;
}

std::vector<int32_t> locality_order(int64_t n, const DistanceSearch& search) {
  std::vector<int32_t> new_id(static_cast<size_t>(n));
  if (n <= 0) return new_id;
  const Stopwatch clock;
  std::vector<int32_t> da, db, dq;
  const auto at = [](const std::vector<int32_t>& d, int64_t v) { return d[static_cast<size_t>(v)]; };
  search(0, dq);  // (vertex 0's distances: dq's storage until q's)
  const int64_t a = std::max<int64_t>(0, farthest(n, [&](int64_t v) { return at(dq, v); }));
  search(a, da);
  const int64_t b = std::max<int64_t>(0, farthest(n, [&](int64_t v) { return at(da, v); }));
  search(b, db);
  const int64_t q = farthest(n, [&](int64_t v) { return at(da, v) < 0 || at(db, v) < 0 ? -1 : std::min(at(da, v), at(db, v)); });
  db = {};
  search(q < 0 ? b : q, dq);
  profile("vertex order: four searches", clock.seconds());
  // Coordinates: the hops from a and q; vertices reached from neither past every
  // coordinate: last, in id order.
  int32_t top = 0;
#pragma omp parallel for schedule(static) reduction(max : top)
  for (int64_t v = 0; v < n; ++v) top = std::max({top, at(da, v), at(dq, v)});
  const auto cell = static_cast<uint64_t>(top) + 1;
  int bits = 1;
  while ((uint64_t{1} << bits) <= cell) ++bits;
  const auto coord = [&](const std::vector<int32_t>& d, int64_t v) {
    return at(d, v) < 0 ? cell : static_cast<uint64_t>(at(d, v));
  };
  std::vector<uint64_t> key(static_cast<size_t>(n));
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) key[static_cast<size_t>(v)] = hilbert_index(coord(da, v), coord(dq, v), bits);
  const std::vector<int32_t> by_key = order_by_key(key, 2 * bits);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) new_id[static_cast<size_t>(by_key[static_cast<size_t>(i)])] = static_cast<int32_t>(i);
  profile("vertex order: searches, Hilbert keys and their sort", clock.seconds());
  return new_id;
}

std::vector<int32_t> locality_order(const int64_t* off, const int32_t* col, int64_t n) {
  return locality_order(n, [&](int64_t s, std::vector<int32_t>& d) { d = hop_distances(off, col, n, s); });
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
  // place), then each new row of at most kSortedRow edges sorted by target
  // (insertion, stable), as kernels/sssp_order.cl sssp_order_renumber does.
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
    if (hi - lo > kSortedRow) continue;
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
