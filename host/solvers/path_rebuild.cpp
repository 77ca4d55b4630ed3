// The path matrix rebuilt on the device (see path_rebuild.hpp).
#include "solvers/path_rebuild.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <future>
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
                         int64_t ld, Stager* stage) {
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
  // Several bands (8 where each keeps every group busy twice) so that the copies
  // of one overlap the kernels of the others; whole rounds of the groups each.
  const int64_t g = static_cast<int64_t>(groups_max);
  band = std::min<int64_t>(band, std::max<int64_t>(2 * g, ((n + 7) / 8 + g - 1) / g * g));
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
  size_path_matrix(p, n);  // a no-op after size_path_matrix_async
  profile("paths: tight edges, sizes", sw.seconds());
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
    // Rows move through pinned chunks, the host's side copied on all threads: band
    // b + 1's distances go up and band b - 1's via / hops come down while band b's
    // kernel runs (one host thread: each call returns once its rows are staged).
    Stager& sg = stage && stage->chunk_bytes() >= nb * sizeof(T)
                     ? *stage
                     : core.matrix_stager(nb * sizeof(T));
    const int64_t bands = (n + band - 1) / band;
    cl::Event up[2], ke[2];
    const auto rows_of = [&](int64_t b) { return std::min(band, n - b * band); };
    const auto upload = [&](int64_t b) {  // band b's distance rows (host d only)
      if (dev_d) return;
      const int s = static_cast<int>(b % 2);
      const size_t row = nb * sizeof(T);
      const char* from = reinterpret_cast<const char*>(d.data() + b * band * n);
      up[s] = sg.upload(OpenClCore::kUpload, db[s], {static_cast<size_t>(rows_of(b)), row, row},
                        [&, from, row](void* chunk, size_t r0, size_t r1) {
                          parallel_copy(chunk, from + r0 * row, (r1 - r0) * row);
                        });
    };
    const auto download = [&](int64_t b) {  // band b's via and hops, into p
      const int s = static_cast<int>(b % 2);
      const size_t row = nb * 4, rows = static_cast<size_t>(rows_of(b));
      const auto into = [row](int32_t* to) {
        return [to, row](const void* chunk, size_t r0, size_t r1) {
          parallel_copy(reinterpret_cast<char*>(to) + r0 * row, chunk, (r1 - r0) * row);
        };
      };
      sg.download(OpenClCore::kDownload, vb[s], {rows, row, row}, into(p.via.data() + b * band * n),
                  {ke[s]});
      sg.download(OpenClCore::kDownload, hb[s], {rows, row, row}, into(p.hops.data() + b * band * n),
                  {ke[s]});
      sg.settle();  // the rows are in p and the set's buffers free again
    };
    upload(0);
    for (int64_t b = 0; b < bands; ++b) {
      const int s = static_cast<int>(b % 2);
      const int64_t rows = rows_of(b);
      k.setArg(1, static_cast<cl_int>(rows));
      k.setArg(2, static_cast<cl_int>(b * band));
      k.setArg(3, dev_d ? *dev_d : db[s]);
      k.setArg(4, static_cast<cl_ulong>(dev_d ? static_cast<uint64_t>(b * band) * static_cast<uint64_t>(ld) : 0));
      k.setArg(5, static_cast<cl_ulong>(dev_d ? ld : n));
      k.setArg(9, hb[s]);
      k.setArg(10, vb[s]);
      std::vector<cl::Event> wait;
      if (!dev_d) wait.push_back(up[s]);
      const size_t gl = static_cast<size_t>(std::min<int64_t>(groups, rows)) * static_cast<size_t>(wg_);
      ke[s] = core.launch_after(k, cl::NDRange(gl), cl::NDRange(static_cast<size_t>(wg_)), wait);
      core.flush_all();
      if (b > 0) download(b - 1);       // waits for the kernel before this one
      if (b + 1 < bands) upload(b + 1);  // into the set just emptied
    }
    download(bands - 1);
    core.finish(part);
  });
  profile("paths: rebuilt (" + std::to_string((n + band - 1) / band) + " bands)", sw.seconds());
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

void lower_thread_priority() {
#ifdef SYS_gettid
  // Nice 19 for the calling thread alone (Linux), and the threads it starts, so
  // OpenMP's team of a side thread yields to the solve's.
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
#endif
}

std::future<void> size_path_matrix_async(PathMatrix& p, int64_t n) {
  return std::async(std::launch::async, [&p, n] {
    lower_thread_priority();  // only idle cores zero the matrix
    size_path_matrix(p, n);
  });
}

template class PathRebuild<int32_t>;
template class PathRebuild<float>;
template class PathRebuild<double>;
template class PathRebuild<int64_t>;

}  // namespace ocl_sp::detail
