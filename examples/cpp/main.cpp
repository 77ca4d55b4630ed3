// ocl_sp C++ library example: all pairs of a small graph (or of a graph file given
// as the first argument) on the default device, then the errors the API throws.
// Built against the installed package (docs/library.md "C++ library"):
//   cmake -S examples/cpp -B ex -DCMAKE_PREFIX_PATH=/usr/local && cmake --build ex
//   g++ -std=c++17 main.cpp $(pkg-config --cflags --libs ocl_sp) -o example
#include <cstdint>
#include <iostream>
#include <ocl_sp/ocl_sp.hpp>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  std::cout << ocl_sp::build_info() << "\n";
  try {
    ocl_sp::Options opt;
    opt.paths = true;  // also the via matrix, for r.path()
    if (argc > 1) {
      const ocl_sp::Graph g = ocl_sp::read_graph(argv[1]);  // format from the extension
      const auto r = ocl_sp::all_pairs<float>(g, opt);
      std::cout << argv[1] << ": n = " << g.n << ", d(0, n-1) = " << r(0, g.n - 1) << "\n";
      return 0;
    }
    // 0 -> 1 (4), 1 -> 2 (-2), 0 -> 2 (5), 2 -> 3 (1); vertex 4 is isolated.
    const std::vector<ocl_sp::Edge> edges{{0, 1, 4}, {1, 2, -2}, {0, 2, 5}, {2, 3, 1}};
    const auto r = ocl_sp::all_pairs<int32_t>(5, edges, opt);
    std::cout << r.algorithm << " on " << r.backend << " (" << r.device << "), set-up "
              << r.timings.setup << " s (context " << r.timings.context << " s, programs "
              << r.timings.programs << " s), kernels " << r.timings.kernels << " s\n";
    std::cout << "d(0,3) = " << r(0, 3) << ", path:";
    for (int64_t v : r.path(0, 3)) std::cout << " " << v;
    std::cout << "\nd(0,4) unreachable: " << (r(0, 4) == ocl_sp::kInt32Unreachable) << "\n";

    // The multi-source engine: rows of chosen sources as they complete (never an
    // n x n matrix), and the per-vertex figures of `ocl_sp --stats`.
    ocl_sp::rows<int32_t>(5, edges, {3, 0}, [](int64_t first, int64_t count, const int32_t* rows) {
      for (int64_t i = 0; i < count; ++i) std::cout << "row " << first + i << ": d(.,3) = " << rows[i * 5 + 3] << "\n";
    });
    ocl_sp::StatsOptions with;
    with.betweenness = true;
    const auto s = ocl_sp::stats<int32_t>(5, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}, {}, with);
    std::cout << "reach(0) = " << s.reach[0] << ", closeness(3) = " << s.closeness[3]
              << ", betweenness(1) = " << s.betweenness[1] << "\n";

    // A Session keeps its solvers between calls; graphs already in memory go in
    // as they are: compressed rows (CsrGraph) or a dense Matrix, moved, not copied.
    ocl_sp::Session session(opt);
    ocl_sp::CsrGraph<int32_t> csr{5, {0, 2, 3, 4, 4, 4}, {1, 2, 2, 3}, {4, 5, -2, 1}};  // = edges
    session.rows<int32_t>(std::move(csr), {0},
                          ocl_sp::TreeRowsSink<int32_t>([](int64_t, int64_t, const int32_t* d,
                                                           const int32_t* parent) {
                            std::cout << "session: d(0,3) = " << d[3] << ", parent of 3: " << parent[3] << "\n";
                          }));
    session.all_pairs<int32_t>(5, edges);
    const auto again = session.all_pairs<int32_t>(5, edges);
    std::cout << "session: solver reused: " << again.details.reused << "\n";

    // Wrong use: an edge id >= n is an ocl_sp::Error naming the edge.
    try {
      ocl_sp::all_pairs<int32_t>(3, {{0, 7, 1}});
    } catch (const ocl_sp::Error& e) {
      std::cout << "error: " << e.what() << "\n";
    }
    // A negative cycle carries the cycle itself.
    try {
      ocl_sp::all_pairs<int32_t>(3, {{0, 1, 1}, {1, 2, -3}, {2, 0, 1}});
    } catch (const ocl_sp::NegativeCycle& e) {
      std::cout << "negative cycle of length " << e.length << ":";
      for (long long v : e.cycle) std::cout << " " << v;
      std::cout << "\n";
    }
  } catch (const ocl_sp::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
