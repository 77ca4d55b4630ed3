// The OpenCL sssp engine's plan for one device and one prepared graph
// (opencl_sssp.cpp): its tunables, the near-far bucket widths, the virtual warp,
// and how many sources a launch takes within the device's memory, one source a
// work-group or LANES side by side (kernels/sssp.cl). Pure arithmetic: the engine
// builds, allocates and reports from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "solvers/opencl_base.hpp"

namespace ocl_sp {

constexpr int kSsspScratchRows = 6;        // sssp.cl SCRATCH_ROWS: a source's (or group's) queues, n ints each
constexpr uint64_t kSsspLaneBuffers = 4;   // sssp.cl LANE_BUFFERS, GROUP_SCRATCH: a launch's lane distances,
                                           // or its queues a source a group, in up to 4 buffers
// Rows in lanes: a launch's rows in source order (sssp_figures.cl sssp_lanes_rows) take a
// device buffer of their own and a pinned host slot each of two; at most this
// many bytes (H100, 316 x 316 grid: a wave of 2 112 groups of 8 is 6.7 GB).
constexpr uint64_t kSsspLaneRowsBytes = uint64_t{8} << 30;
// LANES=0: rows in lanes where the mean out-degree is at most this (lattices and
// road networks). H100, docs/performance/sparse.md: the 316 x 316 grid (degree
// 4) ran sssp_lanes in 0.56 s against 1.45 s a source a group; geometric degree 6
// (4.61 vs 3.05 s) and random degree 20 n = 10^4 (43.7 vs 34.1 ms) lost.
constexpr double kSsspLanesRowsDegree = 5.0;
// DELTA=0: a source a group's buckets at least this % of the mean weight where
// the searches are deep (the breadth-first search from vertex 0 passes
// sssp_shallow_levels(n) levels). H200, geometric degree 7.06, against the
// degree rule's 321 % (docs/performance/sparse.md "Buckets of deep searches"):
// n = 10^5 rows T_k 2.552 -> 2.380 s, n = 10^4 20 -> 18 ms, the 2^24-vertex
// graph's --stats of 1 000 sources 9.41 -> 9.14 s.
constexpr double kSsspDeepPercent = 800.0;
// LANES=0: rows in lanes too where the searches are shallow (a breadth-first
// search from vertex 0 reaches half the vertices within sssp_shallow_levels(n)
// levels: random and small-world graphs, not lattices or geometric ones) and the rows of a wave of resident groups a source a group
// (resident groups x n values) pass kSsspRowsCacheBytes: then each relaxation a
// source a group is a DRAM sector of its own, which 8 lanes share. H100, n = 10^5
// (docs/performance/sparse.md): random degree 8, 12, 20 (8, 6-7, 5 levels; a wave's
// rows 106 MB) ran 2.2x, 2.1x, 1.8x faster in lanes; geometric degree 7.1 (322
// levels) 1.5x slower; random degree 20 at n = 3 x 10^4 (32 MB) as fast either
// way, at n = 10^4 (11 MB, in the L2) 1.3x slower in lanes.
constexpr uint64_t kSsspRowsCacheBytes = uint64_t{48} << 20;  // about the L2 of an H100 or H200 (50 MB)
// PULL=0: sssp_lanes' near rounds whose queue holds more than this % of the
// vertices run over the in-edges (pull rounds, kernels/sssp_pull.cl) where the
// mean degree passes kSsspLanesRowsDegree and searches are shallow (as above).
// H100, random degree 20, n = 10^5, rows in 8 lanes (docs/performance/sparse.md):
// T_k 6.10 s push only, 5.43 s above 50 %, 5.48 s above 30 %, 5.77 s above 20 %,
// 6.84 s above 10 %; the 316 x 316 grid (fronts near 1 % of n) and random degree 20
// at n = 10^4 in lanes were 4 % slower with the bitmap's __local memory set aside.
constexpr int kSsspPullShallow = 50;
// ROW_LANES=0 (LANES=0): rows in lanes of shallow searches of a mean degree past
// kSsspLanesRowsDegree (where PULL=0 pulls) on GPUs take a program of their own,
// this many sources a group of kSsspRowLaneWg work-items and no pull rounds, while
// --stats and betweenness keep the LANES program (8). H100, random degree 20, n =
// 10^5 (docs/performance/sparse.md): T_k 4.51 s in 16 lanes of 256, push only,
// against 5.22 s in 8 lanes of 256 with pull rounds (5.00 s in 16 with them);
// --stats' column figures ran 5x slower in 16 lanes.
constexpr int kSsspRowLanes = 16;
constexpr int kSsspRowLaneWg = 256;
// sssp_lanes' __local bytes for pull rounds (sssp.cl PULL_WORDS, PULL_TV): the
// queue's bitmap of n bits (a whole number of 8-byte words), then a tile of 8 KiB
// of lane values and its 8192 / (lanes x value_bytes) + 1 edge offsets.
uint64_t sssp_pull_local_bytes(int64_t n, int lanes, size_t value_bytes);

// The levels up to which searches count as shallow: 2 ceil(log2 n) (34 at n = 10^5;
// random graphs of degree 3-20 there take 5-17, geometric ones 150-800).
int64_t sssp_shallow_levels(int64_t n);
// Breadth-first levels from `source` over the out-edges off/col, stopping at the
// level that reaches `stop_at` vertices (the source counted) or once past `limit`
// levels (limit + 1: cheap on deep graphs), or where the search ends: the levels
// and the vertices reached by then.
struct SsspHopDepth {
  int64_t levels = 0, reached = 0;
};
SsspHopDepth sssp_hop_depth(const int64_t* off, const int32_t* col, int64_t n, int64_t source, int64_t limit,
                            int64_t stop_at);

// WG, DELTA, VW, BATCH, LANES, LANE_WG, PULL, ORDER, ORDER_WG, LOCAL_ROW, ROW_LANES: their values
// and meanings.
std::vector<detail::TunableRule> sssp_rules();

// Searches on renumbered ids (ORDER) in groups of ORDER_WG work-items (a
// program of the near-far kernels of their own, kernels/sssp.cl NEAR_FAR_ONLY):
// param K > 0 as given; 0: kSsspOrderWg on GPUs up to kSsspOrderWgMaxN vertices
// where WG is the GPU default 1 024, else WG. H200, geometric graphs
// (docs/performance/sparse.md "Groups of 512 for renumbered deep searches"):
// all rows of 5 x 10^4 and 10^5 vertices -18 % and -13 % of T_k in groups of
// 512 (four a compute unit in 32 registers), 1.5 x 10^5 -9 %, 2 x 10^5 -5 %,
// 2.5 x 10^5 -1 %; 10^6 +3 % (4 096 sources).
constexpr int kSsspOrderWg = 512;
constexpr int64_t kSsspOrderWgMaxN = 200000;
int sssp_order_wg(int64_t n, bool gpu, int wg, int param);

// A source a group's row in the work-group's __local memory while it is
// searched (LOCAL_ROW, kernels/sssp.cl NEAR_FAR_LOCAL_ROW): param 0 on GPUs, 2
// on every device, 1 never; only where the n values and the group's 64 bytes of
// queue counters fit local_mem (an H200's 48 KiB: n <= 12 272 in int32).
bool sssp_local_row(int64_t n, size_t value_bytes, uint64_t local_mem, bool gpu, int param);

struct SsspGraphShape {
  int64_t n = 0, m = 0;
  double mean_weight = 1;  // over the edges (1 without edges)
  size_t value_bytes = 4;  // sizeof the distance type
  SsspHopDepth depth{-1, 0};  // sssp_hop_depth from vertex 0 up to sssp_shallow_levels(n) levels and
                              // (n + 1) / 2 vertices; levels -1: not measured
  bool in_edges = false;      // the in-edges are on the device whatever this plan's pull rounds
                              // (another lanes program pulls): counted in graph_bytes
  bool renumbered = false;    // the vertices' new ids on the device (4 n bytes, ORDER), and
                              // while the order is made its searches' 12 n bytes or the graph
                              // renumbered beside the one given: counted in graph_bytes
};
// Searches that count as shallow for the lanes' choices: a mean degree past
// kSsspLanesRowsDegree and half the vertices within sssp_shallow_levels(n) levels.
bool sssp_shallow_searches(const SsspGraphShape& g);
// Searches measured deep: vertex 0's search past sssp_shallow_levels(n) levels
// before it reached half the vertices (no depth measured: not deep).
bool sssp_deep_searches(const SsspGraphShape& g);
// Rows in lanes come back through two pinned slots of one part each: at most
// `cap` bytes, and where the rows are few a 32nd of their `rows_bytes`, at least
// kSsspSlotPartMin (pinning two 64 MiB slots for a 150 MB road graph's rows cost
// more than its kernels). The engine sizes its slots so, auto's estimate charges
// them so.
constexpr uint64_t kSsspSlotPartMin = uint64_t{8} << 20;
// Vertex ids with locality (ORDER=0) pay from this many sources on, for a graph
// of n vertices: max(512, 4096 (10^5 / n)^0.9). The order (four breadth-first
// searches, the Hilbert keys' sort, the graph renumbered on the device) paid on
// an H200 from about 4 096 sources at 10^5 vertices and from fewer than 512 at
// 10^6 and 2^24 (geometric graphs; docs/performance/sparse.md "Vertex ids with
// locality").
int64_t sssp_order_min_sources(int64_t n);
uint64_t sssp_slot_part_bytes(uint64_t rows_bytes, uint64_t cap);
struct SsspDeviceShape {
  uint64_t budget = 0, max_alloc = 0;  // device memory to use, largest allocation
  int64_t compute_units = 1;
  bool gpu = true;
  size_t max_work_group = 1;
};

struct SsspPlan {
  double percent = 0;        // bucket width, % of the mean weight: one source a group
  double percent_lanes = 0;  // the same for sssp_lanes
  int vw_log = 0;            // log2 of the virtual warp
  uint64_t graph_bytes = 0, per_source = 0, per_group = 0;  // device bytes: the graph (and its in-edges
                                                            // where pull > 0), a source, a group of lanes
  int64_t batch_sources = 0;  // sources a launch, one a group (0: one source does not fit)
  // Room for a second distance buffer of batch_sources rows: rows through pinned
  // slots read one launch's rows on the download queue while the next launch
  // writes the other buffer.
  bool dist_twice = false;
  int64_t lane_groups = 0;    // lanes groups a launch: wanted (BATCH, or a wave of resident groups)
  int64_t lane_groups_max = 0;  // and fitting the device (0: a group of lanes does not fit)
  size_t lane_wg = 0;         // work-items of a lanes group to use
  uint64_t lane_buffer_unit = 1;  // a lanes group's distances or its queues, whichever is larger:
                                  // a buffer holds max_alloc / this many groups
  bool lanes_rows = false;        // rows in lanes (ROW_LANES or LANES >= 4; LANES=0: a low mean degree,
                                  // or shallow searches with a wave's rows past the cache)
  std::string lanes_rows_reason;  // why (the placement line): "LANES=8", "ROW_LANES=16",
                                  // "mean degree 3.99 <= 5", ...
  int64_t lane_groups_rows = 0;   // groups a launch of rows takes: its rows in source order
                                  // beside it (one buffer, kSsspLaneRowsBytes at most); 0: none fits
  int pull = 0;  // sssp_lanes: a near round whose queue holds more than pull % of the vertices
                 // pulls (PULL 1-50 as given; PULL=0: kSsspPullShallow on shallow searches of
                 // a mean degree past kSsspLanesRowsDegree); 0: never (PULL=100 too)
};

// `lane_wg_built`: the lanes group size the solver's program has (the resolved
// LANE_WG); the plan doubles it where memory holds fewer groups than the device
// runs at once or, on GPUs, where rounds pull by default (PULL=0, shallow searches), and
// LANE_WG was not given. Resident groups are counted as 2048
// work-items an SM (registers ignored: docs/performance/sparse.md).
SsspPlan plan_sssp(const SsspGraphShape& g, const SsspDeviceShape& dev, const Tunables& t, int lanes,
                   size_t lane_wg_built);

// Rows in lanes in a program of their own beside the LANES program (which --stats,
// betweenness and the figures keep): `lanes` sources a group (0: rows take the
// LANES program) and the tunables its build and plan_sssp take (LANES and LANE_WG
// its own, PULL only where given as 1-99, else 100: none). ROW_LANES=K (4-32) as
// given on any device; ROW_LANES=0 with LANES=0: kSsspRowLanes in groups of
// kSsspRowLaneWg (LANE_WG where given) on GPUs where searches are shallow
// (sssp_shallow_searches), else 0; 0 where LANES is given.
struct SsspRowProgram {
  int lanes = 0;
  Tunables t;
};
SsspRowProgram sssp_row_program(const SsspGraphShape& g, const SsspDeviceShape& dev, const Tunables& t,
                                size_t lane_wg_built);

}  // namespace ocl_sp
