// Breadth-first search over tight edges (sssp_paths.hpp).
#include "sparse/sssp_paths.hpp"

#include <algorithm>

namespace ocl_sp {

template <typename T>
void tight_tree(const Csr<T>& g, int64_t s, const T* d, T unreached, int32_t* pred,
                int32_t* hops, TreeScratch& scratch) {
  const int64_t n = g.n;
  std::fill(pred, pred + n, -1);
  std::fill(hops, hops + n, -1);
  auto& q = scratch.queue;
  q.clear();
  q.push_back(static_cast<int32_t>(s));
  hops[s] = 0;
  for (size_t head = 0; head < q.size(); ++head) {
    const int32_t u = q[head];
    const T du = d[u];
    for (int64_t e = g.off[u]; e < g.off[u + 1]; ++e) {
      const int32_t v = g.col[e];
      if (hops[v] >= 0) {
        // Reached: a smaller predecessor of the level before takes its place (the
        // smallest, as fw's recover_paths picks). Most reached neighbours lie on
        // this level or the one before: the hop test rules them out first.
        if (hops[v] == hops[u] + 1 && u < pred[v] && du + g.w[e] == d[v]) pred[v] = u;
        continue;
      }
      if (d[v] == unreached) continue;
      const T nd = du + g.w[e];
      if (nd == d[v]) {
        hops[v] = hops[u] + 1;
        pred[v] = u;
        q.push_back(v);
      }
    }
  }
  for (int64_t v = 0; v < n; ++v)
    if (hops[v] < 0) hops[v] = 0;
}

template void tight_tree<int32_t>(const Csr<int32_t>&, int64_t, const int32_t*, int32_t,
                                  int32_t*, int32_t*, TreeScratch&);
template void tight_tree<float>(const Csr<float>&, int64_t, const float*, float, int32_t*,
                                int32_t*, TreeScratch&);
template void tight_tree<double>(const Csr<double>&, int64_t, const double*, double, int32_t*,
                                int32_t*, TreeScratch&);
template void tight_tree<int64_t>(const Csr<int64_t>&, int64_t, const int64_t*, int64_t, int32_t*,
                                int32_t*, TreeScratch&);

}  // namespace ocl_sp
