// The distributed matrix's layout (see mpi_fw.hpp): n vertices, panel edge P,
// q = ceil(n / P) panels per dimension padded to qP (padding vertices isolated:
// INF, 0 on their diagonal), a pr x pc process grid (rank = prow * pc + pcol) and
// panel (i, j) on rank (i mod pr, j mod pc). A rank keeps its panels as one dense
// local matrix of mr x mc values (mr = P x its panel rows, mc = P x its panel
// columns, row-major): its local panel row li is the contiguous P x mc block at
// li * P * mc. Here: the index arithmetic, filling the local matrix (generated
// rows, or rank 0's edges scattered) and moving panel-row blocks between ranks.
#pragma once
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"
#include "mpi/mpi_session.hpp"
#include "util/host_threads.hpp"

namespace ocl_sp::mpi {

struct Layout {
  int64_t n = 0, p = 0, q = 0;
  int pr = 1, pc = 1, prow = 0, pcol = 0;  // the process grid, this rank's place
  std::vector<int64_t> rows, cols;         // owned panel rows / columns, increasing

  void place(int64_t n_, int64_t p_, int pr_, int pc_, int rank) {
    n = n_;
    p = p_;
    q = (n + p - 1) / p;
    pr = pr_;
    pc = pc_;
    prow = rank / pc;
    pcol = rank % pc;
    rows.clear();
    cols.clear();
    for (int64_t i = prow; i < q; i += pr) rows.push_back(i);
    for (int64_t j = pcol; j < q; j += pc) cols.push_back(j);
  }
  int64_t mr() const { return static_cast<int64_t>(rows.size()) * p; }
  int64_t mc() const { return static_cast<int64_t>(cols.size()) * p; }
  // Panel columns of process column b (all ranks of a process column agree).
  int64_t cols_of(int b) const { return q > b ? (q - b + pc - 1) / pc : 0; }
  int64_t rows_of(int a) const { return q > a ? (q - a + pr - 1) / pr : 0; }
  bool has_row(int64_t i) const { return i % pr == prow; }
  bool has_col(int64_t j) const { return j % pc == pcol; }
  int64_t lrow(int64_t i) const { return i / pr; }  // local index of an owned panel row
  int64_t lcol(int64_t j) const { return j / pc; }
  int rank_of(int a, int b) const { return a * pc + b; }
  int64_t real(int64_t i) const { return std::max<int64_t>(0, std::min(p, n - i * p)); }
  size_t local_elems() const { return static_cast<size_t>(mr() * mc()); }
  // The order in which round r's blocks of a row panel (row: local panel columns)
  // or of a column panel (local panel rows) are computed, sent and received: panel
  // r + 1's first, as round r + 1's pivot needs it first (its owner's look-ahead
  // then runs while the others arrive), then the rest in order. Every rank that
  // sends or receives the panel's blocks agrees on it.
  std::vector<int64_t> block_order(int64_t r, bool row) const {
    const int64_t count = static_cast<int64_t>((row ? cols : rows).size());
    int64_t first = -1;
    if (row ? has_col(r + 1) : has_row(r + 1)) first = row ? lcol(r + 1) : lrow(r + 1);
    std::vector<int64_t> out;
    if (first >= 0 && first < count) out.push_back(first);
    for (int64_t k = 0; k < count; ++k)
      if (k != first) out.push_back(k);
    return out;
  }
};

// [0, count) without the indices in skip (at most two, -1 = none), as ranges.
inline std::vector<std::pair<int64_t, int64_t>> ranges_without(int64_t count, int64_t s1, int64_t s2) {
  std::vector<std::pair<int64_t, int64_t>> out;
  int64_t a = 0;
  for (int64_t x = 0; x <= count; ++x)
    if (x == count || x == s1 || x == s2) {
      if (x > a) out.emplace_back(a, x);
      a = x + 1;
    }
  return out;
}

// memcpy of `count` values, nothing (no pointer use) when count is 0: a rank
// without panel columns has an empty local matrix, whose data() may be null.
template <typename T>
void copy_values(T* dst, const T* src, int64_t count) {
  if (count > 0) std::memcpy(dst, src, sizeof(T) * static_cast<size_t>(count));
}

// The local matrix initialised as padding: INF, 0 on the padding vertices' diagonal.
template <typename T>
void init_local(const Layout& lay, std::vector<T>& d) {
  assign_touched(d, static_cast<size_t>(lay.local_elems()), ValueTraits<T>::inf);
  const int64_t mc = lay.mc();
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li];
    if (!lay.has_col(i)) continue;
    const int64_t lj = lay.lcol(i);
    for (int64_t a = lay.real(i); a < lay.p; ++a)
      d[static_cast<size_t>((static_cast<int64_t>(li) * lay.p + a) * mc + lj * lay.p + a)] = 0;
  }
}

