// The sparse generator families (graph.hpp, GraphFamily): random with a degree,
// grid and geometric, and generate_graph, which dispatches every family. As in
// generator.cpp, integers decide every edge (the geometric family's distances
// are exact integers; its weights use only correctly rounded IEEE operations),
// so a seed gives the same graph on every machine and thread count.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "graph/graph.hpp"
#include "graph/rng.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

using rng::Potentials;
using rng::Xoshiro256;

GraphFamily parse_family(const std::string& name) {
  for (GraphFamily f : {GraphFamily::random, GraphFamily::grid, GraphFamily::geometric})
    if (name == to_string(f)) return f;
  throw UsageError("--generator must be random, grid or geometric (got '" + name + "')");
}

const char* to_string(GraphFamily family) {
  switch (family) {
    case GraphFamily::random: return "random";
    case GraphFamily::grid: return "grid";
    case GraphFamily::geometric: return "geometric";
  }
  return "?";
}

namespace {

// K = round(sqrt(n)), at least 1, in integers: K^2 <= n < (K + 1)^2 first, then
// up when n >= K^2 + K + 1 (sqrt(n) >= K + 1/2 exactly when n > K^2 + K).
int64_t grid_side(int64_t n) {
  if (n < 1) return 1;
  auto k = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (k * k > n) --k;
  while ((k + 1) * (k + 1) <= n) ++k;
  if (n > k * k + k) ++k;
  return std::max<int64_t>(1, k);
}

// The geometric family's neighbour count: `degree`, by default 6 (n - 1 when
// smaller).
int64_t geometric_degree(const GeneratorParams& p) {
  return p.degree > 0 ? p.degree : std::min<int64_t>(6, p.n - 1);
}

// ---- random with a degree -------------------------------------------------

// Each of row i's n - 1 columns j != i (slot s = j - (j > i)) is an edge with
// probability q = D / (n - 1), sampled by skips: the number of non-edges before
// the next edge is geometric, P(skip >= k) = (1 - q)^k. A draw U (64 bits) skips
// the largest k with U < T(k) = floor(r^k 2^64), r = 1 - q, where r^k is
// low[k mod 1024] * high[k / 1024], both tables built by repeated IEEE
// multiplication: the same T everywhere, within 1e-9 of r^k relative (well
// inside the factor r <= 1 - 2^-21 between consecutive powers, so T strictly
// decreases), and small enough for the cache. log() only guesses k, which T then settles, so libm
// rounding changes nothing. One draw per edge plus one per row: O(n + m).
class SkipModel {
 public:
  explicit SkipModel(const GeneratorParams& p) : p_(p), slots_(p.n - 1), potentials_(p, p.n) {
    const double r = 1.0 - static_cast<double>(p.degree) / static_cast<double>(slots_);
    low_.resize(kLow);
    low_[0] = 1.0;
    for (size_t k = 1; k < kLow; ++k) low_[k] = low_[k - 1] * r;
    const double step = low_[kLow - 1] * r;  // r^1024
    high_.resize(static_cast<size_t>(slots_) / kLow + 1);
    high_[0] = 1.0;
    for (size_t h = 1; h < high_.size(); ++h) high_[h] = high_[h - 1] * step;
    log_r_ = std::log(r);
  }
  int64_t count(int64_t i) const {
    int64_t c = 0;
    row_slots(i, [&c](int64_t) { ++c; });
    return c;
  }
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    Xoshiro256 weights = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kWeights);
    row_slots(i, [&](int64_t s) {
      const int64_t j = s + (s >= i);
      emit(j, potentials_.shift(weights.uniform(potentials_.base_lo(), p_.whi), i, j));
    });
  }

 private:
  template <typename F>
  void row_slots(int64_t i, F&& f) const {
    Xoshiro256 structure = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kStructure);
    for (int64_t s = skip(structure.next()); s < slots_; s += skip(structure.next()) + 1) f(s);
  }
  // T(k) for k >= 1: r^k < 1, so r^k 2^64 < 2^64.
  uint64_t tail(int64_t k) const {
    const auto u = static_cast<size_t>(k);
    return static_cast<uint64_t>(low_[u % kLow] * high_[u / kLow] * 0x1p64);  // exact scaling
  }
  // The largest k in [0, slots] with k == 0 or u < T(k).
  int64_t skip(uint64_t u) const {
    const double guess = std::log(static_cast<double>(u) * 0x1p-64) / log_r_;
    int64_t k = guess >= 0 ? static_cast<int64_t>(std::min(guess, static_cast<double>(slots_))) : 0;
    while (k < slots_ && u < tail(k + 1)) ++k;
    while (k > 0 && u >= tail(k)) --k;
    return k;
  }
  static constexpr size_t kLow = 1024;
  const GeneratorParams& p_;
  int64_t slots_;
  Potentials potentials_;
  std::vector<double> low_, high_;  // r^k, r^(1024 k)
  double log_r_ = 0;
};

