// The OpenCL solvers' queues (opencl_base.hpp): transfers (plain, rectangular,
// through the pinned stagers), launches, and the profiling events that make the
// report's T_k and T_h (kernel intervals merged, so overlapped kernels count once).
#include <algorithm>
#include <climits>
#include <vector>

#include "solvers/opencl_base.hpp"
#include "util/errors.hpp"
#include "util/parallel_copy.hpp"
#include "util/strings.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

namespace {

// Length of the union of [start, end) device intervals (sorts them); *last_end:
// the latest end (when asked for).
cl_ulong union_length(std::vector<std::pair<cl_ulong, cl_ulong>>& spans, cl_ulong* last_end) {
  std::sort(spans.begin(), spans.end());
  cl_ulong busy = 0, start = 0, end = 0, last = 0;
  for (const auto& [s0, s1] : spans) {
    last = std::max(last, s1);
    if (s0 >= end) {
      busy += end - start;
      start = s0;
      end = s1;
    } else {
      end = std::max(end, s1);
    }
  }
  if (last_end) *last_end = last;
  return busy + (end - start);
}

// Pinned staging chunks of upload()/download(): two of 8 MiB (16 MiB pinned, a few
// ms to allocate once), each DMA'd at the link's pinned rate while the host
// copies the other; from kLargeMatrix on four of 32 MiB (128 MiB pinned, ~50-90
// ms, done while the graph is made where the solver knows n): two DMAs stay
// queued while the host copies, 26-30 GB/s down on an H100 against 11-14 GB/s
// with two of 8 MiB (docs/performance/paths.md "Paths: the tight edges on the
// device"). Matrices below kStageMin go straight from pageable memory.
constexpr size_t kMatrixStageBytes = 8u << 20;
constexpr size_t kMatrixStageChunks = 2;
constexpr size_t kMatrixStageBytesLarge = 32u << 20;
constexpr size_t kMatrixStageChunksLarge = 4;
constexpr size_t kLargeMatrix = 256u << 20;
constexpr size_t kStageMin = 16u << 20;

double event_seconds(const cl::Event& e) {
  const auto start = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-9 : 0.0;
}
}  // namespace

void OpenClCore::begin_solve() {
  for (auto& s : stagers_)
    if (s) s->discard();  // nothing pending survives a solve; an error's leftovers go
  kernel_events_.clear();
  kernel_names_.clear();
  per_kernel_.clear();
  transfer_events_.clear();
  kernel_spans_.clear();
  t_k_ = t_h_ = 0;
  launches_ = 0;
  bytes_up_ = bytes_down_ = 0;
}

cl::CommandQueue& OpenClCore::queue(QueueId q) {
  if (q == kCompute) return queue_;
  cl::CommandQueue& cq = extra_[q - 1];
  if (!cq()) cq = cl::CommandQueue(ctx_, dev_.device, CL_QUEUE_PROFILING_ENABLE);
  return cq;
}

cl::Event OpenClCore::write_async(QueueId q, cl::Buffer& buf, size_t bytes, const void* host,
                                  const std::vector<cl::Event>& wait) {
  return write_async(q, buf, 0, bytes, host, wait);
}

cl::Event OpenClCore::read_async(QueueId q, cl::Buffer& buf, size_t bytes, void* host,
                                 const std::vector<cl::Event>& wait) {
  return read_async(q, buf, 0, bytes, host, wait);
}

cl::Event OpenClCore::write_async(QueueId q, cl::Buffer& buf, size_t offset, size_t bytes,
                                  const void* host, const std::vector<cl::Event>& wait) {
  cl::Event ev;
  queue(q).enqueueWriteBuffer(buf, CL_FALSE, offset, bytes, host, wait.empty() ? nullptr : &wait,
                              &ev);
  transfer_events_.push_back(ev);
  bytes_up_ += static_cast<double>(bytes);
  return ev;
}

cl::Event OpenClCore::read_async(QueueId q, cl::Buffer& buf, size_t offset, size_t bytes,
                                 void* host, const std::vector<cl::Event>& wait) {
  cl::Event ev;
  queue(q).enqueueReadBuffer(buf, CL_FALSE, offset, bytes, host, wait.empty() ? nullptr : &wait,
                             &ev);
  transfer_events_.push_back(ev);
  bytes_down_ += static_cast<double>(bytes);
  return ev;
}

