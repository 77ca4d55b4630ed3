// The CPU engines of the multi-source solve: Dijkstra per source with a radix
// heap (Ahuja, Mehlhorn, Orlin and Tarjan), sources in parallel with OpenMP.
// Keys are the distances' bit patterns: non-negative int32/int64 and float32/
// float64 values order as unsigned integers of their width do, so one monotone
// integer heap (per width) serves every type.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "sparse/sssp.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp {
namespace {

template <typename T>
using KeyOf = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <typename T>
KeyOf<T> key_of(T v) {
  KeyOf<T> k;
  std::memcpy(&k, &v, sizeof k);
  return k;
}

// Monotone priority queue of (key, vertex): pops never go below the last key
// popped, which Dijkstra with non-negative weights guarantees. Lazy deletion: a
// vertex is pushed again when its distance drops; stale entries are skipped by
// the caller. Amortised O(log C) per entry.
template <typename K>
class RadixHeap {
 public:
  void clear() {
    for (auto& b : buckets_) b.clear();
    last_ = 0;
    size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  void push(K key, int32_t v) {
    buckets_[bucket(key)].push_back({key, v});
    ++size_;
  }
  // The entry with the smallest key.
  std::pair<K, int32_t> pop() {
    if (buckets_[0].empty()) {
      int i = 1;
      while (buckets_[i].empty()) ++i;
      auto& b = buckets_[i];
      K lo = b[0].first;
      for (const auto& e : b) lo = std::min(lo, e.first);
      last_ = lo;
      for (const auto& e : b) buckets_[bucket(e.first)].push_back(e);
      b.clear();
    }
    const auto e = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return e;
  }

 private:
  static constexpr int kBits = 8 * sizeof(K);
  int bucket(K key) const {
    // The highest differing bit, 1-based (keys zero-extended to 64 bits).
    return key == last_ ? 0 : 64 - __builtin_clzll(static_cast<unsigned long long>(key ^ last_));
  }
  std::vector<std::pair<K, int32_t>> buckets_[kBits + 1];
  K last_ = 0;
  size_t size_ = 0;
};

// Dial's bucket queue for small integer weights (max weight < C, C a power of
// two up to kMaxBuckets): every key in the queue lies in [cur, cur + max weight],
// so bucket key mod C holds exactly one key's entries; a bitmap of the non-empty
// buckets finds the next one in a few word operations however far it is. Push
// and pop are O(1) (lazy deletion as the radix heap).
template <typename K>
class BucketQueue {
 public:
  static constexpr uint32_t kMaxBuckets = 4096;
  explicit BucketQueue(uint32_t buckets)
      : mask_(buckets - 1), words_(std::max<uint32_t>(buckets / 64, 1)), buckets_(buckets),
        bits_(words_, 0) {}
  void clear() {
    cur_ = 0;  // empty after each search (every entry popped)
  }
  bool empty() const { return size_ == 0; }
  void push(K key, int32_t v) {
    const uint32_t b = static_cast<uint32_t>(key) & mask_;
    buckets_[b].push_back(v);
    bits_[b >> 6] |= uint64_t{1} << (b & 63);
    ++size_;
  }
  std::pair<K, int32_t> pop() {
    uint32_t b = static_cast<uint32_t>(cur_) & mask_;
    if (buckets_[b].empty()) {
      // The next non-empty bucket at or after b, cyclically.
      uint32_t w = b >> 6;
      uint64_t word = bits_[w] & (~uint64_t{0} << (b & 63));
      uint32_t steps = 0;
      while (word == 0) {
        w = (w + 1 == words_) ? 0 : w + 1;
        word = bits_[w];
        ++steps;
      }
      const uint32_t nb = (w << 6) | static_cast<uint32_t>(__builtin_ctzll(word));
      const uint32_t gap = steps == 0 || nb >= b ? nb - b : nb + mask_ + 1 - b;
      cur_ += gap;
      b = nb;
    }
    auto& bucket = buckets_[b];
    const int32_t v = bucket.back();
    bucket.pop_back();
    if (bucket.empty()) bits_[b >> 6] &= ~(uint64_t{1} << (b & 63));
    --size_;
    return {cur_, v};
  }

