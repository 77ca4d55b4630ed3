// Edge-list graph as read from a file or generated, and its conversion to the
// dense distance matrix the solvers work on (parallel edges keep the minimum,
// non-negative self-loops are ignored, a negative self-loop is a negative cycle).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "ocl_sp/graph.hpp"  // Edge, Graph: the public API's types

namespace ocl_sp {

// Largest vertex count a reader accepts: a dense n x n matrix
// beyond this (160 GB of int32) cannot be solved, so a bigger header is taken as a
// malformed file rather than an allocation request.
constexpr int64_t kMaxVertices = 200000;
// Largest vertex count of a sparse solve (--algo sssp): vertex ids are int32 in
// the CSR; host memory (checked from n and m) is what really limits it.
constexpr int64_t kMaxSparseVertices = (int64_t{1} << 31) - 1;
// Largest n generate_random accepts; what really limits --n is host memory (the
// dense matrix), checked before generating (DESIGN.md "Scale"). Panels index
// with int inside a panel and int64 across the matrix.
constexpr int64_t kMaxGeneratedVertices = int64_t{1} << 21;
// Largest n of the sparse families (grid, geometric, random with a degree): road
// networks of 10^7 vertices; host memory (generated_graph_bytes, checked before
// generating) is what limits them.
constexpr int64_t kMaxSparseGeneratedVertices = int64_t{1} << 24;
// Largest |weight| the generator draws (before --negative potentials, which at
// most double it): exact in float32 and far from the int32 limit per edge.
constexpr int64_t kMaxGeneratorWeight = int64_t{1} << 24;

// Random directed graph, the same on every machine, compiler and thread count for
// the same parameters (own xoshiro256** streams, one per row, integer-only draws).
// Each ordered pair (i, j), i != j, is an edge with probability `density`; weights
// are uniform integers in [wlo, whi]. Edges come out sorted by (u, v).
// With `negative`, each vertex gets a potential p(v) uniform in [0, P] with
// P = max(1, whi), and an edge weighs w + p(u) - p(v) with w drawn from
// [max(0, wlo), whi]: every cycle keeps its non-negative length (the potentials
// cancel around it) while roughly a sixth of the edges become negative; weights
// then lie in [max(0, wlo) - P, whi + P].
//
// Families (--generator, DESIGN.md "Sparse graphs and rows"; generate_graph):
// - random: the model above (`density`), or with `degree` D > 0 each ordered
//   pair an edge with probability D / (n - 1): about D out-edges per vertex,
//   drawn in O(n + m) by geometric skips.
// - grid: K x K 4-neighbour lattice, K = round(sqrt(n)) (so n becomes K^2),
//   vertex r * K + c, every lattice edge in both directions, each direction its
//   own uniform weight in [wlo, whi]. `degree` must be 0 (grid has degree 4).
// - geometric: n points uniform in the unit square (geometric_points), each
//   joined both ways to its `degree` nearest (6 when 0; fewer when n <= 6);
//   an edge of length d weighs wlo + round((whi - wlo) * d / dmax), dmax the
//   longest edge of the graph: monotone in d, the longest edge weighs whi, none
//   less than wlo (never 0 when wlo >= 1), both directions the same (road-like).
// grid and geometric ignore `density`. `negative` shifts every family by the
// same potentials (base weights from [max(0, wlo), whi]).
enum class GraphFamily { random, grid, geometric };
// "random", "grid" or "geometric"; anything else is a UsageError naming them.
GraphFamily parse_family(const std::string& name);
const char* to_string(GraphFamily family);

struct GeneratorParams {
  int64_t n = 0;
  uint64_t seed = 0;
  double density = 0.0;  // edge probability in (0, 1]; exactly 0 means default_density(n)
  int64_t wlo = 1, whi = 100;
  bool negative = false;  // add negative edges, never a negative cycle
  GraphFamily family = GraphFamily::random;
  int64_t degree = 0;  // random, geometric: neighbours per vertex; 0 = not given
};
// Default edge probability: min(1, max(0.1, 20 / n)). Small graphs get about 20
// out-edges per vertex (complete up to n = 20), large ones 10% of all pairs, so
// nearly every pair is reachable and shortest paths still take several hops.
double default_density(int64_t n);
// UsageError unless 1 <= n <= kMaxGeneratedVertices (kMaxSparseGeneratedVertices
// for grid, geometric and random with a degree), density is 0 (default) or
// in (0, 1], wlo <= whi, |wlo|, |whi| <= kMaxGeneratorWeight, and with
// `negative` whi >= 0; degree >= 0, at most n - 1 (random, geometric), 0 for
// grid, and not both degree and density for random.
void validate(const GeneratorParams& p);
// Any family (see above), validated first; edges sorted by (u, v), no
// duplicates, no self-loops; g.n is generated_vertices(p).
Graph generate_graph(const GeneratorParams& p);
// The random family without degree (generate_graph dispatches to it); a
// std::logic_error for any other family.
Graph generate_random(const GeneratorParams& p);  // validates first
// The vertex count generate_graph gives: K^2 for grid, n otherwise.
int64_t generated_vertices(const GeneratorParams& p);
// At most this many edges from generate_graph(p) (exact for grid; geometric:
// every vertex's nearest both ways; random with a degree: the mean plus eight
// standard deviations; the dense random model: every pair).
int64_t generated_edges_bound(const GeneratorParams& p);
// Host memory of generate_graph(p) at its peak with the CSR of `value_bytes`
// weights built from it (the edge list, the model's arrays, the CSR), from n and
// generated_edges_bound alone: checked before generating.
uint64_t generated_graph_bytes(const GeneratorParams& p, size_t value_bytes);
// The geometric family's points (vertex order), x and y in [0, 1): multiples
// of 2^-31 drawn from each vertex's own stream, whatever p.family says.
std::vector<std::array<double, 2>> geometric_points(const GeneratorParams& p);
// One line for reports: "random (seed 7, density 0.1, weights 1:100)" (the
// density the model uses), "random (seed 7, degree 20, weights 1:100)",
// "grid 100x100 (seed 7, weights 1:100)", "geometric (seed 7, degree 6,
// weights 1:100)"; ", negative edges" before the ")" with `negative`.
std::string describe(const GeneratorParams& p);
// to_matrix<T>(generate_graph(p)); for the random family without degree
// without the edge list, rows in parallel;
// *edges (if given) receives the edge count. The caller checks the int32 range
// (generated_max_abs_weight) as check_int32_range would.
template <typename T>
DistMatrix<T> generate_matrix(const GeneratorParams& p, long long* edges);
// Rows [row0, row1) of generate_matrix<T>(p), bit for bit, row-major
// ((row1 - row0) x n, n = generated_vertices(p)): each MPI rank generates only
// the rows it owns (the sparse families build their whole O(n) edge list).
template <typename T>
std::vector<T> generate_rows(const GeneratorParams& p, int64_t row0, int64_t row1,
                             long long* edges);
// The same rows into out ((row1 - row0) x n values, every one written), for
// callers that reuse one buffer across many calls.
template <typename T>
void generate_rows_into(const GeneratorParams& p, int64_t row0, int64_t row1, T* out,
                        long long* edges);
// Rows [row0, row1) of the dense random model (family random, no --degree), only
// the columns of the panel columns J (panels of `panel` columns) with J mod cols ==
// col, as the ranks of an MPI process grid keep them (host/mpi/mpi_layout.hpp):
// panel column J's values at (J / cols) * panel of the row, rows ld values apart.
// Every row's draws run in full (the rows are the same bits as generate_rows'),
// only the kept columns are written: their edges and the diagonal's 0, over the
// INF the caller put there. Returns the edges written.
template <typename T>
long long generate_rows_cyclic_into(const GeneratorParams& p, int64_t row0, int64_t row1,
                                    int64_t panel, int cols, int col, T* out, int64_t ld);
// The largest |weight| generate_graph can draw for p (potentials included).
int64_t generated_max_abs_weight(const GeneratorParams& p);

// The sum of the `take` largest values of `mags` (reordered), stopped once it
// reaches `limit`: with take = n - 1, a bound on any shortest path's length (the
// |weights| of its at most n - 1 edges), used by check_range and the API's CSR check.
double largest_sum(std::vector<double>& mags, size_t take, double limit);
// Refuse (UsageError) an integer solve (T = int32_t, int64_t) when some path
// length could leave the exact range: the sum of the n-1 largest |w| must stay
// below ValueTraits<T>::finite_limit. Nothing for the floating types.
template <typename T>
void check_range(const Graph& g);
void check_int32_range(const Graph& g);  // check_range<int32_t>

// --type auto (DESIGN.md): the narrowest exact type for the weights: int32 when
// integer weights keep every path sum exact in int32, int64 when only int64 does,
// float64 for real-valued weights (or integer sums beyond int64's exact range).
// The caller narrows float64 to float32 where the device has no float64.
ValueType auto_value_type(const Graph& g);
// The same for a generated graph (integer weights): int32 or int64.
ValueType auto_value_type(const GeneratorParams& p);
// "int32" | "int64" | "float32" | "float64" (any case); UsageError otherwise.
ValueType parse_value_type(const std::string& s);

// The weight of `e` as T into w, with the checks every solver input gets: ids in
// [0, n) and a finite weight (UsageError), an integer in the exact range for int32
// (UsageError), a negative self-loop (NegativeCycleError). False for a
// non-negative self-loop, which is left out.
template <typename T>
bool edge_weight(const Edge& e, int64_t n, T& w);

// Dense matrix; throws NegativeCycleError for a negative self-loop and UsageError
// for non-integer weights with T = int32.
template <typename T>
DistMatrix<T> to_matrix(const Graph& g);

}  // namespace ocl_sp
