// Betweenness on the OpenCL engine's devices (opencl_sssp_engine.hpp,
// kernels/betweenness.cl, the arithmetic in betweenness.hpp): each batch's rows
// are computed as run() computes them but stay on the device, where bc_sources
// runs Brandes' passes over them, a work-group a source in its own slot of
// scratch; at the end bc_sum adds the slots up and only n fixed-point sums (and
// a flag a source) come back.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <limits>

#include "sparse/opencl_sssp_engine.hpp"
#include "util/cancel.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"

namespace ocl_sp::detail {

namespace {

// A slot of scratch: the order (int), the level boundaries (n + 1 ints) and a
// 32-byte record (betweenness.cl's bc_node: sigma/coeff and Kahn's counter, the
// tight edges' masks, the 64.64 sum) a vertex; with OCL_SP_BC_INDEG=1 also an
// in-degree array (int: the in-edge counters and wide exponents of the kernel's
// experimental layouts, -DBC_CNT=0 and -DWIDE_EXP_IN_MASK=0, which need it).
constexpr uint64_t kNodeBytes = 32;
// Work-items of bc_sources a GPU compute unit runs at once (prepare_betweenness).
constexpr size_t kBcItemsPerUnit = 768;
bool bc_indeg() { return env_flag("OCL_SP_BC_INDEG"); }
uint64_t bc_slot_bytes(int64_t n) {
  return static_cast<uint64_t>(n) * ((bc_indeg() ? 12 : 8) + kNodeBytes) + 4;
}

}  // namespace

// Betweenness's buffers of a device (scratch_bytes, release_betweenness).
#define OCL_SP_BC_BUFFERS(d)                                                                          \
  {&(d).in_off, &(d).in_src, &(d).in_edge, &(d).bc_indeg, &(d).bc_node, &(d).bc_order, &(d).bc_level, \
   &(d).bc_out, &(d).bc_src, &(d).bc_flags}

template <typename T>
void OpenClSsspEngine<T>::release_betweenness(Device& d) {
  for (cl::Buffer* b : OCL_SP_BC_BUFFERS(d)) *b = cl::Buffer();
}

template <typename T>
uint64_t OpenClSsspEngine<T>::scratch_bytes() const {
  uint64_t bytes = 0;
  for (const auto& d : devices_)
    for (const cl::Buffer* b : OCL_SP_BC_BUFFERS(d))
      if ((*b)()) bytes += b->template getInfo<CL_MEM_SIZE>();
  return bytes;
}

template <typename T>
bool OpenClSsspEngine<T>::prepare_betweenness(const Csr<T>& g, const InEdges& in, RunStats& st) {
  const int64_t n = g.n;
  const uint64_t slot = bc_slot_bytes(n);
  const uint64_t in_bytes = static_cast<uint64_t>(n + 1) * 4 + static_cast<uint64_t>(g.m()) * 8;
  // Slots: enough groups to fill the device, at most a quarter of its budget, each buffer within its
  // largest allocation; the rows' plan gets the rest.
  std::vector<uint64_t> reserve(devices_.size(), 0);
  bool fits = true;
  for (size_t i = 0; i < devices_.size(); ++i) {
    Device& d = devices_[i];
    auto& core = *d.core;
    const bool gpu = core.is_gpu();
    // OCL_SP_BC_WG=K: work-groups of K items (experiments, docs/performance/betweenness.md).
    const size_t wg = static_cast<size_t>(env_int("OCL_SP_BC_WG", gpu ? 256 : 64, 32, 1024));
    const bool indeg = bc_indeg();
    if (d.bc_wg != wg || d.bc_with_indeg != indeg) d.bc = cl::Kernel();
    d.bc_wg = wg;
    d.bc_with_indeg = indeg;
    if (!d.bc()) {
      const std::string what = "BC_WG=" + std::to_string(d.bc_wg);
      core.check_group(what, {d.bc_wg}, 0);
      // The device's wide pass gives the host's long double bits where those are
      // x86's 80-bit extended format (betweenness.hpp); elsewhere the host's.
      constexpr bool extended = std::numeric_limits<long double>::digits == 64 &&
                                std::numeric_limits<long double>::max_exponent == 16384;
      BuiltProgram bp = core.build_separate(
          "betweenness.cl",
          {{"BC_WG", static_cast<int>(d.bc_wg)}, {"BC_WIDE", extended ? 1 : 0}, {"BC_INDEG", indeg ? 1 : 0}},
          d.defines);
      cl::Buffer one(core.context(), CL_MEM_READ_WRITE, 64);
      d.bc = core.kernel("bc_sources", what, {d.bc_wg}, [&](cl::Kernel& k) {
        set_args(k, 1, one, one, one, one, one, one, one, 0, one, T(0), 0, one, one, one, one, one);
      }, &bp.program);
      d.bc_sum = core.kernel("bc_sum", what, {64}, nullptr, &bp.program);
    }
    // A GPU: 768 work-items a compute unit (3 groups of 256), not the 2048 it
    // holds: fewer sources at once keep more of each one's scattered records in
    // the caches (H100, 316 x 316 grid: 2, 3, 4, 5, 6 and 8 groups of 256 a unit,
    // bc_sources 2.59, 2.39, 2.51, 2.72, 2.95 and 3.37 s; docs/performance/
    // betweenness.md). OCL_SP_BC_GROUPS=K: K groups (experiments).
    uint64_t target = static_cast<uint64_t>(core.device().compute_units) *
                      (gpu ? std::max<size_t>(1, kBcItemsPerUnit / d.bc_wg) : 1);
    if (const int k = env_int("OCL_SP_BC_GROUPS", 0, 1, INT_MAX)) target = static_cast<uint64_t>(k);
    uint64_t groups = std::max<uint64_t>(1, target);
    if (d.budget / 4 > in_bytes) groups = std::min(groups, (d.budget / 4 - in_bytes) / slot);
    else groups = 0;
    groups = std::min(groups, d.max_alloc / (static_cast<uint64_t>(n) * kNodeBytes + kNodeBytes));
    if (groups < 1) {
      fits = false;
      break;
    }
    d.bc_groups = static_cast<int64_t>(groups);
    reserve[i] = in_bytes + groups * slot + static_cast<uint64_t>(n) * 16;
  }
  // Betweenness's rows (and the figures beside them) take the LANES program.
  if (!fits) {
    prepare_graph(g, st, false);
    return false;
  }
  for (size_t i = 0; i < devices_.size(); ++i) devices_[i].budget -= reserve[i];
  try {
    prepare_graph(g, st, false);
  } catch (...) {
    for (size_t i = 0; i < devices_.size(); ++i) devices_[i].budget += reserve[i];
    throw;
  }
  for (size_t i = 0; i < devices_.size(); ++i) devices_[i].budget += reserve[i];
  const std::vector<cl_int> off(in.off.begin(), in.off.end()), src(in.src.begin(), in.src.end()),
      edge(in.edge.begin(), in.edge.end());
  for (auto& d : devices_) {
    auto& core = *d.core;
    core.run_guarded("betweenness: cannot allocate its scratch on '" + core.device().name + "'", [&] {
      core.begin_solve();
      const cl::Context& ctx = core.context();
      const size_t un = static_cast<size_t>(n), G = static_cast<size_t>(d.bc_groups);
      d.in_off = cl::Buffer(ctx, CL_MEM_READ_ONLY, off.size() * 4);
      d.in_src = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(src.size(), 1) * 4);
      d.in_edge = cl::Buffer(ctx, CL_MEM_READ_ONLY, std::max<size_t>(edge.size(), 1) * 4);
      core.write(d.in_off, 0, off.size() * 4, off.data(), false);
      if (!src.empty()) {
        core.write(d.in_src, 0, src.size() * 4, src.data(), false);
        core.write(d.in_edge, 0, edge.size() * 4, edge.data(), false);
      }
      d.bc_indeg = cl::Buffer(ctx, CL_MEM_READ_WRITE, d.bc_with_indeg ? G * un * 4 : 4);
      d.bc_order = cl::Buffer(ctx, CL_MEM_READ_WRITE, G * un * 4);
      d.bc_level = cl::Buffer(ctx, CL_MEM_READ_WRITE, G * (un + 1) * 4);
      d.bc_node = cl::Buffer(ctx, CL_MEM_READ_WRITE, G * un * kNodeBytes);
      d.bc_out = cl::Buffer(ctx, CL_MEM_READ_WRITE, un * 16);
      const size_t b = static_cast<size_t>(std::max<int64_t>(d.batch, 1));
      d.bc_src = cl::Buffer(ctx, CL_MEM_READ_ONLY, b * 4);
      d.bc_flags = cl::Buffer(ctx, CL_MEM_READ_WRITE, (b + 1) * 4);
      RunStats upload;
      core.finish(upload);
      st.t_h += upload.t_h;
    });
    st.bytes_moved += static_cast<double>(in_bytes);
  }
  return true;
}

