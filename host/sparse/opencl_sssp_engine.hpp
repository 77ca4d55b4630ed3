// The OpenCL engine of the multi-source solve (sssp.hpp, kernels/sssp.cl): the
// graph lives on every chosen device (one, a list, gpu:all or --split parts);
// each run() deals its sources to the devices in proportion to their batch sizes,
// one work-group per source (or LANES sources side by side a group), and reads the
// rows back. Tunables: WG (work-group size), DELTA (near-far bucket width, percent
// of the mean edge weight), BATCH (sources per launch per device; 0 = from device
// memory), VW, LANES, LANE_WG, PULL, ROW_LANES (rows in lanes from a program of
// their own: LaneProgram prog[1]).
//
// The engine's members are defined by concern: opencl_sssp.cpp (set-up, the
// graph's upload and plan), opencl_sssp_rows.cpp (batches of rows or row figures,
// the pinned slots, dealing sources to devices), opencl_sssp_lanes.cpp (sources
// side by side: --stats in one pass). Internal to host/sparse.
#pragma once
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "solvers/opencl_base.hpp"
#include "sparse/betweenness.hpp"
#include "sparse/sssp.hpp"
#include "sparse/sssp_plan.hpp"
#include "sparse/stats_sink.hpp"
#include "util/env.hpp"

