// The host's rate for memory it has not touched yet against memory it has: one
// process allocates GIB GiB, writes it once with THREADS OpenMP threads (first
// touch: the kernel, and on a virtual machine the hypervisor, back every page), then
// writes it again (the pages already there). Run several at once to see whether
// first touch is a host-wide limit (set-up of MPI ranks and the generator's first
// pass over a matrix both pay it). Prints one JSON line.
// Build: g++ -O2 -fopenmp host_memory.cpp -o host_memory; run: host_memory GIB THREADS
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  const double gib = argc > 1 ? std::atof(argv[1]) : 4;
  const int threads = argc > 2 ? std::atoi(argv[2]) : omp_get_max_threads();
  const size_t n = static_cast<size_t>(gib * (1 << 30)) / sizeof(uint64_t);
  auto* a = static_cast<uint64_t*>(std::malloc(n * sizeof(uint64_t)));
  if (!a) return 1;
  double t[2];
  for (int pass = 0; pass < 2; ++pass) {
    const double t0 = now();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (size_t i = 0; i < n; ++i) a[i] = i + pass;
    t[pass] = now() - t0;
  }
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i += 4096) sum += a[i];
  std::printf("{\"gib\":%.2f,\"threads\":%d,\"first_touch_s\":%.3f,\"first_touch_gbs\":%.2f,"
              "\"again_s\":%.3f,\"again_gbs\":%.2f,\"check\":%llu}\n",
              gib, threads, t[0], n * 8 / t[0] / 1e9, t[1], n * 8 / t[1] / 1e9,
              static_cast<unsigned long long>(sum % 1000));
  std::free(a);
  return 0;
}
