// The multi-source engine under mpirun (see mpi_sssp.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_sssp.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <type_traits>

#include "cl/device.hpp"
#include "cli/row_select.hpp"
#include "cli/solve_rows.hpp"
#include "graph/csr.hpp"
#include "graph/io.hpp"
#include "mpi/mpi_backend.hpp"
#include "mpi/mpi_betweenness.hpp"
#include "mpi/mpi_env.hpp"
#include "mpi/mpi_output.hpp"
#include "mpi/mpi_paths.hpp"
#include "mpi/mpi_report.hpp"
#include "mpi/mpi_rows.hpp"
#include "report/json.hpp"
#include "report/report.hpp"
#include "solvers/opencl_base.hpp"
#include "sparse/auto_algo.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "sparse/stats_sink.hpp"
#include "sparse/stream_sink.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"
#include "util/strings.hpp"
#include "util/sysinfo.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

namespace {

static_assert(sizeof(RowFigures) == 4 * sizeof(double), "RowFigures travels as 4 doubles");

// Output row r's values: the whole row, or its --targets columns in order.
template <typename T>
void pick(const T* row, const std::vector<int64_t>& cols, int64_t nc, T* dst) {
  if (cols.empty()) {
    std::memcpy(dst, row, static_cast<size_t>(nc) * sizeof(T));
    return;
  }
  for (int64_t k = 0; k < nc; ++k) dst[k] = row[cols[static_cast<size_t>(k)]];
}

// This rank's rows at their offsets in the open output file: row i of its sources
// is output row out[i]; runs of consecutive output rows go in one pwrite.
template <typename T>
class PlacedRows final : public RowSink<T> {
 public:
  PlacedRows(int fd, std::string path, size_t header, const std::vector<int64_t>& out,
             const std::vector<int64_t>& cols, int64_t nc)
      : fd_(fd), path_(std::move(path)), header_(header), out_(out), cols_(cols), nc_(nc) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*, const int32_t*) override {
    const int64_t cap = std::max<int64_t>(1, (int64_t{16} << 20) / static_cast<int64_t>(sizeof(T)) / std::max<int64_t>(nc_, 1));
    for (int64_t i = 0; i < count;) {
      int64_t j = i + 1;
      while (j < count && j - i < cap && out_[static_cast<size_t>(first + j)] == out_[static_cast<size_t>(first + j - 1)] + 1) ++j;
      vals_.resize(static_cast<size_t>((j - i) * nc_));
      for (int64_t r = i; r < j; ++r) pick(d + r * n, cols_, nc_, vals_.data() + (r - i) * nc_);
      bytes_.resize(vals_.size() * sizeof(T));
      to_le(vals_.data(), vals_.size(), bytes_.data());
      const uint64_t row0 = static_cast<uint64_t>(out_[static_cast<size_t>(first + i)]);
      pwrite_all(fd_, bytes_.data(), bytes_.size(),
                 static_cast<off_t>(header_ + row0 * static_cast<uint64_t>(nc_) * sizeof(T)), path_);
      i = j;
    }
  }

 private:
  int fd_;
  std::string path_;
  size_t header_;
  const std::vector<int64_t>& out_;
  const std::vector<int64_t>& cols_;
  int64_t nc_;
  std::vector<T> vals_;
  std::vector<char> bytes_;
};

// This rank's rows kept in order (the streamed output's values): row i at i * nc.
template <typename T>
class HeldRows final : public RowSink<T> {
 public:
  HeldRows(std::vector<T>& held, const std::vector<int64_t>& cols, int64_t nc) : held_(held), cols_(cols), nc_(nc) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*, const int32_t*) override {
    for (int64_t r = 0; r < count; ++r) pick(d + r * n, cols_, nc_, held_.data() + (first + r) * nc_);
  }

 private:
  std::vector<T>& held_;
  const std::vector<int64_t>& cols_;
  int64_t nc_;
};

