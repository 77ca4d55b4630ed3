// Exact betweenness centrality (Brandes' algorithm) from the distance rows of the
// multi-source engine (DESIGN.md "Sparse graphs and rows"): a RowSink, so every
// backend (serial, OpenMP, OpenCL on one device or split over several) computes
// it from the rows it already delivers, and all of them give the same bits.
//
// For each source s, given its row d(s, *) exactly as the engine delivers it and
// the graph's CSR:
//  1. the tight edges u -> v (u != v, d(s, u) + w(u, v) == d(s, v), in the
//     weights' own type, as networkx compares) form a DAG; its vertices are put in
//     a topological order by Kahn's algorithm over the CSR (a queue in CSR order:
//     a function of the row and the graph alone), which is a nondecreasing-distance
//     order (zero-weight edges inside one distance are ordered by the DAG);
//  2. sigma, the number of shortest paths, is counted in float64 along that order,
//     pulled: sigma(v) = the sum, from 0 and in the order of v's in-edges in the
//     transposed CSR (InEdges: by source vertex, then CSR order), of sigma(u) over
//     the tight in-edges u -> v (every u lies before v in the order). The sum's
//     order is a function of the graph alone, so the OpenCL kernel
//     (kernels/betweenness.cl), whose Kahn order within a level is not the
//     host's, adds the same terms in the same order: the same bits even where
//     counts pass 2^53 and float64 rounds them (below 2^53 every order is exact:
//     networkx's numbers). Where a count passes float64's range, see "Sigma
//     beyond float64" below;
//  3. dependencies are accumulated back in the reverse order, networkx's
//     arithmetic: coeff(w) = (1 + delta(w)) / sigma(w), and for a tight edge
//     v -> w the contribution c = sigma(v) * coeff(w) (the edge's share), added to
//     delta(v) in CSR order.
// Each source's contributions (delta(v), and c per CSR edge for edge betweenness)
// are added into exact fixed-point sums (an integer part and 64 fraction bits in
// two 64-bit words with carry; per thread for the vertices, merged at the end,
// atomically for the edges): integer addition is associative, so
// the total does not depend on the order in which sources complete, the batches
// the engine forms, the threads or the devices; every backend gives the same bits.
// Contributions are rounded down to multiples of 2^-64 (about 5e-20) once each.
//
// Contributions are at most n (delta(v) <= n - 1 per source, a share c <= 1 +
// delta(w)), far inside the fixed point's 2^63.
//
// Sigma beyond float64: a source whose float64 count overflows at some vertex
// (a count above about 1.8e308; its order reaches the vertex's place with inf)
// has steps 2 and 3 redone, over the same order and tight edges, in a wider
// number, and only its contributions from that pass are added (none of the
// float64 pass's):
//  - long double where it is x86's 80-bit extended format (64-bit mantissa,
//    counts to about 1.2e4932): the same operations as step 2 and 3, in long
//    double (delta too), delta and c rounded to float64 before the fixed point;
//  - if a count passes that range too, or where long double is not the extended
//    format, a long double mantissa in [0.5, 1) with an int64 exponent (no upper
//    bound): sums align the smaller to the larger's exponent (ignored more than
//    2^-128 below it), coeff(w) = (1 + delta(w)) / sigma(w) divides by the
//    mantissa and negates the exponent, c = sigma(v) * coeff(w) multiplies the
//    mantissas and goes back to long double (0 if below 2^-16000).
// Counts there are exact to the format's rounding (to about 1e-19 relative, where
// float64 holds 1e-16); no ratio underflows to 0: coeff(w) >= 1 / sigma(w) is
// inside the wide format's range (subnormal, a bit or two less precise, for long
// double counts above 2^16382, as float64's is in networkx's arithmetic above
// 2^1022), and c = sigma(v) coeff(w) <= 1 + delta(w) with sigma(v) >= 1; a c below
// float64's smallest number (so below the fixed point's 2^-64 anyway) adds 0.
// The choice is made per source from its own counts, so the computation of every
// source is still a function of its row and the graph only, and every backend and
// placement gives the same bits. Every source whose float64 counts stay finite
// gives networkx's arithmetic, as before (networkx's own float counts become inf,
// and its betweenness nan, where this rule takes over).
//
// On the OpenCL backend (devices with cl_khr_fp64; vertex sums only, not edge
// sums) betweenness_rows runs steps 1-3 on the device beside the rows
// (opencl_betweenness.cpp): the rows never leave it, each work-group a source
// at a time in its own slot of scratch, its 64.64 sums per slot added up on the
// device and then on the host. A source whose float64 counts overflow takes the
// long double pass there too, in software extended arithmetic (64-bit
// significands, round to nearest even: x86's results bit for bit) where the
// host's long double is that format and the counts stay below 2^16001 (every
// value of the pass a normal number); a source past that, or whose order stalls
// (a zero-weight cycle), is flagged there and run again through this sink on the
// host (its wide pass, or its error), so every backend still gives the same bits.
//
// Limits: weights must be >= 0 (a negative one is a UsageError); a tight
// zero-weight cycle makes the number of shortest paths infinite (UsageError,
// naming the first such source in the list's order on every backend).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "solvers/solver.hpp"
#include "sparse/row_sink.hpp"

