// Where a solve's rows go (DESIGN.md "Rows, not always a matrix"): every solve
// hands its row blocks (a batch of sources x n) to one sink: the in-memory matrix,
// a streamed file, a stats reducer, a Python array.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

// What --stats keeps of a row (stats_sink.hpp), when an engine can reduce rows
// where they are computed (kernels/sssp_figures.cl sssp_row_figures): the entries that
// are finite (reach), the largest, their sum and the sum of their reciprocals
// (zeros skipped; only when asked for).
struct RowFigures {
  double reach = 0, largest = 0, sum = 0, harmonic = 0;
};

template <typename T>
class RowSink {
 public:
  virtual ~RowSink() = default;
  // Rows first .. first + count - 1 of the result (indices into the solve's list
  // of sources), each n values; via and hops (same shape) only when the solve
  // computes paths, else null. The memory is the caller's: copy what is kept.
  virtual void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
                    const int32_t* hops) = 0;
};

// A sink that can do with each row's figures (RowFigures) instead of the row opts
// into this as well: the solver then lets an engine that reduces rows hand over
// figures, and no row crosses to the host. takes_figures(): whether it can for
// this solve (a tee only when every sink behind it can); figures of rows first ..
// first + count - 1, only called when it can.
class FigureSink {
 public:
  virtual ~FigureSink() = default;
  virtual bool takes_figures() const = 0;
  virtual bool figures_need_harmonic() const = 0;
  virtual void figures(int64_t first, int64_t count, const RowFigures* f) = 0;
};

template <typename T>
FigureSink* figure_sink(RowSink<T>& sink) {
  auto* f = dynamic_cast<FigureSink*>(&sink);
  return f && f->takes_figures() ? f : nullptr;
}

// Rows into an n x n DistMatrix (and PathMatrix), source index i to row i.
template <typename T>
class MatrixSink final : public RowSink<T> {
 public:
  MatrixSink(DistMatrix<T>& d, PathMatrix* p) : d_(d), p_(p) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override {
    const size_t values = static_cast<size_t>(count * n);
    std::memcpy(d_.data() + first * n, d, values * sizeof(T));
    if (p_ && via) {
      std::memcpy(p_->via.data() + first * n, via, values * sizeof(int32_t));
      std::memcpy(p_->hops.data() + first * n, hops, values * sizeof(int32_t));
    }
  }

 private:
  DistMatrix<T>& d_;
  PathMatrix* p_;
};

// A dense result handed to a sink the way the solvers hand theirs: the rows of
// `sources` (every vertex when empty) in that order, in blocks of about
// `block_bytes` (fw, squaring and the panel engine deliver their matrix here).
template <typename T>
void hand_rows(const DistMatrix<T>& d, const std::vector<int64_t>& sources, RowSink<T>& sink,
               int64_t block_bytes = int64_t{64} << 20) {
  const int64_t n = d.n();
  const int64_t rows = sources.empty() ? n : static_cast<int64_t>(sources.size());
  const int64_t per_block = block_bytes / static_cast<int64_t>(sizeof(T) * (n > 0 ? n : 1));
  const int64_t block = per_block < 1 ? 1 : per_block;
  std::vector<T> buf;
  for (int64_t first = 0; first < rows; first += block) {
    const int64_t count = rows - first < block ? rows - first : block;
    if (sources.empty()) {
      sink.rows(first, count, n, d.data() + first * n, nullptr, nullptr);
      continue;
    }
    buf.resize(static_cast<size_t>(count * n));
    for (int64_t r = 0; r < count; ++r)
      std::memcpy(buf.data() + r * n, d.data() + sources[static_cast<size_t>(first + r)] * n,
                  static_cast<size_t>(n) * sizeof(T));
    sink.rows(first, count, n, buf.data(), nullptr, nullptr);
  }
}

}  // namespace ocl_sp
