// How fast one output file fills: GIB GiB written into PATH through ocl_sp's
// atomic output (util/atomic_file.hpp) as one positioned block, the way a dense
// matrix or a batch of rows is written, then put in place; one JSON line.
// OCL_SP_MAPPED_WRITE_BYTES picks the way: unset, blocks past 64 MiB are reserved
// and filled through mappings on several threads; a value above the block's size,
// one pwrite (the kernel's buffered write on one core). The file is removed after.
// Build (repository root, after the library):
//   g++ -O2 -fopenmp -std=c++17 -Ihost -Iinclude bench/floor/file_write.cpp \
//       build/libocl_sp_core.a -o file_write
// Run: file_write PATH GIB
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "util/atomic_file.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: file_write PATH GIB\n");
    return 2;
  }
  const std::string path = argv[1];
  const size_t bytes = static_cast<size_t>(std::atof(argv[2]) * double(1 << 30));
  std::unique_ptr<char[]> buf(new char[bytes]);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < static_cast<long long>(bytes >> 12); ++i)
    std::memset(buf.get() + (static_cast<size_t>(i) << 12), static_cast<int>(i & 0xff), 4096);
  const auto t0 = std::chrono::steady_clock::now();
  ocl_sp::write_file_atomically_to(path, [&](ocl_sp::AtomicOutput& out) {
    if (!out.positioned()) throw std::runtime_error("not a file: " + path);
    out.write_at(0, buf.get(), bytes);
  });
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("{\"path\": \"%s\", \"bytes\": %zu, \"way\": \"%s\", \"seconds\": %.3f, \"GB_per_s\": %.2f}\n",
              path.c_str(), bytes, bytes >= ocl_sp::AtomicOutput::mapped_write_bytes() ? "mapped" : "pwrite", s,
              static_cast<double>(bytes) / s / 1e9);
  std::remove(path.c_str());
  return 0;
}
