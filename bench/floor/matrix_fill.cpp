// How fast the host makes a large int32 matrix of "no edge" values, pass by pass:
// the steps of the generator's matrix (graph/matrix.hpp assign_touched, then the
// rows drawn in parallel) timed apart on one allocation of GIB GiB, with THREADS
// OpenMP threads for the parallel passes:
//   touch_huge   fresh pages, MADV_HUGEPAGE asked, zeroed in 2 MiB pieces in parallel
//                (first touch: the kernel and, on a virtual machine, the hypervisor)
//   fill_serial  std::fill of 0x3fffffff on one thread (what vector::assign does)
//   zero_serial  memset 0 on one thread (what vector::resize does)
//   fill_par     std::fill of 0x3fffffff in 2 MiB pieces in parallel
//   touch_4k     a second fresh allocation with no advice, first touched in parallel
//   touch_page   a third, one byte a 4 KiB page in parallel (the kernel zeroes it)
//   vec_assign   std::vector<int32_t>::assign(count, 0x3fffffff) over reserved pages
//                touched in parallel (assign_touched today), one thread
//   vec_resize   the same vector cleared, then resize(count): its zeros, one thread
// Prints one JSON line. Build: g++ -O2 -fopenmp matrix_fill.cpp -o matrix_fill;
// run: matrix_fill GIB THREADS
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int32_t* fresh(size_t bytes, bool huge) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (huge) madvise(p, bytes, MADV_HUGEPAGE);
  return static_cast<int32_t*>(p);
}

int main(int argc, char** argv) {
  const double gib = argc > 1 ? std::atof(argv[1]) : 4;
  const int threads = argc > 2 ? std::atoi(argv[2]) : omp_get_max_threads();
  const size_t bytes = static_cast<size_t>(gib * (1 << 30)) & ~size_t{(2 << 20) - 1};
  const size_t count = bytes / 4, piece = size_t{2} << 20;
  const int64_t pieces = static_cast<int64_t>(bytes / piece);
  const int32_t inf = 0x3fffffff;
  double t0;
  int32_t* a = fresh(bytes, true);
  if (!a) return 1;
  char* c = reinterpret_cast<char*>(a);
  t0 = now();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) std::memset(c + i * piece, 0, piece);
  const double touch_huge = now() - t0;
  t0 = now();
  std::fill(a, a + count, inf);
  const double fill_serial = now() - t0;
  t0 = now();
  std::memset(a, 0, bytes);
  const double zero_serial = now() - t0;
  long long check = a[count / 5];  // read: the memset is not dead
  t0 = now();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) std::fill(a + i * (piece / 4), a + (i + 1) * (piece / 4), inf);
  const double fill_par = now() - t0;
  check += a[count / 3];
  munmap(a, bytes);
  a = fresh(bytes, false);
  if (!a) return 1;
  c = reinterpret_cast<char*>(a);
  t0 = now();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) std::memset(c + i * piece, 0, piece);
  const double touch_4k = now() - t0;
  munmap(a, bytes);
  a = fresh(bytes, true);
  if (!a) return 1;
  c = reinterpret_cast<char*>(a);
  t0 = now();
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < static_cast<int64_t>(bytes / 4096); ++i) c[i * 4096] = 1;
  const double touch_page = now() - t0;
  check += c[bytes / 2];
  munmap(a, bytes);
  std::vector<int32_t> v;
  v.reserve(count);
  c = reinterpret_cast<char*>(v.data());
  madvise(reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(c) + piece - 1) & ~(piece - 1)),
          bytes - piece, MADV_HUGEPAGE);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int64_t i = 0; i < pieces; ++i) std::memset(c + i * piece, 0, piece);
  t0 = now();
  v.assign(count, inf);
  const double vec_assign = now() - t0;
  check += v[count / 7];
  v.clear();
  t0 = now();
  v.resize(count);
  const double vec_resize = now() - t0;
  check += v[count / 9];
  const double gb = static_cast<double>(bytes) / 1e9;
  std::printf(
      "{\"gib\": %.1f, \"threads\": %d, \"touch_huge_s\": %.3f, \"fill_serial_s\": %.3f, "
      "\"zero_serial_s\": %.3f, \"fill_par_s\": %.3f, \"touch_4k_s\": %.3f, \"touch_page_s\": %.3f, "
      "\"touch_huge_gbs\": %.2f, \"fill_serial_gbs\": %.2f, \"zero_serial_gbs\": %.2f, "
      "\"fill_par_gbs\": %.2f, \"touch_4k_gbs\": %.2f, \"touch_page_gbs\": %.2f, "
      "\"vec_assign_s\": %.3f, \"vec_resize_s\": %.3f, \"check\": %lld}\n",
      gib, threads, touch_huge, fill_serial, zero_serial, fill_par, touch_4k, touch_page,
      gb / touch_huge, gb / fill_serial, gb / zero_serial, gb / fill_par, gb / touch_4k,
      gb / touch_page, vec_assign, vec_resize, check);
  return 0;
}