cl::Event OpenClCore::launch_after(cl::Kernel& k, const cl::NDRange& global,
                                   const cl::NDRange& local, const std::vector<cl::Event>& wait,
                                   QueueId q) {
  cl::Event ev;
  queue(q).enqueueNDRangeKernel(k, cl::NullRange, global, local, wait.empty() ? nullptr : &wait,
                                &ev);
  record_kernel(ev, k);
  return ev;
}

cl::Event OpenClCore::copy_buffer(cl::Buffer& src, cl::Buffer& dst, size_t bytes,
                                  const std::vector<cl::Event>& wait) {
  static const std::string name = "panel_copy";
  cl::Event ev;
  queue_.enqueueCopyBuffer(src, dst, 0, 0, bytes, wait.empty() ? nullptr : &wait, &ev);
  record_kernel(ev, &name);
  return ev;
}

cl::Event OpenClCore::write_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, const void* host,
                                 size_t host_pitch, size_t width_bytes, size_t rows) {
  return write_rect(q, buf, buf_pitch, 0, host, host_pitch, width_bytes, rows, {});
}

cl::Event OpenClCore::read_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, void* host,
                                size_t host_pitch, size_t width_bytes, size_t rows) {
  return read_rect(q, buf, buf_pitch, 0, host, host_pitch, width_bytes, rows, {});
}

cl::Event OpenClCore::write_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, size_t first_row,
                                 const void* host, size_t host_pitch, size_t width_bytes,
                                 size_t rows, const std::vector<cl::Event>& wait) {
  const cl::array<size_t, 3> origin{0, first_row, 0}, zero{0, 0, 0};
  const cl::array<size_t, 3> region{width_bytes, rows, 1};
  cl::Event ev;
  queue(q).enqueueWriteBufferRect(buf, CL_FALSE, origin, zero, region, buf_pitch, 0, host_pitch,
                                  0, host, wait.empty() ? nullptr : &wait, &ev);
  transfer_events_.push_back(ev);
  bytes_up_ += static_cast<double>(width_bytes) * static_cast<double>(rows);
  return ev;
}

cl::Event OpenClCore::read_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, size_t first_row,
                                void* host, size_t host_pitch, size_t width_bytes, size_t rows,
                                const std::vector<cl::Event>& wait) {
  const cl::array<size_t, 3> origin{0, first_row, 0}, zero{0, 0, 0};
  const cl::array<size_t, 3> region{width_bytes, rows, 1};
  cl::Event ev;
  queue(q).enqueueReadBufferRect(buf, CL_FALSE, origin, zero, region, buf_pitch, 0, host_pitch,
                                 0, host, wait.empty() ? nullptr : &wait, &ev);
  transfer_events_.push_back(ev);
  bytes_down_ += static_cast<double>(width_bytes) * static_cast<double>(rows);
  return ev;
}

void OpenClCore::flush_all() {
  queue_.flush();
  for (auto& q : extra_)
    if (q()) q.flush();
}

Stager& OpenClCore::stager(StageUse use, size_t chunks, size_t chunk_bytes) {
  std::unique_ptr<Stager>& s = stagers_[static_cast<size_t>(use)];
  if (!s || s->chunks() != chunks || s->chunk_bytes() != chunk_bytes) {
    if (s) s->settle();  // hand over pending downloads: its destructor would drop them
    s.reset();           // release first: the old and new chunks need not fit together
    s = std::make_unique<Stager>(*this, chunks, chunk_bytes);
  }
  return *s;
}

void OpenClCore::record_kernel(const cl::Event& ev, cl::Kernel& k) {
  auto name = names_.find(k());
  if (name == names_.end())
    name = names_.emplace(k(), k.getInfo<CL_KERNEL_FUNCTION_NAME>()).first;
  record_kernel(ev, &name->second);
}

void OpenClCore::record_kernel(const cl::Event& ev, const std::string* name) {
  kernel_events_.push_back(ev);
  kernel_names_.push_back(name);
  ++launches_;
  if (kernel_events_.size() >= 2048) retire_oldest_kernels();
}

