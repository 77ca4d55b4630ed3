// A road-sized DIMACS .gr for reading benchmarks: road_gr N M FILE writes N vertices and
// M arcs u -> u+1..64 (mod N), weights 1..5000, from a fixed seed.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <random>
int main(int argc, char** argv) {
  const int64_t n = atoll(argv[1]), m = atoll(argv[2]);
  FILE* f = fopen(argv[3], "wb");
  static char buf[1 << 22];
  setvbuf(f, buf, _IOFBF, sizeof buf);
  fprintf(f, "c road-like test graph\np sp %lld %lld\n", (long long)n, (long long)m);
  std::mt19937_64 r(1);
  for (int64_t k = 0; k < m; ++k) {
    int64_t u = r() % n, v = (u + 1 + r() % 64) % n;
    fprintf(f, "a %lld %lld %lld\n", (long long)u + 1, (long long)v + 1, (long long)(1 + r() % 5000));
  }
  fclose(f);
}
