// The path matrix rebuilt on the device (see path_rebuild.hpp).
#include "solvers/path_rebuild.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <vector>

#include "graph/paths.hpp"
#include "util/env.hpp"
#include "util/parallel_copy.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

template <typename T>
double PathRebuild<T>::build(OpenClCore& core) {
  if (built_) return 0;
  const Stopwatch b;
  with_cl_errors("cannot set up the path rebuild on '" + core.device().name + "'", [&] { build_kernels(core); });
  return b.seconds();
}

template <typename T>
void PathRebuild<T>::build_kernels(OpenClCore& core) {
  const DeviceEntry& dev = core.device();
  // GPUs: groups of 1024 work-items (32 teams of 32 on one source's frontier),
  // CPUs 256, fewer where the device takes fewer; OCL_SP_REBUILD_WG (a power of
  // two from 32) for comparisons. H100, n = 30 000 (docs/performance/paths.md
  // "the rebuild kernel's groups"): rebuild_paths 0.887 s in 1 056 groups of 256
  // (their 127 MB of distance rows read at random from the HBM at its peak,
  // 3.2 TB/s), 0.654 s in 264 groups of 1024 (32 MB of rows, within the L2),
  // 0.833 s in 264 groups of 512, 1.03 s in 528 of 256; n = 10 000 45 -> 27 ms.
  wg_ = std::clamp(env_int("OCL_SP_REBUILD_WG", core.is_gpu() ? 1024 : 256, 1, 1 << 20), 32, 1024);
  while (wg_ > 32 && (static_cast<size_t>(wg_) > dev.max_work_group || (wg_ & (wg_ - 1)) != 0)) wg_ /= 2;
  vw_ = std::min(32, wg_);
  core.check_group("path rebuild WG=" + std::to_string(wg_), {static_cast<size_t>(wg_)},
                   64 + 2ull * static_cast<size_t>(wg_) * 4);
  const BuiltProgram bp =
      core.build_separate("paths_rebuild.cl", {{"WG", wg_}, {"VW", vw_}});
  with_cl_errors("cannot create kernels rebuild_paths, tight_count, tight_fill", [&] {
    kernel_ = cl::Kernel(bp.program, "rebuild_paths");
    count_ = cl::Kernel(bp.program, "tight_count");
    fill_ = cl::Kernel(bp.program, "tight_fill");
  });
  program_ = bp.program;
  cache_ = bp.cache;
  built_ = true;
}

template <typename T>
std::optional<typename PathRebuild<T>::Bands> PathRebuild<T>::plan_bands(
    OpenClCore& core, int64_t n, uint64_t budget, uint64_t csr, bool host_rows,
    int64_t most_sets) const {
  const DeviceEntry& dev = core.device();
  const uint64_t nn = static_cast<uint64_t>(n);
  // Persistent groups, each with its queue of n: 2048 work-items per compute unit
  // on GPUs (2 groups of 1024), 2 groups on CPUs; OCL_SP_REBUILD_GROUPS=G per
  // compute unit for comparisons.
  const int per_cu = core.is_gpu() ? std::max(1, 2048 / wg_) : 2;
  const uint64_t groups_max = std::max<uint64_t>(
      1, uint64_t{dev.compute_units} *
             static_cast<uint64_t>(std::clamp(env_int("OCL_SP_REBUILD_GROUPS", per_cu, 1, 1 << 20), 1, 64)));
  const uint64_t row_bytes = nn * (8 + (host_rows ? sizeof(T) : 0));  // one band row, all buffers
  const uint64_t fixed = csr + groups_max * nn * 4;
  if (fixed + 2 * row_bytes > budget) return std::nullopt;
  Bands z;
  // Two band sets at least (one in the kernel while the other's rows move), each
  // buffer within one allocation; 4096 rows at most (enough to fill the device).
  int64_t band = static_cast<int64_t>(std::min<uint64_t>((budget - fixed) / (2 * row_bytes), 4096));
  band = std::min<int64_t>(band, static_cast<int64_t>(dev.max_alloc / (nn * std::max<size_t>(4, sizeof(T)))));
  // Several bands (8 where each keeps every group busy twice) so that the copies
  // of one overlap the kernels of the others; whole rounds of the groups each.
  const int64_t g = static_cast<int64_t>(groups_max);
  band = std::min<int64_t>(band, std::max<int64_t>(2 * g, ((n + 7) / 8 + g - 1) / g * g));
  z.band = std::max<int64_t>(1, std::min<int64_t>(band, n));
  z.groups = std::min<int64_t>(static_cast<int64_t>(groups_max), z.band);
  // More sets where they fit (up to most_sets and the bands): their kernels run
  // while the host waits on the copies of the first.
  const int64_t bands = (n + z.band - 1) / z.band;
  const uint64_t set = static_cast<uint64_t>(z.band) * row_bytes;
  z.sets = std::max<int64_t>(2, std::min<int64_t>({most_sets, bands,
                                                   static_cast<int64_t>((budget - fixed) / set)}));
  const size_t words = (static_cast<size_t>(n) + 31) / 32;
  z.words = words * 4 + 64 <= dev.local_mem ? words : 0;  // rebuild_paths: the bitmap, tail
  return z;
}