void OpenClCore::check_memory(int64_t n, int64_t ld, int buffers) const {
  const std::string what = "n = " + std::to_string(n);
  if (ld > INT_MAX / 2)
    throw RuntimeError(what + " is too large for the OpenCL kernels' int indices");
  const unsigned long long one = static_cast<unsigned long long>(ld) * ld * value_size();
  const unsigned long long all = one * static_cast<unsigned long long>(buffers);
  const std::string padded = ld != n ? " (padded to " + std::to_string(ld) + ")" : "";
  if (one > dev_.max_alloc)
    throw RuntimeError(what + " needs a matrix buffer of " + mib_up(one) + padded +
                       " but device '" + dev_.name + "' allows at most " +
                       mib_down(dev_.max_alloc) +
                       " in one allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
  if (all > dev_.global_mem)
    throw RuntimeError(what + " needs " + mib_up(all) + " of device memory (" +
                       std::to_string(buffers) + " x " + mib_up(one) + padded + ") but device '" +
                       dev_.name + "' has " + mib_down(dev_.global_mem));
}

cl::Buffer OpenClCore::buffer(size_t i, size_t bytes) {
  if (buffers_.size() <= i) {
    buffers_.resize(i + 1);
    buffer_bytes_.resize(i + 1, 0);
  }
  if (buffer_bytes_[i] != bytes) {
    buffers_[i] = cl::Buffer();  // release first: the old and new need not fit together
    buffer_bytes_[i] = 0;
    buffers_[i] = cl::Buffer(ctx_, CL_MEM_READ_WRITE, bytes);
    buffer_bytes_[i] = bytes;
  }
  return buffers_[i];
}

void OpenClCore::write(cl::Buffer& buf, size_t offset, size_t bytes, const void* host,
                       bool blocking) {
  cl::Event ev;
  queue_.enqueueWriteBuffer(buf, blocking ? CL_TRUE : CL_FALSE, offset, bytes, host, nullptr, &ev);
  transfer_events_.push_back(ev);
}

void OpenClCore::read(cl::Buffer& buf, size_t offset, size_t bytes, void* host) {
  cl::Event ev;
  queue_.enqueueReadBuffer(buf, CL_TRUE, offset, bytes, host, nullptr, &ev);
  transfer_events_.push_back(ev);
}

// OCL_SP_STAGING=0 turns the pinned chunks off (comparisons, docs/performance/dense.md),
// =1 on for any device and size (tests on PoCL).
bool OpenClCore::staged(size_t bytes) const {
  const char* env = std::getenv("OCL_SP_STAGING");
  const std::string v = env ? env : "";
  if (v == "0" || v == "1") return v == "1";
  return bytes >= kStageMin && is_gpu();
}

// Chunks of whole rows, kMatrixStageBytes or kMatrixStageBytesLarge (or
// OCL_SP_STAGE_BYTES) at most, one row at least; total 0: the stager already
// pinned where its chunks hold a row.
Stager& OpenClCore::matrix_stager(size_t row_bytes, size_t total) {
  const std::unique_ptr<Stager>& have = stagers_[static_cast<size_t>(StageUse::kMatrix)];
  if (total == 0 && have && have->chunk_bytes() >= row_bytes) return *have;
  const bool large = total >= kLargeMatrix;
  const size_t rows =
      std::max<size_t>(1, stage_bytes(large ? kMatrixStageBytesLarge : kMatrixStageBytes) / row_bytes);
  return stager(StageUse::kMatrix, stage_chunks(large ? kMatrixStageChunksLarge : kMatrixStageChunks),
                rows * row_bytes);
}

void OpenClCore::prepare_staging(int64_t n) {
  const size_t row = static_cast<size_t>(n) * value_size();
  if (n > 0 && staged(row * static_cast<size_t>(n))) matrix_stager(row, row * static_cast<size_t>(n));
}

void OpenClCore::upload(const void* host, int64_t n, int64_t ld, cl::Buffer& buf) {
  Stopwatch sw;
  const size_t vs = value_size();
  const size_t row = static_cast<size_t>(n) * vs, pitch = static_cast<size_t>(ld) * vs;
  if (n != ld) {
    pad_.setArg(0, static_cast<cl_int>(n));
    pad_.setArg(1, static_cast<cl_int>(ld));
    pad_.setArg(2, buf);
    // Fixed local sizes for the helpers: a driver-chosen one can differ per global
    // size, and some drivers (PoCL) compile a kernel variant per local size.
    launch(pad_, cl::NDRange(static_cast<size_t>(round_up(ld, 8)), static_cast<size_t>(round_up(ld - n, 8))),
           cl::NDRange(8, 8));
  }
  if (staged(row * static_cast<size_t>(n))) {
    // Whole rows per chunk, double-buffered: chunk c is copied into stage c % 2
    // once that stage's previous DMA is done, then written without blocking.
    const auto* src = static_cast<const char*>(host);
    Stager& st = matrix_stager(row, row * static_cast<size_t>(n));
    st.upload(kCompute, buf, {static_cast<size_t>(n), row, pitch},
              [&](void* chunk, size_t r0, size_t r1) {
                parallel_copy(chunk, src + r0 * row, (r1 - r0) * row);
              });
    st.settle();
    profile("upload (pinned chunks)", sw.seconds());
    return;
  }
  if (n == ld) {
    write(buf, 0, row * static_cast<size_t>(n), host, true);
    profile("upload", sw.seconds());
    return;
  }
  const cl::array<size_t, 3> origin{0, 0, 0};
  const cl::array<size_t, 3> region{row, static_cast<size_t>(n), 1};
  cl::Event ev;
  queue_.enqueueWriteBufferRect(buf, CL_TRUE, origin, origin, region, pitch, 0, row, 0, host,
                                nullptr, &ev);
  transfer_events_.push_back(ev);
  profile("upload", sw.seconds());
}

void OpenClCore::download(void* host, int64_t n, int64_t ld, cl::Buffer& buf, size_t elem) {
  Stopwatch sw;
  const size_t vs = elem ? elem : value_size();
  const size_t row = static_cast<size_t>(n) * vs, pitch = static_cast<size_t>(ld) * vs;
  if (staged(row * static_cast<size_t>(n))) {
    download_staged(host, static_cast<size_t>(n), row, pitch, buf);
    profile("download (pinned chunks)", sw.seconds());
    return;
  }
  if (n == ld) {
    read(buf, 0, row * static_cast<size_t>(n), host);
    profile("download", sw.seconds());
    return;
  }
  const cl::array<size_t, 3> origin{0, 0, 0};
  const cl::array<size_t, 3> region{row, static_cast<size_t>(n), 1};
  cl::Event ev;
  queue_.enqueueReadBufferRect(buf, CL_TRUE, origin, origin, region, pitch, 0, row, 0, host,
                               nullptr, &ev);
  transfer_events_.push_back(ev);
  profile("download", sw.seconds());
}

void OpenClCore::download_rows(void* host, size_t rows, size_t row_bytes, cl::Buffer& buf) {
  if (staged(rows * row_bytes))
    download_staged(host, rows, row_bytes, row_bytes, buf);
  else
    read(buf, 0, rows * row_bytes, host);
}

double OpenClCore::download_rows(void* host, size_t rows, size_t row_bytes, cl::Buffer& buf, QueueId q,
                                 const std::vector<cl::Event>& after) {
  const size_t kept = transfer_events_.size();
  if (staged(rows * row_bytes))
    download_staged(host, rows, row_bytes, row_bytes, buf, q, after);
  else
    read_async(q, buf, rows * row_bytes, host, after).wait();
  double seconds = 0;
  for (size_t i = kept; i < transfer_events_.size(); ++i) seconds += event_seconds(transfer_events_[i]);
  transfer_events_.resize(kept);
  return seconds;
}

void OpenClCore::download_staged(void* host, size_t rows, size_t row_bytes, size_t pitch,
                                 cl::Buffer& buf, QueueId q, const std::vector<cl::Event>& after) {
  // Two reads in flight; the host copies chunk c out of its stage while the
  // next one arrives, then reuses the stage for chunk c + 2.
  auto* dst = static_cast<char*>(host);
  Stager& st = matrix_stager(row_bytes, rows * row_bytes);
  st.download(q, buf, {rows, row_bytes, pitch}, [&](const void* chunk, size_t r0, size_t r1) {
    parallel_copy(dst + r0 * row_bytes, chunk, (r1 - r0) * row_bytes);
  }, after);
  st.settle();
}

void OpenClCore::launch(cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local) {
  cl::Event ev;
  queue_.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &ev);
  record_kernel(ev, k);
}

