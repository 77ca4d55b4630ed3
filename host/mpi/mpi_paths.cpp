// Paths under MPI (see mpi_paths.hpp).
#ifdef OCL_SP_HAVE_MPI
#include "mpi/mpi_paths.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <string>

#include "mpi/mpi_session.hpp"
#include "solvers/panel_paths.hpp"
#include "util/errors.hpp"
#include "util/timer.hpp"

namespace ocl_sp::mpi {

namespace {

// Every rank's `mine` concatenated in rank order on every rank.
template <typename V>
std::vector<V> allgather(const std::vector<V>& mine, MPI_Datatype type, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const long long cnt = static_cast<long long>(mine.size());
  std::vector<long long> counts(static_cast<size_t>(size));
  MPI_Allgather(&cnt, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm);
  std::vector<int> c(static_cast<size_t>(size)), at(static_cast<size_t>(size));
  long long total = 0;
  for (int r = 0; r < size; ++r) {
    at[static_cast<size_t>(r)] = static_cast<int>(total);
    c[static_cast<size_t>(r)] = static_cast<int>(counts[static_cast<size_t>(r)]);
    total += counts[static_cast<size_t>(r)];
  }
  if (total > INT_MAX)  // the same on every rank: all throw
    throw RuntimeError("paths under MPI: " + std::to_string(total) +
                       " values in one allgather, more than MPI's int counts take");
  std::vector<V> all(static_cast<size_t>(total));
  MPI_Allgatherv(mine.data(), static_cast<int>(cnt), type, all.data(), c.data(), at.data(), type,
                 comm);
  return all;
}

}  // namespace

template <typename T>
LocalPaths rebuild_local_paths(const Layout& lay, const std::vector<T>& d, const std::vector<T>& w,
                               MPI_Comm row) {
  const Stopwatch sw;
  const int64_t n = lay.n, p = lay.p, mc = lay.mc();
  // 1. The tight edges of this rank's panels.
  std::vector<int32_t> src, dst;
  std::vector<T> wt;
  for (size_t li = 0; li < lay.rows.size(); ++li)
    for (int64_t a = 0; a < lay.real(lay.rows[li]); ++a) {
      const int64_t v = lay.rows[li] * p + a;
      const size_t base = static_cast<size_t>((static_cast<int64_t>(li) * p + a) * mc);
      for (size_t lj = 0; lj < lay.cols.size(); ++lj)
        for (int64_t y = 0; y < lay.real(lay.cols[lj]); ++y) {
          const int64_t u = lay.cols[lj] * p + y;
          const size_t e = base + static_cast<size_t>(static_cast<int64_t>(lj) * p + y);
          if (u == v || w[e] == ValueTraits<T>::inf || w[e] != d[e]) continue;
          src.push_back(static_cast<int32_t>(v));
          dst.push_back(static_cast<int32_t>(u));
          wt.push_back(w[e]);
        }
    }
  // 2. Shared with every rank, as CSR by source.
  const std::vector<int32_t> all_src = allgather(src, MPI_INT, MPI_COMM_WORLD);
  const std::vector<int32_t> all_dst = allgather(dst, MPI_INT, MPI_COMM_WORLD);
  const std::vector<T> all_w = allgather(wt, mpi_type<T>(), MPI_COMM_WORLD);
  detail::InputEdges<T> t;
  t.n = n;
  t.start.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t s : all_src) ++t.start[static_cast<size_t>(s) + 1];
  for (int64_t v = 0; v < n; ++v) t.start[static_cast<size_t>(v) + 1] += t.start[static_cast<size_t>(v)];
  t.dst.resize(all_dst.size());
  t.w.resize(all_dst.size());
  {
    std::vector<int64_t> next(t.start.begin(), t.start.end() - 1);
    for (size_t x = 0; x < all_src.size(); ++x) {
      const size_t k = static_cast<size_t>(next[static_cast<size_t>(all_src[x])]++);
      t.dst[k] = all_dst[x];
      t.w[k] = all_w[x];
    }
  }
  // 3. Panel row by panel row: the full distance rows among the process row, one
  // search per source, this rank's columns kept.
  LocalPaths out;
  out.tight = static_cast<long long>(t.dst.size());
  out.via.assign(lay.local_elems(), -1);
  out.hops.assign(lay.local_elems(), 0);
  std::vector<int> counts(static_cast<size_t>(lay.pc)), at(static_cast<size_t>(lay.pc));
  int64_t total = 0;
  for (int b = 0; b < lay.pc; ++b) {
    const int64_t c = p * lay.cols_of(b) * p;
    if (c > INT_MAX) throw RuntimeError("paths under MPI: a panel row block exceeds MPI's int counts");
    counts[static_cast<size_t>(b)] = static_cast<int>(c);
    at[static_cast<size_t>(b)] = static_cast<int>(total);
    total += c;
  }
  std::vector<T> blocks(static_cast<size_t>(total)), strip(static_cast<size_t>(p * n));
  std::vector<int32_t> hrow(static_cast<size_t>(p * n)), vrow(static_cast<size_t>(p * n));
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li], real = lay.real(i);
    MPI_Allgatherv(d.data() + static_cast<size_t>(static_cast<int64_t>(li) * p * mc),
                   static_cast<int>(p * mc), mpi_type<T>(), blocks.data(), counts.data(),
                   at.data(), mpi_type<T>(), row);
    for (int b = 0; b < lay.pc; ++b)
      if (counts[static_cast<size_t>(b)] > 0)
        unpack_block(lay, i, b, blocks.data() + at[static_cast<size_t>(b)], strip.data());
