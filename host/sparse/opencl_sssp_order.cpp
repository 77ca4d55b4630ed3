// The OpenCL multi-source engine's vertex ids with locality (ORDER;
// opencl_sssp_engine.hpp, graph/vertex_order.hpp, kernels/sssp_order.cl): the
// order's four searches breadth first over the first device, the graph
// renumbered on every device, and the kernels a launch of a source a group runs
// around its search on the renumbered graph.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

#include "graph/vertex_order.hpp"
#include "sparse/opencl_sssp_engine.hpp"
#include "util/profile.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {
namespace {

// Levels a run of sssp_order_hops launches before the host reads whether the
// front ran dry (a run past the last level costs launches that find nothing).
constexpr int kHopLevelsARun = 64;
constexpr size_t kHopWg = 256;

// FNV-1a of the order (OCL_SP_PROFILE: two routes to the same order say so).
uint64_t fingerprint(const std::vector<int32_t>& id) {
  uint64_t h = 14695981039346656037ull;
  for (int32_t v : id) {
    h ^= static_cast<uint32_t>(v);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

template <typename T>
void OpenClSsspEngine<T>::order_vertices(RunStats& st) {
  const Stopwatch t;
  for (auto& d : devices_) settle_slots(d);
  // OCL_SP_ORDER_SEARCHES=host (comparisons): the hop distances on the host's
  // cores and the graph renumbered there, then uploaded. The same order.
  const char* where = std::getenv("OCL_SP_ORDER_SEARCHES");
  const bool on_host = where && std::string(where) == "host";
  new_id_ = on_host ? locality_order(graph_->off.data(), graph_->col.data(), n_) : device_order(devices_[0], st);
  if (profiling()) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fingerprint(new_id_)));
    profile(std::string("sssp: the vertex order (fingerprint ") + hex + ")", t.seconds());
  }
  Stopwatch part;
  if (on_host) {
    const Csr<T> local = renumber(*graph_, new_id_);
    profile("sssp: the graph renumbered (host)", part.seconds());
    part.reset();
    for (auto& d : devices_) upload_graph(d, local, true, st);
    profile("sssp: the renumbered graph uploaded", part.seconds());
  } else {
    // Row new_id[u] starts where the rows before it in the new order end.
    std::vector<cl_int> new_off(static_cast<size_t>(n_) + 1, 0);
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < n_; ++u)
      new_off[static_cast<size_t>(new_id_[static_cast<size_t>(u)]) + 1] =
          static_cast<cl_int>(graph_->off[static_cast<size_t>(u) + 1] - graph_->off[static_cast<size_t>(u)]);
    std::partial_sum(new_off.begin(), new_off.end(), new_off.begin());
    for (auto& d : devices_) renumber_on(d, new_off, st);
    profile("sssp: the graph renumbered (devices)", part.seconds());
  }
  renumbered_ = true;
  profile("sssp: vertex ids with locality (four searches, the order, the graph renumbered)", t.seconds());
}

template <typename T>
std::vector<int32_t> OpenClSsspEngine<T>::device_order(Device& d, RunStats& st) {
  auto& core = *d.core;
  std::vector<int32_t> id;
  core.run_guarded("sssp: cannot run the vertex order's searches on '" + core.device().name + "'", [&] {
    auto& q = core.queue(OpenClCore::kCompute);
    const cl::Context& ctx = core.context();
    const auto n = static_cast<size_t>(n_);
    cl::Buffer hops(ctx, CL_MEM_READ_WRITE, n * 4), front(ctx, CL_MEM_READ_WRITE, n * 4),
        next(ctx, CL_MEM_READ_WRITE, n * 4), counts(ctx, CL_MEM_READ_WRITE, 4 * 3);
    // A work-item a vertex of the front, up to 256 a compute unit (a launch of
    // mostly idle work-items costs more than one of a wave).
    const size_t global = std::min((n + kHopWg - 1) / kHopWg * kHopWg,
                                   static_cast<size_t>(std::max(d.core->device().compute_units, 1u)) * kHopWg);
    double seconds = 0;
    int64_t launches = 0;
    const DistanceSearch search = [&](int64_t s, std::vector<int32_t>& dist) {
      const cl_int minus = -1, zero = 0, source = static_cast<cl_int>(s), init[3] = {1, 0, 0};
      cl::Event first, last;
      q.enqueueFillBuffer(hops, minus, 0, n * 4, nullptr, &first);
      q.enqueueWriteBuffer(hops, CL_FALSE, static_cast<size_t>(s) * 4, 4, &zero);
      q.enqueueWriteBuffer(front, CL_FALSE, 0, 4, &source);
      q.enqueueWriteBuffer(counts, CL_FALSE, 0, sizeof init, init);
      cl_int level = 0, size = 1;
      while (size > 0) {
        for (int k = 0; k < kHopLevelsARun; ++k, ++level) {
          set_args(d.order_hops, level, d.off, d.col, hops, level % 2 ? next : front, level % 2 ? front : next,
                   counts);
          q.enqueueNDRangeKernel(d.order_hops, cl::NullRange, cl::NDRange(global), cl::NDRange(kHopWg), nullptr,
                                 k + 1 == kHopLevelsARun ? &last : nullptr);
        }
        launches += kHopLevelsARun;
        q.enqueueReadBuffer(counts, CL_TRUE, static_cast<size_t>(level % 3) * 4, 4, &size);
      }
      seconds += span(first, last);
      dist.resize(n);
      q.enqueueReadBuffer(hops, CL_TRUE, 0, n * 4, dist.data());
    };
    id = locality_order(n_, search);
    st.t_k += seconds;
    st.kernel_launches += launches;
    st.kernel_seconds["sssp_order_hops"] += seconds;
  });
  return id;
}

