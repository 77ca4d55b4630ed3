// --stats (DESIGN.md "Sparse graphs and rows"): per-vertex figures reduced from
// rows as they arrive, never an n x n matrix. Forward rows (d(v, *), sources =
// every vertex in order) give reach and eccentricity; columns (d(*, v), the rows
// of the reversed graph for integers; float distances always the forward rows'
// columns, added in source order) give closeness and harmonic centrality as
// networkx defines them (closeness_centrality with wf_improved,
// harmonic_centrality: distances *to* the vertex). --stats --sources: the same
// figures of the listed sources' rows alone (row r is source r's: its forward row,
// and its row of the reversed graph for the distances to it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "sparse/row_sink.hpp"

namespace ocl_sp {

struct VertexStats {
  // Each line's vertex: empty when line v is vertex v (every vertex), else the
  // sources as listed (--stats --sources; repeats kept).
  std::vector<int64_t> vertex;
  std::vector<int64_t> reach;         // vertices reachable from v, v included
  std::vector<double> eccentricity;   // largest finite d(v, *)
  std::vector<double> closeness;      // networkx closeness_centrality (wf_improved)
  std::vector<double> harmonic;       // networkx harmonic_centrality
  std::vector<double> sum_from;       // sum of finite d(v, *) (for the average)
  // networkx's betweenness_centrality (--betweenness, sparse/betweenness.hpp); empty
  // when not computed, and then no column in the file.
  std::vector<double> betweenness;
};

struct GraphStats {
  double diameter = 0, radius = 0;   // max / min eccentricity
  long long reachable_pairs = 0;     // ordered pairs u != v with v reachable from u
  double average_shortest_path_length = 0;  // over those pairs (0 when none)
  // Distinct sources the figures cover (--stats --sources; each counted once in
  // the pairs and the average); 0: every vertex.
  long long sources = 0;
};

// The figures of one row, or of a stretch of it (a rank's or a block's columns):
// stretches combine() into the row's figures (sums add, the largest is the max).
template <typename T>
RowFigures row_figures(const T* row, int64_t len, bool harmonic);
// f continued over len more entries in order, `stride` values apart: a row's
// stretches continued one after the other give exactly the whole row's figures
// (the same sums in the same order), so a stretch held elsewhere can pick up
// where the previous one ended (the distributed solve's --stats, host/mpi/).
template <typename T>
void continue_figures(RowFigures& f, const T* x, int64_t len, int64_t stride, bool harmonic);
// The columns' figures of a rows x cols block (row-major, rows ld values apart):
// f[c] continued down column c, rows in order.
template <typename T>
void column_figures(const T* block, int64_t rows, int64_t cols, int64_t ld, bool harmonic,
                    RowFigures* f);
inline RowFigures combine(const RowFigures& a, const RowFigures& b) {
  // An empty stretch's largest (0) is no value: distances may be negative.
  const double largest = a.reach == 0 ? b.largest : b.reach == 0 ? a.largest : std::max(a.largest, b.largest);
  return {a.reach + b.reach, largest, a.sum + b.sum, a.harmonic + b.harmonic};
}

template <typename T>
class StatsSink final : public RowSink<T>, public FigureSink {
 public:
  enum Pass : int { from = 1, to = 2, both = 3 };
  // The figures of every vertex's rows (row v is vertex v), or of the rows of
  // `sources` (row r is sources[r]; ids in [0, n), repeats allowed) of an n-vertex
  // graph: only those rows are kept, never n of anything but in summary().
  explicit StatsSink(int64_t n, std::vector<int64_t> sources = {});
  // Which figures the next rows feed (rows are indexed by row: vertex or position
  // in the sources).
  void set_pass(Pass p) { pass_ = p; }
  // The rows' vertices in order (empty: every vertex) and how many rows.
  const std::vector<int64_t>& sources() const { return s_.vertex; }
  int64_t row_count() const { return static_cast<int64_t>(s_.reach.size()); }
  // The vertex of row r.
  int64_t vertex_of(int64_t r) const { return s_.vertex.empty() ? r : s_.vertex[static_cast<size_t>(r)]; }
  // Figures of every vertex (f[v] is vertex v's, n of them): each row takes its
  // vertex's (a solve that computed them all: fw, the distributed fw).
  void vertex_figures(const RowFigures* f);
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override;
  // Rows reduced by the engine (on the device): only the figures arrive.
  bool takes_figures() const override { return true; }
  bool figures_need_harmonic() const override { return pass_ & to; }
  void figures(int64_t first, int64_t count, const RowFigures* f) override;
  // Figures reduced on the host elsewhere (the columns gathered from the rows as
  // they passed, `seconds` spent on them): stored as figures(), counted as rows().
  void host_figures(int64_t first, int64_t count, const RowFigures* f, double seconds);
  const VertexStats& vertices() const { return s_; }
  GraphStats summary() const;
  double seconds() const { return seconds_; }  // spent reducing rows on the host
  int64_t rows_reduced_here() const { return host_rows_; }  // rows() reduced them
  int64_t rows_reduced_by_engine() const { return engine_rows_; }  // via figures()

 private:
  void store(int64_t v, const RowFigures& f);
  double seconds_ = 0;
  int64_t host_rows_ = 0, engine_rows_ = 0;
  int64_t n_;
  Pass pass_ = both;
  VertexStats s_;
};

// Both passes from a dense result: its rows, then its columns in blocks (the
// sink's rows': every vertex or its sources).
template <typename T>
void stats_from_matrix(const DistMatrix<T>& d, StatsSink<T>& sink);
// The second half alone (the rows came through hand_rows with the from pass):
// column v of d for each row's vertex v.
template <typename T>
void stats_from_columns(const DistMatrix<T>& d, StatsSink<T>& sink);

// The per-vertex table to `path` (csv: header vertex,reach,eccentricity,closeness,
// harmonic[,betweenness], a line per row, vertex = v.vertex[r] or r; npy: a structured array with those fields; json: one
// array per field plus the summary), atomically. Format from the extension, csv when unknown.
void write_stats_file(const std::string& path, const VertexStats& v, const GraphStats& g);
// UsageError for a path ending in something else than .csv/.npy/.json (checked
// before any work).
void check_stats_path(const std::string& path);

}  // namespace ocl_sp
