// Deterministic random graph generator (see graph.hpp for the model). Only
// integer arithmetic decides edges and weights, so a seed gives the same graph
// on every machine, compiler and OpenMP thread count.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "graph/graph.hpp"
#include "graph/rng.hpp"
#include "util/errors.hpp"
#include "util/host_threads.hpp"
#include "util/profile.hpp"
#include "util/timer.hpp"

namespace ocl_sp {

using rng::Potentials;
using rng::Xoshiro256;

double default_density(int64_t n) {
  if (n <= 0) return 1.0;
  return std::min(1.0, std::max(0.1, 20.0 / static_cast<double>(n)));
}

void validate(const GeneratorParams& p) {
  if (p.n < 1) throw UsageError("--n must be at least 1 (got " + std::to_string(p.n) + ")");
  const bool sparse = p.family != GraphFamily::random || p.degree > 0;
  if (sparse && p.n > kMaxSparseGeneratedVertices)
    throw UsageError("--n " + std::to_string(p.n) + " is too large: at most " +
                     std::to_string(kMaxSparseGeneratedVertices) + " vertices for --generator " +
                     to_string(p.family));
  if (!sparse && p.n > kMaxGeneratedVertices)
    throw UsageError("--n " + std::to_string(p.n) + " is too large: at most " +
                     std::to_string(kMaxGeneratedVertices) +
                     " vertices (the dense distance matrix would not fit); --generator "
                     "grid or geometric, or --degree, go to " +
                     std::to_string(kMaxSparseGeneratedVertices));
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
  if (p.degree < 0)
    throw UsageError("--degree must be at least 1 (got " + std::to_string(p.degree) + ")");
  if (p.family == GraphFamily::grid && p.degree != 0)
    throw UsageError("--degree does not apply to --generator grid: grid has degree 4 (got "
                     "--degree " + std::to_string(p.degree) + ")");
  if (p.degree > p.n - 1)
    throw UsageError("--degree " + std::to_string(p.degree) +
                     " needs more vertices: at most n - 1 = " + std::to_string(p.n - 1) +
                     " neighbours per vertex with --n " + std::to_string(p.n));
  if (p.family == GraphFamily::random && p.degree > 0 && p.density > 0.0)
    throw UsageError("--generator random takes --degree or --density, not both");
}

namespace {

bool dense_row_model(const GeneratorParams& p) {
  return p.family == GraphFamily::random && p.degree == 0;
}

// The model of GeneratorParams resolved once: the edge test, the weight range and
// the vertex potentials (--negative). Every generator below draws through it, so
// the edge list, the matrix and a rank's rows are the same graph bit for bit.
class RowModel {
 public:
  explicit RowModel(const GeneratorParams& p) : p_(validated(p)), potentials_(p, p.n) {
    const double density = p.density > 0.0 ? p.density : default_density(p.n);
    complete_ = density >= 1.0;
    // Edge iff a 64-bit draw < density * 2^64: an exact integer comparison, and
    // ldexp by a power of two is exact, so no libm rounding can differ by platform.
    threshold_ = complete_ ? 0 : static_cast<uint64_t>(std::ldexp(density, 64));
  }
  bool complete() const { return complete_; }
  // Out-edges of row i (without the diagonal).
  int64_t count(int64_t i) const {
    if (complete_) return p_.n - 1;
    Xoshiro256 rng = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kStructure);
    int64_t c = 0;
    for (int64_t j = 0; j < p_.n - 1; ++j) c += rng.next() < threshold_;
    return c;
  }
  // emit(j, w) for every edge (i, j), in column order. The diagonal draws no
  // number, so column j != i uses draw number j - (j > i).
  template <typename Emit>
  void row(int64_t i, Emit&& emit) const {
    Xoshiro256 structure = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kStructure);
    Xoshiro256 weights = rng::stream(p_.seed, static_cast<uint64_t>(i), rng::kWeights);
    for (int64_t j = 0; j < p_.n; ++j) {
      if (j == i) continue;
      if (!complete_ && structure.next() >= threshold_) continue;
      int64_t w = weights.uniform(potentials_.base_lo(), p_.whi);
      emit(j, potentials_.shift(w, i, j));
    }
  }
  // Rows [row0, row1) into out ((row1 - row0) x n, INF, 0 on the diagonal);
  // returns the edge count.
  template <typename T>
  long long fill_rows(int64_t row0, int64_t row1, T* out) const {
    const int64_t n = p_.n;
    long long total = 0;
    const int threads = work_threads(static_cast<size_t>(row1 - row0) * static_cast<size_t>(n) * sizeof(T));
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total) num_threads(threads)
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
  // The kept columns of rows [row0, row1): see generate_rows_cyclic_into.
  template <typename T>
  long long fill_rows_cyclic(int64_t row0, int64_t row1, int64_t panel, int cols, int col, T* out,
                             int64_t ld) const {
    long long total = 0;
    // A row costs n draws wherever its kept columns are: one row a thread at a time.
    const int threads = work_threads(static_cast<size_t>(row1 - row0) * static_cast<size_t>(p_.n) * sizeof(T));
    const auto at = [&](int64_t j) -> int64_t {
      const int64_t J = j / panel;
      return J % cols == col ? (J / cols) * panel + j % panel : -1;
    };
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total) num_threads(threads)
    for (int64_t i = row0; i < row1; ++i) {
      T* r = out + (i - row0) * ld;
      if (const int64_t k = at(i); k >= 0) r[k] = 0;
      row(i, [&](int64_t j, int64_t w) {
        if (const int64_t k = at(j); k >= 0) {
          r[k] = static_cast<T>(w);
          ++total;
        }
      });
    }
    return total;
  }

 private:
  // Only the density model (family random, no --degree) draws row by row here;
  // generate_graph dispatches the others (generator_sparse.cpp).
  static const GeneratorParams& validated(const GeneratorParams& p) {
    validate(p);
    if (!dense_row_model(p))
      throw std::logic_error(std::string("the dense row model draws only the random family "
                                         "without --degree (got ") + describe(p) + ")");
    return p;
  }
  const GeneratorParams& p_;
  bool complete_ = false;
  uint64_t threshold_ = 0;
  Potentials potentials_;
};

}  // namespace

