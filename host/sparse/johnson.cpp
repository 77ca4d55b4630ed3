// Potentials for Johnson's reweighting (johnson.hpp).
#include "sparse/johnson.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "graph/negative_cycle.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

template <typename T>
Reweighted<T> reweight(const Csr<T>& g) {
  const int64_t n = g.n;
  // Integers stay exact in int64; float potentials in double.
  using Acc = PotentialOf<T>;
  std::vector<Acc> p(static_cast<size_t>(n), 0);
  std::vector<int32_t> frontier, next;
  std::vector<char> queued(static_cast<size_t>(n), 0);
  // Round 1 from the virtual source: only tails of negative edges can improve.
  for (int64_t u = 0; u < n; ++u) frontier.push_back(static_cast<int32_t>(u));
  int64_t rounds = 0;
  while (!frontier.empty()) {
    if (++rounds > n) {
      const FoundCycle c = find_negative_cycle(to_graph(g));
      if (!c.found())  // float rounding alone kept it going: not a real cycle
        throw RuntimeError("Bellman-Ford did not settle after n rounds, yet no negative "
                           "cycle was found (float rounding); use an integer --type or --algo fw");
      throw NegativeCycleError(std::vector<long long>(c.vertices.begin(), c.vertices.end()),
                               c.length);
    }
    next.clear();
    for (int32_t u : frontier) {
      queued[u] = 0;
      const Acc pu = p[u];
      for (int64_t e = g.off[u]; e < g.off[u + 1]; ++e) {
        const int32_t v = g.col[e];
        const Acc nd = pu + static_cast<Acc>(g.w[e]);
        if (nd < p[v]) {
          p[v] = nd;
          if (!queued[v]) {
            queued[v] = 1;
            next.push_back(v);
          }
        }
      }
    }
    std::swap(frontier, next);
  }
  Reweighted<T> r;
  r.graph = g;
  r.potential.assign(p.begin(), p.end());
  for (int64_t u = 0; u < n; ++u)
    for (int64_t e = g.off[u]; e < g.off[u + 1]; ++e) {
      const Acc x = static_cast<Acc>(g.w[e]) + p[u] - p[g.col[e]];
      // >= 0 exactly for int32; float rounding can leave a tiny negative: 0 then
      // (and never -0.0).
      r.graph.w[e] = x > 0 ? static_cast<T>(x) : T(0);
    }
  return r;
}

template <typename T>
std::unique_ptr<Csr<T>> positive_zeros(const Csr<T>& g) {
  if (std::none_of(g.w.begin(), g.w.end(), [](T x) { return x == 0 && std::signbit(x); }))
    return nullptr;
  auto c = std::make_unique<Csr<T>>(g);
  for (T& x : c->w)
    if (x == 0) x = T(0);
  return c;
}

template Reweighted<int32_t> reweight<int32_t>(const Csr<int32_t>&);
template Reweighted<float> reweight<float>(const Csr<float>&);
template Reweighted<double> reweight<double>(const Csr<double>&);
template Reweighted<int64_t> reweight<int64_t>(const Csr<int64_t>&);
template std::unique_ptr<Csr<float>> positive_zeros<float>(const Csr<float>&);
template std::unique_ptr<Csr<double>> positive_zeros<double>(const Csr<double>&);

}  // namespace ocl_sp
