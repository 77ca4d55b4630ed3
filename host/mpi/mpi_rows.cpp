// The distributed solve's rows (see mpi_rows.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_rows.hpp"

#include <algorithm>
#include <climits>
#include <exception>
#include <optional>
#include <ostream>

#include "cli/row_select.hpp"
#include "mpi/mpi_rounds.hpp"
#include "util/cancel.hpp"
#include "util/errors.hpp"

namespace ocl_sp::mpi {

namespace {

static_assert(sizeof(RowFigures) == 4 * sizeof(double), "RowFigures travels as 4 doubles");
constexpr int kFigureValues = 4;

// Where vertex v's row / column lies in this rank's local matrix (it must own it).
int64_t local_row(const Layout& lay, int64_t v) { return lay.lrow(v / lay.p) * lay.p + v % lay.p; }
int64_t local_col(const Layout& lay, int64_t u) { return lay.lcol(u / lay.p) * lay.p + u % lay.p; }
int row_owner(const Layout& lay, int64_t v) { return static_cast<int>((v / lay.p) % lay.pr); }
int col_owner(const Layout& lay, int64_t u) { return static_cast<int>((u / lay.p) % lay.pc); }

// Figures held by some ranks (holder: this rank's `mine`) to rank 0: rank k sends
// count_of(k) figures, its x-th is vertex vertex_of(k, x) (padding vertices, >= n,
// dropped); into out (n figures, on rank 0).
template <typename V>
void gather_figures(const Layout& lay, const std::vector<RowFigures>& mine, bool holder,
                    const std::function<int64_t(int)>& count_of, V&& vertex_of,
                    std::vector<RowFigures>& out) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> counts(static_cast<size_t>(size), 0), displs(static_cast<size_t>(size), 0);
  std::vector<RowFigures> all;
  if (rank == 0) {
    int64_t total = 0;
    for (int k = 0; k < size; ++k) {
      const int64_t c = count_of(k) * kFigureValues;  // n <= kMaxVertices: fits an int
      counts[static_cast<size_t>(k)] = static_cast<int>(c);
      displs[static_cast<size_t>(k)] = static_cast<int>(total);
      total += c;
    }
    all.resize(static_cast<size_t>(total / kFigureValues));
  }
  const int send = holder ? static_cast<int>(mine.size()) * kFigureValues : 0;
  MPI_Gatherv(mine.data(), send, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  if (rank != 0) return;
  out.assign(static_cast<size_t>(lay.n), RowFigures{});
  for (int k = 0; k < size; ++k)
    for (int64_t x = 0; x < counts[static_cast<size_t>(k)] / kFigureValues; ++x) {
      const int64_t v = vertex_of(k, x);
      if (v < lay.n) out[static_cast<size_t>(v)] = all[static_cast<size_t>(displs[static_cast<size_t>(k)] / kFigureValues + x)];
    }
}

}  // namespace

int select_vertices(const std::string& sources, const std::string& targets, int64_t n, const Session& s,
                    std::vector<int64_t>& rows, std::vector<int64_t>& cols) {
  rows.clear();
  cols.clear();
  if (sources.empty() && targets.empty()) return 0;
  Outcome out;
  out.step([&] {
    if (s.rank != 0) return;
    if (!sources.empty()) rows = parse_vertex_spec(sources, n, "--sources");
    if (!targets.empty()) cols = parse_vertex_spec(targets, n, "--targets");
  });
  if (int c = agree(out, s)) return c;
  for (auto* v : {&rows, &cols}) {
    long long count = static_cast<long long>(v->size());
    MPI_Bcast(&count, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    v->resize(static_cast<size_t>(count));
    for (long long off = 0; off < count; off += kMaxChunk)
      MPI_Bcast(v->data() + off, static_cast<int>(std::min<long long>(kMaxChunk, count - off)), MPI_INT64_T,
                0, MPI_COMM_WORLD);
    if (v->empty())
      for (int64_t x = 0; x < n; ++x) v->push_back(x);
  }
  return 0;
}

template <typename T>
int write_selection(const Layout& lay, const std::vector<T>& local, const std::vector<int64_t>& rows,
                    const std::vector<int64_t>& cols, const OutputTarget* target, OutputFormat fmt,
                    const Session& s, OutputStats& st) {
  const int64_t nr = static_cast<int64_t>(rows.size()), nc = static_cast<int64_t>(cols.size());
  const int64_t mc = lay.mc();
  // This rank's output columns (increasing) and where they are in its local matrix.
  std::vector<int64_t> my_c, my_lc;
  for (int64_t c = 0; c < nc; ++c)
    if (col_owner(lay, cols[static_cast<size_t>(c)]) == lay.pcol) {
      my_c.push_back(c);
      my_lc.push_back(local_col(lay, cols[static_cast<size_t>(c)]));
    }
  const auto owns_row = [&](int64_t r) { return row_owner(lay, rows[static_cast<size_t>(r)]) == lay.prow; };
  // Output row r's values of this rank (its columns, in output order).
  const auto pick = [&](int64_t r, T* dst) {
    const T* row = local.data() + local_row(lay, rows[static_cast<size_t>(r)]) * mc;
    for (size_t k = 0; k < my_lc.size(); ++k) dst[k] = row[my_lc[k]];
  };

  // Strips of output rows: at most ~4 MiB of values.
  const int64_t h = std::max<int64_t>(1, std::min<int64_t>(nr, (int64_t{4} << 20) / static_cast<int64_t>(sizeof(T)) /
                                                                   std::max<int64_t>(nc, 1)));
  if (h * nc > INT_MAX) throw RuntimeError("--targets: " + std::to_string(nc) + " columns are too many for one MPI message");
  std::vector<std::vector<int64_t>> cols_of_b(static_cast<size_t>(lay.pc));  // output columns of each process column
  int64_t runs = 0;  // runs of consecutive output columns of one process column
  for (int64_t c = 0; c < nc; ++c) {
    const int b = col_owner(lay, cols[static_cast<size_t>(c)]);
    cols_of_b[static_cast<size_t>(b)].push_back(c);
    runs += c == 0 || b != col_owner(lay, cols[static_cast<size_t>(c - 1)]);
  }

  RankWriter w;
  w.header = matrix_file_header<T>(fmt, nr, nc);
  w.bytes = w.header.size() + static_cast<uint64_t>(nr) * static_cast<uint64_t>(nc) * sizeof(T);
  const auto offset = [&](int64_t r, int64_t c) {
    return static_cast<off_t>(w.header.size() + static_cast<uint64_t>(r * nc + c) * sizeof(T));
  };
  // Each rank its runs (long runs: ranges of targets, one process column).
  const auto write_runs = [&](int fd, const std::string& path) {
    std::vector<T> vals(my_c.size());
    std::vector<char> buf(my_c.size() * sizeof(T));
    for (int64_t r = 0; r < nr && !my_c.empty(); ++r) {
      if (!owns_row(r)) continue;
      pick(r, vals.data());
      to_le(vals.data(), vals.size(), buf.data());
      for (size_t k0 = 0; k0 < my_c.size();) {  // runs of consecutive output columns
        size_t k1 = k0 + 1;
        while (k1 < my_c.size() && my_c[k1] == my_c[k1 - 1] + 1) ++k1;
        pwrite_all(fd, buf.data() + k0 * sizeof(T), (k1 - k0) * sizeof(T), offset(r, my_c[k0]), path);
        k0 = k1;
      }
    }
  };
  // Short runs (targets interleaving the process columns): the ranks of a process
  // row gather a strip of their output rows on one of them, turn by turn, which
  // writes each row with one pwrite (a write error is kept until the strips end:
  // the others are in the gathers).
  const auto write_assembled = [&](int fd, const std::string& path) {
    const GridComms comms(lay);
    std::vector<int64_t> my_r;
    for (int64_t r = 0; r < nr; ++r)
      if (owns_row(r)) my_r.push_back(r);
    std::vector<T> vals, got, row(static_cast<size_t>(nc));
    std::vector<char> buf(static_cast<size_t>(nc) * sizeof(T));
    std::vector<int> counts(static_cast<size_t>(lay.pc)), displs(static_cast<size_t>(lay.pc));
    std::exception_ptr failed;
    const int64_t mine_rows = static_cast<int64_t>(my_r.size());
    for (int64_t k = 0; k * h < mine_rows; ++k) {
      const int64_t i0 = k * h, i1 = std::min(mine_rows, i0 + h);
      const int writer = static_cast<int>(k % lay.pc);
      vals.resize(static_cast<size_t>(i1 - i0) * my_c.size());
      for (int64_t i = i0; i < i1 && !my_c.empty(); ++i)
        pick(my_r[static_cast<size_t>(i)], vals.data() + (i - i0) * static_cast<int64_t>(my_c.size()));
      int total = 0;
      for (int b = 0; b < lay.pc; ++b) {
        const int64_t cnt = (i1 - i0) * static_cast<int64_t>(cols_of_b[static_cast<size_t>(b)].size());
        counts[static_cast<size_t>(b)] = static_cast<int>(cnt);
        displs[static_cast<size_t>(b)] = total;
        total += static_cast<int>(cnt);
      }
      got.resize(static_cast<size_t>(lay.pcol == writer ? total : 0));
      MPI_Gatherv(vals.data(), static_cast<int>(vals.size()), mpi_type<T>(), got.data(), counts.data(),
                  displs.data(), mpi_type<T>(), writer, comms.row);
      if (lay.pcol != writer || failed) continue;
      try {
        for (int64_t i = i0; i < i1; ++i) {
          for (int b = 0; b < lay.pc; ++b) {
            const auto& cb = cols_of_b[static_cast<size_t>(b)];
            const T* src = got.data() + displs[static_cast<size_t>(b)] + (i - i0) * static_cast<int64_t>(cb.size());
            for (size_t x = 0; x < cb.size(); ++x) row[static_cast<size_t>(cb[x])] = src[x];
          }
          to_le(row.data(), row.size(), buf.data());
          pwrite_all(fd, buf.data(), buf.size(), offset(my_r[static_cast<size_t>(i)], 0), path);
        }
      } catch (...) {
        failed = std::current_exception();
      }
    }
    if (failed) std::rethrow_exception(failed);
  };
  // Assembled when the runs average fewer than 16 values.
  const bool assemble = lay.pc > 1 && nc < 16 * runs;
  w.write_mine = assemble ? std::function<void(int, const std::string&)>(write_assembled)
                          : std::function<void(int, const std::string&)>(write_runs);
  w.in_place_mode = assemble ? "each process row assembled its selected rows, written in place"
                             : "each rank wrote its selected rows and columns";

  // Streamed: strips of output rows; every rank sends its values of the strip
  // (rows it owns x its columns, in output order), rank 0 places them.
  std::vector<T> strip, mine, got;
  w.steps = (nr + h - 1) / h;
  w.exchange = [&](int64_t k) {
    const int64_t r0 = k * h, r1 = std::min(nr, r0 + h);
    mine.clear();
    for (int64_t r = r0; r < r1 && !my_c.empty(); ++r)
      if (owns_row(r)) {
        mine.resize(mine.size() + my_c.size());
        pick(r, mine.data() + mine.size() - my_c.size());
      }
    std::vector<int> counts, displs;
    if (s.rank == 0) {
      counts.assign(static_cast<size_t>(s.size), 0);
      displs.assign(static_cast<size_t>(s.size), 0);
      std::vector<int64_t> rows_of_a(static_cast<size_t>(lay.pr), 0);
      for (int64_t r = r0; r < r1; ++r) ++rows_of_a[static_cast<size_t>(row_owner(lay, rows[static_cast<size_t>(r)]))];
      int total = 0;
      for (int x = 0; x < s.size; ++x) {
        counts[static_cast<size_t>(x)] = static_cast<int>(rows_of_a[static_cast<size_t>(x / lay.pc)] *
                                                          static_cast<int64_t>(cols_of_b[static_cast<size_t>(x % lay.pc)].size()));
        displs[static_cast<size_t>(x)] = total;
        total += counts[static_cast<size_t>(x)];
        if (x != 0) st.bytes_to_root += static_cast<double>(counts[static_cast<size_t>(x)]) * sizeof(T);
      }
      got.resize(static_cast<size_t>(total));
    }
    MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), mpi_type<T>(), got.data(), counts.data(),
                displs.data(), mpi_type<T>(), 0, MPI_COMM_WORLD);
    if (s.rank != 0) return;
    strip.resize(static_cast<size_t>((r1 - r0) * nc));
    for (int x = 0; x < s.size; ++x) {
      const T* src = got.data() + displs[static_cast<size_t>(x)];
      const auto& cb = cols_of_b[static_cast<size_t>(x % lay.pc)];
      for (int64_t r = r0; r < r1; ++r) {
        if (row_owner(lay, rows[static_cast<size_t>(r)]) != x / lay.pc) continue;
        T* dst = strip.data() + (r - r0) * nc;
        for (const int64_t c : cb) dst[c] = *src++;
      }
    }
  };
  w.write = [&](int64_t k, std::ostream& os) {
    write_matrix_rows(os, fmt, strip.data(), std::min(nr, k * h + h) - k * h, nc);
  };
  w.streamed_mode = "selected rows streamed to rank 0";
  return write_ranked(w, target, fmt, s, st);
}