template <typename T>
void PathRebuild<T>::rebuild_bands(OpenClCore& core, const Bands& z, int64_t n, cl::Buffer& start,
                                   cl::Buffer& dst, cl::Buffer& w, const DistMatrix<T>* host_rows,
                                   cl::Buffer* dev_d, int64_t ld, PathMatrix& p, Stager& sg,
                                   const std::function<void()>& beside) {
  const cl::Context& ctx = core.context();
  const size_t nb = static_cast<size_t>(n), bb = static_cast<size_t>(z.band);
  const int64_t band = z.band, bands = (n + band - 1) / band;
  const int64_t sets = std::min<int64_t>(z.sets, bands);
  cl::Buffer queue(ctx, CL_MEM_READ_WRITE, static_cast<size_t>(z.groups) * nb * 4);
  std::vector<cl::Buffer> db(static_cast<size_t>(sets)), hb(db.size()), vb(db.size());
  std::vector<cl::Event> up(db.size()), ke(db.size());
  for (size_t s = 0; s < db.size(); ++s) {
    if (host_rows) db[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * sizeof(T));
    hb[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * 4);
    vb[s] = cl::Buffer(ctx, CL_MEM_READ_WRITE, bb * nb * 4);
  }
  cl::Kernel& k = kernel_;
  k.setArg(0, static_cast<cl_int>(n));
  k.setArg(6, start);
  k.setArg(7, dst);
  k.setArg(8, w);
  k.setArg(11, queue);
  k.setArg(12, cl::Local(z.words ? z.words * 4 : 4));
  k.setArg(13, static_cast<cl_int>(z.words));
  const auto rows_of = [&](int64_t b) { return std::min(band, n - b * band); };
  // Band b into set b % sets: its distance rows up (host rows only), its kernel.
  const auto start_band = [&](int64_t b) {
    const size_t s = static_cast<size_t>(b % sets);
    const int64_t rows = rows_of(b);
    std::vector<cl::Event> wait;
    if (host_rows) {
      const size_t row = nb * sizeof(T);
      const char* from = reinterpret_cast<const char*>(host_rows->data() + b * band * n);
      up[s] = sg.upload(OpenClCore::kUpload, db[s], {static_cast<size_t>(rows), row, row},
                        [&, from, row](void* chunk, size_t r0, size_t r1) {
                          parallel_copy(chunk, from + r0 * row, (r1 - r0) * row);
                        });
      wait.push_back(up[s]);
    }
    k.setArg(1, static_cast<cl_int>(rows));
    k.setArg(2, static_cast<cl_int>(b * band));
    k.setArg(3, host_rows ? db[s] : *dev_d);
    k.setArg(4, static_cast<cl_ulong>(host_rows ? 0 : static_cast<uint64_t>(b * band) * static_cast<uint64_t>(ld)));
    k.setArg(5, static_cast<cl_ulong>(host_rows ? n : ld));
    k.setArg(9, hb[s]);
    k.setArg(10, vb[s]);
    const size_t gl = static_cast<size_t>(std::min<int64_t>(z.groups, rows)) * static_cast<size_t>(wg_);
    ke[s] = core.launch_after(k, cl::NDRange(gl), cl::NDRange(static_cast<size_t>(wg_)), wait);
    core.flush_all();
  };
  // Band b's via and hops into p once its kernel is done; its set is free after.
  const auto finish_band = [&](int64_t b) {
    const size_t s = static_cast<size_t>(b % sets);
    const size_t row = nb * 4, rows = static_cast<size_t>(rows_of(b));
    const auto into = [row](int32_t* to) {
      return [to, row](const void* chunk, size_t r0, size_t r1) {
        parallel_copy(reinterpret_cast<char*>(to) + r0 * row, chunk, (r1 - r0) * row);
      };
    };
    sg.download(OpenClCore::kDownload, vb[s], {rows, row, row}, into(p.via.data() + b * band * n),
                {ke[s]});
    if (p.with_hops)
      sg.download(OpenClCore::kDownload, hb[s], {rows, row, row}, into(p.hops.data() + b * band * n),
                  {ke[s]});
    sg.settle();  // the rows are in p and the set's buffers free again
  };
  // Rows move through pinned chunks, the host's side copied on all threads: while
  // band b's via / hops come down, the kernels of the next sets - 1 bands run (and
  // the next band's distances go up into the set just emptied).
  for (int64_t b = 0; b < sets; ++b) start_band(b);
  if (beside) beside();
  for (int64_t b = 0; b < bands; ++b) {
    finish_band(b);
    if (b + sets < bands) start_band(b + sets);
  }
}