namespace ocl_sp {

// networkx's _rescale (betweenness_centrality) factor for the raw sums: n vertices,
// k sampled sources (0: every vertex, exact); 0 means "leave as is" (scale 1).
double betweenness_scale(int64_t n, bool normalized, bool directed, int64_t k, bool endpoints);
// networkx's _rescale_e (edge_betweenness_centrality) factor.
double edge_betweenness_scale(int64_t n, bool normalized, bool directed, int64_t k);
// The --stats betweenness column from the raw sums of an n-vertex graph, in place:
// networkx's betweenness_centrality (normalized, directed as given; by n / k for
// k sampled sources, 0: every vertex). The report's note for it opens with
// betweenness_note(k): "betweenness: exact, every vertex a source" or
// "betweenness: estimated from k sources (scaled by n / k, as networkx's k)".
void scale_betweenness_column(std::vector<double>& b, int64_t n, int64_t k);
std::string betweenness_note(int64_t k);

// One exact 64.64 fixed-point value (x >= 0, below 2^63): to_fixed(x) and back.
struct Fixed {
  uint64_t hi = 0, lo = 0;
  static Fixed of(double x);
  void add(const Fixed& f) {
    lo += f.lo;
    hi += f.hi + (lo < f.lo ? 1 : 0);
  }
  double value() const;
};

// Exact sums that do not depend on the order of additions (see above), added to
// from any thread at once.
class FixedSums {
 public:
  explicit FixedSums(int64_t size = 0);
  // x >= 0 and finite, below 2^63.
  void add(int64_t i, double x);
  double value(int64_t i) const;
  Fixed fixed(int64_t i) const;
  void add_fixed(int64_t i, const Fixed& f);
  int64_t size() const { return static_cast<int64_t>(lo_.size()); }

 private:
  std::vector<std::atomic<uint64_t>> hi_, lo_;
};

// The in-edges of every vertex (the transposed CSR): those of v are
// [off[v], off[v + 1]), by source vertex and, for parallel edges, in CSR order;
// src the edge's source, edge its index in the CSR.
struct InEdges {
  std::vector<int64_t> off;
  std::vector<int32_t> src;
  std::vector<int64_t> edge;
};
template <typename T>
InEdges in_edges(const Csr<T>& g);

template <typename T>
class BetweennessSink final : public RowSink<T> {
 public:
  // g: the graph the rows are computed over (weights >= 0); sources: the solve's
  // list (row i is sources[i]; empty: every vertex in order); endpoints: networkx's
  // endpoints=True; edges: also each CSR edge's sum; threads: OpenMP threads over
  // a batch's rows (0: OpenMP's default, 1: serial).
  BetweennessSink(const Csr<T>& g, std::vector<int64_t> sources, bool endpoints, bool edges,
                  int threads);
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override;
  // The raw sums over the sources so far (networkx's betweenness before _rescale):
  // per vertex, and per CSR edge (edge k of g: g.col[k] from its row; empty unless
  // edges was asked for).
  std::vector<double> vertex_sums() const;
  std::vector<double> edge_sums() const;
  // The vertex sums as they are kept: exact 64.64 values (add_sums takes them
  // back), for sums over sources split across processes.
  std::vector<Fixed> vertex_fixed() const;
  int64_t sources_done() const { return done_; }
  // Sums computed elsewhere (the OpenCL kernel's, or another sink's over other
  // sources of the same graph) added in: exact, any order.
  void add_sums(const std::vector<Fixed>& vertex, int64_t sources);
  void add_sums(const BetweennessSink& other);
  bool endpoints() const { return endpoints_; }
  bool edges() const { return edges_; }
  int threads() const { return threads_; }
  const std::vector<int64_t>& sources() const { return sources_; }
  const InEdges& in() const { return in_; }