Graph generate_random(const GeneratorParams& p) {
  const RowModel model(p);
  return rng::build_by_rows(
      p.n, [&](int64_t i) { return model.count(i); },
      [&](int64_t i, auto&& emit) { model.row(i, emit); });
}

template <typename T>
DistMatrix<T> generate_matrix(const GeneratorParams& p, long long* edges) {
  // The same draws as generate_random, written straight into the matrix (rows in
  // parallel, first touch included): no edge list (12 bytes per edge, 10% of n^2
  // pairs) at large n.
  if (!dense_row_model(p)) {  // the sparse families: an O(n) edge list
    const Graph g = generate_graph(p);
    if (edges) *edges = static_cast<long long>(g.edges.size());
    return to_matrix<T>(g);
  }
  const RowModel model(p);
  // fill_rows writes every value (INF, the diagonal, the edges) on the threads.
  Stopwatch phase;
  DistMatrix<T> m = DistMatrix<T>::to_be_written(p.n);
  profile("matrix made (first touch, zeros)", phase.seconds());
  phase.reset();
  const long long count = model.fill_rows(0, p.n, m.data());
  profile("matrix rows generated", phase.seconds());
  if (edges) *edges = count;
  return m;
}

namespace {

// validate(p), then rows [row0, row1) inside [0, n); returns n.
int64_t checked_rows(const GeneratorParams& p, int64_t row0, int64_t row1) {
  validate(p);
  const int64_t n = generated_vertices(p);
  if (row0 < 0 || row1 > n || row0 > row1)
    throw UsageError("generate_rows: rows [" + std::to_string(row0) + ", " +
                     std::to_string(row1) + ") outside [0, " + std::to_string(n) + ")");
  return n;
}

}  // namespace