template <typename T>
void normalise(std::vector<T>& v) {
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < v.size(); ++e) v[e] = ValueTraits<T>::norm(v[e]);
}

// Panel row i's block of process column b (P x cols_of(b) P values, as that rank
// keeps it) into the rows [i P, i P + real(i)) of an n-column row-major matrix
// (its real columns; the padding stays behind).
template <typename T>
void unpack_block(const Layout& lay, int64_t i, int b, const T* block, T* dst) {
  const int64_t p = lay.p, w = lay.cols_of(b) * p;
  for (int64_t a = 0; a < lay.real(i); ++a)
    for (int64_t lj = 0; lj < lay.cols_of(b); ++lj) {
      const int64_t u0 = (b + lj * lay.pc) * p, cnt = std::max<int64_t>(0, std::min(p, lay.n - u0));
      if (cnt > 0)
        std::memcpy(dst + a * lay.n + u0, block + a * w + lj * p, sizeof(T) * static_cast<size_t>(cnt));
    }
}

// count values as point-to-point messages of at most kMaxChunk values.
template <typename T>
void send_chunks(const T* buf, int64_t count, int dest) {
  for (int64_t off = 0; off < count; off += kMaxChunk)
    MPI_Send(buf + off, static_cast<int>(std::min(kMaxChunk, count - off)), mpi_type<T>(), dest, 7,
             MPI_COMM_WORLD);
}
template <typename T>
void recv_chunks(T* buf, int64_t count, int src) {
  for (int64_t off = 0; off < count; off += kMaxChunk)
    MPI_Recv(buf + off, static_cast<int>(std::min(kMaxChunk, count - off)), mpi_type<T>(), src, 7,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// f(i, b, r, count) for panel row i's block of process column b (count = P x
// cols_of(b) P values, kept by rank r as its local panel row lrow(i)), in the
// one order rank 0 sends and receives them.
template <typename F>
void for_each_block(const Layout& lay, F&& f) {
  for (int64_t i = 0; i < lay.q; ++i)
    for (int b = 0; b < lay.pc; ++b) {
      const int64_t count = lay.p * lay.cols_of(b) * lay.p;
      if (count > 0) f(i, b, lay.rank_of(static_cast<int>(i % lay.pr), b), count);
    }
}

// The ranks' local matrices into one n x n matrix on rank 0.
template <typename T>
void gather_matrix(const Layout& lay, const std::vector<T>& local, DistMatrix<T>* out, int rank) {
  std::vector<T> block;
  for_each_block(lay, [&](int64_t i, int b, int src, int64_t count) {
    const T* mine = src == rank ? local.data() + lay.lrow(i) * lay.p * lay.mc() : nullptr;
    if (rank == 0) {
      if (src != 0) {
        block.resize(static_cast<size_t>(count));
        recv_chunks(block.data(), count, src);
      }
      unpack_block(lay, i, b, src == 0 ? mine : block.data(), out->data() + i * lay.p * lay.n);
    } else if (src == rank) {
      send_chunks(mine, count, 0);
    }
  });
}

// Edges bound for one rank's panels: u, v and the weight as T (to_matrix's rules
// applied: edge_weight's checks, non-negative self-loops left out).
template <typename T>
struct RankEdges {
  std::vector<int32_t> u, v;
  std::vector<T> w;
};

// A read graph's edges, sorted by rank 0 into per-rank lists (`lists`, rank 0
// only, emptied), to the ranks owning their panels (point to point, chunks of at
// most kMaxChunk values); each rank fills its local matrix as to_matrix does: the
// real vertices' diagonal 0, parallel edges their minimum. Rank 0 never holds
// more than the edge list. Returns the bytes sent.
template <typename T>
double scatter_edges(const Layout& lay, std::vector<RankEdges<T>>* lists, std::vector<T>& local, int rank,
                     int size) {
  std::vector<long long> counts(static_cast<size_t>(size), 0);
  if (rank == 0)
    for (int k = 0; k < size; ++k) counts[static_cast<size_t>(k)] = static_cast<long long>((*lists)[static_cast<size_t>(k)].u.size());
  long long mine = 0;
  MPI_Scatter(counts.data(), 1, MPI_LONG_LONG, &mine, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  RankEdges<T> e;
  double sent = 0;
  if (rank == 0) {
    for (int k = 1; k < size; ++k) {
      RankEdges<T>& x = (*lists)[static_cast<size_t>(k)];
      const int64_t c = static_cast<int64_t>(x.u.size());
      if (c == 0) continue;
      send_chunks(x.u.data(), c, k);
      send_chunks(x.v.data(), c, k);
      send_chunks(x.w.data(), c, k);
      sent += static_cast<double>(c) * (8 + sizeof(T));
      x = RankEdges<T>();
    }
    e = std::move((*lists)[0]);
  } else if (mine > 0) {
    e.u.resize(static_cast<size_t>(mine));
    e.v.resize(static_cast<size_t>(mine));
    e.w.resize(static_cast<size_t>(mine));
    recv_chunks(e.u.data(), mine, 0);
    recv_chunks(e.v.data(), mine, 0);
    recv_chunks(e.w.data(), mine, 0);
  }
  const int64_t p = lay.p, mc = lay.mc();
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li];
    if (!lay.has_col(i)) continue;
    for (int64_t a = 0; a < lay.real(i); ++a)
      local[static_cast<size_t>((static_cast<int64_t>(li) * p + a) * mc + lay.lcol(i) * p + a)] = 0;
  }
  for (size_t x = 0; x < e.u.size(); ++x) {
    const int64_t u = e.u[x], v = e.v[x];
    T& cell = local[static_cast<size_t>((lay.lrow(u / p) * p + u % p) * mc + lay.lcol(v / p) * p + v % p)];
    if (e.w[x] < cell) cell = e.w[x];  // parallel edges keep the minimum
  }
  return sent;
}

// A generated graph's local matrix: the generator's rows (generate_rows, bit for
// bit the single-process matrix) of this rank's panel rows, its panel columns
// kept. The sparse families (grid, geometric, random with a degree) are O(n + m)
// edges: every rank makes them and keeps its panels' edges. The dense model: every
// rank draws its own rows (n / pr of them, whole: a row is one stream of draws)
// and writes its columns only; no values move between ranks. Returns the edges
// this rank kept (summed over every rank: the graph's); `made`: the values this
// rank drew (dense model: its rows' n entries each; sparse families: edges). A
// generator error is left in `failed` on the rank it happened on.
template <typename T>
long long generate_local(const Layout& lay, const GeneratorParams& gen, std::vector<T>& local,
                         std::exception_ptr& failed, long long& made) {
  made = 0;
  const int64_t p = lay.p, n = lay.n, mc = lay.mc();
  const int pc = lay.pc;
  long long edges = 0;
  if (gen.family != GraphFamily::random || gen.degree > 0) {
    // The sparse families: O(n + m) edges, made whole by every rank (as
    // generate_rows would for each call), each rank keeping its panels' edges.
    try {
      const Graph g = generate_graph(gen);
      made = static_cast<long long>(g.edges.size());
      for (size_t li = 0; li < lay.rows.size(); ++li) {
        const int64_t i = lay.rows[li];
        T* panel_row = local.data() + static_cast<int64_t>(li) * p * mc;
        if (lay.has_col(i))
          for (int64_t a = 0; a < lay.real(i); ++a) panel_row[a * mc + lay.lcol(i) * p + a] = 0;
        auto e = std::lower_bound(g.edges.begin(), g.edges.end(), i * p,
                                  [](const Edge& x, int64_t u) { return x.u < u; });
        for (; e != g.edges.end() && e->u < i * p + lay.real(i); ++e)
          if (lay.has_col(e->v / p)) {
            panel_row[(e->u - i * p) * mc + lay.lcol(e->v / p) * p + e->v % p] = static_cast<T>(e->w);
            ++edges;
          }
      }
    } catch (...) {
      failed = std::current_exception();
    }
    return edges;
  }
  // The dense model: each rank draws its own rows in full (a row's draws are one
  // sequential stream) and keeps its columns. Sharing the rows of a process row
  // instead (each rank drawing 1/pc of them, then exchanging columns) moved half
  // of every rank's values through MPI: 4 H100 ranks at n = 10^5 spent 15-22 s of
  // set-up on it, against ~1 s of draws for the whole rows on 16 threads a rank
  // (docs/performance/mpi.md, "MPI set-up").
  try {
    for (size_t li = 0; li < lay.rows.size(); ++li) {
      const int64_t i = lay.rows[li], rows = lay.real(i);
      T* panel_row = local.data() + static_cast<int64_t>(li) * p * mc;
      edges += generate_rows_cyclic_into<T>(gen, i * p, i * p + rows, p, pc, lay.pcol, panel_row, mc);
      made += rows * n;
    }
  } catch (...) {
    failed = std::current_exception();
  }
  return edges;
}

}  // namespace ocl_sp::mpi