// Long launch sequences (fw-naive: n launches) would pile up events; the oldest
// half is long finished by now, so wait for it, add its time and drop it.
void OpenClCore::retire_oldest_kernels() {
  const size_t half = kernel_events_.size() / 2;
  std::vector<cl::Event> old(kernel_events_.begin(), kernel_events_.begin() + half);
  cl::Event::waitForEvents(old);
  for (size_t i = 0; i < half; ++i) retire_kernel(i);
  kernel_events_.erase(kernel_events_.begin(), kernel_events_.begin() + half);
  kernel_names_.erase(kernel_names_.begin(), kernel_names_.begin() + half);
}

// Kernel event i (finished): its time per name and its interval for T_k.
void OpenClCore::retire_kernel(size_t i) {
  const cl::Event& e = kernel_events_[i];
  const cl_ulong s0 = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong s1 = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  per_kernel_[*kernel_names_[i]] += s1 > s0 ? static_cast<double>(s1 - s0) * 1e-9 : 0.0;
  if (s1 > s0) kernel_spans_.emplace_back(s0, s1);
}

void OpenClCore::check_negative_cycle(cl::Buffer& buf, int64_t n, int64_t ld) {
  scan_result_ = INT_MAX;
  write(scratch_, 0, sizeof(int), &scan_result_, true);
  diag_.setArg(0, static_cast<cl_int>(n));
  diag_.setArg(1, static_cast<cl_int>(ld));
  diag_.setArg(2, buf);
  diag_.setArg(3, scratch_);
  const int64_t wg = std::min<int64_t>(64, static_cast<int64_t>(dev_.max_work_group));
  launch(diag_, cl::NDRange(static_cast<size_t>(round_up(n, wg))),
         cl::NDRange(static_cast<size_t>(wg)));
  Stopwatch sw;
  read(scratch_, 0, sizeof(int), &scan_result_);
  profile("kernels (wait for the queue)", sw.seconds());
  if (scan_result_ < n) throw NegativeCycleError(scan_result_);
}