template <typename T>
void generate_rows_into(const GeneratorParams& p, int64_t row0, int64_t row1, T* out,
                        long long* edges) {
  const int64_t n = checked_rows(p, row0, row1);
  long long count = 0;
  if (dense_row_model(p)) {
    count = RowModel(p).fill_rows(row0, row1, out);
  } else {  // the sparse families: the whole edge list, sorted by u, then these rows
    const Graph g = generate_graph(p);
    std::fill(out, out + (row1 - row0) * n, ValueTraits<T>::inf);
    for (int64_t i = row0; i < row1; ++i) out[(i - row0) * n + i] = 0;
    const auto first = std::lower_bound(g.edges.begin(), g.edges.end(), row0,
                                        [](const Edge& e, int64_t u) { return e.u < u; });
    for (auto e = first; e != g.edges.end() && e->u < row1; ++e, ++count)
      out[(e->u - row0) * n + e->v] = static_cast<T>(e->w);
  }
  if (edges) *edges = count;
}

template <typename T>
std::vector<T> generate_rows(const GeneratorParams& p, int64_t row0, int64_t row1,
                             long long* edges) {
  const int64_t n = checked_rows(p, row0, row1);
  std::vector<T> m(static_cast<size_t>((row1 - row0) * n));
  generate_rows_into(p, row0, row1, m.data(), edges);
  return m;
}

template <typename T>
long long generate_rows_cyclic_into(const GeneratorParams& p, int64_t row0, int64_t row1,
                                    int64_t panel, int cols, int col, T* out, int64_t ld) {
  checked_rows(p, row0, row1);
  if (panel < 1 || cols < 1 || col < 0 || col >= cols)
    throw std::logic_error("generate_rows_cyclic_into: panel " + std::to_string(panel) + ", column " +
                           std::to_string(col) + " of " + std::to_string(cols));
  return RowModel(p).fill_rows_cyclic(row0, row1, panel, cols, col, out, ld);
}

#define OCL_SP_ROWS_INTO(T)                                                                     \
  template void generate_rows_into<T>(const GeneratorParams&, int64_t, int64_t, T*, long long*); \
  template long long generate_rows_cyclic_into<T>(const GeneratorParams&, int64_t, int64_t, int64_t, int, int, T*, int64_t);
OCL_SP_ROWS_INTO(int32_t)
OCL_SP_ROWS_INTO(float)
OCL_SP_ROWS_INTO(double)
OCL_SP_ROWS_INTO(int64_t)
#undef OCL_SP_ROWS_INTO

template std::vector<int32_t> generate_rows<int32_t>(const GeneratorParams&, int64_t, int64_t,
                                                     long long*);
template std::vector<float> generate_rows<float>(const GeneratorParams&, int64_t, int64_t,
                                                 long long*);
template std::vector<double> generate_rows<double>(const GeneratorParams&, int64_t, int64_t,
                                                 long long*);
template std::vector<int64_t> generate_rows<int64_t>(const GeneratorParams&, int64_t, int64_t,
                                                 long long*);

template DistMatrix<int32_t> generate_matrix<int32_t>(const GeneratorParams&, long long*);
template DistMatrix<float> generate_matrix<float>(const GeneratorParams&, long long*);
template DistMatrix<double> generate_matrix<double>(const GeneratorParams&, long long*);
template DistMatrix<int64_t> generate_matrix<int64_t>(const GeneratorParams&, long long*);

int64_t generated_max_abs_weight(const GeneratorParams& p) {
  // Every family draws its base weights from [base_lo, whi] (generator_sparse.cpp).
  const int64_t pmax = Potentials::pmax(p);
  const int64_t lo = Potentials::base_lo(p) - pmax;
  const int64_t hi = p.whi + pmax;
  return std::max(lo < 0 ? -lo : lo, hi < 0 ? -hi : hi);
}

// --type auto for a generated graph (graph.hpp): its weights are integers.
ValueType auto_value_type(const GeneratorParams& p) {
  const double bound = static_cast<double>(generated_max_abs_weight(p)) *
                       static_cast<double>(std::max<int64_t>(generated_vertices(p) - 1, 0));
  return bound < static_cast<double>(ValueTraits<int32_t>::finite_limit) ? ValueType::int32
                                                                         : ValueType::int64;
}

}  // namespace ocl_sp
