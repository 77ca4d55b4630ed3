// StreamingFileSink (stream_sink.hpp).
#include "sparse/stream_sink.hpp"

#include "util/errors.hpp"

namespace ocl_sp {

template <typename T>
StreamingFileSink<T>::StreamingFileSink(const OutputTarget& target, OutputFormat fmt, int64_t rows,
                                        int64_t n, std::vector<int64_t> cols)
    : out_(target), fmt_(fmt), rows_(rows), cols_(std::move(cols)) {
  const int64_t ncols = cols_.empty() ? n : static_cast<int64_t>(cols_.size());
  const std::string h = matrix_file_header<T>(fmt_, rows_, ncols);
  out_.stream().write(h.data(), static_cast<std::streamsize>(h.size()));
}

template <typename T>
void StreamingFileSink<T>::rows(int64_t first, int64_t count, int64_t n, const T* d,
                                const int32_t*, const int32_t*) {
  if (first != next_ || first + count > rows_)
    throw RuntimeError("internal error: streamed rows " + std::to_string(first) + ".." +
                       std::to_string(first + count) + " out of order (expected row " +
                       std::to_string(next_) + " of " + std::to_string(rows_) + ")");
  if (cols_.empty()) {
    write_matrix_rows<T>(out_.stream(), fmt_, d, count, n);
  } else {
    const size_t nc = cols_.size();
    buf_.resize(static_cast<size_t>(count) * nc);
    for (int64_t r = 0; r < count; ++r)
      for (size_t j = 0; j < nc; ++j) buf_[static_cast<size_t>(r) * nc + j] = d[r * n + cols_[j]];
    write_matrix_rows<T>(out_.stream(), fmt_, buf_.data(), count, static_cast<int64_t>(nc));
  }
  next_ += count;
  out_.check();  // a full disk stops the solve now, not at the end
}

template <typename T>
void StreamingFileSink<T>::finish() {
  if (next_ != rows_)
    throw RuntimeError("internal error: " + std::to_string(next_) + " of " +
                       std::to_string(rows_) + " rows streamed");
  out_.commit();
}

template class StreamingFileSink<int32_t>;
template class StreamingFileSink<float>;
template class StreamingFileSink<double>;
template class StreamingFileSink<int64_t>;

}  // namespace ocl_sp
