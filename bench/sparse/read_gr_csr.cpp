// read_gr_csr FILE.gr: seconds of read_graph (.gr) and build_csr<int32_t>, on
// OMP_NUM_THREADS threads (bench/sparse/table_and_road_scale.sh).
#include <chrono>
#include <cstdio>
#include <omp.h>
#include "graph/io.hpp"
#include "graph/csr.hpp"
using namespace ocl_sp;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  double t0 = now();
  Graph g = read_graph(argv[1], InputFormat::gr, kMaxSparseVertices);
  double t1 = now();
  Csr<int32_t> c = build_csr<int32_t>(g);
  double t2 = now();
  std::printf("threads %d read %.3f s csr %.3f s n %lld m %zu csr m %lld\n", omp_get_max_threads(), t1 - t0, t2 - t1, (long long)g.n, g.edges.size(), (long long)c.m());
}
