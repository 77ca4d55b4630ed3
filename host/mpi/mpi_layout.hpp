// The distributed matrix's layout (see mpi_fw.hpp): n vertices, panel edge P,
// q = ceil(n / P) panels per dimension padded to qP (padding vertices isolated:
// INF, 0 on their diagonal), a pr x pc process grid (rank = prow * pc + pcol) and
// panel (i, j) on rank (i mod pr, j mod pc). A rank keeps its panels as one dense
// local matrix of mr x mc values (mr = P x its panel rows, mc = P x its panel
// columns, row-major): its local panel row li is the contiguous P x mc block at
// li * P * mc. Here: the index arithmetic, filling the local matrix (generated
// rows, or rank 0's matrix scattered) and moving panel-row blocks between ranks.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"
#include "mpi/mpi_session.hpp"

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
  d.assign(lay.local_elems(), ValueTraits<T>::inf);
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
// keeps it) from / to the rows [i P, i P + real(i)) of an n-column row-major source.
// Padding: INF, 0 on the padding vertices' diagonal.
template <typename T>
void pack_block(const Layout& lay, int64_t i, int b, const T* src, T* block) {
  const int64_t p = lay.p, w = lay.cols_of(b) * p;
  for (int64_t a = 0; a < p; ++a) {
    const int64_t v = i * p + a;
    T* out = block + a * w;
    for (int64_t lj = 0; lj < lay.cols_of(b); ++lj) {
      const int64_t u0 = (b + lj * lay.pc) * p;
      for (int64_t y = 0; y < p; ++y) {
        const int64_t u = u0 + y;
        out[lj * p + y] = v < lay.n && u < lay.n ? src[a * lay.n + u] : (u == v ? T(0) : ValueTraits<T>::inf);
      }
    }
  }
}
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

// Rank 0's n x n matrix to the ranks' local matrices.
template <typename T>
void scatter_matrix(const Layout& lay, const DistMatrix<T>* in, std::vector<T>& local, int rank) {
  std::vector<T> block;
  for_each_block(lay, [&](int64_t i, int b, int dest, int64_t count) {
    T* mine = dest == rank ? local.data() + lay.lrow(i) * lay.p * lay.mc() : nullptr;
    if (rank == 0) {
      block.resize(static_cast<size_t>(dest == 0 ? 0 : count));
      pack_block(lay, i, b, in->data() + i * lay.p * lay.n, dest == 0 ? mine : block.data());
      if (dest != 0) send_chunks(block.data(), count, dest);
    } else if (dest == rank) {
      recv_chunks(mine, count, 0);
    }
  });
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

// A generated graph's rows of this rank's panel rows, its panel columns kept.
template <typename T>
long long generate_local(const Layout& lay, const GeneratorParams& gen, std::vector<T>& local) {
  long long edges = 0;
  for (size_t li = 0; li < lay.rows.size(); ++li) {
    const int64_t i = lay.rows[li], rows = lay.real(i);
    long long e = 0;
    const std::vector<T> src = generate_rows<T>(gen, i * lay.p, i * lay.p + rows, &e);
    edges += e;
    T* dst = local.data() + static_cast<int64_t>(li) * lay.p * lay.mc();
    for (int64_t a = 0; a < rows; ++a)
      for (size_t lj = 0; lj < lay.cols.size(); ++lj) {
        const int64_t u0 = lay.cols[lj] * lay.p, cnt = std::max<int64_t>(0, std::min(lay.p, lay.n - u0));
        if (cnt > 0)
          std::memcpy(dst + a * lay.mc() + static_cast<int64_t>(lj) * lay.p, src.data() + a * lay.n + u0,
                      sizeof(T) * static_cast<size_t>(cnt));
      }
  }
  return edges;
}

}  // namespace ocl_sp::mpi
