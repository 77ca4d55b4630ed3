// sssp_plan.hpp: bucket widths and batch sizes of the OpenCL sssp engine.
#include "sparse/sssp_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sparse/stats_sink.hpp"

namespace ocl_sp {

std::vector<detail::TunableRule> sssp_rules() {
  return {{"WG", {32, 64, 128, 256, 512, 1024}, "work-items per source's work-group"},
          {"DELTA", {0, 25, 50, 100, 200, 400, 800, 1600},
           "near-far bucket width, % of the mean weight (0: from the mean degree, at least 800 on deep searches)"},
          {"VW", {0, 1, 2, 4, 8, 16, 32},
           "work-items sharing a queued vertex's edges (0: from the mean degree)"},
          {"BATCH", {0, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384},
           "sources per launch and device (0: from device memory)"},
          {"LANES", {0, 1, 4, 8, 16, 32},
           "sources side by side in one work-group (sssp_lanes): 0: 8 for --stats in one "
           "pass, rows too where the mean degree is at most 5 (grids, roads) or searches are "
           "shallow (half the vertices within 2 log2 n levels) with a wave's rows past 48 MiB (large "
           "random graphs), at least 8 sources a compute unit; "
           "1: never; 4-32: every solve"},
          {"LANE_WG", {0, 32, 64, 128, 256, 512, 1024},
           "work-items of a lanes work-group (0: 128 on GPUs, else WG; twice that where device "
           "memory holds fewer groups than the device runs at once, or on GPUs where rounds "
           "pull by default)"},
          {"PULL", {0, 1, 2, 5, 10, 20, 30, 50, 100},
           "lanes: a near round whose queue holds more than PULL % of the vertices runs over the "
           "in-edges (a pull round) where n bits fit __local memory; 0: 50 where the mean degree "
           "is above 5 and searches are shallow, else never; 100: never"},
          {"ORDER", {0, 1, 2},
           "vertex ids of the searches a source a group runs: 0: renumbered for locality (the "
           "Hilbert order of two distances, rows back in the input's order on the device) where "
           "searches are deep and the sources are at least max(512, 4096 (1e5 / n)^0.9); 1: as given; "
           "2: renumbered wherever "
           "rows run a source a group"},
          {"ORDER_WG", {0, 32, 64, 128, 256, 512, 1024},
           "work-items a group of the searches on renumbered ids (ORDER): 0: 512 on GPUs up to "
           "2e5 vertices where WG is 1024, else WG"},
          {"LOCAL_ROW", {0, 1, 2},
           "a source a group's row in the work-group's __local memory while it is searched, where "
           "n values fit it (small graphs): 0: on GPUs; 1: never; 2: on every device"},
          {"ROW_LANES", {0, 4, 8, 16, 32},
           "rows in lanes, this many sources a group in a program of their own (--stats and "
           "betweenness keep LANES); 0: with LANES=0, 16 in groups of 256 without pull rounds on "
           "GPUs where the mean degree is above 5 and searches are shallow, else LANES' program; "
           "4-32: rows of every solve in lanes"}};
}

namespace {

// The resident groups of `wg` work-items the plan assumes.
int64_t sssp_resident_groups(const SsspDeviceShape& dev, size_t wg) {
  return dev.compute_units * (dev.gpu ? std::max<int64_t>(1, 2048 / static_cast<int64_t>(wg)) : 1);
}

}  // namespace

int64_t sssp_shallow_levels(int64_t n) {
  int64_t log2n = 0;
  while ((int64_t{1} << log2n) < n && log2n < 62) ++log2n;
  return 2 * log2n;
}

bool sssp_shallow_searches(const SsspGraphShape& g) {
  const double degree = g.n ? static_cast<double>(g.m) / static_cast<double>(g.n) : 0;
  return degree > kSsspLanesRowsDegree && g.depth.levels >= 0 && g.depth.levels <= sssp_shallow_levels(g.n) &&
         g.depth.reached * 2 >= g.n;
}

bool sssp_deep_searches(const SsspGraphShape& g) { return g.depth.levels > sssp_shallow_levels(g.n); }

uint64_t sssp_slot_part_bytes(uint64_t rows_bytes, uint64_t cap) {
  return std::min(cap, std::max(kSsspSlotPartMin, rows_bytes / 32));
}

SsspRowProgram sssp_row_program(const SsspGraphShape& g, const SsspDeviceShape& dev, const Tunables& t,
                                size_t lane_wg_built) {
  const auto given = [&](const char* name) {
    const auto it = t.find(name);
    return it == t.end() ? 0 : it->second;
  };
  SsspRowProgram r;
  const int asked = given("ROW_LANES");
  if (asked >= 4)
    r.lanes = asked;
  else if (given("LANES") == 0 && dev.gpu && sssp_shallow_searches(g))
    r.lanes = kSsspRowLanes;
  if (r.lanes == 0) return r;
  int wg = given("LANE_WG");
  if (wg == 0)
    wg = dev.gpu && static_cast<size_t>(kSsspRowLaneWg) <= dev.max_work_group ? kSsspRowLaneWg
                                                                              : static_cast<int>(lane_wg_built);
  const int pull = given("PULL");
  r.t = t;
  r.t["LANES"] = r.lanes;
  r.t["LANE_WG"] = wg;
  r.t["PULL"] = pull >= 1 && pull < 100 ? pull : 100;
  return r;
}

SsspHopDepth sssp_hop_depth(const int64_t* off, const int32_t* col, int64_t n, int64_t source, int64_t limit,
                            int64_t stop_at) {
  SsspHopDepth d;
  if (n <= 0 || source < 0 || source >= n) return d;
  std::vector<char> seen(static_cast<size_t>(n), 0);
  std::vector<int32_t> front{static_cast<int32_t>(source)}, next;
  seen[static_cast<size_t>(source)] = 1;
  d.reached = 1;
  while (!front.empty() && d.levels <= limit && d.reached < stop_at) {
    next.clear();
    for (const int32_t u : front)
      for (int64_t e = off[u]; e < off[u + 1]; ++e)
        if (!seen[static_cast<size_t>(col[e])]) {
          seen[static_cast<size_t>(col[e])] = 1;
          next.push_back(col[e]);
        }
    if (next.empty()) break;
    ++d.levels;
    d.reached += static_cast<int64_t>(next.size());
    front.swap(next);
  }
  return d;
}

uint64_t sssp_pull_local_bytes(int64_t n, int lanes, size_t value_bytes) {
  const uint64_t words = ((static_cast<uint64_t>(n) + 31) / 32 + 1) & ~uint64_t{1};
  const uint64_t tile = 8192 / (static_cast<uint64_t>(lanes) * value_bytes);
  return words * 4 + tile * static_cast<uint64_t>(lanes) * value_bytes + (tile + 1) * 4;
}

SsspPlan plan_sssp(const SsspGraphShape& g, const SsspDeviceShape& dev, const Tunables& t, int lanes,
                   size_t lane_wg_built) {
  SsspPlan p;
  const double degree = g.n ? static_cast<double>(g.m) / static_cast<double>(g.n) : 0;
  // Measured on an H100 (docs/performance/sparse.md "sssp"): low-degree graphs (grids,
  // roads) want wide buckets (fewer rounds), high-degree ones narrow buckets
  // (fewer relaxations repeated): DELTA ~ 16000 / degree^2 %. Lanes want
  // narrower ones (H200, 316 x 316 grid: 400 % beat 200, 800 and 1000 %):
  // 6400 / degree^2 %.
  const auto percent = [&](double k) {
    return t.at("DELTA") > 0 ? t.at("DELTA") : std::clamp(k / std::max(degree * degree, 1.0), 25.0, 1600.0);
  };
  p.percent = percent(16000.0);
  // Deep searches (geometric graphs) want wider buckets than their degree says:
  // fewer rounds of a few vertices each.
  if (t.at("DELTA") == 0 && sssp_deep_searches(g))
    p.percent = std::max(p.percent, kSsspDeepPercent);
  p.percent_lanes = percent(6400.0);
  // A virtual warp about as wide as the mean degree, at most the work-group.
  int vw = t.at("VW");
  if (vw == 0) {
    vw = 1;
    while (vw < 32 && vw < degree) vw *= 2;
  }
  vw = std::min(vw, t.at("WG"));
  while ((1 << p.vw_log) < vw) ++p.vw_log;

  // Pull rounds: the dense middle of shallow searches.
  const auto pull_it = t.find("PULL");
  const int pull = pull_it == t.end() ? 0 : pull_it->second;
  p.pull = pull >= 100 ? 0 : pull > 0 ? pull : sssp_shallow_searches(g) ? kSsspPullShallow : 0;

  const uint64_t un = static_cast<uint64_t>(g.n), ul = static_cast<uint64_t>(lanes);
  const uint64_t queues = un * 4 * kSsspScratchRows;
  // The graph's edges, and its in-edges for pull rounds.
  const uint64_t graph_once = (un + 1) * 4 + static_cast<uint64_t>(g.m) * (4 + g.value_bytes);
  p.graph_bytes = graph_once * (p.pull > 0 || g.in_edges ? 2 : 1) +
                  (g.renumbered ? un * 4 + std::max(graph_once, un * 12 + 12) : 0);
  p.per_source = un * g.value_bytes + queues + 4;
  const uint64_t room = dev.budget * 9 / 10 > p.graph_bytes ? dev.budget * 9 / 10 - p.graph_bytes : 0;
  // A source a group: the launch's distances one buffer (the rows are read from
  // it), its queues up to kSsspLaneBuffers buffers.
  const int64_t by_memory = static_cast<int64_t>(
      std::min<uint64_t>({room / p.per_source, kSsspLaneBuffers * (dev.max_alloc / std::max<uint64_t>(queues, 1)),
                          dev.max_alloc / std::max<uint64_t>(un * g.value_bytes, 1)}));
  // Lanes: a group of `lanes` sources shares one set of queues; the distances
  // and queues of a launch are up to kSsspLaneBuffers buffers of at most
  // max_alloc each, a buffer holding whole groups.
  p.per_group = un * (ul * g.value_bytes + 4 * kSsspScratchRows) + ul * (4 + sizeof(RowFigures));
  p.lane_buffer_unit = std::max<uint64_t>({un * ul * g.value_bytes, queues, 1});
  const int64_t groups_by_memory = static_cast<int64_t>(
      std::min<uint64_t>(room / p.per_group, kSsspLaneBuffers * (dev.max_alloc / p.lane_buffer_unit)));
  // Several launches' worth of resident groups, so the tail of a launch is short.
  const int64_t wanted =
      t.at("BATCH") > 0 ? t.at("BATCH")
                        : std::max<int64_t>(64, sssp_resident_groups(dev, static_cast<size_t>(t.at("WG"))) * 4);
  p.batch_sources = std::max<int64_t>(0, std::min({wanted, by_memory, int64_t{1} << 20}));
  p.dist_twice = p.batch_sources > 0 &&
                 room / (p.per_source + un * g.value_bytes) >= static_cast<uint64_t>(p.batch_sources);
  // Groups twice as large (LANE_WG not given) where memory holds fewer groups
  // than the device runs at once: a GPU's threads stay busy with half the groups
  // (H100, 1000 x 1000 grid: ~1 280 groups of 128 fit of 2 112; groups of 256
  // ran sssp_lanes in 89.9 s against 94.6 s); and where rounds pull by default
  // (shallow searches of a mean degree past 5: H100, random degree 20 n = 10^5,
  // rows in 8 lanes, T_k 5.49 s in groups of 128, 5.22 s in 256;
  // docs/performance/sparse.md).
  p.lane_wg = lane_wg_built;
  const bool short_of_groups = groups_by_memory >= 1 && groups_by_memory < sssp_resident_groups(dev, p.lane_wg);
  const bool pulls_by_default = dev.gpu && pull == 0 && p.pull > 0;
  if (t.at("LANE_WG") == 0 && (short_of_groups || pulls_by_default) && p.lane_wg * 2 <= dev.max_work_group)
    p.lane_wg *= 2;
  // Lanes: one wave of resident groups (their sources take about as long each).
  p.lane_groups = t.at("BATCH") > 0 ? (t.at("BATCH") + lanes - 1) / lanes
                                    : std::max<int64_t>(2, sssp_resident_groups(dev, p.lane_wg));
  p.lane_groups_max = std::max<int64_t>(0, std::min(groups_by_memory, (int64_t{1} << 20) / lanes));
  // Rows in lanes: each group's rows once more in source order (sssp_lanes_rows),
  // one buffer of at most max_alloc and kSsspLaneRowsBytes (the host's pinned slots).
  const uint64_t group_rows = std::max<uint64_t>(un * ul * g.value_bytes, 1);
  const uint64_t rows_room = std::min({room / (p.per_group + group_rows),
                                       std::min(dev.max_alloc, kSsspLaneRowsBytes) / group_rows,
                                       static_cast<uint64_t>(p.lane_groups_max)});
  p.lane_groups_rows = static_cast<int64_t>(std::min<uint64_t>(rows_room, static_cast<uint64_t>(p.lane_groups)));
  const int asked = t.at("LANES");
  const auto rows_asked = t.find("ROW_LANES");
  char why[160];
  if (rows_asked != t.end() && rows_asked->second >= 4) {
    p.lanes_rows = true;
    std::snprintf(why, sizeof why, "ROW_LANES=%d", rows_asked->second);
  } else if (asked != 0) {
    p.lanes_rows = asked >= 4;
    std::snprintf(why, sizeof why, "LANES=%d", asked);
  } else if (degree <= kSsspLanesRowsDegree) {
    p.lanes_rows = p.lane_groups_rows >= 1;
    std::snprintf(why, sizeof why, "mean degree %.2f <= %g%s", degree, kSsspLanesRowsDegree,
                  p.lanes_rows ? "" : ", but no group's rows fit beside it");
  } else {
    // Shallow searches and a wave of resident groups a source a group whose rows
    // pass the cache.
    const double wave = static_cast<double>(sssp_resident_groups(dev, static_cast<size_t>(t.at("WG")))) *
                        static_cast<double>(un) * static_cast<double>(g.value_bytes);
    const int64_t shallow_levels = sssp_shallow_levels(g.n);
    const bool half = g.depth.reached * 2 >= g.n;
    const bool shallow = g.depth.levels >= 0 && g.depth.levels <= shallow_levels && half;
    const bool past = wave > static_cast<double>(kSsspRowsCacheBytes);
    p.lanes_rows = shallow && past && p.lane_groups_rows >= 1;
    const int at = std::snprintf(why, sizeof why, "mean degree %.2f > %g, ", degree, kSsspLanesRowsDegree);
    char* rest = why + at;
    const size_t left = sizeof why - static_cast<size_t>(at);
    if (g.depth.levels < 0)
      std::snprintf(rest, left, "search depth not measured");
    else if (g.depth.levels > shallow_levels)
      std::snprintf(rest, left, "searches deep (more than %lld levels)", static_cast<long long>(shallow_levels));
    else if (!half)
      std::snprintf(rest, left, "a search from vertex 0 reaches %lld of %lld vertices",
                    static_cast<long long>(g.depth.reached), static_cast<long long>(g.n));
    else
      std::snprintf(rest, left, "searches shallow (%lld levels), a wave's rows a source a group %.0f MB %s %.0f MB%s",
                    static_cast<long long>(g.depth.levels), wave / 1e6, past ? ">" : "<=",
                    static_cast<double>(kSsspRowsCacheBytes) / 1e6,
                    past && !p.lanes_rows ? ", but no group's rows fit beside it" : "");
  }
  p.lanes_rows_reason = why;
  return p;
}

int sssp_order_wg(int64_t n, bool gpu, int wg, int param) {
  if (param > 0) return param;
  return gpu && wg == 1024 && n <= kSsspOrderWgMaxN ? kSsspOrderWg : wg;
}

bool sssp_local_row(int64_t n, size_t value_bytes, uint64_t local_mem, bool gpu, int param) {
  if (param == 1 || (param != 2 && !gpu) || n < 1) return false;
  return static_cast<uint64_t>(n) * value_bytes + 64 <= local_mem;
}

int64_t sssp_order_min_sources(int64_t n) {
  const double k = 4096 * std::pow(1e5 / static_cast<double>(std::max<int64_t>(n, 1)), 0.9);
  return static_cast<int64_t>(std::min(std::max(512.0, std::ceil(k)), 1e12));
}

}  // namespace ocl_sp
