// The path matrix rebuilt on the device (see path_rebuild.hpp).
#include "solvers/path_rebuild.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "graph/paths.hpp"
#include "util/parallel_copy.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

template <typename T>
void PathRebuild<T>::build(OpenClCore& core) {
  const DeviceEntry& dev = core.device();
  // 256 work-items (8 teams of 32) where the device takes them, fewer elsewhere.
  wg_ = 256;
  while (wg_ > 32 && static_cast<size_t>(wg_) > dev.max_work_group) wg_ /= 2;
  vw_ = std::min(32, wg_);
  core.check_group("path rebuild WG=" + std::to_string(wg_), {static_cast<size_t>(wg_)}, 64);
  const BuiltProgram bp =
      core.build_separate("paths_rebuild.cl", {{"WG", wg_}, {"VW", vw_}});
  with_cl_errors("cannot create kernel rebuild_paths",
                 [&] { kernel_ = cl::Kernel(bp.program, "rebuild_paths"); });
  program_ = bp.program;
  cache_ = bp.cache;
  built_ = true;
}

template <typename T>
bool PathRebuild<T>::run(OpenClCore& core, const InputEdges<T>& edges, const DistMatrix<T>& d,
                         PathMatrix& p, RunStats& st, uint64_t device_bytes, cl::Buffer* dev_d,
                         int64_t ld) {
  const Stopwatch sw;
  const int64_t n = d.n();
  const DeviceEntry& dev = core.device();
  uint64_t budget = device_bytes ? std::min<uint64_t>(device_bytes, dev.global_mem) : dev.global_mem;
  if (dev_d) {  // the distances stay where they are
    const uint64_t held = static_cast<uint64_t>(ld) * static_cast<uint64_t>(ld) * sizeof(T);
    budget = budget > held ? budget - held : 0;
  }
  budget = budget / 10 * 9;  // room for the driver and the kernels' own memory
  const InputEdges<T> t = tight_edges(edges, d);
  const uint64_t nn = static_cast<uint64_t>(n);
  const uint64_t csr = (nn + 1) * 8 + t.dst.size() * (4 + sizeof(T));
  // Persistent groups: 8 per compute unit (2 on CPUs), each with its queue of n.
  const uint64_t groups_max =
      std::max<uint64_t>(1, uint64_t{dev.compute_units} * (core.is_gpu() ? 8 : 2));
  const uint64_t row_bytes = nn * (8 + (dev_d ? 0 : sizeof(T)));  // one band row, all buffers
  const uint64_t fixed = csr + groups_max * nn * 4;
  if (fixed + 2 * row_bytes > budget) return false;
  // Two band sets (one in the kernel while the other's rows move), each buffer
  // within one allocation; 4096 rows at most (enough to fill the device).
  int64_t band = static_cast<int64_t>(std::min<uint64_t>((budget - fixed) / (2 * row_bytes), 4096));
  band = std::min<int64_t>(band, static_cast<int64_t>(dev.max_alloc / (nn * std::max<size_t>(4, sizeof(T)))));
  band = std::max<int64_t>(1, std::min<int64_t>(band, n));
  const int64_t groups = std::min<int64_t>(static_cast<int64_t>(groups_max), band);
  const size_t words = (static_cast<size_t>(n) + 31) / 32;
  const bool bitmap = words * 4 + 64 <= dev.local_mem;
  double setup = 0;
  if (!built_)
    with_cl_errors("cannot set up the path rebuild on '" + dev.name + "'", [&] {
      const Stopwatch b;
      build(core);
      setup = b.seconds();
    });
  size_path_matrix(p, n);
  RunStats part;
  core.run_guarded("path rebuild on '" + dev.name + "' failed", [&] {
    core.begin_solve();
    const cl::Context& ctx = core.context();
    const size_t nb = static_cast<size_t>(n);
    cl::Buffer start(ctx, CL_MEM_READ_ONLY, t.start.size() * 8);
    cl::Buffer dst(ctx, CL_MEM_READ_ONLY, std::max<size_t>(1, t.dst.size()) * 4);
    cl::Buffer w(ctx, CL_MEM_READ_ONLY, std::max<size_t>(1, t.w.size()) * sizeof(T));
    cl::Buffer queue(ctx, CL_MEM_READ_WRITE, static_cast<size_t>(groups) * nb * 4);
    core.write(start, 0, t.start.size() * 8, t.start.data(), false);
    if (!t.dst.empty()) {
      core.write(dst, 0, t.dst.size() * 4, t.dst.data(), false);
      core.write(w, 0, t.w.size() * sizeof(T), t.w.data(), false);
    }
    const size_t bb = static_cast<size_t>(band);
    cl::Buffer db[2], hb[2], vb[2];
    for (int s = 0; s < 2 && s * band < n; ++s) {
      if (!dev_d) db[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * sizeof(T));
      hb[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * 4);
      vb[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * 4);
    }
    core.queue(OpenClCore::kCompute).finish();  // the edges are written
    cl::Kernel& k = kernel_;
    k.setArg(0, static_cast<cl_int>(n));
    k.setArg(6, start);
    k.setArg(7, dst);
    k.setArg(8, w);
    k.setArg(11, queue);
    k.setArg(12, cl::Local(bitmap ? words * 4 : 4));
    k.setArg(13, static_cast<cl_int>(bitmap ? words : 0));
    const int64_t bands = (n + band - 1) / band;
    std::vector<cl::Event> up(2), down[2];
    const auto upload = [&](int64_t b) {  // band b's distance rows (host d only)
      if (dev_d) return;
      const int s = static_cast<int>(b % 2);
      const int64_t r0 = b * band, rows = std::min(band, n - r0);
      std::vector<cl::Event> wait = down[s];  // the set's last kernel has run
      up[s] = core.write_async(OpenClCore::kUpload, db[s], static_cast<size_t>(rows) * nb * sizeof(T),
                               d.data() + r0 * n, wait);
    };
    upload(0);
    for (int64_t b = 0; b < bands; ++b) {
      const int s = static_cast<int>(b % 2);
      const int64_t r0 = b * band, rows = std::min(band, n - r0);
      k.setArg(1, static_cast<cl_int>(rows));
      k.setArg(2, static_cast<cl_int>(r0));
      k.setArg(3, dev_d ? *dev_d : db[s]);
      k.setArg(4, static_cast<cl_ulong>(dev_d ? static_cast<uint64_t>(r0) * static_cast<uint64_t>(ld) : 0));
      k.setArg(5, static_cast<cl_ulong>(dev_d ? ld : n));
      k.setArg(9, hb[s]);
      k.setArg(10, vb[s]);
      std::vector<cl::Event> wait = down[s];
      if (!dev_d) wait.push_back(up[s]);
      const size_t gl = static_cast<size_t>(std::min<int64_t>(groups, rows)) * static_cast<size_t>(wg_);
      const cl::Event ke = core.launch_after(k, cl::NDRange(gl), cl::NDRange(static_cast<size_t>(wg_)), wait);
      if (b + 1 < bands) upload(b + 1);  // overlaps this band's kernel
      const size_t bytes = static_cast<size_t>(rows) * nb * 4;
      down[s] = {core.read_async(OpenClCore::kDownload, hb[s], bytes, p.hops.data() + r0 * n, {ke}),
                 core.read_async(OpenClCore::kDownload, vb[s], bytes, p.via.data() + r0 * n, {ke})};
      core.flush_all();
    }
    core.flush_all();
    for (auto& set : down)
      for (auto& e : set) e.wait();
    core.finish(part);
  });
  st.t_k += part.t_k;
  st.t_h += part.t_h;
  st.kernel_launches += part.kernel_launches;
  for (const auto& [name, s] : part.kernel_seconds) st.kernel_seconds[name] += s;
  st.bytes_moved += core.bytes_up() + core.bytes_down();
  st.paths = true;
  st.paths_setup += setup;
  st.paths_cache = cache_;
  st.paths_bytes = 2.0 * static_cast<double>(n) * static_cast<double>(n) * 4.0;
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "paths_rebuild.cl WG=%d: rebuilt on the device from the distances, %lld of %zu "
                "edges are shortest paths, bands of %lld rows%s, %.3f s",
                wg_, static_cast<long long>(t.dst.size()), edges.dst.size(),
                static_cast<long long>(band), bitmap ? "" : " (no __local bitmap)", sw.seconds());
  st.paths_kernels = buf;
  return true;
}

template class PathRebuild<int32_t>;
template class PathRebuild<float>;
template class PathRebuild<double>;
template class PathRebuild<int64_t>;

}  // namespace ocl_sp::detail