// ---- grid -----------------------------------------------------------------

// Vertex r K + c; its neighbours in column order: up, left, right, down; one
// weight draw per edge from the row's weight stream.
class GridModel {
 public:
  explicit GridModel(const GeneratorParams& p)
      : p_(p), k_(grid_side(p.n)), potentials_(p, k_ * k_) {}
  int64_t n() const { return k_ * k_; }
  int64_t count(int64_t i) const {
    const int64_t r = i / k_, c = i % k_;
    return (r > 0) + (c > 0) + (c + 1 < k_) + (r + 1 < k_);
  }
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    Xoshiro256 weights = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kWeights);
    const int64_t r = i / k_, c = i % k_;
    const auto edge = [&](int64_t j) {
      emit(j, potentials_.shift(weights.uniform(potentials_.base_lo(), p_.whi), i, j));
    };
    if (r > 0) edge(i - k_);
    if (c > 0) edge(i - 1);
    if (c + 1 < k_) edge(i + 1);
    if (r + 1 < k_) edge(i + k_);
  }

 private:
  const GeneratorParams& p_;
  int64_t k_;
  Potentials potentials_;
};

// ---- geometric ------------------------------------------------------------

// Coordinates as integers in [0, 2^31) (the point is (x, y) 2^-31): squared
// distances are exact in uint64, so the nearest neighbours never depend on
// floating-point rounding.
struct Point {
  int64_t x, y;
};
constexpr int kCoordBits = 31;

std::vector<Point> draw_points(const GeneratorParams& p) {
  std::vector<Point> pts(static_cast<size_t>(p.n));
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < p.n; ++i) {
    Xoshiro256 s = rng::stream(p.seed, static_cast<uint64_t>(i), rng::kPoints);
    const auto x = static_cast<int64_t>(s.next() >> (64 - kCoordBits));
    pts[static_cast<size_t>(i)] = Point{x, static_cast<int64_t>(s.next() >> (64 - kCoordBits))};
  }
  return pts;
}

uint64_t dist2(const Point& a, const Point& b) {
  const int64_t dx = a.x - b.x, dy = a.y - b.y;
  return static_cast<uint64_t>(dx * dx) + static_cast<uint64_t>(dy * dy);
}

// The k nearest of every point, ordered by (squared distance, id), as n rows of
// k ids each sorted by id. A uniform grid of G x G cells (about 2 points a
// cell) is searched in square rings around the point's cell until the k-th best
// is strictly nearer than any point outside the searched block can be (exact
// integer bounds, so ties still go to the smaller id): O(n k) expected.
struct Neighbours {
  std::vector<int32_t> id;   // n rows of k, each sorted by id
  std::vector<uint64_t> d2;  // the squared distance to each
};

