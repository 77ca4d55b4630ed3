// What the graph generators (generator.cpp, generator_sparse.cpp) share: the
// random streams, one per (row or vertex, purpose), the --negative vertex
// potentials and the two-pass row builder. Only integer arithmetic comes out of here, so a seed
// gives the same graph on every machine, compiler and OpenMP thread count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/graph.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp::rng {

// splitmix64: turns a seed into well-mixed 64-bit words (state seeding only).
inline uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman & Vigna): fast, and specified bit for bit, unlike the
// std:: distributions whose output differs between standard libraries.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t key) {
    for (uint64_t& w : s_) w = splitmix64(key);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [lo, hi]; rejection of the 2^64 mod range lowest words
  // removes the modulo bias.
  int64_t uniform(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
    const uint64_t reject_below = (0 - range) % range;
    uint64_t r = next();
    while (r < reject_below) r = next();
    return lo + static_cast<int64_t>(r % range);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Independent streams per (row, purpose) make the output independent of how
// rows are split between threads. kPoints: the geometric family's coordinates.
enum Stream : uint64_t { kStructure = 1, kWeights = 2, kPotentials = 3, kPoints = 4 };

inline Xoshiro256 stream(uint64_t seed, uint64_t row, Stream purpose) {
  uint64_t x = seed;
  const uint64_t base = splitmix64(x);
  return Xoshiro256(base ^ (row * 0xd1b54a32d192ed03ULL) ^ (purpose * 0xaef17502108ef2d9ULL));
}

// --negative (graph.hpp, GeneratorParams): base weights are drawn from
// [base_lo(), whi], then an edge u -> v weighs w + p(u) - p(v) with p(v) uniform
// in [0, pmax()]. Without --negative the weights stay as drawn. Every family
// shifts through one Potentials, so every family keeps its cycles non-negative.
class Potentials {
 public:
  explicit Potentials(const GeneratorParams& p, int64_t n) : negative_(p.negative) {
    base_lo_ = base_lo(p);
    if (!negative_) return;
    // Potentials as wide as the weights make about 1/6 of the edges negative;
    // all n of them: a row's weights need those of every column.
    Xoshiro256 rng = stream(p.seed, 0, kPotentials);
    potential_.resize(static_cast<size_t>(n));
    for (int64_t& v : potential_) v = rng.uniform(0, pmax(p));
  }
  static int64_t pmax(const GeneratorParams& p) {
    return p.negative ? std::max<int64_t>(1, p.whi) : 0;
  }
  static int64_t base_lo(const GeneratorParams& p) {
    return p.negative ? std::max<int64_t>(0, p.wlo) : p.wlo;
  }
  int64_t base_lo() const { return base_lo_; }
  // The weight of u -> v for a base weight w.
  int64_t shift(int64_t w, int64_t u, int64_t v) const {
    if (!negative_) return w;
    return w + potential_[static_cast<size_t>(u)] - potential_[static_cast<size_t>(v)];
  }

 private:
  bool negative_ = false;
  int64_t base_lo_ = 0;
  std::vector<int64_t> potential_;
};

// The edge list of rows 0..n-1 in two passes, rows in parallel: count(i) gives
// row i's edge count, then row(i, emit) replays the same draws and emit(j, w)
// writes each edge (i, j) in place, in column order. No per-thread buffers, so
// peak memory is the edge list, and the output does not depend on the threads.
template <typename Count, typename Row>
Graph build_by_rows(int64_t n, const Count& count, const Row& row) {
  std::vector<int64_t> offset(static_cast<size_t>(n) + 1, 0);
  // Rows draw their edges (compute): a thread per 64 rows, up to the whole pool.
  const int threads = threads_for(static_cast<size_t>(n), omp_get_max_threads(), 64, omp_get_max_threads());
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (int64_t i = 0; i < n; ++i) offset[static_cast<size_t>(i) + 1] = count(i);
  for (int64_t i = 0; i < n; ++i)
    offset[static_cast<size_t>(i) + 1] += offset[static_cast<size_t>(i)];
  Graph g;
  g.n = n;
  g.edges.resize(static_cast<size_t>(offset[static_cast<size_t>(n)]));
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (int64_t i = 0; i < n; ++i) {
    Edge* out = g.edges.data() + offset[static_cast<size_t>(i)];
    row(i, [&](int64_t j, int64_t w) { *out++ = Edge{i, j, static_cast<double>(w)}; });
  }
  return g;
}

}  // namespace ocl_sp::rng