template <typename T>
void PathRebuild<T>::report(RunStats& st, const RunStats& part, int64_t n, int64_t tight,
                            int64_t edges, const Bands& z, double setup, const char* where,
                            double seconds, bool hops) const {
  st.t_k += part.t_k;
  st.t_h += part.t_h;
  st.kernel_launches += part.kernel_launches;
  for (const auto& [name, s] : part.kernel_seconds) st.kernel_seconds[name] += s;
  st.paths = true;
  st.paths_setup += setup;
  st.paths_cache = cache_;
  st.paths_bytes = (hops ? 2.0 : 1.0) * static_cast<double>(n) * static_cast<double>(n) * 4.0;
  char buf[300];
  std::snprintf(buf, sizeof buf,
                "paths_rebuild.cl WG=%d: rebuilt on the device from the distances, %lld of %lld "
                "edges are shortest paths (found %s), bands of %lld rows in %lld groups%s, %.3f s",
                wg_, static_cast<long long>(tight), static_cast<long long>(edges), where,
                static_cast<long long>(z.band), static_cast<long long>(z.groups), z.words ? "" : " (no __local bitmap)",
                seconds);
  st.paths_kernels = buf;
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
  const uint64_t csr = (static_cast<uint64_t>(n) + 1) * 8 + t.dst.size() * (4 + sizeof(T));
  const double setup = build(core);
  const std::optional<Bands> z = plan_bands(core, n, budget, csr, dev_d == nullptr, 2);
  if (!z) return false;
  size_path_matrix(p, n, p.with_hops);  // a no-op after size_path_matrix_async
  profile("paths: tight edges, sizes", sw.seconds());
  RunStats part;
  core.run_guarded("path rebuild on '" + dev.name + "' failed", [&] {
    core.begin_solve();
    const cl::Context& ctx = core.context();
    cl::Buffer start(ctx, CL_MEM_READ_ONLY, t.start.size() * 8);
    cl::Buffer dst(ctx, CL_MEM_READ_ONLY, std::max<size_t>(1, t.dst.size()) * 4);
    cl::Buffer w(ctx, CL_MEM_READ_ONLY, std::max<size_t>(1, t.w.size()) * sizeof(T));
    core.write(start, 0, t.start.size() * 8, t.start.data(), false);
    if (!t.dst.empty()) {
      core.write(dst, 0, t.dst.size() * 4, t.dst.data(), false);
      core.write(w, 0, t.w.size() * sizeof(T), t.w.data(), false);
    }
    core.queue(OpenClCore::kCompute).finish();  // the edges are written
    const size_t nb = static_cast<size_t>(n);
    Stager& sg = stage && stage->chunk_bytes() >= nb * sizeof(T)
                     ? *stage
                     : core.matrix_stager(nb * sizeof(T));
    rebuild_bands(core, *z, n, start, dst, w, dev_d ? nullptr : &d, dev_d, ld, p, sg, {});
    core.finish(part);
  });
  const int64_t bands = (n + z->band - 1) / z->band;
  profile("paths: rebuilt (" + std::to_string(bands) + " bands)", sw.seconds());
  st.bytes_moved += core.bytes_up() + core.bytes_down();
  report(st, part, n, static_cast<int64_t>(t.dst.size()), static_cast<int64_t>(edges.dst.size()),
         *z, setup, "on the host", sw.seconds(), p.with_hops);
  return true;
}