namespace ocl_sp::detail {

constexpr size_t kColumnWg = 64;  // work-items a group of sssp_lanes_column_figures
constexpr size_t kLaneRowsWg = 256;  // work-items a group of sssp_lanes_rows
constexpr size_t kRowsInOrderWg = 256;  // work-items a group of sssp_rows_to_scratch / sssp_rows_in_order
// The searches, sssp_lanes's pull rounds and the figure kernels: one program
// (OpenClCore::build).
constexpr const char* kSsspFiles = "sssp.cl+sssp_pull.cl+sssp_figures.cl+sssp_order.cl";
// From the start of `from` to the end of `to` (commands one after another on an
// in-order queue), and a finished command's own device time.
inline double span(const cl::Event& from, const cl::Event& to) {
  return 1e-9 * static_cast<double>(to.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                    from.getProfilingInfo<CL_PROFILING_COMMAND_START>());
}
inline double span(const cl::Event& e) { return span(e, e); }
// __local bytes sssp_lanes holds besides its set and the pull rounds' memory (its
// counters, the far pile's minimum), with room to spare.
constexpr size_t kLanesLocalRest = 1u << 10;

template <typename T>
class OpenClSsspEngine final : public SsspEngine<T>,
                               public SlotEngine<T>,
                               public FinalRowsEngine<T>,
                               public RowFiguresEngine,
                               public ColumnFiguresEngine,
                               public BetweennessEngine<T>,
                               public SourceCountEngine {
  // A pinned host slot for a batch's rows (slots()), and the batch in it.
  struct Slot {
    cl::Buffer buf;
    T* ptr = nullptr;
    uint64_t bytes = 0;
    std::vector<cl_int> src;
    int64_t count = 0;
    cl::Event write, kernel, read;
    cl::Event first;  // the launch's first kernel (a renumbered graph's sssp_map_sources; else `kernel`)
    bool pending = false;
    // A source a group in parts (submit_part): the distance buffer the part is
    // read from (0 dist, 1 dist2), and whether its wait counts the launch's
    // kernels (`first`, `kernel`: the launch's first part).
    int at = 0;
    bool counts = false;
  };
  // Arguments of the kernels' probes (OpenClCore::kernel): one source on a
  // one-vertex graph.
  struct ProbeBuffers {
    cl::Buffer off, one, dist, lane, fig;
    ProbeBuffers(const cl::Context& ctx, int lanes) {
      cl_int zero[2] = {0, 0};
      off = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero);
      one = cl::Buffer(ctx, CL_MEM_READ_WRITE, 4 * kSsspScratchRows);
      dist = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(T));
      lane = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(T) * static_cast<size_t>(lanes));
      fig = cl::Buffer(ctx, CL_MEM_READ_WRITE, sizeof(RowFigures));
    }
  };
  // Lanes mode: one launch's distances and queues (per_buf groups a buffer), its
  // sources, their lane slots and its row figures. --stats takes launches in turn
  // on two such sets (run_lanes_stats).
  struct LaneSet {
    std::vector<cl::Buffer> dist, scratch;
    cl::Buffer src, slot_of, fig;  // slot_of[r]: the lane slot (group x LANES + lane) of source r
    cl::Buffer row_of;             // rows in lanes: row_of[q], the source r of lane slot q
    std::vector<cl_int> src_host, slot_host, row_host;  // what the launch's writes read
    std::vector<RowFigures> by_slot;          // its row figures as read, by lane slot
    RowFigures* to = nullptr;                 // where they go, in source order
    cl::Event read;
    bool pending = false;  // `read` enqueued, its figures not yet dealt to `to`
  };
  // A program of sssp_lanes for the prepared graph: `lanes` sources a group of `wg`
  // work-items, its sssp_lanes_rows, its pull rounds and the plan's groups for it.
  struct LaneProgram {
    int lanes = 8;
    size_t wg = 0;
    cl::Kernel search;  // sssp_lanes
    cl::Kernel rows;    // sssp_lanes_rows: a lanes launch's rows in source order into Device::rows
    // Pull rounds (PULL, kernels/sssp_pull.cl): the queue size from which a round
    // pulls (0: never), the plan's percent, the __local bytes of its bitmap and
    // tile (sssp_pull_local_bytes; 4 without).
    int pull_min = 0, pull = 0;
    size_t pull_bytes = 4;
    int64_t groups = 0, groups_max = 0;  // groups wanted a launch, and fitting
    int64_t groups_rows = 0;             // the same for rows in lanes (`rows` beside them)
    uint64_t buffer_unit = 1;            // what a buffer of per_buf groups is sized by (SsspPlan)
  };
  struct Device {
    std::unique_ptr<detail::OpenClCore> core;
    Tunables t;
    // kernel: sssp_near_far (a launch's queues in one buffer), kernel_bufs:
    // sssp_near_far_bufs (in up to four); figures: sssp_row_figures (with fp64).
    cl::Kernel kernel, kernel_bufs, figures;
    // sssp_near_far with its row in __local memory (LOCAL_ROW; its own program,
    // use_local_row), taken where local_row is set for the prepared graph.
    cl::Kernel kernel_local;
    bool local_row = false;
    // Searches on renumbered ids in groups of order_wg (ORDER_WG, sssp_order_wg;
    // the near-far kernels of their own program, use_order_wg, built for
    // order_built), and the plan's launches for them (sources, room for a second
    // distance buffer): taken once the prepared graph is renumbered
    // (take_order_wg). order_wg 0: WG's kernels.
    cl::Kernel order_kernel, order_kernel_bufs;
    size_t order_wg = 0, order_built = 0;
    int64_t order_batch = 0;
    bool order_dist_twice = false;
    cl::Kernel lanes_fig, lanes_col;  // sssp_lanes' figures (with fp64; prog[0]'s)
    // prog[0]: the LANES program (--stats, figures, betweenness, and rows unless
    // they have their own); prog[1]: rows' own program (rows_own: ROW_LANES,
    // sssp_row_program). `on`: the one the buffers are set up for (set_mode).
    LaneProgram prog[2];
    bool rows_own = false;
    int on = 0;
    cl::Buffer rows;        // rows in lanes: the launch's rows, count x n (mode 2)
    // Rows in lanes through the slots: a launch read back in parts of slot_batch
    // sources; d.rows holds sources [launch_first, + launch_count) of the list
    // slot_sources() gave, and sssp_lanes of the next launch (next_first, next_count)
    // may already be enqueued behind it. Host arrays of the last three launches'
    // writes (each stays until its launch's reads are waited for).
    int64_t slot_batch = 0;
    int64_t launch_first = -1, launch_count = 0, next_first = -1, next_count = 0;
    cl::Event transposed;  // the current launch's sssp_lanes_rows
    std::vector<cl_int> lay_src[3], lay_slot[3], lay_row[3];
    int lay_at = 0;
    std::vector<std::pair<const char*, cl::Event>> kernel_events;  // not yet counted in a wait()
    double slot_tk = 0;  // kernel seconds counted in wait() since slots() (several devices: T_k their max)
    cl::Buffer off, col, w, src, dist, fig, acc;  // acc: column figures
    // The graph on the device renumbered (renumbered_): new_id[v], v's id there;
    // a source a group's launches run sssp_map_sources before the search and
    // sssp_rows_to_scratch, sssp_rows_in_order after it (kernels/sssp_order.cl).
    // Lanes take the graph as given (set_mode uploads it again).
    cl::Buffer new_id;
    bool renumbered = false;
    cl::Kernel map_sources, to_scratch, in_order;
    cl::Kernel order_hops, order_renumber;  // the order's searches; the graph renumbered (sssp_order.cl)
    // A source a group through the slots: slot 1's launches write dist2 (where the
    // plan has room: dist_twice), so a launch's rows are read on the download
    // queue while the next one runs.
    cl::Buffer dist2;
    bool dist_twice = false;
    // Several devices, a source a group, rows (run() beside the host, runs_ahead()):
    // the launch started before the rows before it were read, into dist (pre_at 0)
    // or dist2 (1); pre_src[k]: the sources of buffer k's last launch (the host
    // array its write reads, and what a run's batch is checked against).
    std::vector<cl_int> pre_src[2];
    int pre_at = 0;
    bool pre_pending = false;
    cl::Event pre_kernel, pre_first;  // pre_first: as Slot::first
    cl::Event pre_write[2];           // the last write from pre_src[k] (waited for before it is refilled)
    // One device through the slots (submit_part): the launch being read is in
    // distance buffer launch_at (sources [launch_first, + launch_count) of the
    // list, as for rows in lanes), launch_kernel its last kernel.
    int launch_at = 1;
    cl::Event launch_kernel;
    // A source a group: the launch's queues in up to kSsspLaneBuffers buffers of
    // source_per_buf sources each (sssp.cl GROUP_SCRATCH).
    std::vector<cl::Buffer> scratch;
    int source_per_buf = 1;
    // The near-far kernel a launch takes: sssp_near_far where one buffer holds
    // the queues, sssp_near_far_bufs past that.
    bool one_scratch() const { return scratch.size() == 1; }
    const char* near_far_name() const { return one_scratch() ? "sssp_near_far" : "sssp_near_far_bufs"; }
    // Pull rounds of sssp_lanes (kernels/sssp_pull.cl): the graph's in-edges, and
    // the __local bytes they may take (the device's, sssp_lanes' set aside).
    cl::Buffer pull_off, pull_src, pull_w;
    size_t pull_local = 0;
    int64_t batch = 0;  // sources per launch for the prepared graph, in the current mode
    int64_t batch_sources = 0;  // the same, a group a source
    int mode = -1;  // what dist/scratch are sized for: 0 a group a source, 1 lanes, 2 lanes and `rows`
    std::vector<LaneSet> sets;  // lanes mode
    // lane_order's scratch, one a device: the devices' threads order their
    // launches at the same time (a shared one was resized and written by several
    // threads at once: heap corruption on 4 GPUs).
    std::vector<int32_t> order_mark;
    int per_buf = 1;
    size_t lane_wg_built = 0;  // the lanes group size the solver's program has (LANE_WG)
    // sssp_lanes and sssp_lanes_rows built so far, by lanes and group size
    std::map<std::pair<int, size_t>, std::pair<cl::Kernel, cl::Kernel>> lanes_built;
    std::string defines;  // the -D options sssp.cl was built with
    uint64_t budget = 0, max_alloc = 0;
    RunStats st;
    T delta = 1;     // near-far bucket width for the prepared graph
    T delta_lanes = 1;  // the same for sssp_lanes
    int vw_log = 0;  // log2 of the virtual warp
    Slot slot[2];
    // Betweenness (opencl_betweenness.cpp): kernels/betweenness.cl's kernels, the
    // graph's in-edges, bc_groups slots of scratch (bc_node: a vertex's record), the
    // batch's sources and flags.
    cl::Kernel bc, bc_sum;
    cl::Buffer in_off, in_src, in_edge, bc_indeg, bc_node, bc_order, bc_level, bc_out, bc_src, bc_flags;
    int64_t bc_groups = 0;
    size_t bc_wg = 0;
    bool bc_with_indeg = false;  // bc was built with BC_INDEG (OCL_SP_BC_INDEG)
  };

 public:
  explicit OpenClSsspEngine(const SolverSpec& spec);

  SolverInfo& info() override { return info_; }

  ~OpenClSsspEngine() override;

  void prepare(const Csr<T>& g, RunStats& st) override { prepare_graph(g, st, true); }

  // Rows in lanes chosen for the graph (LANES=0) but fewer sources than a group of
  // rows' lanes on every compute unit: a source a group (opencl_sssp.cpp).
  void source_count(int64_t count, RunStats& st) override;

  int64_t batch(int64_t) const override {
    // Rows in lanes, or a source a group in parts: the slots' parts (several
    // devices: the smallest device's).
    if (all_lanes_rows() || in_parts(devices_[0])) {
      int64_t part = devices_[0].slot_batch;
      for (const auto& d : devices_) part = std::min(part, d.slot_batch);
      return std::max<int64_t>(part, 1);
    }
    int64_t b = 0;
    for (const auto& d : devices_) b += d.batch;
    return std::max<int64_t>(b, 1);
  }

  int host_threads() const override { return omp_get_max_threads(); }
  bool runs_beside_host() const override { return devices_.size() > 1; }

  // Two batches in flight: the rows come back into two pinned host
  // slots (mapped CL_MEM_ALLOC_HOST_PTR buffers: DMA at full speed, no staging
  // copy), at most kSlotBytes a slot, else run(). A source a group: launches in
  // parts with two distance buffers (submit_part), else one in-order queue
  // (kernel k + 1 runs once rows k are read; their device buffers are shared).
  // Rows in lanes: sssp_lanes and sssp_lanes_rows on the compute queue, a launch's
  // rows read back in batches (d.slot_batch) on the download queue, so
  // its reads run beside the next launch's sssp_lanes (its sssp_lanes_rows waits
  // for them).
  static constexpr uint64_t kSlotBytes = uint64_t{1} << 30;
  bool slots(int64_t batch) override;
  // Several devices (rows in lanes only): the list is cut into launches of
  // launch_per_ sources, whole parts, dealt to the devices in turn (launch j on
  // device j mod D; as many launches on each, at most what the smallest holds);
  // each device has two slots and its launches' state as one device has, its
  // next launch enqueued behind the one being read, and every
  // device's first launch starts here. The parts come back in list order, one
  // device's launch after another's, while the other devices compute.
  void slot_sources(const int64_t* sources, int64_t count) override;
  void submit(int slot, const int64_t* sources, int64_t count) override;
  void wait(int slot, RunStats& st) override;
  T* slot_rows(int slot) override { return ring_[slot]->slot[slot].ptr; }
  void run(const int64_t* sources, int64_t count, T* out, RunStats& st) override;
  void runs_ahead(const int64_t* sources, int64_t count, int64_t batch) override;

  // Rows with the output's unreachable value, written by sssp_near_far's last
  // pass or by sssp_lanes_rows (out_inf), on every device.
  bool final_rows(bool on) override {
    final_rows_ = on;
    return on;
  }

  bool reduces_rows() const override { return reduces_; }
  void run_figures(const int64_t* sources, int64_t count, bool harmonic, RowFigures* out,
                   RunStats& st) override;
  int64_t figures_batch() const override {
    int64_t b = 0;
    for (const auto& d : devices_) b += mode_batch(d, lanes_rows_);
    return std::max<int64_t>(b, 1);
  }

  // Every vertex a source, lanes_ side by side: each launch's row figures come
  // back, its column figures continue on the device (acc) in source order.
  bool reduces_columns() const override { return lanes_stats_ && lanes_fit_; }
  // Deep searches of a mean degree past 5 (LANES=0): a source a group ran --stats
  // of geometric graphs 1.58x faster than 8 lanes (H200, docs/performance/stats.md).
  bool prefers_row_figures() const override { return deep_; }
  void run_all_figures(bool harmonic, RowFigures* rows, RowFigures* cols, RunStats& st) override;

  // Brandes' passes beside the rows (opencl_betweenness.cpp, kernels/betweenness.cl).
  bool betweenness_on_device() const override { return reduces_; }
  bool prepare_betweenness(const Csr<T>& g, const InEdges& in, RunStats& st) override;
  bool betweenness_figures() const override {
    return devices_.size() == 1 && lanes_rows_ && reduces_ && reduces_columns();
  }
  void run_betweenness(const int64_t* sources, int64_t count, bool endpoints, std::vector<Fixed>& sums,
                       std::vector<uint8_t>& flags, RunStats& st, RowFigures* rows, RowFigures* cols) override;
  uint64_t scratch_bytes() const override;
  std::vector<int64_t> betweenness_shares() const override { return shares_; }

 private:
  // A batch left in flight (an exception in the solver) finishes before the
  // device's buffers or slots are used again.
  static void settle_slots(Device& d);
  // Betweenness's scratch and in-edges released (prepare: the plan that follows
  // counts on the whole budget; prepare_betweenness allocates them again after it).
  static void release_betweenness(Device& d);
  static void release(Device& d, Slot& sl);
  // prepare(): the graph uploaded and planned on every device; rows in lanes in
  // a program of their own where sssp_row_program says so and `rows_own` allows it
  // (betweenness: no, its rows take the LANES program).
  void prepare_graph(const Csr<T>& g, RunStats& st, bool rows_own);
  // g's CSR on device d, with new_id_ where `renumbered` (g is then the prepared
  // graph renumbered by it).
  void upload_graph(Device& d, const Csr<T>& g, bool renumbered, RunStats& st);

  // Sources [0, count) dealt to the devices in proportion to their batches, each
  // share run in batches by `chunk(device, first, count)`, on a thread per device.
  template <typename F>
  void deal(int64_t count, RunStats& st, const F& chunk) {
    deal_shares(count, st, [&](Device& d, int64_t lo, int64_t hi) {
      for (int64_t a = lo; a < hi; a += d.batch) chunk(d, a, std::min(d.batch, hi - a));
    });
  }
  // The same with each device's whole share [lo, hi) to `share(device, lo, hi)`.
  // Shares in proportion to the devices' batches in the mode set now (not to
  // batch(), which for rows in lanes is one slot part: the first device would
  // take every source).
  // Device i's share of `count` sources: [first[i], first[i + 1]).
  std::vector<int64_t> share_bounds(int64_t count) const {
    int64_t total = 0;
    for (const auto& d : devices_) total += std::max<int64_t>(d.batch, 1);
    std::vector<int64_t> first(devices_.size() + 1, 0);
    for (size_t i = 0; i < devices_.size(); ++i)
      first[i + 1] = first[i] + (i + 1 == devices_.size()
                                     ? count - first[i]
                                     : std::min(count - first[i],
                                                (count * std::max<int64_t>(devices_[i].batch, 1) + total - 1) / total));
    return first;
  }
  template <typename F>
  void deal_shares(int64_t count, RunStats& st, const F& share) {
    const std::vector<int64_t> first = share_bounds(count);
    shares_.assign(devices_.size(), 0);
    for (size_t i = 0; i < devices_.size(); ++i) shares_[i] = first[i + 1] - first[i];
    std::vector<std::exception_ptr> errors(devices_.size());
    auto work = [&](size_t i) {
      try {
        share(devices_[i], first[i], first[i + 1]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    };
    if (devices_.size() == 1) {
      work(0);
    } else {
      std::vector<std::thread> threads;
      for (size_t i = 0; i < devices_.size(); ++i) threads.emplace_back(work, i);
      for (auto& t : threads) t.join();
    }
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    double tk = 0, th = 0;
    for (auto& d : devices_) {
      tk = std::max(tk, d.st.t_k);
      th = std::max(th, d.st.t_h);
      st.kernel_launches += d.st.kernel_launches;
      for (const auto& [k, v] : d.st.kernel_seconds) st.kernel_seconds[k] += v;
      st.bytes_moved += d.st.bytes_moved;
      d.st = RunStats();
    }
    st.t_k += tk;
    st.t_h += th;
  }

  // The near-far search of a batch of `count` sources (in d.src), rows with the
  // output's unreachable value when `final`: its kernel (sssp_near_far where the
  // queues are one buffer, else sssp_near_far_bufs) with its arguments set, and
  // its work-group size.
  struct NearFar {
    cl::Kernel& kernel;
    size_t wg;
  };
  NearFar solve_args(Device& d, int64_t count, bool final, const cl::Buffer& dist);
  void use_local_row(Device& d);
  void use_order_wg(Device& d, size_t wg);
  static void near_far_kernels(detail::OpenClCore& core, const ProbeBuffers& pb, const std::string& what, size_t wg,
                               const cl::Program* from, cl::Kernel& one, cl::Kernel& bufs);
  void take_order_wg(Device& d);
  // The unreachable value the row kernels write (out_inf).
  T out_inf(bool final) const { return final ? ValueTraits<T>::inf : kRawInf<T>; }

  // Buffer i of a lane set's distances or queues (sssp.cl LANE_BUFFERS: unused
  // ones repeat the last).
  static const cl::Buffer& lane_buf(const std::vector<cl::Buffer>& v, size_t i) {
    return v[std::min(i, v.size() - 1)];
  }

  // A lanes launch of `count` sources into set s on queue q: their group order
  // (lane_order), the sources and slots written, sssp_lanes enqueued; the row
  // figures (with `figures`) after it. Returns the launch's groups.
  int64_t enqueue_lanes(Device& d, LaneSet& s, const int64_t* sources, int64_t count, bool figures,
                        bool harmonic, detail::OpenClCore::QueueId q);
  // The group order of `count` sources (lane_order): src[q] the source of lane
  // slot q, slot_of[r] the lane slot of sources[r], row_of its inverse.
  void lane_layout(Device& d, const int64_t* sources, int64_t count, std::vector<cl_int>& src, std::vector<cl_int>& slot_of,
                   std::vector<cl_int>& row_of);
  // sssp_lanes' arguments for `count` sources (in s.src) over set s; returns its groups.
  int64_t lanes_args(Device& d, LaneSet& s, int64_t count);
  // sssp_lanes_rows' arguments for `count` sources of set s (row_of in s.row_of)
  // into d.rows; returns the launch's global size.
  size_t lanes_rows_args(Device& d, LaneSet& s, int64_t count);
  // Through the slots: a lanes launch of `count` sources (its writes and sssp_lanes
  // on the compute queue, unwaited; the host arrays the next of d.lay_*).
  void enqueue_slot_launch(Device& d, const int64_t* sources, int64_t count);

  // Set s's row figures read back (the read enqueued after its kernels) into
  // s.to in source order.
  void read_lane_figures(Device& d, LaneSet& s, detail::OpenClCore::QueueId q);
  // Set s's finished launch, if any: its row figures dealt to s.to in source
  // order, its counters (lane_counters) shown.
  void collect_lanes(Device& d, LaneSet& s);

  // sssp_lanes and sssp_lanes_rows of `lanes` sources a group of `wg` work-items
  // into p: the solver program's (built for LANES and the resolved LANE_WG) or one
  // built for them on the first graph that wants it (its own program and cache
  // entry), kept for later graphs.
  void use_lanes(Device& d, LaneProgram& p, int lanes, size_t wg);
  // The lanes program of d's current mode (set_mode).
  static LaneProgram& lanes_of(Device& d) { return d.prog[d.on]; }
  // The program d's rows in lanes take.
  static const LaneProgram& rows_program(const Device& d) { return d.prog[d.rows_own ? 1 : 0]; }


  // The device's distance and queue buffers sized for one source a group (lanes
  // false) or prog[0]'s sources a group in `sets` lane sets, each a launch of up
  // to its groups (the sets share the memory that fits); d.batch follows.
  // Buffers of the other mode go first (device memory holds one set).
  // rows: lanes with d.rows beside them (mode 2), in rows' program (rows_program)
  // with its groups_rows groups a launch.
  void set_mode(Device& d, bool lanes, size_t sets = 1, bool rows = false);
  // The batch set_mode(d, lanes, sets, rows) gives d (d.batch), and the program
  // and lane groups a launch of that mode takes.
  int64_t mode_batch(const Device& d, bool lanes, size_t sets = 1, bool rows = false,
                     int* program = nullptr, int64_t* groups = nullptr) const;

  // One batch on one device: its rows into `out`, or (out null) their figures.
  void run_on(Device& d, const int64_t* sources, int64_t count, T* out, bool harmonic, RowFigures* fig);
  // Several devices, a source a group, rows: device i's share [lo, hi) of run()'s
  // batch, each part's launch started (into the other distance buffer) before the
  // part before it is read: the next part of the share, or the device's first of
  // the next batch of runs_ahead()'s list. Reads on the download queue.
  void run_rows_ahead(Device& d, size_t i, const int64_t* sources, int64_t count, int64_t lo, int64_t hi,
                      T* out);
  // The device's next launch of a source a group into distance buffer `at`
  // (0 dist, 1 dist2), unwaited: d.pre_*.
  void launch_ahead(Device& d, int at, const int64_t* sources, int64_t count);
  // One device, a source a group, two distance buffers: a launch of launch_per_
  // sources of the list (whole parts) into one buffer, each part read from it
  // into slot `sl` on the download queue; the next launch (into the other
  // buffer, behind the other slot's read of it) goes in at this launch's first
  // part, so it runs beside these reads. Slots of a part, not of a launch: two
  // 64 MiB slots pin in ~80 ms where a launch's (1 056 rows of 400 KB at n =
  // 10^5) took ~0.5 s.
  void submit_part(Device& d, int slot, const int64_t* sources, int64_t count);
  // Rows of a source a group through the slots in parts (submit_part): one
  // device with a second distance buffer.
  bool in_parts(const Device& d) const { return devices_.size() == 1 && d.mode == 0 && d.dist_twice; }
  // A renumbered device's kernels around a source a group's search of `count`
  // sources (in d.src) into dist, on the compute queue: the sources mapped to its
  // ids before, the rows back in the input's order after.
  void map_sources(Device& d, int64_t count, cl::Event* e);
  void rows_in_order(Device& d, int64_t count, const cl::Buffer& dist, cl::Event* e);
  // Their launch: with event e, or (none) recorded for the run's T_k.
  void enqueue_around(Device& d, cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local, cl::Event* e);
  // A source a group's launch on the compute queue: the sources (src, read until
  // `write` completes) into d.src, then sssp_near_far over them into dist
  // (`first`: the launch's first kernel, for its span).
  void enqueue_near_far(Device& d, const std::vector<cl_int>& src, const cl::Buffer& dist, cl::Event* write,
                        cl::Event* kernel, cl::Event* first);
  // A second distance buffer where the plan has room for one (dist_twice, mode 0):
  // whether the device has it now.
  bool second_dist(Device& d);

  // --stats, every source in lanes: launches take the device's lane sets in turn,
  // set i on queue i (kCompute, kSide), so one launch's search fills the SMs the
  // previous one's last groups leave idle and runs beside its figure kernels. The
  // column figures still continue in source order: each launch's waits for the
  // previous one's. Rows' figures to `rows`, columns' continued in d.acc.
  void run_lanes_stats(Device& d, const int64_t* sources, int64_t count, bool col_harmonic, RowFigures* rows);
  // The same over several devices with the column figures in one order whatever
  // the placement: launches of consecutive sources dealt round-robin to the
  // devices, and the column sums handed from each launch to the next (through the
  // host) so they continue in source order as on one device: the same bits on 1,
  // 2 or 4 devices and any batch size. Searches run side by side; only the column
  // kernels (a read of each launch's distances) and the hand-over take turns.
  void run_lanes_stats_in_turn(const int64_t* sources, int64_t count, bool col_harmonic, RowFigures* rows,
                               RowFigures* cols, RunStats& st);

  // Waits for the device's queues and adds what ran since begin_solve() to d.st.
  static void account(Device& d, double bytes);

  // OCL_SP_EXTRA_BUILD_OPTIONS=-DLANE_COUNTERS with OCL_SP_LANE_COUNTERS=1
  // (experiments): the first and the middle group's rounds, phases, vertex
  // expansions and idle work-item rounds of set s's finished launch to stderr.
  void lane_counters(Device& d, LaneSet& s);

  std::vector<Device> devices_;
  const int64_t* ahead_ = nullptr;  // slot_sources(): the list the slots' batches come from
  int64_t ahead_count_ = 0;
  int64_t launch_per_ = 0;            // several devices: sources a launch (slots(), slot_sources())
  int64_t slot_part_ = 0;             // sources a slot (slots()' batch)
  const int64_t* beside_ = nullptr;    // runs_ahead(): the list run()'s batches come from
  int64_t beside_count_ = 0, beside_batch_ = 0;
  // run_rows_ahead()'s parts, and those whose launch the part before started
  // (OCL_SP_PROFILE when the list is forgotten).
  std::atomic<int64_t> ahead_parts_{0}, ahead_started_{0};
  Device* ring_[2] = {nullptr, nullptr};  // the device of the part in each slot
  double slot_tk_max_ = 0;            // the largest Device::slot_tk counted into a RunStats
  bool all_lanes_rows() const {
    for (const auto& d : devices_)
      if (d.mode != 2) return false;
    return !devices_.empty();
  }
  const Csr<T>* graph_ = nullptr;  // the prepared graph (it outlives the runs after prepare)
  // OCL_SP_LANE_ORDER=ids: lanes groups take consecutive sources as they come
  // (experiments: the blocks' gain, docs/performance/sparse.md).
  const bool lanes_by_id_ = [] {
    const char* e = std::getenv("OCL_SP_LANE_ORDER");
    return e && std::string(e) == "ids";
  }();
  // Lane sets --stats takes in turn (run_lanes_stats): 2; OCL_SP_LANE_SETS=1 one
  // launch at a time (comparisons).
  const size_t lane_sets_ = [] {
    const char* e = std::getenv("OCL_SP_LANE_SETS");
    return e && std::string(e) == "1" ? size_t{1} : size_t{2};
  }();
  // Rows in lanes (and a source a group's, in_parts): a launch read back in parts
  // of at most this many bytes, the slots' size: 64 MiB on one device (pinning costs ~0.8 s a GiB on an H100, and
  // parts of 64 MiB to 1 GiB read the 316 x 316 grid's 40 GB in the same 0.84 s);
  // D devices pin two slots each, so 64 / D MiB each (4 H200s: slots set up
  // 265 -> 74 ms, the reads as fast). OCL_SP_LANE_PART_MIB=M (experiments; at
  // most kSlotBytes).
  const int lane_part_mib_ = env_int("OCL_SP_LANE_PART_MIB", 0, 1, INT_MAX);
  int64_t sources_ = 0;  // source_count(): the rows' sources (0: not told)
  void size_slot_parts(Device& d) const;  // d.slot_batch for d.batch (mode 2, in_parts)
  uint64_t lane_part_bytes() const {
    const uint64_t bytes = lane_part_mib_ ? static_cast<uint64_t>(lane_part_mib_) << 20
                                          : std::max(kSsspSlotPartMin, (64 / std::max<uint64_t>(devices_.size(), 1)) << 20);
    return std::min(bytes, kSlotBytes);
  }
  std::string chosen_;  // "VW 4, buckets 1006% of the mean weight"
  bool reduces_ = true;  // every device has doubles: --stats reduces rows there
  int lanes_ = 8;             // sources a group of the LANES program (prog[0])
  int lanes_param_ = 0;       // LANES as given: 0 lets the plan choose rows' layout per graph
  int row_lanes_param_ = 0;   // ROW_LANES as given (4-32: rows in lanes, that many a group)
  int order_param_ = 0;       // ORDER as given (0: ids with locality for deep searches, 1: never, 2: always)
  // The prepared graph renumbered on the devices (graph/vertex_order.hpp; rows a
  // source a group): new_id_[v], v's id there. Wanted for the prepared graph
  // (ORDER, deep searches), done in source_count where the sources are at least
  // order_min_sources_ (sssp_order_min_sources(n); OCL_SP_ORDER_MIN_SOURCES=K for
  // experiments) or ORDER=2.
  bool renumber_wanted_ = false, renumbered_ = false;
  std::vector<int32_t> new_id_;
  // (0: sssp_order_min_sources of the graph's size)
  const int64_t order_min_sources_ = env_int("OCL_SP_ORDER_MIN_SOURCES", 0, 1, INT_MAX);
  void order_vertices(RunStats& st);  // new_id_ found, the graph renumbered on every device
  // The order from hop distances breadth first over device d (sssp_order_hops, a
  // launch a level): locality_order's four searches.
  std::vector<int32_t> device_order(Device& d, RunStats& st);
  // Device d's graph (as given) renumbered by new_id_ there (sssp_order_renumber);
  // new_off: the renumbered rows' offsets.
  void renumber_on(Device& d, const std::vector<cl_int>& new_off, RunStats& st);
  bool final_rows_ = false;   // final_rows(): rows with ValueTraits<T>::inf
  bool lanes_rows_ = false;   // rows in lanes mode too (ROW_LANES or LANES >= 4, or the plan's choice)
  bool lanes_rows_graph_ = false;  // the plan's choice for the prepared graph (before source_count)
  std::string lanes_rows_reason_;  // why (the placement line)
  std::string placement() const;   // the report's placement line
  bool lanes_stats_ = true;   // --stats in one pass (LANES != 1, doubles)
  std::vector<int64_t> shares_;  // the sources each device took in the last deal_shares
  bool lanes_fit_ = true;     // a group of lanes fits every device (the prepared graph)
  bool deep_ = false;         // the prepared graph's searches measured deep (LANES=0, degree > 5)
  SolverInfo info_;
  int64_t n_ = 0;
};

}  // namespace ocl_sp::detail