Neighbours nearest(const std::vector<Point>& pts, int64_t k) {
  const auto n = static_cast<int64_t>(pts.size());
  if (k == 0) return {};
  const int64_t g = std::max<int64_t>(1, static_cast<int64_t>(std::sqrt(n / 2.0)));
  const auto cell_of = [g](int64_t c) { return (c * g) >> kCoordBits; };
  // The smallest coordinate of cell column (row) c: ceil(c 2^31 / G).
  const auto lower = [g](int64_t c) { return ((c << kCoordBits) + g - 1) / g; };
  constexpr int64_t kFar = int64_t{1} << 40;  // no cells beyond this side
  // Points by cell (counting sort; ids ascending within a cell).
  std::vector<int64_t> start(static_cast<size_t>(g * g) + 1, 0);
  for (const Point& q : pts) ++start[static_cast<size_t>(cell_of(q.y) * g + cell_of(q.x)) + 1];
  for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  std::vector<int32_t> by_cell(static_cast<size_t>(n));
  std::vector<Point> cell_pts(static_cast<size_t>(n));  // the same order: scans stay local
  {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (int64_t i = 0; i < n; ++i) {
      const Point& q = pts[static_cast<size_t>(i)];
      const auto t =
          static_cast<size_t>(fill[static_cast<size_t>(cell_of(q.y) * g + cell_of(q.x))]++);
      by_cell[t] = static_cast<int32_t>(i);
      cell_pts[t] = q;
    }
  }
  Neighbours out{std::vector<int32_t>(static_cast<size_t>(n * k)),
                 std::vector<uint64_t>(static_cast<size_t>(n * k))};
#pragma omp parallel
  {
    std::vector<std::pair<uint64_t, int32_t>> heap;  // max-heap of the best k so far
    heap.reserve(static_cast<size_t>(k) + 1);
#pragma omp for schedule(dynamic, 256)
    for (int64_t s = 0; s < n; ++s) {  // in cell order, for locality
      const int64_t i = by_cell[static_cast<size_t>(s)];
      const Point& q = cell_pts[static_cast<size_t>(s)];
      const int64_t cx = cell_of(q.x), cy = cell_of(q.y);
      heap.clear();
      const auto visit = [&](int64_t x, int64_t y) {
        if (x < 0 || y < 0 || x >= g || y >= g) return;
        const size_t c = static_cast<size_t>(y * g + x);
        for (int64_t t = start[c]; t < start[c + 1]; ++t) {
          const int32_t j = by_cell[static_cast<size_t>(t)];
          if (j == i) continue;
          const std::pair<uint64_t, int32_t> cand{dist2(q, cell_pts[static_cast<size_t>(t)]), j};
          if (static_cast<int64_t>(heap.size()) < k) {
            heap.push_back(cand);
            std::push_heap(heap.begin(), heap.end());
          } else if (cand < heap.front()) {
            std::pop_heap(heap.begin(), heap.end());
            heap.back() = cand;
            std::push_heap(heap.begin(), heap.end());
          }
        }
      };
      for (int64_t r = 0;; ++r) {
        if (r == 0) visit(cx, cy);
        for (int64_t x = cx - r; r > 0 && x <= cx + r; ++x) {
          visit(x, cy - r);
          visit(x, cy + r);
        }
        for (int64_t y = cy - r + 1; r > 0 && y <= cy + r - 1; ++y) {
          visit(cx - r, y);
          visit(cx + r, y);
        }
        // Every unseen point lies beyond a side of the searched block: its
        // distance is at least the gap to the nearest side that has cells past it.
        const int64_t gap = std::min({cx - r > 0 ? q.x - lower(cx - r) : kFar,
                                      cx + r + 1 < g ? lower(cx + r + 1) - q.x : kFar,
                                      cy - r > 0 ? q.y - lower(cy - r) : kFar,
                                      cy + r + 1 < g ? lower(cy + r + 1) - q.y : kFar});
        if (gap == kFar) break;  // the whole square searched
        if (static_cast<int64_t>(heap.size()) == k &&
            heap.front().first < static_cast<uint64_t>(gap) * static_cast<uint64_t>(gap))
          break;
      }
      std::sort(heap.begin(), heap.end(),
                [](const auto& a, const auto& b) { return a.second < b.second; });
      for (int64_t t = 0; t < k; ++t) {
        out.id[static_cast<size_t>(i * k + t)] = heap[static_cast<size_t>(t)].second;
        out.d2[static_cast<size_t>(i * k + t)] = heap[static_cast<size_t>(t)].first;
      }
    }
  }
  return out;
}

