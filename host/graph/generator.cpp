// Deterministic random graph generator (see graph.hpp for the model). Only
// integer arithmetic decides edges and weights, so a seed gives the same graph
// on every machine, compiler and OpenMP thread count.
#include <algorithm>
#include <cmath>
#include <string>

#include "graph/graph.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

namespace {

// splitmix64: turns a seed into well-mixed 64-bit words (state seeding only).
uint64_t splitmix64(uint64_t& x) {
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
// rows are split between threads.
enum Stream : uint64_t { kStructure = 1, kWeights = 2, kPotentials = 3 };

Xoshiro256 stream(uint64_t seed, uint64_t row, Stream purpose) {
  uint64_t x = seed;
  const uint64_t base = splitmix64(x);
  return Xoshiro256(base ^ (row * 0xd1b54a32d192ed03ULL) ^ (purpose * 0xaef17502108ef2d9ULL));
}

}  // namespace

double default_density(int64_t n) {
  if (n <= 0) return 1.0;
  return std::min(1.0, std::max(0.1, 20.0 / static_cast<double>(n)));
}

void validate(const GeneratorParams& p) {
  if (p.n < 1) throw UsageError("--n must be at least 1 (got " + std::to_string(p.n) + ")");
  if (p.n > kMaxGeneratedVertices)
    throw UsageError("--n " + std::to_string(p.n) + " is too large: at most " +
                     std::to_string(kMaxGeneratedVertices) +
                     " vertices (the dense distance matrix would not fit)");
  if (!(p.density >= 0.0 && p.density <= 1.0))
    throw UsageError("--density must be in (0, 1] (got " + std::to_string(p.density) + ")");
  if (p.wlo > p.whi)
    throw UsageError("--weights LO:HI needs LO <= HI (got " + std::to_string(p.wlo) + ":" +
                     std::to_string(p.whi) + ")");
  if (p.wlo < -kMaxGeneratorWeight || p.whi > kMaxGeneratorWeight)
    throw UsageError("--weights " + std::to_string(p.wlo) + ":" + std::to_string(p.whi) +
                     " out of range: |LO| and |HI| must be at most " +
                     std::to_string(kMaxGeneratorWeight));
  if (p.negative && p.whi < 0)
    throw UsageError(
        "--negative needs HI >= 0 in --weights: it shifts non-negative weights by vertex "
        "potentials (got HI = " + std::to_string(p.whi) + ")");
}

namespace {

// The model of GeneratorParams resolved once: the edge test, the weight range and
// the vertex potentials (--negative). Every generator below draws through it, so
// the edge list, the matrix and a rank's rows are the same graph bit for bit.
class RowModel {
 public:
  explicit RowModel(const GeneratorParams& p) : p_(p) {
    validate(p);
    const double density = p.density > 0.0 ? p.density : default_density(p.n);
    complete_ = density >= 1.0;
    // Edge iff a 64-bit draw < density * 2^64: an exact integer comparison, and
    // ldexp by a power of two is exact, so no libm rounding can differ by platform.
    threshold_ = complete_ ? 0 : static_cast<uint64_t>(std::ldexp(density, 64));
    wlo_ = p.negative ? std::max<int64_t>(0, p.wlo) : p.wlo;
    if (p.negative) {
      // Potentials as wide as the weights make about 1/6 of the edges negative;
      // all n of them: a row's weights need those of every column.
      const int64_t pmax = std::max<int64_t>(1, p.whi);
      Xoshiro256 rng = stream(p.seed, 0, kPotentials);
      potential_.resize(static_cast<size_t>(p.n));
      for (int64_t& v : potential_) v = rng.uniform(0, pmax);
    }
  }
  bool complete() const { return complete_; }
  // Out-edges of row i (without the diagonal).
  int64_t count(int64_t i) const {
    if (complete_) return p_.n - 1;
    Xoshiro256 rng = stream(p_.seed, static_cast<uint64_t>(i), kStructure);
    int64_t c = 0;
    for (int64_t j = 0; j < p_.n - 1; ++j) c += rng.next() < threshold_;
    return c;
  }
  // emit(j, w) for every edge (i, j), in column order. The diagonal draws no
  // number, so column j != i uses draw number j - (j > i).
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    Xoshiro256 structure = stream(p_.seed, static_cast<uint64_t>(i), kStructure);
    Xoshiro256 weights = stream(p_.seed, static_cast<uint64_t>(i), kWeights);
    for (int64_t j = 0; j < p_.n; ++j) {
      if (j == i) continue;
      if (!complete_ && structure.next() >= threshold_) continue;
      int64_t w = weights.uniform(wlo_, p_.whi);
      if (p_.negative)
        w += potential_[static_cast<size_t>(i)] - potential_[static_cast<size_t>(j)];
      emit(j, w);
    }
  }
  // Rows [row0, row1) into out ((row1 - row0) x n, INF, 0 on the diagonal);
  // returns the edge count.
  template <typename T>
  long long fill_rows(int64_t row0, int64_t row1, T* out) const {
    const int64_t n = p_.n;
    long long total = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total)
    for (int64_t i = row0; i < row1; ++i) {
      T* r = out + (i - row0) * n;
      std::fill(r, r + n, ValueTraits<T>::inf);
      r[i] = 0;
      row(i, [&](int64_t j, int64_t w) {
        r[j] = static_cast<T>(w);
        ++total;
      });
    }
    return total;
  }

