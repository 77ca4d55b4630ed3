// Host copies on as many threads as their bytes need (host_threads.hpp: one per
// 2 MiB, at most the bandwidth count): one thread moves ~10 GB/s, a pinned DMA
// over the H100's link ~25 GB/s, so one thread would bound a staged copy, and
// every OpenMP thread of a many-core host made it 20x slower
// (docs/performance/scale.md, "Host threads").
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util/host_threads.hpp"

namespace ocl_sp {

// `rows` rows of `row` bytes between strided memory; in parallel from 4 MiB on.
inline void copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                      size_t rows, size_t row) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const int64_t n = static_cast<int64_t>(rows);
  const int threads = copy_threads(rows * row);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
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