// Vertex i's neighbours: its own k nearest and those that count it among
// theirs, merged in id order (both lists sorted, duplicates once). Each k-nearest
// pair gets its base weight once: lo + round((whi - lo) d / dmax), d its length
// and dmax the longest such pair (every edge is one): monotone in d, in
// [lo, whi], the same both ways. sqrt, the product and the quotient are
// correctly rounded IEEE operations: the same on every machine.
class GeometricModel {
 public:
  explicit GeometricModel(const GeneratorParams& p) : k_(geometric_degree(p)), potentials_(p, p.n) {
    Neighbours near = nearest(draw_points(p), k_);
    near_ = std::move(near.id);
    const auto pairs = static_cast<int64_t>(near_.size());
    uint64_t longest = 0;
#pragma omp parallel for schedule(static) reduction(max : longest)
    for (int64_t t = 0; t < pairs; ++t)
      longest = std::max(longest, near.d2[static_cast<size_t>(t)]);
    const double dmax = std::sqrt(static_cast<double>(longest));
    const int64_t lo = potentials_.base_lo(), span = p.whi - lo;
    near_w_.resize(near_.size());
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < pairs; ++t) {
      const double d = std::sqrt(static_cast<double>(near.d2[static_cast<size_t>(t)]));
      const int64_t scaled = dmax > 0 ? std::llround(static_cast<double>(span) * d / dmax) : 0;
      near_w_[static_cast<size_t>(t)] = static_cast<int32_t>(lo + std::min(scaled, span));
    }
    // Reverse lists by counting; filling i in ascending order sorts each one.
    const int64_t n = p.n;
    rstart_.assign(static_cast<size_t>(n) + 1, 0);
    for (int32_t j : near_) ++rstart_[static_cast<size_t>(j) + 1];
    for (size_t v = 1; v < rstart_.size(); ++v) rstart_[v] += rstart_[v - 1];
    rev_.resize(near_.size());
    rev_w_.resize(near_.size());
    std::vector<int64_t> fill(rstart_.begin(), rstart_.end() - 1);
    for (int64_t t = 0; t < pairs; ++t) {
      const auto r =
          static_cast<size_t>(fill[static_cast<size_t>(near_[static_cast<size_t>(t)])]++);
      rev_[r] = static_cast<int32_t>(t / k_);
      rev_w_[r] = near_w_[static_cast<size_t>(t)];
    }
  }
  int64_t count(int64_t i) const {
    int64_t c = 0;
    merged(i, [&c](int64_t, int64_t) { ++c; });
    return c;
  }
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    merged(i, [&](int64_t j, int64_t w) { emit(j, potentials_.shift(w, i, j)); });
  }

 private:
  // f(j, base weight) for every neighbour j of i, in id order.
  template <typename F>
  void merged(int64_t i, F&& f) const {
    size_t a = static_cast<size_t>(i * k_),
           b = static_cast<size_t>(rstart_[static_cast<size_t>(i)]);
    const size_t a_end = a + static_cast<size_t>(k_);
    const auto b_end = static_cast<size_t>(rstart_[static_cast<size_t>(i) + 1]);
    while (a != a_end || b != b_end) {
      if (b == b_end || (a != a_end && near_[a] < rev_[b])) {
        f(near_[a], near_w_[a]);
        ++a;
      } else {
        f(rev_[b], rev_w_[b]);
        if (a != a_end && near_[a] == rev_[b]) ++a;  // a mutual pair: once
        ++b;
      }
    }
  }
  int64_t k_;
  Potentials potentials_;
  std::vector<int32_t> near_, near_w_, rev_, rev_w_;
  std::vector<int64_t> rstart_;
};

