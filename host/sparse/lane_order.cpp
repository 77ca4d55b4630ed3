#include "sparse/lane_order.hpp"

#include <algorithm>
#include <numeric>

namespace ocl_sp {

std::vector<int32_t> lane_order(const int64_t* off, const int32_t* col, int64_t n, const int64_t* sources,
                                int64_t count, int lanes, std::vector<int32_t>& mark) {
  std::vector<int32_t> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  const int per_group = lanes / 4;  // runs a group
  const int64_t runs = count / 4;   // full runs; the short one stays last
  if (per_group <= 1 || runs <= 1) return order;
  // mark[v]: the full run starting at v (the first such run; -1: none), -2 while
  // the current search has seen v (restored after it from `seen`). All -1
  // between calls: only the runs' first vertices are set and reset here.
  if (mark.size() != static_cast<size_t>(n)) mark.assign(static_cast<size_t>(n), -1);
  const auto start_of = [&](int64_t r) { return static_cast<int32_t>(sources[4 * r]); };
  for (int64_t r = runs - 1; r >= 0; --r) mark[static_cast<size_t>(start_of(r))] = static_cast<int32_t>(r);
  std::vector<char> placed(static_cast<size_t>(runs), 0);
  std::vector<int32_t> queue, group, seen;  // seen: (vertex, its mark) pairs of a search
  queue.reserve(kLaneOrderVisits);
  int64_t q = 0, next = 0;  // next: the first run perhaps not placed
  const auto place = [&](int64_t r) {
    placed[static_cast<size_t>(r)] = 1;
    group.push_back(static_cast<int32_t>(r));
  };
  while (true) {
    while (next < runs && placed[static_cast<size_t>(next)]) ++next;
    if (next == runs) break;
    group.clear();
    place(next);
    // Breadth-first from the run's first vertex: runs starting at the vertices met.
    queue.assign(1, start_of(next));
    seen.clear();
    for (size_t h = 0; h < queue.size() && static_cast<int>(group.size()) < per_group; ++h) {
      const int32_t u = queue[h];
      for (int64_t e = off[u]; e < off[u + 1] && static_cast<int>(group.size()) < per_group; ++e) {
        const int32_t v = col[e];
        int32_t& m = mark[static_cast<size_t>(v)];
        if (m <= -2 || v == queue[0]) continue;  // seen by this search (or its root)
        if (m >= 0 && !placed[static_cast<size_t>(m)]) place(m);
        if (queue.size() < static_cast<size_t>(kLaneOrderVisits)) queue.push_back(v);
        seen.push_back(v);
        seen.push_back(m);
        m = -2;
      }
    }
    for (size_t i = 0; i < seen.size(); i += 2) mark[static_cast<size_t>(seen[i])] = seen[i + 1];
    for (int64_t r = next + 1; static_cast<int>(group.size()) < per_group && r < runs; ++r)
      if (!placed[static_cast<size_t>(r)]) place(r);
    for (int32_t r : group)
      for (int k = 0; k < 4; ++k) order[static_cast<size_t>(q++)] = 4 * r + k;
  }
  for (int64_t r = 0; r < runs; ++r) mark[static_cast<size_t>(start_of(r))] = -1;
  return order;  // positions 4 runs .. count - 1 (the short run) kept in place
}

}  // namespace ocl_sp