// Each row's figures (stats_sink.hpp), as a StatsSink takes them: from an engine
// that reduces rows where it computes them (its sums in vertex order: the bits of
// the host's continue_figures, the harmonic sum's too, which for a symmetric graph
// are one process's column sums down the sources in order), else from the rows
// on the host. `host_rows` counts the rows that came to the host.
template <typename T>
class FigureRows final : public RowSink<T>, public FigureSink {
 public:
  FigureRows(int64_t count, bool harmonic) : f(static_cast<size_t>(count)), harmonic_(harmonic) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t*, const int32_t*) override {
#pragma omp parallel for schedule(static) if (count > 1 && count * n >= 65536)
    for (int64_t r = 0; r < count; ++r) f[static_cast<size_t>(first + r)] = row_figures(d + r * n, n, harmonic_);
    host_rows += count;
  }
  bool takes_figures() const override { return true; }
  bool figures_need_harmonic() const override { return harmonic_; }
  void figures(int64_t first, int64_t count, const RowFigures* x) override {
    std::copy(x, x + count, f.begin() + first);
  }
  std::vector<RowFigures> f;
  int64_t host_rows = 0;

 private:
  bool harmonic_;
};

// This rank's rows of the distances and of via (--paths), kept in order.
template <typename T>
class HeldPathRows final : public RowSink<T> {
 public:
  HeldPathRows(std::vector<T>& d, std::vector<int32_t>& via) : d_(d), via_(via) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via, const int32_t*) override {
    std::copy(d, d + count * n, d_.begin() + first * n);
    if (via) std::copy(via, via + count * n, via_.begin() + first * n);
  }

 private:
  std::vector<T>& d_;
  std::vector<int32_t>& via_;
};

// An output file of nr x nc values (V: the distances' type, or int32 for via)
// from the rows each rank holds (`held`: its output rows mine_out, in order, nc
// values each): in place (runs of consecutive rows, one pwrite each) or a strip
// of rows at a time to rank 0 (at most ~4 MiB), which writes them in order.
template <typename V>
class HeldOutput {
 public:
  HeldOutput(const std::vector<V>& held, const std::vector<int64_t>& mine_out, const SourceDeal& deal, int64_t nr,
             int64_t nc, OutputFormat fmt, const Session& s)
      : held_(held), mine_(mine_out), deal_(deal), nr_(nr), nc_(nc), fmt_(fmt), s_(s) {
    h_ = std::max<int64_t>(1, std::min<int64_t>(nr, (int64_t{4} << 20) / static_cast<int64_t>(sizeof(V)) /
                                                         std::max<int64_t>(nc, 1)));
  }
  RankWriter writer() {
    RankWriter w;
    w.header = matrix_file_header<V>(fmt_, nr_, nc_);
    w.bytes = w.header.size() + static_cast<uint64_t>(nr_) * static_cast<uint64_t>(nc_) * sizeof(V);
    const size_t header = w.header.size();
    w.write_mine = [this, header](int fd, const std::string& path) { write_mine(fd, path, header); };
    w.steps = (nr_ + h_ - 1) / h_;
    w.exchange = [this](int64_t k) { exchange(k); };
    w.write = [this](int64_t k, std::ostream& os) {
      write_matrix_rows(os, fmt_, strip_.data(), std::min(nr_, k * h_ + h_) - k * h_, nc_);
    };
    w.in_place_mode = "each rank wrote its sources' rows in place";
    w.streamed_mode = "each rank held its sources' rows, streamed to rank 0";
    return w;
  }