template <typename Model>
Graph build(int64_t n, const Model& model) {
  return rng::build_by_rows(
      n, [&](int64_t i) { return model.count(i); },
      [&](int64_t i, auto&& emit) { model.row(i, emit); });
}

}  // namespace

int64_t generated_vertices(const GeneratorParams& p) {
  if (p.family != GraphFamily::grid) return p.n;
  const int64_t k = grid_side(p.n);
  return k * k;
}

int64_t generated_edges_bound(const GeneratorParams& p) {
  const double n = static_cast<double>(generated_vertices(p));
  switch (p.family) {
    case GraphFamily::grid: {
      const int64_t k = grid_side(p.n);
      return 4 * k * (k - 1);
    }
    case GraphFamily::geometric:
      return 2 * p.n * geometric_degree(p);
    case GraphFamily::random:
      break;
  }
  if (p.degree == 0) return p.n * (p.n - 1);
  const double mean = n * static_cast<double>(p.degree);
  return std::min(p.n * (p.n - 1), static_cast<int64_t>(mean + 8 * std::sqrt(mean) + 64));
}

uint64_t generated_graph_bytes(const GeneratorParams& p, size_t value_bytes) {
  const auto n = static_cast<uint64_t>(generated_vertices(p));
  const auto m = static_cast<uint64_t>(generated_edges_bound(p));
  // The edge list and the CSR side by side (offsets, targets, weights).
  uint64_t bytes = m * sizeof(Edge) + (n + 1) * 8 + m * (4 + value_bytes);
  // geometric: the points and the cells (8 B a vertex each way), the nearest
  // and the reverse lists with their weights and offsets while the list is built.
  if (p.family == GraphFamily::geometric)
    bytes += n * 48 + n * static_cast<uint64_t>(geometric_degree(p)) * 16 + n * 8;
  return bytes;
}

std::vector<std::array<double, 2>> geometric_points(const GeneratorParams& p) {
  validate(p);
  const std::vector<Point> pts = draw_points(p);
  std::vector<std::array<double, 2>> out(pts.size());
  for (size_t i = 0; i < pts.size(); ++i)
    out[i] = {std::ldexp(static_cast<double>(pts[i].x), -kCoordBits),
              std::ldexp(static_cast<double>(pts[i].y), -kCoordBits)};
  return out;
}

Graph generate_graph(const GeneratorParams& p) {
  validate(p);
  switch (p.family) {
    case GraphFamily::random:
      if (p.degree == 0) return generate_random(p);
      return build(p.n, SkipModel(p));
    case GraphFamily::grid: {
      const GridModel model(p);
      return build(model.n(), model);
    }
    case GraphFamily::geometric:
      return build(p.n, GeometricModel(p));
  }
  throw std::logic_error("generate_graph: unknown family");
}

std::string describe(const GeneratorParams& p) {
  const auto num = [](long long v) { return std::to_string(v); };
  const std::string seed = "(seed " + std::to_string(static_cast<unsigned long long>(p.seed));
  const std::string tail =
      "weights " + num(p.wlo) + ":" + num(p.whi) + (p.negative ? ", negative edges" : "") + ")";
  switch (p.family) {
    case GraphFamily::random: {
      if (p.degree > 0) return "random " + seed + ", degree " + num(p.degree) + ", " + tail;
      char density[32];
      std::snprintf(density, sizeof density, "%.4g",
                    p.density > 0 ? p.density : default_density(p.n));
      return "random " + seed + ", density " + density + ", " + tail;
    }
    case GraphFamily::grid: {
      const int64_t k = grid_side(p.n);
      return "grid " + num(k) + "x" + num(k) + " " + seed + ", " + tail;
    }
    case GraphFamily::geometric:
      return "geometric " + seed + ", degree " + num(geometric_degree(p)) + ", " + tail;
  }
  return "?";
}

}  // namespace ocl_sp