#pragma omp parallel
    {
      std::vector<int32_t> queue;
#pragma omp for schedule(dynamic, 4)
      for (int64_t a = 0; a < real; ++a)
        detail::recover_row(t, i * p + a, strip.data() + a * n, hrow.data() + a * n,
                            vrow.data() + a * n, queue);
    }
    for (int64_t a = 0; a < real; ++a) {
      const size_t base = static_cast<size_t>((static_cast<int64_t>(li) * p + a) * mc);
      for (size_t lj = 0; lj < lay.cols.size(); ++lj)
        for (int64_t y = 0; y < lay.real(lay.cols[lj]); ++y) {
          const size_t e = base + static_cast<size_t>(static_cast<int64_t>(lj) * p + y);
          const size_t g = static_cast<size_t>(a * n + lay.cols[lj] * p + y);
          out.via[e] = vrow[g];
          out.hops[e] = hrow[g];
        }
    }
  }
  out.seconds = sw.seconds();
  return out;
}

template <typename T>
std::vector<T> row_to_root(const Layout& lay, const std::vector<T>& local, int64_t u, int rank) {
  const int64_t n = lay.n, p = lay.p, mc = lay.mc();
  // Each column of row u lies on one rank of its process row; the others give the
  // lowest value, so the maximum is the owner's.
  std::vector<T> mine(static_cast<size_t>(n), std::numeric_limits<T>::lowest());
  if (lay.has_row(u / p)) {
    const size_t base = static_cast<size_t>((lay.lrow(u / p) * p + u % p) * mc);
    for (size_t lj = 0; lj < lay.cols.size(); ++lj)
      for (int64_t y = 0; y < lay.real(lay.cols[lj]); ++y)
        mine[static_cast<size_t>(lay.cols[lj] * p + y)] =
            local[base + static_cast<size_t>(static_cast<int64_t>(lj) * p + y)];
  }
  std::vector<T> all(rank == 0 ? static_cast<size_t>(n) : 0);
  MPI_Reduce(mine.data(), all.data(), static_cast<int>(n), mpi_type<T>(), MPI_MAX, 0,
             MPI_COMM_WORLD);
  return all;
}

template <typename T>
std::vector<int64_t> walk_path(const std::vector<T>& d_row, const std::vector<int32_t>& via_row,
                               int64_t u, int64_t v) {
  if (u == v) return {u};
  if (d_row[static_cast<size_t>(v)] == ValueTraits<T>::inf) return {};
  std::vector<int64_t> back{v};
  for (int64_t k = via_row[static_cast<size_t>(v)]; k != -1; k = via_row[static_cast<size_t>(k)]) {
    if (k < 0 || k >= static_cast<int64_t>(via_row.size()) || back.size() > via_row.size())
      throw RuntimeError("path " + std::to_string(u) + " -> " + std::to_string(v) +
                         ": the via row does not lead back to " + std::to_string(u));
    back.push_back(k);
  }
  back.push_back(u);
  return {back.rbegin(), back.rend()};
}

template LocalPaths rebuild_local_paths(const Layout&, const std::vector<int32_t>&,
                                        const std::vector<int32_t>&, MPI_Comm);
template LocalPaths rebuild_local_paths(const Layout&, const std::vector<float>&,
                                        const std::vector<float>&, MPI_Comm);
template LocalPaths rebuild_local_paths(const Layout&, const std::vector<double>&,
                                        const std::vector<double>&, MPI_Comm);
template LocalPaths rebuild_local_paths(const Layout&, const std::vector<int64_t>&,
                                        const std::vector<int64_t>&, MPI_Comm);
template std::vector<int32_t> row_to_root(const Layout&, const std::vector<int32_t>&, int64_t, int);
template std::vector<float> row_to_root(const Layout&, const std::vector<float>&, int64_t, int);
template std::vector<double> row_to_root(const Layout&, const std::vector<double>&, int64_t, int);
template std::vector<int64_t> row_to_root(const Layout&, const std::vector<int64_t>&, int64_t, int);
template std::vector<int64_t> walk_path(const std::vector<int32_t>&, const std::vector<int32_t>&,
                                        int64_t, int64_t);
template std::vector<int64_t> walk_path(const std::vector<float>&, const std::vector<int32_t>&,
                                        int64_t, int64_t);
template std::vector<int64_t> walk_path(const std::vector<double>&, const std::vector<int32_t>&,
                                        int64_t, int64_t);
template std::vector<int64_t> walk_path(const std::vector<int64_t>&, const std::vector<int32_t>&,
                                        int64_t, int64_t);

}  // namespace ocl_sp::mpi
#endif  // OCL_SP_HAVE_MPI