template <typename T>
void reduce_stats(const Layout& lay, const std::vector<T>& local, StatsSink<T>* sink) {
  const GridComms comms(lay);
  const int64_t p = lay.p, q = lay.q, mr = lay.mr(), mc = lay.mc();
  std::vector<RowFigures> from(static_cast<size_t>(mr)), to(static_cast<size_t>(mc));
  // Figures carried panel to panel around a ring of `procs` ranks (this one is
  // `me`): panel k's owner receives what the previous owner carried, continues
  // it (step(k)) and passes it on.
  const auto relay = [&](std::vector<RowFigures>& f, int procs, int me, MPI_Comm comm, int tag, const auto& step) {
    const int len = static_cast<int>(f.size()) * kFigureValues;
    for (int64_t k = 0; k < q; ++k) {
      const int owner = static_cast<int>(k % procs);
      if (owner != me) continue;
      if (k > 0 && procs > 1)
        MPI_Recv(f.data(), len, MPI_DOUBLE, (owner + procs - 1) % procs, tag, comm, MPI_STATUS_IGNORE);
      step(k);
      if (k + 1 < q && procs > 1) MPI_Send(f.data(), len, MPI_DOUBLE, (owner + 1) % procs, tag, comm);
    }
  };
  // Rows d(v, *): panel column after panel column along the process row.
  relay(from, lay.pc, lay.pcol, comms.row, 11, [&](int64_t j) {
    const T* blk = local.data() + lay.lcol(j) * p;
    const int64_t cnt = lay.real(j);
#pragma omp parallel for schedule(static) if (mr * cnt >= 65536)
    for (int64_t r = 0; r < mr; ++r) continue_figures(from[static_cast<size_t>(r)], blk + r * mc, cnt, 1, false);
  });
  // Columns d(*, v): panel row after panel row down the process column.
  relay(to, lay.pr, lay.prow, comms.col, 12, [&](int64_t i) {
    column_figures(local.data() + lay.lrow(i) * p * mc, lay.real(i), mc, mc, true, to.data());
  });
  // The last panel column's owners hold the rows' figures, the last panel row's
  // the columns'; n figures each way to rank 0.
  const int last_b = static_cast<int>((q - 1) % lay.pc), last_a = static_cast<int>((q - 1) % lay.pr);
  std::vector<RowFigures> rowf, colf;
  gather_figures(
      lay, from, lay.pcol == last_b, [&](int k) { return k % lay.pc == last_b ? lay.rows_of(k / lay.pc) * p : 0; },
      [&](int k, int64_t x) { return (k / lay.pc + x / p * lay.pr) * p + x % p; }, rowf);
  gather_figures(
      lay, to, lay.prow == last_a, [&](int k) { return k / lay.pc == last_a ? lay.cols_of(k % lay.pc) * p : 0; },
      [&](int k, int64_t x) { return (k % lay.pc + x / p * lay.pc) * p + x % p; }, colf);
  if (!sink) return;
  sink->set_pass(StatsSink<T>::from);
  sink->vertex_figures(rowf.data());  // every vertex's, or its sources' (--sources)
  sink->set_pass(StatsSink<T>::to);
  sink->vertex_figures(colf.data());
  sink->set_pass(StatsSink<T>::both);
}