void OpenClCore::finish(RunStats& st) {
  queue_.finish();
  for (auto& q : extra_)
    if (q()) q.finish();
  for (size_t i = 0; i < kernel_events_.size(); ++i) retire_kernel(i);
  for (const auto& e : transfer_events_) t_h_ += event_seconds(e);
  kernel_events_.clear();
  kernel_names_.clear();
  transfer_events_.clear();
  // T_k: the union of the kernels' device intervals (one queue: their sum).
  const cl_ulong busy = union_length(kernel_spans_, nullptr);
  kernel_spans_.clear();
  t_k_ += static_cast<double>(busy) * 1e-9;
  st.t_k = t_k_;
  st.kernel_seconds = per_kernel_;
  st.t_h = t_h_;
  st.kernel_launches = launches_;
}

double OpenClCore::kernel_busy_now(cl_ulong* last_end) {
  size_t done = 0;
  while (done < kernel_events_.size() &&
         kernel_events_[done].getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE)
    ++done;
  for (size_t i = 0; i < done; ++i) retire_kernel(i);
  kernel_events_.erase(kernel_events_.begin(), kernel_events_.begin() + static_cast<long>(done));
  kernel_names_.erase(kernel_names_.begin(), kernel_names_.begin() + static_cast<long>(done));
  const cl_ulong busy = union_length(kernel_spans_, last_end);
  return t_k_ + static_cast<double>(busy) * 1e-9;
}

void OpenClCore::run_guarded(const std::string& what, const std::function<void()>& body) {
  with_cl_errors(what, [&] {
    try {
      body();
    } catch (...) {
      drain();
      throw;
    }
  });
}

void OpenClCore::drain() noexcept {
  try {
    queue_.finish();
  } catch (...) {
  }
  for (auto& q : extra_) {
    try {
      if (q()) q.finish();
    } catch (...) {
    }
  }
  for (auto& s : stagers_)
    if (s) s->discard();
}

}  // namespace ocl_sp::detail