template <typename T>
void OpenClSsspEngine<T>::renumber_on(Device& d, const std::vector<cl_int>& new_off, RunStats& st) {
  auto& core = *d.core;
  core.run_guarded("sssp: cannot renumber the graph on '" + core.device().name + "'", [&] {
    core.begin_solve();
    const cl::Context& ctx = core.context();
    const size_t m = std::max<size_t>(graph_->col.size(), 1);
    cl::Buffer off(ctx, CL_MEM_READ_ONLY, new_off.size() * 4), ids(ctx, CL_MEM_READ_ONLY, new_id_.size() * 4),
        col(ctx, CL_MEM_READ_WRITE, m * 4), w(ctx, CL_MEM_READ_WRITE, m * sizeof(T));
    core.write(off, 0, new_off.size() * 4, new_off.data(), false);
    core.write(ids, 0, new_id_.size() * 4, new_id_.data(), false);
    set_args(d.order_renumber, static_cast<cl_int>(n_), d.off, d.col, d.w, ids, off, col, w);
    core.launch(d.order_renumber, cl::NDRange((static_cast<size_t>(n_) + kHopWg - 1) / kHopWg * kHopWg),
                cl::NDRange(kHopWg));
    RunStats part;
    core.finish(part);
    st.add_pass(part);
    // The graph as given goes; the renumbered one takes its place.
    d.off = off;
    d.col = col;
    d.w = w;
    d.new_id = ids;
    d.renumbered = true;
  });
}

// On the compute queue with event e (a launch through the slots, which spans its
// kernels itself), or with none: recorded for the run's T_k (OpenClCore::launch).
template <typename T>
void OpenClSsspEngine<T>::enqueue_around(Device& d, cl::Kernel& k, const cl::NDRange& global,
                                         const cl::NDRange& local, cl::Event* e) {
  if (e)
    d.core->queue(detail::OpenClCore::kCompute).enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, e);
  else
    d.core->launch(k, global, local);
}

template <typename T>
void OpenClSsspEngine<T>::map_sources(Device& d, int64_t count, cl::Event* e) {
  set_args(d.map_sources, static_cast<cl_int>(count), d.src, d.new_id);
  const size_t wg = 64;
  enqueue_around(d, d.map_sources, cl::NDRange((static_cast<size_t>(count) + wg - 1) / wg * wg), cl::NDRange(wg), e);
}

template <typename T>
void OpenClSsspEngine<T>::rows_in_order(Device& d, int64_t count, const cl::Buffer& dist, cl::Event* e) {
  // One buffer of queues: group g's at g x 6 n of it (per_buf past every group).
  const int per_buf = d.one_scratch() ? static_cast<int>(std::max<int64_t>(count, 1)) : d.source_per_buf;
  const cl::NDRange global((static_cast<size_t>(n_) + kRowsInOrderWg - 1) / kRowsInOrderWg * kRowsInOrderWg,
                           static_cast<size_t>(count)),
      local(kRowsInOrderWg, 1);
  set_args(d.to_scratch, static_cast<cl_int>(n_), static_cast<cl_int>(count), dist, lane_buf(d.scratch, 0),
           lane_buf(d.scratch, 1), lane_buf(d.scratch, 2), lane_buf(d.scratch, 3), static_cast<cl_int>(per_buf));
  enqueue_around(d, d.to_scratch, global, local, nullptr);
  set_args(d.in_order, static_cast<cl_int>(n_), static_cast<cl_int>(count), dist, d.new_id, lane_buf(d.scratch, 0),
           lane_buf(d.scratch, 1), lane_buf(d.scratch, 2), lane_buf(d.scratch, 3), static_cast<cl_int>(per_buf));
  enqueue_around(d, d.in_order, global, local, e);
}

template class OpenClSsspEngine<int32_t>;
template class OpenClSsspEngine<float>;
template class OpenClSsspEngine<double>;
template class OpenClSsspEngine<int64_t>;

}  // namespace ocl_sp::detail