 private:
  void write_mine(int fd, const std::string& path, size_t header) {
    const int64_t cap = std::max<int64_t>(1, (int64_t{16} << 20) / static_cast<int64_t>(sizeof(V)) / std::max<int64_t>(nc_, 1));
    std::vector<char> bytes;
    for (size_t i = 0; i < mine_.size();) {
      size_t j = i + 1;
      while (j < mine_.size() && static_cast<int64_t>(j - i) < cap && mine_[j] == mine_[j - 1] + 1) ++j;
      const size_t values = (j - i) * static_cast<size_t>(nc_);
      bytes.resize(values * sizeof(V));
      to_le(held_.data() + i * static_cast<size_t>(nc_), values, bytes.data());
      pwrite_all(fd, bytes.data(), bytes.size(),
                 static_cast<off_t>(header + static_cast<uint64_t>(mine_[i]) * static_cast<uint64_t>(nc_) * sizeof(V)), path);
      i = j;
    }
  }
  void exchange(int64_t k) {
    const int64_t r0 = k * h_, r1 = std::min(nr_, r0 + h_);
    const auto lo = std::lower_bound(mine_.begin(), mine_.end(), r0) - mine_.begin();
    const auto hi = std::lower_bound(mine_.begin(), mine_.end(), r1) - mine_.begin();
    std::vector<int> counts, displs;
    if (s_.rank == 0) {
      counts.assign(static_cast<size_t>(s_.size), 0);
      displs.assign(static_cast<size_t>(s_.size), 0);
      for (int64_t r = r0; r < r1; ++r) counts[static_cast<size_t>(deal_.owner(r))] += static_cast<int>(nc_);
      for (int x = 1; x < s_.size; ++x)
        displs[static_cast<size_t>(x)] = displs[static_cast<size_t>(x - 1)] + counts[static_cast<size_t>(x - 1)];
      got_.resize(static_cast<size_t>((r1 - r0) * nc_));
    }
    MPI_Gatherv(held_.data() + lo * nc_, static_cast<int>((hi - lo) * nc_), mpi_type<V>(), got_.data(), counts.data(),
                displs.data(), mpi_type<V>(), 0, MPI_COMM_WORLD);
    if (s_.rank != 0) return;
    strip_.resize(got_.size());
    std::vector<int64_t> next(displs.begin(), displs.end());
    for (int64_t r = r0; r < r1; ++r) {
      int64_t& at = next[static_cast<size_t>(deal_.owner(r))];
      std::copy(got_.begin() + at, got_.begin() + at + nc_, strip_.begin() + (r - r0) * nc_);
      at += nc_;
    }
  }
  const std::vector<V>& held_;
  const std::vector<int64_t>& mine_;
  const SourceDeal& deal_;
  int64_t nr_, nc_, h_ = 1;
  OutputFormat fmt_;
  const Session& s_;
  std::vector<V> strip_, got_;
};

// Rank 0's CSR to every rank.
template <typename T>
void bcast_csr(Csr<T>& g, const Session& s) {
  long long nm[2] = {static_cast<long long>(g.n), static_cast<long long>(g.m())};
  MPI_Bcast(nm, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (s.rank != 0) {
    g.n = nm[0];
    g.off.resize(static_cast<size_t>(nm[0] + 1));
    g.col.resize(static_cast<size_t>(nm[1]));
    g.w.resize(static_cast<size_t>(nm[1]));
  }
  const auto chunks = [](auto* p, int64_t count, MPI_Datatype type) {
    for (int64_t off = 0; off < count; off += kMaxChunk)
      MPI_Bcast(p + off, static_cast<int>(std::min(kMaxChunk, count - off)), type, 0, MPI_COMM_WORLD);
  };
  chunks(g.off.data(), nm[0] + 1, MPI_INT64_T);
  chunks(g.col.data(), nm[1], MPI_INT32_T);
  chunks(g.w.data(), nm[1], mpi_type<T>());
}

// Figures of each rank's rows (rank k: the rows the deal gives it, in order) to
// rank 0, in output-row order (null elsewhere).
void gather_rows_figures(const SourceDeal& deal, const std::vector<RowFigures>& mine, const Session& s,
                         std::vector<RowFigures>& all) {
  std::vector<int> counts(static_cast<size_t>(s.size), 0), displs(static_cast<size_t>(s.size), 0);
  std::vector<RowFigures> got;
  if (s.rank == 0) {
    for (int64_t r = 0; r < deal.rows; ++r) counts[static_cast<size_t>(deal.owner(r))] += 4;
    for (int k = 1; k < s.size; ++k) displs[static_cast<size_t>(k)] = displs[static_cast<size_t>(k - 1)] + counts[static_cast<size_t>(k - 1)];
    got.resize(static_cast<size_t>(deal.rows));
  }
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()) * 4, MPI_DOUBLE, got.data(), counts.data(), displs.data(),
              MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (s.rank != 0) return;
  all.resize(static_cast<size_t>(deal.rows));
  std::vector<int64_t> next(static_cast<size_t>(s.size));
  for (int k = 0; k < s.size; ++k) next[static_cast<size_t>(k)] = displs[static_cast<size_t>(k)] / 4;
  for (int64_t r = 0; r < deal.rows; ++r) all[static_cast<size_t>(r)] = got[static_cast<size_t>(next[static_cast<size_t>(deal.owner(r))]++)];
}

uint64_t peak_rss_bytes() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

