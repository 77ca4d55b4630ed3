// Sinks that keep no n x n matrix (DESIGN.md "Rows, not always a matrix"): rows
// streamed into the output file as batches complete, a tee, and a sink that drops
// rows (a solve run for its report).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/io.hpp"
#include "sparse/row_sink.hpp"
#include "util/atomic_file.hpp"

namespace ocl_sp {

// Rows written to `target` in `fmt` (bin, npy, csv: the bytes write_matrix or
// write_rect_matrix give) as they arrive; `cols` picks and orders the columns
// (all when empty). The file is atomic (AtomicOutput): finish() puts it in place
// once all `rows` rows came, in order; destroyed before, it leaves nothing.
// Memory: one batch's selected columns. A file in bin or npy takes each batch
// at its offset in large positioned writes, straight from the rows' memory
// when every column is written.
template <typename T>
class StreamingFileSink final : public RowSink<T> {
 public:
  StreamingFileSink(const OutputTarget& target, OutputFormat fmt, int64_t rows, int64_t n,
                    std::vector<int64_t> cols);
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override;
  void finish();
  const char* method() const { return out_.method(); }

 private:
  AtomicOutput out_;
  OutputFormat fmt_;
  int64_t rows_, next_ = 0;
  std::vector<int64_t> cols_;
  std::vector<T> buf_;
  bool positioned_ = false;  // bin/npy into a file: write_values_at
  uint64_t at_ = 0;          // byte offset of row next_ (positioned)
};

// Every batch to each of the sinks in turn.
template <typename T>
class TeeSink final : public RowSink<T>, public FigureSink {
 public:
  explicit TeeSink(std::vector<RowSink<T>*> sinks) : sinks_(std::move(sinks)) {}
  void rows(int64_t first, int64_t count, int64_t n, const T* d, const int32_t* via,
            const int32_t* hops) override {
    for (auto* s : sinks_) s->rows(first, count, n, d, via, hops);
  }
  // Figures instead of rows only when every sink is content with them.
  bool takes_figures() const override {
    for (auto* s : sinks_)
      if (!figure_sink(*s)) return false;
    return !sinks_.empty();
  }
  bool figures_need_harmonic() const override {
    for (auto* s : sinks_)
      if (auto* f = figure_sink(*s); f && f->figures_need_harmonic()) return true;
    return false;
  }
  void figures(int64_t first, int64_t count, const RowFigures* f) override {
    for (auto* s : sinks_) figure_sink(*s)->figures(first, count, f);
  }

 private:
  std::vector<RowSink<T>*> sinks_;
};

template <typename T>
class NullSink final : public RowSink<T> {
 public:
  void rows(int64_t, int64_t, int64_t, const T*, const int32_t*, const int32_t*) override {}
};

}  // namespace ocl_sp