 private:
  const GeneratorParams& p_;
  bool complete_ = false;
  uint64_t threshold_ = 0;
  int64_t wlo_ = 0;
  std::vector<int64_t> potential_;
};

}  // namespace

Graph generate_random(const GeneratorParams& p) {
  const RowModel model(p);
  const int64_t n = p.n;
  // Pass 1 counts each row's edges, pass 2 replays the same structure stream and
  // writes in place: no per-thread buffers, so peak memory is the edge list.
  std::vector<int64_t> offset(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t i = 0; i < n; ++i) offset[static_cast<size_t>(i) + 1] = model.count(i);
  for (int64_t i = 0; i < n; ++i) offset[static_cast<size_t>(i) + 1] += offset[static_cast<size_t>(i)];
  Graph g;
  g.n = n;
  g.edges.resize(static_cast<size_t>(offset[static_cast<size_t>(n)]));
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t i = 0; i < n; ++i) {
    Edge* out = g.edges.data() + offset[static_cast<size_t>(i)];
    model.row(i, [&](int64_t j, int64_t w) { *out++ = Edge{i, j, static_cast<double>(w)}; });
  }
  return g;
}

template <typename T>
DistMatrix<T> generate_matrix(const GeneratorParams& p, long long* edges) {
  // The same draws as generate_random, written straight into the matrix (rows in
  // parallel, first touch included): no edge list (12 bytes per edge, 10% of n^2
  // pairs) at large n.
  const RowModel model(p);
  DistMatrix<T> m(p.n, ValueTraits<T>::inf);
  const long long count = model.fill_rows(0, p.n, m.data());
  if (edges) *edges = count;
  return m;
}

template <typename T>
std::vector<T> generate_rows(const GeneratorParams& p, int64_t row0, int64_t row1,
                             long long* edges) {
  const RowModel model(p);
  const int64_t n = p.n;
  if (row0 < 0 || row1 > n || row0 > row1)
    throw UsageError("generate_rows: rows [" + std::to_string(row0) + ", " +
                     std::to_string(row1) + ") outside [0, " + std::to_string(n) + ")");
  std::vector<T> m(static_cast<size_t>((row1 - row0) * n));
  const long long count = model.fill_rows(row0, row1, m.data());
  if (edges) *edges = count;
  return m;
}

template std::vector<int32_t> generate_rows<int32_t>(const GeneratorParams&, int64_t, int64_t,
                                                     long long*);
template std::vector<float> generate_rows<float>(const GeneratorParams&, int64_t, int64_t,
                                                 long long*);

template DistMatrix<int32_t> generate_matrix<int32_t>(const GeneratorParams&, long long*);
template DistMatrix<float> generate_matrix<float>(const GeneratorParams&, long long*);

int64_t generated_max_abs_weight(const GeneratorParams& p) {
  const int64_t pmax = p.negative ? std::max<int64_t>(1, p.whi) : 0;
  const int64_t lo = (p.negative ? std::max<int64_t>(0, p.wlo) : p.wlo) - pmax;
  const int64_t hi = p.whi + pmax;
  return std::max(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi);
}

}  // namespace ocl_sp
