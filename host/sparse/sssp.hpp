// The multi-source shortest-path engine (DESIGN.md "Sparse graphs and rows",
// `--algo sssp`): rows d(s, *) for a list of sources over a CSR, never n^3 work
// and never n^2 memory beyond what the sink keeps.
//
// Layers:
// - SsspEngine (one per backend: dijkstra.cpp for serial/OpenMP, opencl_sssp.cpp
//   for OpenCL devices) computes raw rows for a batch of sources on a graph whose
//   weights are all >= 0, with kRawInf for unreachable;
// - SsspSolver (sssp_solver.cpp) is the one Solver of the algorithm: Johnson's
//   reweighting for negative edges (johnson.hpp), batches, the mapping back to
//   the input's weights, path rows (sssp_paths.hpp) and the hand-over of each
//   batch to a RowSink (row_sink.hpp). It also serves the dense Solver interface
//   (solve, bench, sweep, tests, Python) through a CSR of the adjacency matrix.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/csr.hpp"
#include "solvers/solver.hpp"
#include "sparse/row_sink.hpp"
#include "sparse/stats_sink.hpp"

namespace ocl_sp {

// Unreachable inside the engines: above every finite (reweighted) distance, which
// stays below 2^30 for int32 (|d| < 2^29 and |potential| < 2^29) so du + w never
// overflows; +inf for float32. Non-negative values of both types order as their
// bit patterns do (the OpenCL kernel's atomic_min relies on it).
template <typename T>
constexpr T kRawInf = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                           : std::numeric_limits<T>::max();

template <typename T>
class SsspEngine {
 public:
  virtual ~SsspEngine() = default;
  virtual SolverInfo& info() = 0;
  // The graph of the next runs (weights >= 0); an OpenCL engine uploads it here.
  virtual void prepare(const Csr<T>& g, RunStats& st) = 0;
  // Sources per run() the engine wants (device memory, tuning); at least 1.
  virtual int64_t batch(int64_t n) const = 0;
  // Host threads the solver may use on each batch's rows (1 for the serial backend).
  virtual int host_threads() const = 0;
  // Rows of sources[0..count) into out (count x n, row-major): distances over the
  // prepared graph, kRawInf where unreachable (ValueTraits<T>::inf where the
  // engine was asked for final rows: FinalRowsEngine).
  virtual void run(const int64_t* sources, int64_t count, T* out, RunStats& st) = 0;
  // Whether run() may go on a worker thread while the solver hands on the
  // previous batch's rows (an engine whose run() is device work on threads of its
  // own: several devices, which have no slots). Not for CPU engines: their run()
  // takes the cores the host's share needs.
  virtual bool runs_beside_host() const { return false; }
  // The list the runs beside the host come from, in batches of `batch` from its
  // start (null: none, or no longer): such an engine may start each device's share
  // of the next batch while it reads this one's rows. It checks a batch's sources
  // against what it started, so a list that changes costs time, not rows.
  virtual void runs_ahead(const int64_t*, int64_t, int64_t) {}
};

// OCL_SP_STATS_ON_HOST=1: --stats reduced on the host even where the engine
// reduces rows or columns (tests, comparisons).
bool stats_on_host();

// Optional capabilities: an engine opts into one by deriving from it as well, and
// the solver asks for it with engine_capability<Cap>(engine) (null: not offered).

// Batches in flight (an engine on one device): rows land in the engine's own host
// memory (pinned), slot 0 or 1, so the host maps back and hands on one slot while
// the next batch computes and comes back into the other. slots(batch) says
// whether the engine can for batches of that size (and sets the slots up); then
// submit(slot, ...) starts a batch, wait(slot, st) waits for its rows (kRawInf
// unreachable, as run()) and adds its times to st, and slot_rows(slot) is where
// they are. A submitted batch may be left unwaited (an exception): the engine's
// next use waits for it.
template <typename T>
class SlotEngine {
 public:
  virtual ~SlotEngine() = default;
  virtual bool slots(int64_t batch) = 0;
  virtual void submit(int slot, const int64_t* sources, int64_t count) = 0;
  virtual void wait(int slot, RunStats& st) = 0;
  virtual T* slot_rows(int slot) = 0;
  // The whole list the batches will come from, in order (after slots(), before the
  // first submit): an engine may compute past a batch (the OpenCL one's lanes
  // launch several batches at once). Batches are consecutive ranges of it.
  virtual void slot_sources(const int64_t*, int64_t) {}
};

// Engines whose layout depends on how many sources the solve takes (the OpenCL
// one: rows in lanes only where the sources fill a group on every compute unit):
// told after prepare(), before batch(); the placement in st follows.
class SourceCountEngine {
 public:
  virtual ~SourceCountEngine() = default;
  virtual void source_count(int64_t count, RunStats& st) = 0;
};

// Engines that can write rows in the output's representation (the OpenCL one:
// kernels/sssp.cl out_inf): final_rows(true) asks that the rows of the runs and
// batches that follow (run(), submit(); not figures) come with ValueTraits<T>::inf
// where unreachable instead of kRawInf, final_rows(false) for raw rows again;
// returns whether the rows will come that way. The solver asks where no
// reweighting and no tree needs the raw rows, and then skips its pass over them.
template <typename T>
class FinalRowsEngine {
 public:
  virtual ~FinalRowsEngine() = default;
  virtual bool final_rows(bool on) = 0;
};

// Engines that can reduce their rows where they compute them (the OpenCL one on
// devices with cl_khr_fp64): run() but only each row's RowFigures come back (raw
// distances: kRawInf is the unreachable one). reduces_rows(): on the chosen
// devices.
class RowFiguresEngine {
 public:
  virtual ~RowFiguresEngine() = default;
  virtual bool reduces_rows() const = 0;
  virtual void run_figures(const int64_t* sources, int64_t count, bool harmonic, RowFigures* out,
                           RunStats& st) = 0;
  // The sources one run_figures call takes at once on all devices: its launches'
  // size, whatever mode (rows through slots, a source a group) ran before.
  virtual int64_t figures_batch() const = 0;
};

// Engines that reduce the columns as well (the OpenCL one's lanes: sources side by
// side, kernels/sssp.cl sssp_lanes): every vertex a source, in order, and rows[v] /
// cols[v] the figures of row v / column v of the whole result (raw distances) in
// one pass; the columns' sums run down each column in source order, as
// continue_figures adds them (harmonic only when asked for). reduces_columns() is
// known for sure only after prepare() (the graph's groups may not fit the device).
class ColumnFiguresEngine {
 public:
  virtual ~ColumnFiguresEngine() = default;
  virtual bool reduces_columns() const = 0;
  virtual void run_all_figures(bool harmonic, RowFigures* rows, RowFigures* cols, RunStats& st) = 0;
  // After prepare(): true where a source a group's row figures are faster than
  // the lanes' one pass for the prepared graph (deep searches), so a symmetric
  // graph (its rows' figures are its columns') takes them instead.
  virtual bool prefers_row_figures() const { return false; }
};

template <typename Cap, typename E>
Cap* engine_capability(E* engine) {
  return dynamic_cast<Cap*>(engine);
}

// The CPU engines: Dijkstra with a radix heap per source, sources in parallel with
// OpenMP (backend openmp) or one after another (serial).
template <typename T>
std::unique_ptr<SsspEngine<T>> make_dijkstra_engine(const SolverSpec& spec);
// The OpenCL engine (kernels/sssp.cl): a work-group per source, near-far
// ordering, a batch of sources per launch.
template <typename T>
std::unique_ptr<SsspEngine<T>> make_opencl_sssp_engine(const SolverSpec& spec);

template <typename T>
class SsspSolver final : public Solver<T> {
 public:
  explicit SsspSolver(std::unique_ptr<SsspEngine<T>> engine);
  const SolverInfo& info() const override { return engine_->info(); }
  // The dense interface: every source, rows written back into d.
  RunStats solve(DistMatrix<T>& d, PathMatrix* paths) override;
  // Rows of `sources` (all vertices when empty) over g, handed to `sink` batch by
  // batch in the order of `sources`; with `paths` the via and hop rows too.
  // Throws NegativeCycleError (with the cycle) before any row reaches the sink.
  RunStats solve_rows(const Csr<T>& g, const std::vector<int64_t>& sources, RowSink<T>& sink,
                      bool paths);
  // --stats of g in one pass, rows' and columns' figures together, where the
  // engine reduces columns (reduces_columns()) and g needs no reweighting; false
  // (nothing done) otherwise: then the rows of g and of its reverse, as before.
  // `rev`, where given, keeps g's transpose if this made one (the caller's second
  // pass takes it).
  bool solve_stats(const Csr<T>& g, StatsSink<T>& sink, RunStats& st, std::optional<Csr<T>>* rev = nullptr);
  // --stats of g (the CLI's and Python's): in one pass where solve_stats can
  // (`forward` is `stats` itself and every vertex a source), else the rows of
  // `sources` into `forward` (the stats sink, or a tee of it and the output file)
  // and the columns' figures gathered from those rows where every vertex is a
  // source and the distances are floats (the forward rows' bits, path order from
  // the source, are the distances: never the reversed graph's), or integers whose
  // rows reach the host (exact: the reversed graph's rows' bits); else the
  // reversed graph's rows into `stats`, one pass where g is symmetric (its rows
  // are its columns). `notes` gets a line saying which ran. `stats` is built with
  // the same `sources` (StatsSink(n, sources)); a list of K sources costs K rows
  // of g and K of its reverse (--stats --sources), never n.
  RunStats solve_stats_rows(const Csr<T>& g, const std::vector<int64_t>& sources, StatsSink<T>& stats,
                            RowSink<T>& forward, std::vector<std::string>& notes);
  // At most this many sources per batch (host memory of a streamed solve); 0: the
  // engine's choice.
  void set_max_batch(int64_t b) { max_batch_ = b; }
  // The engine (its optional capabilities: betweenness_rows).
  SsspEngine<T>& engine() { return *engine_; }

 private:
  bool columns_from_rows(const Csr<T>& g, const std::vector<int64_t>& sources,
                         RowSink<T>& forward) const;
  std::unique_ptr<SsspEngine<T>> engine_;
  int64_t max_batch_ = 0;
};

template <typename T>
std::unique_ptr<SsspSolver<T>> make_sssp_solver(const SolverSpec& spec);

// Relaxations of a multi-source solve as the report counts them: every edge once
// per source (what Dijkstra examines), whatever the engine did beyond that.
inline double sssp_relaxations(int64_t sources, int64_t m) {
  return static_cast<double>(sources) * static_cast<double>(m);
}

}  // namespace ocl_sp