template <typename T>
bool PathRebuild<T>::run_on_device(OpenClCore& core, cl::Buffer& dev_w, cl::Buffer& dev_d,
                                   int64_t ld, DistMatrix<T>& d, PathMatrix& p, RunStats& st,
                                   uint64_t device_bytes, const std::function<void()>& before_paths) {
  const Stopwatch sw;
  const int64_t n = d.n();
  const DeviceEntry& dev = core.device();
  const double setup = build(core);
  uint64_t budget = device_bytes ? std::min<uint64_t>(device_bytes, dev.global_mem) : dev.global_mem;
  const uint64_t held = 2 * static_cast<uint64_t>(ld) * static_cast<uint64_t>(ld) * sizeof(T);
  budget = budget > held ? (budget - held) / 10 * 9 : 0;
  const size_t nb = static_cast<size_t>(n);
  const cl::Context& ctx = core.context();
  std::optional<Bands> z;
  int64_t tight = 0, edges = 0;
  RunStats part;
  bool fits = false;
  core.run_guarded("path rebuild on '" + dev.name + "' failed", [&] {
    // Counts per row (after the distance kernels, in order on the compute queue).
    cl::Buffer tc(ctx, CL_MEM_READ_WRITE, nb * 4), ec(ctx, CL_MEM_READ_WRITE, nb * 4);
    set_args(count_, static_cast<cl_int>(n), static_cast<cl_ulong>(ld), dev_w, dev_d, tc, ec);
    const size_t wg = static_cast<size_t>(wg_);
    core.launch(count_, cl::NDRange(nb * wg), cl::NDRange(wg));
    std::vector<int32_t> tcount(nb), ecount(nb);
    core.read(tc, 0, nb * 4, tcount.data());
    core.read(ec, 0, nb * 4, ecount.data());
    std::vector<int64_t> start(nb + 1, 0);
    for (size_t k = 0; k < nb; ++k) {
      start[k + 1] = start[k] + tcount[k];
      edges += ecount[k];
    }
    tight = start[nb];
    const uint64_t csr = (static_cast<uint64_t>(n) + 1) * 8 + static_cast<uint64_t>(tight) * (4 + sizeof(T));
    z = plan_bands(core, n, budget, csr, false, 4);
    if (!z) {  // d still holds the input: the caller takes the host's way
      core.finish(part);
      return;
    }
    fits = true;
    profile("paths: tight edges counted on the device, sizes", sw.seconds());
    cl::Buffer sb(ctx, CL_MEM_READ_ONLY, start.size() * 8);
    cl::Buffer dst(ctx, CL_MEM_READ_WRITE, std::max<size_t>(1, static_cast<size_t>(tight)) * 4);
    cl::Buffer w(ctx, CL_MEM_READ_WRITE, std::max<size_t>(1, static_cast<size_t>(tight)) * sizeof(T));
    core.write(sb, 0, start.size() * 8, start.data(), true);
    set_args(fill_, static_cast<cl_int>(n), static_cast<cl_ulong>(ld), dev_w, dev_d, sb, dst, w);
    core.launch(fill_, cl::NDRange(nb * wg), cl::NDRange(wg));
    // The distances come down (the download queue, through the matrix stager)
    // while the first sets' kernels run; the via / hops downloads follow them.
    const size_t row = nb * sizeof(T), pitch = static_cast<size_t>(ld) * sizeof(T);
    Stager& sg = core.matrix_stager(row);
    rebuild_bands(core, *z, n, sb, dst, w, nullptr, &dev_d, ld, p, sg, [&] {
      const Stopwatch down;
      auto* to = reinterpret_cast<char*>(d.data());
      sg.download(OpenClCore::kDownload, dev_d, {nb, row, pitch},
                  [to, row](const void* chunk, size_t r0, size_t r1) {
                    parallel_copy(to + r0 * row, chunk, (r1 - r0) * row);
                  });
      sg.settle();
      profile("paths: distances downloaded beside the rebuild", down.seconds());
      const Stopwatch wait;
      if (before_paths) before_paths();
      size_path_matrix(p, n, p.with_hops);  // a no-op after size_path_matrix_async
      profile("paths: path matrix ready (waited)", wait.seconds());
    });
    core.finish(part);
  });
  if (!fits) {
    st.t_k += part.t_k;
    st.t_h += part.t_h;
    st.kernel_launches += part.kernel_launches;
    for (const auto& [name, s] : part.kernel_seconds) st.kernel_seconds[name] += s;
    return false;
  }
  const int64_t bands = (n + z->band - 1) / z->band;
  profile("paths: rebuilt (" + std::to_string(bands) + " bands)", sw.seconds());
  report(st, part, n, tight, edges, *z, setup, "on the device", sw.seconds(), p.with_hops);
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
  // via and hops on a thread each: one thread zero-fills ~3-4 GB/s, page faults
  // included, and the 800 MB of n = 10 000 took longer than its distances.
  const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n);
  // Without hops (PathMatrix::with_hops) via alone, and hops' old block freed.
  return std::async(std::launch::async, [&p, n, nn] {
    lower_thread_priority();  // only idle cores zero the matrix
    std::future<void> hops;
    if (p.with_hops)
      hops = std::async(std::launch::async, [&p, nn] {
        lower_thread_priority();
        size_path_vector(p.hops, nn);
      });
    else
      std::vector<int32_t>().swap(p.hops);
    size_path_vector(p.via, nn);
    if (hops.valid()) hops.get();
    p.n = n;
  });
}

template class PathRebuild<int32_t>;
template class PathRebuild<float>;
template class PathRebuild<double>;
template class PathRebuild<int64_t>;

}  // namespace ocl_sp::detail
