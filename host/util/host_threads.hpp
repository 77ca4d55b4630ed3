// Threads for a parallel host loop sized to the work, not to the core count.
//
// A loop that moves memory (pinned staging copies, panel packing, INF scans,
// zeroing) gains nothing past the threads that saturate the memory system, and
// every thread past what its bytes need costs a wake-up and a share of the
// caches: on a 64-core host 64 threads copying 8 MiB staging chunks made a
// 400 MB upload 20x slower than 16 (docs/performance/scale.md, "Host threads").
// So: one thread per `per_thread` bytes, at most `cap` (the bandwidth count), at
// most the OpenMP pool. Compute-bound loops (generation, formatting, reductions
// with divisions) take the whole pool once their work is big enough.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>

namespace ocl_sp {

// A thread copies ~8-12 GB/s: 2 MiB is ~200 us of copying, far above the cost of
// waking it (~5-20 us), and an 8 MiB staging chunk gets 4 threads (>= 30 GB/s,
// above a PCIe 5 DMA's ~25 GB/s).
constexpr size_t kCopyBytesPerThread = size_t{2} << 20;
// Threads past which a host's copies stop getting faster (a socket's memory
// channels saturate at ~8-16 streams); OCL_SP_HOST_THREADS overrides.
constexpr int kBandwidthThreads = 16;
// Compute-bound loops: one thread per 256 KiB of data touched.
constexpr size_t kWorkBytesPerThread = size_t{256} << 10;
// Passes over fresh memory (first touch: page faults, the kernel's zeroing) and
// the fill after them: one thread per 64 MiB, up to the whole pool. A 64 GiB
// allocation on a 32-core host: first touch 27 GB/s on 16 threads, 48-55 GB/s
// on 64; the fill 46 -> 70 GB/s (bench/floor/matrix_fill.cpp,
// docs/performance/scale.md "The matrix's making").
constexpr size_t kTouchBytesPerThread = size_t{64} << 20;

// The sizing rule itself (unit-tested): bytes / per_thread threads, at least 1,
// at most min(pool, cap).
inline int threads_for(size_t bytes, int pool, size_t per_thread, int cap) {
  const int most = std::max(1, std::min(pool, cap));
  const size_t want = bytes / std::max<size_t>(per_thread, 1);
  return static_cast<int>(std::clamp<size_t>(want, 1, static_cast<size_t>(most)));
}

// The bandwidth cap: OCL_SP_HOST_THREADS when set to a positive count, else
// kBandwidthThreads.
inline int bandwidth_threads() {
  if (const char* e = std::getenv("OCL_SP_HOST_THREADS"); e && *e) {
    const int v = std::atoi(e);
    if (v > 0) return v;
  }
  return kBandwidthThreads;
}

// The host loops' pool for every thread of the process: OpenMP's pool of the
// calling thread, at most the share set_host_pool gave this process (the ranks of
// one host under mpirun, mpi_session.cpp). omp_set_num_threads binds only the
// thread that calls it; a device's thread or an std::async task would otherwise
// size its loops to every CPU.
inline std::atomic<int>& host_pool_limit() {
  static std::atomic<int> limit{0};  // 0: none
  return limit;
}
inline void set_host_pool(int threads) { host_pool_limit().store(threads > 0 ? threads : 0); }
inline int host_pool() {
  const int pool = omp_get_max_threads(), limit = host_pool_limit().load();
  return limit > 0 ? std::min(pool, limit) : pool;
}

// Threads for a loop that moves `bytes` of memory.
inline int copy_threads(size_t bytes) {
  return threads_for(bytes, host_pool(), kCopyBytesPerThread, bandwidth_threads());
}

// Threads for a first touch of `bytes` of fresh memory (and the fill after it):
// the whole pool once big, not the copies' bandwidth cap.
inline int touch_threads(size_t bytes) {
  const int pool = host_pool();
  return threads_for(bytes, pool, kTouchBytesPerThread, pool);
}

// Threads for a compute-bound loop over `bytes` of data: the whole pool once big.
inline int work_threads(size_t bytes) {
  const int pool = host_pool();
  return threads_for(bytes, pool, kWorkBytesPerThread, pool);
}

}  // namespace ocl_sp
