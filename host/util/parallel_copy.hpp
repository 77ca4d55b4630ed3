// Host copies on all OpenMP threads: one thread moves ~10 GB/s, a pinned DMA over
// the H100's link 55 GB/s, so the host side bounds a staged copy (docs/performance/dense.md:
// a rank's panel load/store took 4x the single-process transfers on one thread).
// Include only from sources built with OpenMP (serial otherwise).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ocl_sp {

// `rows` rows of `row` bytes between strided memory; in parallel once a MiB moves.
inline void copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                      size_t rows, size_t row) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const int64_t n = static_cast<int64_t>(rows);
#pragma omp parallel for schedule(static) if (rows * row >= (size_t{1} << 20))
  for (int64_t k = 0; k < n; ++k)
    std::memcpy(d + static_cast<size_t>(k) * dst_pitch, s + static_cast<size_t>(k) * src_pitch,
                row);
}

// `bytes` contiguous bytes, as rows of 1 MiB and the rest.
inline void parallel_copy(void* dst, const void* src, size_t bytes) {
  constexpr size_t kPiece = size_t{1} << 20;
  const size_t whole = bytes / kPiece, done = whole * kPiece;
  copy_rows(dst, kPiece, src, kPiece, whole, kPiece);
  if (bytes > done)
    std::memcpy(static_cast<char*>(dst) + done, static_cast<const char*>(src) + done, bytes - done);
}

}  // namespace ocl_sp
