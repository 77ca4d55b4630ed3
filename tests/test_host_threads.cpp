// Host loops sized to their work (host/util/host_threads.hpp): the sizing rule,
// the bandwidth cap and its override, and copy_rows running a small copy on few
// threads of a large pool while the bytes arrive intact.
#include <doctest/doctest.h>
#include <omp.h>

#include <cstdlib>
#include <numeric>
#include <thread>
#include <vector>

#include "graph/matrix.hpp"
#include "util/host_threads.hpp"
#include "util/parallel_copy.hpp"

using namespace ocl_sp;

namespace {
constexpr size_t MiB = size_t{1} << 20;

struct EnvVar {  // sets a variable for one scope
  const char* name;
  explicit EnvVar(const char* n, const char* v) : name(n) { setenv(n, v, 1); }
  ~EnvVar() { unsetenv(name); }
};
}  // namespace

TEST_CASE("threads_for: one thread per share of the bytes, capped by bandwidth and pool") {
  // A 64-thread pool on small copies uses few threads.
  CHECK(threads_for(0, 64, kCopyBytesPerThread, kBandwidthThreads) == 1);
  CHECK(threads_for(64 << 10, 64, kCopyBytesPerThread, kBandwidthThreads) == 1);
  CHECK(threads_for(kCopyBytesPerThread - 1, 64, kCopyBytesPerThread, kBandwidthThreads) == 1);
  CHECK(threads_for(8 * MiB, 64, kCopyBytesPerThread, kBandwidthThreads) == 4);  // a staging chunk
  CHECK(threads_for(20 * MiB, 64, kCopyBytesPerThread, kBandwidthThreads) == 10);
  // Large copies stop at the bandwidth count, not the pool's 64.
  CHECK(threads_for(400 * MiB, 64, kCopyBytesPerThread, kBandwidthThreads) == kBandwidthThreads);
  CHECK(threads_for(size_t{1} << 40, 192, kCopyBytesPerThread, kBandwidthThreads) == kBandwidthThreads);
  // A pool smaller than the cap is the limit; degenerate inputs give one thread.
  CHECK(threads_for(400 * MiB, 4, kCopyBytesPerThread, kBandwidthThreads) == 4);
  CHECK(threads_for(400 * MiB, 0, kCopyBytesPerThread, kBandwidthThreads) == 1);
  CHECK(threads_for(400 * MiB, 64, 0, 0) == 1);
  // Compute loops take the whole pool once big enough.
  CHECK(threads_for(400 * MiB, 64, kWorkBytesPerThread, 64) == 64);
  CHECK(threads_for(1 * MiB, 64, kWorkBytesPerThread, 64) == 4);
}

TEST_CASE("bandwidth_threads: OCL_SP_HOST_THREADS overrides the cap, bad values are ignored") {
  CHECK(bandwidth_threads() == kBandwidthThreads);
  {
    EnvVar e("OCL_SP_HOST_THREADS", "3");
    CHECK(bandwidth_threads() == 3);
  }
  {
    EnvVar e("OCL_SP_HOST_THREADS", "-2");
    CHECK(bandwidth_threads() == kBandwidthThreads);
  }
  {
    EnvVar e("OCL_SP_HOST_THREADS", "x");
    CHECK(bandwidth_threads() == kBandwidthThreads);
  }
}

TEST_CASE("copy_rows: a 64-thread pool runs a small copy on one thread, a large one on the cap") {
  const int before = omp_get_max_threads();
  omp_set_num_threads(64);
  CHECK(copy_threads(256 << 10) == 1);
  CHECK(copy_threads(8 * MiB) == 4);
  CHECK(copy_threads(512 * MiB) == kBandwidthThreads);
  // copy_rows runs its rows on copy_threads(bytes) threads: a strided copy of
  // 64 rows of 4 KiB (256 KiB, one thread) with every byte in place.
  std::vector<unsigned char> src(64 * 8192), dst(64 * 4096, 0);
  std::iota(src.begin(), src.end(), static_cast<unsigned char>(1));
  copy_rows(dst.data(), 4096, src.data(), 8192, 64, 4096);
  for (size_t r = 0; r < 64; ++r)
    for (size_t c = 0; c < 4096; c += 511)
      REQUIRE(dst[r * 4096 + c] == src[r * 8192 + c]);
  // parallel_copy of 9 MiB + a tail: 4 threads by the rule, every byte equal.
  std::vector<char> a(9 * MiB + 123), b(a.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<char>(i * 7 + 3);
  parallel_copy(b.data(), a.data(), a.size());
  CHECK(a == b);
  omp_set_num_threads(before);
}

TEST_CASE("touch_threads: fresh memory takes the whole pool once large, a thread per 64 MiB below") {
  const int before = omp_get_max_threads();
  omp_set_num_threads(64);
  CHECK(touch_threads(32 * MiB) == 1);
  CHECK(touch_threads(640 * MiB) == 10);
  CHECK(touch_threads(size_t{160} << 30) == 64);  // n = 200 000's matrix: past the copies' cap
  CHECK(copy_threads(size_t{160} << 30) == kBandwidthThreads);
  set_host_pool(16);  // an MPI rank's share
  CHECK(touch_threads(size_t{160} << 30) == 16);
  set_host_pool(0);
  omp_set_num_threads(before);
}

TEST_CASE("host pool: a limit set on one thread sizes the loops of every thread") {
  const int before = omp_get_max_threads();
  omp_set_num_threads(64);
  set_host_pool(6);  // as an MPI rank's share of its host
  CHECK(host_pool() == 6);
  CHECK(work_threads(512 * MiB) == 6);
  CHECK(copy_threads(512 * MiB) == 6);
  // Another thread (a device's, an async task): OpenMP's pool there is the
  // process default, the limit still holds.
  int other_work = 0, other_copy = 0;
  std::thread t([&] {
    other_work = work_threads(512 * MiB);
    other_copy = copy_threads(512 * MiB);
  });
  t.join();
  CHECK(other_work <= 6);
  CHECK(other_copy <= 6);
  CHECK(other_work >= 1);
  set_host_pool(0);  // no limit: OpenMP's pool again
  CHECK(host_pool() == 64);
  CHECK(work_threads(512 * MiB) == 64);
  omp_set_num_threads(before);
}

TEST_CASE("any_negative: one negative value anywhere among many pieces, on any pool") {
  // 5 pieces of 2 MiB and a partial one: the value at the first, a piece's edge,
  // the last place; none; -0.0 is not below zero.
  const int before = omp_get_max_threads();
  for (int pool : {1, 4}) {
    omp_set_num_threads(pool);
    std::vector<int32_t> v(5 * (MiB / 2) + 77, 7);
    CHECK_FALSE(any_negative(v));
    for (size_t at : {size_t{0}, MiB / 2 - 1, MiB / 2, 3 * (MiB / 2) + 5, v.size() - 1}) {
      CAPTURE(at);
      v[at] = -1;
      CHECK(any_negative(v));
      v[at] = 7;
    }
    std::vector<double> f(MiB / 8 + 3, 1.5);
    f[MiB / 8] = -0.0;
    CHECK_FALSE(any_negative(f));
    f.back() = -1e-300;
    CHECK(any_negative(f));
    CHECK_FALSE(any_negative(std::vector<int64_t>{}));
  }
  omp_set_num_threads(before);
}