 private:
  uint32_t mask_, words_;
  std::vector<std::vector<int32_t>> buckets_;
  std::vector<uint64_t> bits_;
  K cur_ = 0;
  size_t size_ = 0;
};

template <typename T, typename Queue>
void dijkstra(const Csr<T>& g, int64_t s, T* dist, Queue& heap) {
  const int64_t n = g.n;
  std::fill(dist, dist + n, kRawInf<T>);
  heap.clear();
  dist[s] = 0;
  heap.push(0, static_cast<int32_t>(s));
  const int64_t* off = g.off.data();
  const int32_t* col = g.col.data();
  const T* w = g.w.data();
  while (!heap.empty()) {
    const auto [k, u] = heap.pop();
    const T du = dist[u];
    if (key_of(du) != k) continue;  // stale: u was settled with a smaller key
    for (int64_t e = off[u]; e < off[u + 1]; ++e) {
      const int32_t v = col[e];
      const T nd = du + w[e];
      if (nd < dist[v]) {
        dist[v] = nd;
        heap.push(key_of(nd), v);
      }
    }
  }
}

template <typename T>
class DijkstraEngine final : public SsspEngine<T> {
 public:
  DijkstraEngine(bool parallel, SolverInfo info) : parallel_(parallel), info_(std::move(info)) {}
  SolverInfo& info() override { return info_; }
  void prepare(const Csr<T>& g, RunStats&) override {
    g_ = &g;
    // Integer weights below the bucket limit: Dial's buckets, else the radix heap.
    buckets_ = 0;
    if constexpr (std::is_integral_v<T>) {
      T top = 0;
      for (T x : g.w) top = std::max(top, x);
      uint32_t c = 64;
      while (static_cast<int64_t>(c) <= static_cast<int64_t>(top) &&
             c < BucketQueue<KeyOf<T>>::kMaxBuckets)
        c *= 2;
      if (static_cast<int64_t>(top) < static_cast<int64_t>(c)) buckets_ = c;
    }
  }
  int64_t batch(int64_t n) const override {
    // Enough rows for every thread several times over, within ~64 MiB of rows.
    const int64_t threads = parallel_ ? omp_get_max_threads() : 1;
    const int64_t by_memory = std::max<int64_t>(1, (int64_t{64} << 20) / (static_cast<int64_t>(sizeof(T)) * std::max<int64_t>(n, 1)));
    return std::max<int64_t>(1, std::min(threads * 32, by_memory));
  }
  int host_threads() const override { return parallel_ ? omp_get_max_threads() : 1; }
  void run(const int64_t* sources, int64_t count, T* out, RunStats& st) override {
    const Stopwatch t;
    const Csr<T>& g = *g_;
    const auto all = [&](auto make_queue) {
#pragma omp parallel if (parallel_)
      {
        auto queue = make_queue();
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < count; ++i) dijkstra(g, sources[i], out + i * g.n, queue);
      }
    };
    if (buckets_)
      all([&] { return BucketQueue<KeyOf<T>>(buckets_); });
    else
      all([] { return RadixHeap<KeyOf<T>>(); });
    st.t_k += t.seconds();
  }

 private:
  bool parallel_;
  SolverInfo info_;
  const Csr<T>* g_ = nullptr;
  uint32_t buckets_ = 0;  // Dial's buckets (a power of two > every weight), 0: radix heap
};

}  // namespace

template <typename T>
std::unique_ptr<SsspEngine<T>> make_dijkstra_engine(const SolverSpec& spec) {
  const Stopwatch setup;
  for (const auto& [name, value] : spec.params)
    if (name != "BLOCK" && name != "WG")  // other algorithms' tunables: ignored, as fw does
      throw UsageError("unknown parameter '" + name + "' for sssp on the " +
                       to_string(spec.backend) + " backend (it has no tunables)");
  const bool parallel = spec.backend == Backend::openmp;
  SolverInfo info;
  info.algo = to_string(Algo::sssp);
  info.backend = to_string(spec.backend);
  const int threads = parallel ? omp_get_max_threads() : 1;
  info.device =
      cpu_model_name() + " (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  info.driver = parallel ? "OpenMP, Dijkstra (radix heap) per source" : "serial, Dijkstra (radix heap)";
  info.t_o = setup.seconds();
  return std::make_unique<DijkstraEngine<T>>(parallel, std::move(info));
}

template std::unique_ptr<SsspEngine<int32_t>> make_dijkstra_engine<int32_t>(const SolverSpec&);
template std::unique_ptr<SsspEngine<float>> make_dijkstra_engine<float>(const SolverSpec&);
template std::unique_ptr<SsspEngine<double>> make_dijkstra_engine<double>(const SolverSpec&);
template std::unique_ptr<SsspEngine<int64_t>> make_dijkstra_engine<int64_t>(const SolverSpec&);

}  // namespace ocl_sp
