// Which sources share a lanes group (kernels/sssp.cl sssp_lanes): a group relaxes
// its LANES sources together and expands a vertex whenever any of them improves
// there, so sources close to one another in the graph share a front and cost
// about one search; sources spread out cost one expansion a vertex per bucket
// their fronts straddle. Consecutive ids on a grid are a row segment (1 x 8: lanes
// up to 7 hops apart); the order here makes them blocks (2 x 4 for 8 lanes, 4 x 4
// for 16: at most 4 or 6 hops). H100, 316 x 316 grid, 32 864 sources: sssp_lanes
// 0.26 s as row segments, 0.20 s as 2 x 4 blocks (docs/performance/sparse.md).
#pragma once

#include <cstdint>
#include <vector>

namespace ocl_sp {

// The group order of a launch's sources: order[q] is the position (in
// sources[0..count)) that lane slot q takes (group q / lanes, lane q % lanes).
// Positions come in runs of 4 consecutive ones (sources[4 i .. 4 i + 3]); a group
// is lanes / 4 runs: a run not yet placed, then the runs whose first vertex a
// breadth-first search from its first vertex (out-edges off/col, at most
// kLaneOrderVisits vertices) meets first, then the next unplaced runs in order
// where the search finds too few. A short last run (count % 4) stays last, so
// every group but the last is full. Identity for lanes <= 4. `mark` is scratch of
// n ints kept between calls (all -1 there), so a call costs O(count), not O(n).
constexpr int kLaneOrderVisits = 256;
std::vector<int32_t> lane_order(const int64_t* off, const int32_t* col, int64_t n, const int64_t* sources,
                                int64_t count, int lanes, std::vector<int32_t>& mark);

}  // namespace ocl_sp