template <typename T>
int write_stats(const Layout& lay, const std::vector<T>& local, const std::string& path, const Session& s,
                GraphStats& g, const std::vector<int64_t>& sources) {
  std::optional<StatsSink<T>> sink;
  Outcome out;
  out.step([&] {
    if (s.rank == 0) sink.emplace(lay.n, sources);
  });
  if (int c = agree(out, s)) return c;
  reduce_stats(lay, local, sink ? &*sink : nullptr);
  out.step([&] {
    if (s.rank != 0) return;
    throw_if_cancelled();  // a stop during the solve: no file
    g = sink->summary();
    write_stats_file(path, sink->vertices(), g);
  });
  return agree(out, s);
}

#define OCL_SP_MPI_ROWS(T)                                                                              \
  template int write_selection<T>(const Layout&, const std::vector<T>&, const std::vector<int64_t>&,   \
                                  const std::vector<int64_t>&, const OutputTarget*, OutputFormat,      \
                                  const Session&, OutputStats&);                                       \
  template void reduce_stats<T>(const Layout&, const std::vector<T>&, StatsSink<T>*);                  \
  template int write_stats<T>(const Layout&, const std::vector<T>&, const std::string&, const Session&, \
                              GraphStats&, const std::vector<int64_t>&);
OCL_SP_MPI_ROWS(int32_t)
OCL_SP_MPI_ROWS(float)
OCL_SP_MPI_ROWS(double)
OCL_SP_MPI_ROWS(int64_t)
#undef OCL_SP_MPI_ROWS

}  // namespace ocl_sp::mpi

#endif  // OCL_SP_HAVE_MPI