 private:
  const Csr<T>& g_;
  std::vector<int64_t> sources_;
  bool endpoints_, edges_;
  int threads_;
  std::vector<std::vector<Fixed>> vertex_;  // per OpenMP thread, merged by vertex_sums()
  FixedSums edge_;
  InEdges in_;
  int64_t done_ = 0;
};

template <typename T>
class SsspSolver;
template <typename T>
class StatsSink;
// The betweenness sums of `sink`'s sources over g through `solver`'s engine:
// on the device where the engine computes them there (the OpenCL engine on
// devices with doubles; vertex sums only), else the rows into the sink.
// OCL_SP_BETWEENNESS_ON_HOST=1: the rows into the sink anyway (comparisons).
// `note` (if given) says where the sources ran.
template <typename T>
RunStats betweenness_rows(SsspSolver<T>& solver, const Csr<T>& g, BetweennessSink<T>& sink,
                          std::string* note = nullptr);

// --stats of every vertex and its betweenness (`sink`'s sources: every vertex),
// the same figures as solve_stats_rows(g, {}, stats, stats, notes) and the same
// sums as betweenness_rows, in one pass of rows where that is cheaper: the CPU
// engines' rows to both sinks at once; the device's rows in lanes give their
// figures beside Brandes' passes (betweenness_figures()). Else the stats' pass,
// then betweenness_rows. `notes` gets the stats' line, `where` where the sources
// ran (betweenness_rows' note).
template <typename T>
RunStats stats_betweenness_rows(SsspSolver<T>& solver, const Csr<T>& g, StatsSink<T>& stats,
                                BetweennessSink<T>& sink, std::vector<std::string>& notes,
                                std::string& where);

// An engine that runs Brandes' passes beside its rows (opencl_betweenness.cpp).
template <typename T>
class BetweennessEngine {
 public:
  virtual ~BetweennessEngine() = default;
  // On every chosen device (doubles).
  virtual bool betweenness_on_device() const = 0;
  // Prepares g (as SsspEngine::prepare, leaving room for the sources' scratch)
  // and its in-edges; false (g prepared for rows only) where the scratch of one
  // source does not fit beside the rows of a batch.
  virtual bool prepare_betweenness(const Csr<T>& g, const InEdges& in, RunStats& st) = 0;
  // Whether run_betweenness can also give every row's and column's figures
  // (--stats), after prepare_betweenness and the source count: one device whose
  // rows run in lanes, where ColumnFiguresEngine::run_all_figures would reduce them
  // (its kernels on the same distances: the same bits).
  virtual bool betweenness_figures() const = 0;
  // sources[0..count) over the prepared graph: their sums added into `sums` (n
  // values), flags[r] of source r: 1 its counts passed the device's wide range
  // (float64 where the device has no wide pass), 2 its order stalled (a
  // zero-weight cycle); a flagged source adds nothing. With `rows`
  // and `cols` (betweenness_figures(); every vertex a source, in order): row r's
  // figures to rows[r] and column v's (harmonic too) to cols[v], as
  // run_all_figures(true, rows, cols) gives them.
  virtual void run_betweenness(const int64_t* sources, int64_t count, bool endpoints,
                               std::vector<Fixed>& sums, std::vector<uint8_t>& flags,
                               RunStats& st, RowFigures* rows, RowFigures* cols) = 0;
  // Bytes of device memory the sources' scratch and the in-edges hold now: from
  // prepare_betweenness until the engine's next prepare releases them.
  virtual uint64_t scratch_bytes() const = 0;
  // The sources each device took in the last run_betweenness (one entry a device).
  virtual std::vector<int64_t> betweenness_shares() const = 0;
};

// Checks that g can be given to BetweennessSink (UsageError: a negative weight).
template <typename T>
void check_betweenness_graph(const Csr<T>& g);

}  // namespace ocl_sp
