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
// multiplication: the same T everywhere, accurate to ~1e-12 and so strictly
// decreasing (consecutive powers differ by q >= 2^-21), and small enough for
// the cache. log() only guesses k, which T then settles, so libm rounding
// changes nothing. One draw per edge plus one per row: O(n + m).
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
    return static_cast<uint64_t>(std::ldexp(low_[u % kLow] * high_[u / kLow], 64));
  }
  // The largest k in [0, slots] with k == 0 or u < T(k).
  int64_t skip(uint64_t u) const {
    const double guess = std::log(std::ldexp(static_cast<double>(u), -64)) / log_r_;
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
std::vector<int32_t> nearest(const std::vector<Point>& pts, int64_t k) {
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
      const auto t = static_cast<size_t>(fill[static_cast<size_t>(cell_of(q.y) * g + cell_of(q.x))]++);
      by_cell[t] = static_cast<int32_t>(i);
      cell_pts[t] = q;
    }
  }
  std::vector<int32_t> out(static_cast<size_t>(n * k));
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
      int32_t* row = out.data() + i * k;
      for (int64_t t = 0; t < k; ++t) row[t] = heap[static_cast<size_t>(t)].second;
      std::sort(row, row + k);
    }
  }
  return out;
}

// Vertex i's neighbours: its own k nearest and those that count it among
// theirs, merged in id order (both lists sorted, duplicates once).
class GeometricModel {
 public:
  explicit GeometricModel(const GeneratorParams& p)
      : p_(p), k_(geometric_degree(p)), pts_(draw_points(p)), potentials_(p, p.n) {
    near_ = nearest(pts_, k_);
    const int64_t n = p.n;
    // Reverse lists by counting; filling i in ascending order sorts each one.
    rstart_.assign(static_cast<size_t>(n) + 1, 0);
    for (int32_t j : near_) ++rstart_[static_cast<size_t>(j) + 1];
    for (size_t v = 1; v < rstart_.size(); ++v) rstart_[v] += rstart_[v - 1];
    rev_.resize(near_.size());
    std::vector<int64_t> fill(rstart_.begin(), rstart_.end() - 1);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t t = 0; t < k_; ++t) {
        const int32_t j = near_[static_cast<size_t>(i * k_ + t)];
        rev_[static_cast<size_t>(fill[static_cast<size_t>(j)]++)] = static_cast<int32_t>(i);
      }
    // The longest edge sets the scale (every edge is some point's k-nearest).
    uint64_t longest = 0;
#pragma omp parallel for schedule(static) reduction(max : longest)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t t = 0; t < k_; ++t)
        longest = std::max(longest, dist2(pts_[static_cast<size_t>(i)],
                                          pts_[static_cast<size_t>(near_[static_cast<size_t>(i * k_ + t)])]));
    dmax_ = std::sqrt(static_cast<double>(longest));
  }
  int64_t count(int64_t i) const {
    int64_t c = 0;
    merged(i, [&c](int64_t) { ++c; });
    return c;
  }
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    merged(i, [&](int64_t j) { emit(j, potentials_.shift(weight(i, j), i, j)); });
  }

 private:
  // lo + round((whi - lo) d / dmax), d the edge's length: monotone in d, in
  // [lo, whi], the same both ways. sqrt, the products and the quotient are
  // correctly rounded IEEE operations: the same on every machine.
  int64_t weight(int64_t i, int64_t j) const {
    const int64_t lo = potentials_.base_lo();
    if (!(dmax_ > 0)) return lo;
    const double d = std::sqrt(static_cast<double>(
        dist2(pts_[static_cast<size_t>(i)], pts_[static_cast<size_t>(j)])));
    const auto scaled = static_cast<int64_t>(std::llround(static_cast<double>(p_.whi - lo) * d / dmax_));
    return lo + std::min(scaled, p_.whi - lo);
  }
  template <typename F>
  void merged(int64_t i, F&& f) const {
    const int32_t* a = near_.data() + i * k_;
    const int32_t* a_end = a + k_;
    const int32_t* b = rev_.data() + rstart_[static_cast<size_t>(i)];
    const int32_t* b_end = rev_.data() + rstart_[static_cast<size_t>(i) + 1];
    while (a != a_end || b != b_end) {
      int32_t j;
      if (b == b_end || (a != a_end && *a < *b)) {
        j = *a++;
      } else if (a == a_end || *b < *a) {
        j = *b++;
      } else {
        j = *a++;
        ++b;
      }
      f(j);
    }
  }
  const GeneratorParams& p_;
  int64_t k_;
  std::vector<Point> pts_;
  Potentials potentials_;
  std::vector<int32_t> near_, rev_;
  std::vector<int64_t> rstart_;
  double dmax_ = 0;
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
  const std::string tail = "weights " + num(p.wlo) + ":" + num(p.whi) +
                           (p.negative ? ", negative edges" : "") + ")";
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
