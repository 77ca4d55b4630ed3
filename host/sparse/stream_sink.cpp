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
  positioned_ = fmt_ != OutputFormat::csv && out_.positioned();
  at_ = h.size();
}

template <typename T>
void StreamingFileSink<T>::rows(int64_t first, int64_t count, int64_t n, const T* d,
                                const int32_t*, const int32_t*) {
  if (first != next_ || first + count > rows_)
    throw RuntimeError("internal error: streamed rows " + std::to_string(first) + ".." +
                       std::to_string(first + count) + " out of order (expected row " +
                       std::to_string(next_) + " of " + std::to_string(rows_) + ")");
  const T* vals = d;
  int64_t nc = n;
  if (!cols_.empty()) {
    nc = static_cast<int64_t>(cols_.size());
    buf_.resize(static_cast<size_t>(count) * static_cast<size_t>(nc));
    for (int64_t r = 0; r < count; ++r)
      for (int64_t j = 0; j < nc; ++j) buf_[static_cast<size_t>(r * nc + j)] = d[r * n + cols_[j]];
    vals = buf_.data();
  }
  const size_t values = static_cast<size_t>(count) * static_cast<size_t>(nc);
  if (positioned_) {
    write_values_at(out_, at_, vals, values);
    at_ += values * sizeof(T);
  } else {
    write_matrix_rows<T>(out_.stream(), fmt_, vals, count, nc);
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