template <typename T>
int run_typed(const MpiSolveOptions& o, AlgoChoice& c, const Stopwatch& wall, const Session& s) {
  Outcome out;
  SsspReport rep;
  rep.choice = c.why;
  bool opencl = false;
  std::optional<OutputTarget> target;
  OutputFormat fmt = OutputFormat::bin;
  const bool stats = !o.stats.empty();

  // 1. Options (identical on every rank); rank 0 checks the files.
  out.step([&] {
    if (!o.unsupported.empty())
      throw UsageError(o.unsupported + " not supported by the distributed solve (" + std::to_string(s.size) +
                       " MPI ranks)");
    if (!o.sssp_unsupported.empty())
      throw UsageError(o.sssp_unsupported + " not supported by --algo sssp under mpirun (" +
                       std::to_string(s.size) + " MPI ranks: distances, --sources/--targets, --stats, --betweenness and --paths); " +
                       "--algo fw takes them");
    opencl = check_backend_and_graph(o);
    if (!o.paths_output.empty() && o.paths_output == o.output)
      throw UsageError("--output and --paths-output name the same file '" + o.output + "'");
    if (s.rank == 0 && o.check_rows) o.check_rows();
    if (!o.output.empty()) {
      fmt = o.output_format == "auto" ? detect_output_format(o.output) : parse_output_format(o.output_format);
      if (s.rank == 0) target = resolve_output(o.output);
    }
  });
  if (int code = agree(out, s)) return code;
  rep.backend = opencl ? "opencl" : "openmp";
  rep.paths = o.paths;

  // 2. The graph, whole on every rank: generated by each (the same seed), or read
  // by rank 0 and broadcast as a CSR.
  Stopwatch setup;
  Csr<T> csr;
  out.step([&] {
    if (!o.generated && s.rank != 0) return;
    Graph g;
    if (o.generated) {
      g = generate_graph(o.generator(rep.source));
    } else {
      rep.source = o.input;
      g = c.graph ? std::move(*c.graph) : read_graph(o.input, parse_input_format(o.format), kMaxSparseVertices);
      c.graph.reset();
    }
    check_range<T>(g);
    rep.edges = static_cast<long long>(g.edges.size());
    csr = build_csr<T>(g);
  });
  if (int code = agree(out, s)) return code;
  if (!o.generated) bcast_csr(csr, s);
  const int64_t n = csr.n;
  rep.n = static_cast<long long>(n);
  out.step([&] {
    for (int64_t x : o.queries)
      if (x < 0 || x >= n)
        throw UsageError("--query: vertex " + std::to_string(x) + " out of range [0, " + std::to_string(n) + ")");
  });
  if (int code = agree(out, s)) return code;

  // 3. The output's rows and columns, this rank's share, its devices and solver.
  std::vector<int64_t> sel_rows, sel_cols;
  // With --betweenness, --sources is the sample of its estimate, not a selection
  // of rows: the figures stay every vertex's (as one process writes them).
  const std::string row_spec = o.betweenness ? std::string() : o.sources;
  if (int code = select_vertices(row_spec, o.targets, n, s, sel_rows, sel_cols)) return code;
  rep.selected = !sel_rows.empty();
  const int64_t nr = rep.selected ? static_cast<int64_t>(sel_rows.size()) : n;
  const int64_t nc = rep.selected ? static_cast<int64_t>(sel_cols.size()) : n;
  if (!rep.selected) sel_cols.clear();  // every column: whole rows
  rep.rows = nr;
  rep.cols = nc;
  const SourceDeal deal(nr, s.size);
  rep.chunk = deal.chunk;
  std::vector<int64_t> mine_out, mine_src;  // this rank's output rows, their sources
  for (int64_t r = 0; r < nr; ++r)
    if (deal.owner(r) == s.rank) {
      mine_out.push_back(r);
      mine_src.push_back(rep.selected ? sel_rows[static_cast<size_t>(r)] : r);
    }
  std::unique_ptr<SsspSolver<T>> solver;
  std::string device_name = "host";
  out.step([&] {
    SolverSpec spec;
    spec.algo = Algo::sssp;
    spec.backend = opencl ? Backend::opencl : Backend::openmp;
    if (opencl) spec.device = rank_devices(o.device, launched_local_rank(), launched_local_size());
    const int64_t max_batch = plan_streamed_memory<T>(spec, n, csr.m(), stats, o.betweenness);
    solver = make_sssp_solver<T>(spec);
    solver->set_max_batch(max_batch);
    device_name = solver->info().device;
  });
  if (int code = agree(out, s)) return code;
  Csr<T> rev;  // --stats: the reversed graph, unless it is the graph itself
  bool symmetric = false;
  // --stats with float distances: the columns' figures are the forward rows'
  // (each path summed in order from its source), continued in source order as
  // one process adds them, chunk after chunk from rank to rank (column_ring).
  // --stats --sources: the sources' rows of the graph and of its reverse (no ring).
  const bool ring = stats && std::is_floating_point_v<T> && !rep.selected;
  if (stats && !ring) {
    rev = transpose(csr);
    symmetric = rev.off == csr.off && rev.col == csr.col && rev.w == csr.w;
    if (symmetric) rev = Csr<T>();
  }
  rep.t_setup = setup.seconds();

  // 4. This rank's rows into `rows_sink` (null: none kept) and, with --stats, its
  // rows' figures (distances from its sources, and to them unless symmetric).
  std::vector<RowFigures> from_f, to_f;
  int64_t stats_host_rows = 0;  // this rank's --stats rows that came to the host
  RunStats st;
  double solve_s = 0;
  const auto compute = [&](RowSink<T>* rows_sink, bool paths) {
    if (mine_src.empty()) return;
    const Stopwatch t;
    std::optional<FigureRows<T>> fig;
    std::vector<RowSink<T>*> sinks;
    NullSink<T> none;
    if (rows_sink) sinks.push_back(rows_sink);
    if (stats) sinks.push_back(&fig.emplace(static_cast<int64_t>(mine_src.size()), symmetric));
    if (sinks.empty()) sinks.push_back(&none);
    TeeSink<T> tee(sinks);
    RowSink<T>& sink = sinks.size() == 1 ? *sinks.front() : tee;
    st = solver->solve_rows(csr, mine_src, sink, paths);
    profile("rank " + std::to_string(s.rank) + ": its rows (" + std::to_string(mine_src.size()) + " sources)",
            t.seconds());
    if (stats) {
      from_f = std::move(fig->f);
      stats_host_rows += fig->host_rows;
      if (!symmetric && !ring) {
        FigureRows<T> back(static_cast<int64_t>(mine_src.size()), true);
        const Stopwatch tb;
        st.add_pass(solver->solve_rows(rev, mine_src, back, false));
        profile("rank " + std::to_string(s.rank) + ": the reversed graph's rows (--stats)", tb.seconds());
        to_f = std::move(back.f);
        stats_host_rows += back.host_rows;
      }
    }
    throw_if_cancelled();
    solve_s = t.seconds();
  };

  // 5. The output (the solve runs inside: in place, or held and streamed) or the
  // solve alone. With --paths each rank holds its rows of the distances and of
  // via (as the distributed fw holds its panels'), written from there.
  Stopwatch write;
  const auto to_root = [&] { return s.rank == 0 ? &*target : nullptr; };
  if (o.paths) {
    std::vector<T> d_held;
    std::vector<int32_t> via_held;
    out.step([&] {
      const uint64_t rows = static_cast<uint64_t>(mine_out.size()) * static_cast<uint64_t>(n);
      check_host_memory(rows * (sizeof(T) + 2 * sizeof(int32_t)),
                        "rank " + std::to_string(s.rank) + ": its " + std::to_string(mine_out.size()) +
                            " rows of the distances and of via (--paths)");
      d_held.resize(static_cast<size_t>(rows));
      via_held.resize(static_cast<size_t>(rows));
      HeldPathRows<T> keep(d_held, via_held);
      compute(&keep, true);
    });
    if (int code = agree(out, s)) return code;
    if (!o.output.empty()) {
      HeldOutput<T> ho(d_held, mine_out, deal, nr, nc, fmt, s);
      const RankWriter w = ho.writer();
      OutputStats ost;
      if (int code = write_ranked(w, to_root(), fmt, s, ost)) return code;
      rep.output = o.output;
      rep.output_mode = ost.mode;
    }
    if (!o.paths_output.empty()) {
      OutputFormat pf = OutputFormat::bin;
      std::optional<OutputTarget> pt;
      out.step([&] {
        pf = o.paths_output_format == "auto" ? detect_output_format(o.paths_output)
                                             : parse_output_format(o.paths_output_format);
        if (s.rank == 0) pt = resolve_output(o.paths_output);
      });
      if (int code = agree(out, s)) return code;
      HeldOutput<int32_t> hv(via_held, mine_out, deal, n, n, pf, s);
      const RankWriter w = hv.writer();
      OutputStats ost;
      if (int code = write_ranked(w, s.rank == 0 ? &*pt : nullptr, pf, s, ost)) return code;
      rep.paths_output = o.paths_output;
    }
    // --query U V: row U of the distances and of via from its rank, the walk on rank 0.
    for (size_t k = 0; k + 1 < o.queries.size(); k += 2) {
      const int64_t u = o.queries[k], v = o.queries[k + 1];
      std::vector<T> d_row(static_cast<size_t>(n));
      std::vector<int32_t> via_row(static_cast<size_t>(n));
      const int owner = deal.owner(u);
      if (owner == s.rank) {
        const int64_t at = std::lower_bound(mine_out.begin(), mine_out.end(), u) - mine_out.begin();
        std::copy(d_held.begin() + at * n, d_held.begin() + (at + 1) * n, d_row.begin());
        std::copy(via_held.begin() + at * n, via_held.begin() + (at + 1) * n, via_row.begin());
      }
      for (int64_t off = 0; off < n; off += kMaxChunk) {
        const int c = static_cast<int>(std::min(kMaxChunk, n - off));
        MPI_Bcast(d_row.data() + off, c, mpi_type<T>(), owner, MPI_COMM_WORLD);
        MPI_Bcast(via_row.data() + off, c, MPI_INT32_T, owner, MPI_COMM_WORLD);
      }
      out.step([&] {
        if (s.rank == 0) rep.queries.push_back(path_query(d_row, via_row, u, v));
      });
      if (int code = agree(out, s)) return code;
    }
  } else if (!o.output.empty()) {
    std::vector<T> held;
    HeldOutput<T> ho(held, mine_out, deal, nr, nc, fmt, s);
    RankWriter w = ho.writer();
    w.write_mine = [&](int fd, const std::string& path) {
      PlacedRows<T> placed(fd, path, w.header.size(), mine_out, sel_cols, nc);
      compute(&placed, false);
    };
    w.before_stream = [&] {
      const uint64_t bytes = static_cast<uint64_t>(mine_out.size()) * static_cast<uint64_t>(nc) * sizeof(T);
      check_host_memory(bytes, "rank " + std::to_string(s.rank) + ": its " + std::to_string(mine_out.size()) +
                                   " rows of the streamed output (csv, standard output, a pipe; a bin or npy "
                                   "file is written in place)");
      held.resize(static_cast<size_t>(mine_out.size() * nc));
      HeldRows<T> keep(held, sel_cols, nc);
      compute(&keep, false);
    };
    OutputStats ost;
    if (int code = write_ranked(w, to_root(), fmt, s, ost)) return code;
    rep.output = o.output;
    rep.output_mode = ost.mode;
  } else {
    out.step([&] { compute(nullptr, false); });
    if (int code = agree(out, s)) return code;
  }
  rep.t_write = std::max(0.0, write.seconds() - solve_s);

  // 5b. --stats with float distances: a second pass over the forward graph, a
  // round at a time: each rank holds its chunk's rows (chunk c, sources
  // [c chunk, (c + 1) chunk)), then the columns' figures go down the chunks in
  // order, continued from the previous chunk's rank's (non-blocking sends: a
  // rank never waits on a later one), the last chunk's to rank 0. Any rank's
  // failure stops every rank at the round's agree(), before the chain.
  std::vector<RowFigures> ring_cols;
  if (ring) {
    const Stopwatch t;
    const int64_t chunk = deal.chunk, chunks = n > 0 ? (n + chunk - 1) / chunk : 0;
    const auto owner = [&](int64_t c) { return deal.owner(c * chunk); };
    std::vector<T> held;
    std::vector<RowFigures> acc, sending;
    const std::vector<int64_t> whole;  // every column
    out.step([&] {
      check_host_memory(static_cast<uint64_t>(chunk) * static_cast<uint64_t>(n) * sizeof(T) +
                            3 * static_cast<uint64_t>(n) * sizeof(RowFigures),
                        "rank " + std::to_string(s.rank) + ": a chunk of " + std::to_string(chunk) +
                            " rows for the columns' figures (--stats, float distances)");
      held.resize(static_cast<size_t>(chunk * n));
      acc.assign(static_cast<size_t>(n), RowFigures{});
      sending.resize(static_cast<size_t>(n));
    });
    if (int code = agree(out, s)) return code;
    MPI_Request pending = MPI_REQUEST_NULL;
    const int values = static_cast<int>(4 * n);  // n < 2^29 (int32 ids, 4 doubles each)
    for (int64_t first = 0; first < chunks; first += s.size) {
      const int64_t c = first + s.rank;
      const bool mine = c < chunks;
      const int64_t lo = c * chunk, hi = mine ? std::min(n, lo + chunk) : lo;
      out.step([&] {
        if (!mine) return;
        throw_if_cancelled();
        std::vector<int64_t> src(static_cast<size_t>(hi - lo));
        for (int64_t k = lo; k < hi; ++k) src[static_cast<size_t>(k - lo)] = k;
        HeldRows<T> keep(held, whole, n);
        st.add_pass(solver->solve_rows(csr, src, keep, false));
      });
      if (int code = agree(out, s)) return code;
      if (!mine) continue;
      if (c > 0 && owner(c - 1) != s.rank)
        MPI_Recv(acc.data(), values, MPI_DOUBLE, owner(c - 1), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      column_figures(held.data(), hi - lo, n, n, true, acc.data());
      const int to = c + 1 < chunks ? owner(c + 1) : 0;
      if (to != s.rank) {
        MPI_Wait(&pending, MPI_STATUS_IGNORE);
        std::copy(acc.begin(), acc.end(), sending.begin());
        MPI_Isend(sending.data(), values, MPI_DOUBLE, to, 7, MPI_COMM_WORLD, &pending);
      }
    }
    if (s.rank == 0 && chunks > 0 && owner(chunks - 1) != 0)
      MPI_Recv(acc.data(), values, MPI_DOUBLE, owner(chunks - 1), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&pending, MPI_STATUS_IGNORE);
    if (s.rank == 0) ring_cols = std::move(acc);
    solve_s += t.seconds();
  }

  // 5c. --betweenness: this rank's sources' Brandes passes (every rank checks
  // the graph: negative weights are refused on all at once), their exact sums
  // added on rank 0 (mpi_betweenness.hpp).
  std::vector<double> bc;
  if (o.betweenness) {
    const Stopwatch t;
    // The sample (--sources) dealt as the rows are; without one, every vertex:
    // this rank's rows' sources.
    std::vector<int64_t> sample, unused, mine_b = mine_src;
    if (!o.sources.empty()) {
      if (int code = select_vertices(o.sources, std::string(), n, s, sample, unused)) return code;
      const SourceDeal bd(static_cast<int64_t>(sample.size()), s.size);
      mine_b.clear();
      for (size_t i = 0; i < sample.size(); ++i)
        if (bd.owner(static_cast<int64_t>(i)) == s.rank) mine_b.push_back(sample[i]);
    }
    std::optional<BetweennessSink<T>> bsink;
    std::string where = "no sources on this rank";
    out.step([&] {
      bsink.emplace(csr, mine_b, false, false, 0);
      if (mine_b.empty()) return;
      st.add_pass(betweenness_rows(*solver, csr, *bsink, &where));
      profile("rank " + std::to_string(s.rank) + ": betweenness (" + where + ")", t.seconds());
      throw_if_cancelled();
    });
    if (int code = agree(out, s)) return code;
    const int64_t k = static_cast<int64_t>(sample.size());
    bc = reduce_betweenness(bsink->vertex_fixed(), n, k, s);
    solve_s += t.seconds();
    if (s.rank == 0)
      rep.notes.push_back(betweenness_note(k) + "; each rank's sources, their exact sums added on rank 0 (rank 0: " +
                          where + ")");
  }

  // 6. --stats: the figures to rank 0 in vertex order, its file.
  if (stats) {
    const Stopwatch t;
    std::vector<RowFigures> rows_all, cols_all;
    gather_rows_figures(deal, from_f, s, rows_all);
    if (ring) cols_all = std::move(ring_cols);
    else if (!symmetric) gather_rows_figures(deal, to_f, s, cols_all);
    out.step([&] {
      if (s.rank != 0) return;
      throw_if_cancelled();
      StatsSink<T> sink(n, sel_rows);  // --sources: their rows (sel_rows empty: every vertex)
      if (symmetric) {
        sink.set_pass(StatsSink<T>::both);
        sink.figures(0, nr, rows_all.data());
      } else {
        sink.set_pass(StatsSink<T>::from);
        sink.figures(0, nr, rows_all.data());
        sink.set_pass(StatsSink<T>::to);
        sink.figures(0, nr, cols_all.data());
      }
      rep.graph_stats = sink.summary();
      VertexStats v = sink.vertices();
      if (o.betweenness) v.betweenness = std::move(bc);
      write_stats_file(o.stats, v, rep.graph_stats);
      rep.stats_output = o.stats;
    });
    if (int code = agree(out, s)) return code;
    rep.t_stats = t.seconds();
    if (ring)
      rep.notes.push_back("stats: a second pass over the graph, the columns' figures continued chunk after chunk "
                          "from rank to rank in source order (float distances)");
    else if (!symmetric)
      rep.notes.push_back("stats: a second pass over the reversed graph (distances to each vertex)");
    // Where the figures were made: every rank's devices (no row to the host) or not.
    const long long mine_host = static_cast<long long>(stats_host_rows);
    long long host_rows = 0;
    MPI_Reduce(&mine_host, &host_rows, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (s.rank == 0 && !ring)
      rep.notes.push_back(host_rows == 0 ? std::string("stats: rows reduced where they were computed (only their "
                                                       "figures gathered)")
                                         : "stats: " + std::to_string(host_rows) + " rows reduced on the hosts");
  }

  // 7. Per-rank figures to rank 0, the report.
  gather_rank_figures(s, {static_cast<double>(mine_src.size()), solve_s, st.t_k, static_cast<double>(peak_rss_bytes())},
                      device_name, {&rep.sources, &rep.solve, &rep.kernels, &rep.peak_rss}, rep.devices);
  MPI_Reduce(&st.relaxations, &rep.relaxations, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s.rank == 0) {
    rep.kernel_seconds = st.kernel_seconds;
    for (double solve : rep.solve) rep.t_solve = std::max(rep.t_solve, solve);
    rep.wall = wall.seconds();
    print_sssp_report(o, rep, s.size, target && target->is_stdout(), ValueTraits<T>::name());
  }
  return 0;
}

}  // namespace

int choose_algorithm(const MpiSolveOptions& o, const Session& s, AlgoChoice& c) {
  c = AlgoChoice();
  const std::string a = lower(o.algo);
  if (a == "auto" && o.betweenness) {  // as the single process: betweenness comes from its rows
    c.algo = "sssp";
    c.why = "--betweenness: sssp (betweenness comes from the multi-source engine's rows)";
    return 0;
  }
  // Not auto, or no graph to estimate (the solve refuses the options later).
  if (a != "auto" || o.generated == !o.input.empty()) {
    c.algo = a == "auto" ? "fw" : a;
    return 0;
  }
  Outcome out;
  int sssp = 0;
  out.step([&] {
    if (s.rank != 0) return;
    if (!o.sssp_unsupported.empty()) {
      c.why = "auto: fw: " + o.sssp_unsupported + " run on the distributed fw, not the multi-source engine";
      return;
    }
    int64_t n = 0;
    double m = 0;
    if (o.generated) {
      std::string source;
      const GeneratorParams g = o.generator(source);
      n = generated_vertices(g);
      m = o.expected_edges ? o.expected_edges(g) : 0;
    } else {
      c.graph = std::make_shared<Graph>(read_graph(o.input, parse_input_format(o.format), kMaxSparseVertices));
      n = c.graph->n;
      m = static_cast<double>(c.graph->edges.size());
    }
    const bool opencl = uses_opencl(o);
    const std::string kind = opencl ? rank_device(o.device, launched_local_rank()).type : "";
    const int64_t sources =
        o.sources.empty() ? n : static_cast<int64_t>(parse_vertex_spec(o.sources, n, "--sources").size());
    const AutoChoice ch = choose_algo(n, static_cast<int64_t>(m), sources, opencl ? Backend::opencl : Backend::openmp, kind);
    sssp = ch.algo == Algo::sssp ? 1 : 0;
    c.why = "auto: " + ch.why;
    if (!ch.long_solve.empty()) std::cerr << "note: " << ch.long_solve << "\n";
  });
  if (int code = agree(out, s)) return code;
  MPI_Bcast(&sssp, 1, MPI_INT, 0, MPI_COMM_WORLD);
  c.algo = sssp ? "sssp" : "fw";
  return 0;
}

int run_sssp(const MpiSolveOptions& o, AlgoChoice& c, const Stopwatch& wall, const Session& s) {
  return visit_type(parse_value_type(o.type), [&](auto t) { return run_typed<decltype(t)>(o, c, wall, s); });
}

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