template <typename T>
void OpenClSsspEngine<T>::run_betweenness(const int64_t* sources, int64_t count, bool endpoints,
                                          std::vector<Fixed>& sums, std::vector<uint8_t>& flags,
                                          RunStats& st, RowFigures* row_figs, RowFigures* col_figs) {
  const bool figures = row_figs && col_figs;
  if (figures && !betweenness_figures()) throw std::logic_error("betweenness: no figures from this engine's rows");
  for (auto& d : devices_) {
    set_mode(d, lanes_rows_, 1, lanes_rows_);
    // the batch of the mode now (source_count may have changed it since prepare)
    const size_t b = static_cast<size_t>(std::max<int64_t>(d.batch, 1));
    if (d.bc_flags.template getInfo<CL_MEM_SIZE>() < (b + 1) * 4)
      d.core->run_guarded("betweenness: cannot allocate its batch on '" + d.core->device().name + "'", [&] {
        d.bc_src = cl::Buffer(d.core->context(), CL_MEM_READ_ONLY, b * 4);
        d.bc_flags = cl::Buffer(d.core->context(), CL_MEM_READ_WRITE, (b + 1) * 4);
      });
  }
  const size_t un = static_cast<size_t>(n_);
  sums.assign(un, Fixed());
  flags.assign(static_cast<size_t>(count), 0);
  std::vector<std::vector<uint64_t>> parts(devices_.size());
  deal_shares(count, st, [&](Device& d, int64_t lo, int64_t hi) {
    auto& core = *d.core;
    settle_slots(d);
    core.run_guarded("betweenness on '" + core.device().name + "' failed", [&] {
      core.begin_solve();
      const auto q = detail::OpenClCore::kCompute;
      const cl_ulong zero = 0;
      core.queue(q).enqueueFillBuffer(d.bc_node, zero, 0, static_cast<size_t>(d.bc_groups) * un * kNodeBytes);
      const size_t acc_bytes = un * sizeof(RowFigures);
      if (figures) {  // the column figures continued down the batches in source order (run_lanes_stats)
        d.acc = cl::Buffer(core.context(), CL_MEM_READ_WRITE, std::max<size_t>(acc_bytes, 8));
        core.queue(q).enqueueFillBuffer(d.acc, 0.0, 0, std::max<size_t>(acc_bytes, 8));
      }
      const size_t cg = (un + kColumnWg - 1) / kColumnWg * kColumnWg;
      std::vector<cl_int> src, flag;
      double bytes = 0;
      for (int64_t a = lo; a < hi; a += d.batch) {
        throw_if_cancelled();
        const int64_t c = std::min(d.batch, hi - a);
        const int64_t* batch = sources + a;
        // The batch's rows, left on the device (run_on without the read).
        const cl::Buffer* rows = &d.dist;
        T inf = kRawInf<T>;
        if (d.mode >= 1) {
          LaneSet& s = d.sets[0];
          enqueue_lanes(d, s, batch, c, figures, false, q);
          if (figures) {
            set_args(d.lanes_col, static_cast<cl_int>(n_), static_cast<cl_int>(c), lane_buf(s.dist, 0),
                     lane_buf(s.dist, 1), lane_buf(s.dist, 2), lane_buf(s.dist, 3), d.per_buf, s.slot_of,
                     static_cast<cl_int>(1), d.acc);
            core.launch_after(d.lanes_col, cl::NDRange(cg), cl::NDRange(kColumnWg), {}, q);
          }
          core.write(s.row_of, 0, s.row_host.size() * 4, s.row_host.data(), false);
          core.launch(lanes_of(d).rows, cl::NDRange(lanes_rows_args(d, s, c)), cl::NDRange(kLaneRowsWg));
          rows = &d.rows;
          inf = out_inf(final_rows_);
        } else {
          std::vector<cl_int> ids(batch, batch + c);
          core.write(d.src, 0, ids.size() * 4, ids.data(), true);
          const NearFar nf = solve_args(d, c, false, d.dist);
          core.launch(nf.kernel, cl::NDRange(static_cast<size_t>(c) * nf.wg), cl::NDRange(nf.wg));
        }
        src.assign(batch, batch + c);
        core.write(d.bc_src, 0, src.size() * 4, src.data(), true);
        set_args(d.bc, static_cast<cl_int>(n_), d.off, d.col, d.w, d.in_off, d.in_src, d.in_edge, *rows,
                 static_cast<cl_int>(c), d.bc_src, inf, static_cast<cl_int>(endpoints), d.bc_indeg, d.bc_node,
                 d.bc_order, d.bc_level, d.bc_flags);
        // flags[c]: the sources taken so far (a build with BC_DYN takes them in turn)
        core.queue(q).enqueueFillBuffer(d.bc_flags, cl_int{0}, static_cast<size_t>(c) * 4, 4);
        const size_t groups = static_cast<size_t>(std::min<int64_t>(d.bc_groups, c));
        core.launch(d.bc, cl::NDRange(groups * d.bc_wg), cl::NDRange(d.bc_wg));
        flag.resize(static_cast<size_t>(c));
        core.read(d.bc_flags, 0, flag.size() * 4, flag.data());
        for (int64_t r = 0; r < c; ++r) flags[static_cast<size_t>(a + r)] = static_cast<uint8_t>(flag[static_cast<size_t>(r)]);
        bytes += 8.0 * static_cast<double>(c);
        if (figures) {  // the batch's row figures, by lane slot, to source order
          LaneSet& s = d.sets[0];
          s.by_slot.resize(static_cast<size_t>(c));
          core.read(s.fig, 0, s.by_slot.size() * sizeof(RowFigures), s.by_slot.data());
          for (int64_t r = 0; r < c; ++r)
            row_figs[a + r] = s.by_slot[static_cast<size_t>(s.slot_host[static_cast<size_t>(r)])];
          bytes += static_cast<double>(c) * sizeof(RowFigures);
        }
      }
      if (figures) {
        core.read(d.acc, 0, acc_bytes, col_figs);
        d.acc = cl::Buffer();
        bytes += static_cast<double>(acc_bytes);
      }
      set_args(d.bc_sum, static_cast<cl_int>(n_), static_cast<cl_int>(d.bc_groups), d.bc_node, d.bc_out);
      core.launch(d.bc_sum, cl::NDRange((un + 63) / 64 * 64), cl::NDRange(64));
      auto& part = parts[static_cast<size_t>(&d - devices_.data())];
      part.resize(2 * un);
      core.read(d.bc_out, 0, un * 16, part.data());
      account(d, bytes + 16.0 * static_cast<double>(un));
    });
  });
  for (const auto& part : parts)
    for (size_t v = 0; v < part.size() / 2; ++v) sums[v].add(Fixed{part[2 * v], part[2 * v + 1]});
}

template class OpenClSsspEngine<int32_t>;
template class OpenClSsspEngine<float>;
template class OpenClSsspEngine<double>;
template class OpenClSsspEngine<int64_t>;

}  // namespace ocl_sp::detail
