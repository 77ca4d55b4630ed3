// Plumbing shared by the OpenCL solvers (opencl_fw.cpp, opencl_squaring.cpp,
// opencl_fw_naive.cpp): device, context and profiling queue, tunable resolution and
// launch-limit checks (UsageError before anything is launched), program build with
// the cache, padded device matrices, pinned staging of host <-> device copies, and
// T_h / T_k from profiling events.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cl/cl.hpp"
#include "cl/device.hpp"
#include "cl/program.hpp"
#include "graph/matrix.hpp"
#include "solvers/solver.hpp"
#include "util/profile.hpp"
#include "util/timer.hpp"

namespace ocl_sp::detail {

class Stager;

// One tunable of an algorithm: its allowed values and what it does (for messages).
struct TunableRule {
  std::string name;
  std::vector<int> allowed;
  std::string meaning;
};

// Device, context, queue and program of one solver, plus the per-solve accounting.
// -DVALUE_INT32 | -DVALUE_FLOAT32 | -DVALUE_INT64 | -DVALUE_FLOAT64 (kernels/common.cl).
std::string value_type_define(ValueType t);
// UsageError (exit 2) naming the device and the extension when it cannot compute
// in t (float64 needs cl_khr_fp64); every OpenCL solver checks before any work.
void check_value_type(const DeviceEntry& dev, ValueType t);
// Can dev compute in t (float64: cl_khr_fp64)? And every device device_spec
// selects (the CLI's --device; "" = the default order)? Selection errors answer
// true: the solve reports them itself.
bool computes_in(const DeviceEntry& dev, ValueType t);
bool devices_compute_in(const std::string& device_spec, ValueType t);
// One OpenCL context over several devices of one platform (OCL_SP_SHARED_CONTEXT=1
// with a device list; a measurement switch): each OpenClCore made afterwards for
// one of them takes that context instead of one of its own, so their buffers can
// be copied between the devices (the panel engine then moves its panels so).
// Returns whether the context was made (false: one device, several platforms).
// on = false: the devices go back to a context each.
bool share_context(const std::vector<DeviceEntry>& devices, bool on = true);

class OpenClCore {
 public:
  // Selects the device and creates context and queue. Starts the T_o stopwatch.
  OpenClCore(const SolverSpec& spec, ValueType type);
  // The same for a device already chosen (one of several, or a sub-device).
  OpenClCore(const DeviceEntry& dev, Algo algo, ValueType type);
  ~OpenClCore();
  OpenClCore(const OpenClCore&) = delete;
  OpenClCore& operator=(const OpenClCore&) = delete;

  const DeviceEntry& device() const { return dev_; }
  // Where the tunables came from: "built-in", "command line" or "tuned (...)".
  const std::string& params_source() const { return source_; }
  ValueType type() const { return type_; }
  size_t value_size() const { return static_cast<size_t>(value_bytes(type_)); }
  std::vector<size_t> max_item_sizes() const { return max_item_sizes_; }

  // The effective tunables: command line (spec.params; UsageError for a name the
  // algorithm does not take or a value outside its allowed set), else the tuned
  // record of this device (spec.use_tuned; ignored with a warning when invalid),
  // else `defaults`. `derive` then fills values that depend on others (fw: WPT
  // from BLOCK) when they were not chosen explicitly; it gets the chosen names.
  Tunables resolve(const SolverSpec& spec, const Tunables& defaults,
                   const std::vector<TunableRule>& rules,
                   const std::function<void(Tunables&, const Tunables& chosen)>& derive = {});
  // Device type in the default rules: "gpu", "cpu", ...
  bool is_gpu() const { return dev_.type == "gpu"; }

  // UsageError when a work-group of `local` items or `local_bytes` of __local memory
  // exceeds what the device takes; `what` names the setting ("WG=32").
  void check_group(const std::string& what, const std::vector<size_t>& local,
                   unsigned long long local_bytes) const;

  // Builds common.cl + `file` with -DVALUE_... and -DNAME=value per tunable
  // ("a.cl+b.cl": common.cl, a.cl and b.cl as one program).
  // defines: further -D options that select a file's kernels (not tunables).
  // parts: one program per entry, each with defines + that entry's options
  // (e.g. -DFW_ONLY=2: one kernel each), built at the same time on threads, each
  // its own cache entry: a cold start then waits for the slowest compile instead
  // of their sum (NVIDIA compiles a program's kernels one after another).
  // OCL_SP_BUILD_SERIAL=1 builds the parts one after another (comparisons).
  void build(const std::string& file, const Tunables& t, const std::string& defines = "",
             const std::vector<std::string>& parts = {});
  // Builds common.cl + `file` the same way into a program of its own, leaving the
  // solver's program, helper kernels and cache status alone (the path kernels,
  // built on the first solve that asks for paths).
  BuiltProgram build_separate(const std::string& file, const Tunables& t,
                              const std::string& defines = "") const;
  // A kernel of the built program, checked against its own limits for a work-group
  // of `local` items (CL_KERNEL_LOCAL_MEM_SIZE; CL_KERNEL_WORK_GROUP_SIZE, UsageError).
  // Some drivers under-report the latter (NVIDIA 580 says 256 for every kernel,
  // yet runs 1024): when the kernel was compiled for exactly `local`
  // (reqd_work_group_size), one work-group is launched as a probe instead, with
  // the arguments `probe_args` sets (over scratch buffers it makes), and only a
  // failing probe is an error.
  cl::Kernel kernel(const std::string& name, const std::string& what,
                    const std::vector<size_t>& local,
                    const std::function<void(cl::Kernel&)>& probe_args,
                    const cl::Program* from = nullptr);  // default: the solver's program
                                                         // (the part that has it)

  // Fills info (device, vendor, driver, params, cache, t_o = time since construction).
  void finish_info(SolverInfo& info, const Tunables& t) const;

  // --- per solve ---
  void begin_solve();  // clears events and counters
  // RuntimeError when `buffers` matrices of ld x ld values cannot fit the device.
  void check_memory(int64_t n, int64_t ld, int buffers) const;
  // The i-th device buffer of exactly `bytes`, kept across solves of the same size
  // (a handle: copies share the memory object).
  cl::Buffer buffer(size_t i, size_t bytes);
  // Host n x n -> device ld x ld (ld >= n); padded vertices become isolated. Large
  // matrices on GPUs go through the kMatrix stager (two pinned chunks: the host
  // copy of one overlaps the DMA of the other); OCL_SP_STAGING=0/1 forces it
  // off/on (comparisons; tests on PoCL).
  void upload(const void* host, int64_t n, int64_t ld, cl::Buffer& buf);
  // elem: bytes per element, 0 = the value type's (int32 path matrices pass 4).
  void download(void* host, int64_t n, int64_t ld, cl::Buffer& buf, size_t elem = 0);
  // `rows` contiguous rows of `row_bytes` from the start of buf into host, the way
  // download() moves a matrix: pinned chunks on GPUs for large reads (the host
  // copies, spread over the cores, overlap the next chunk's DMA), else one read.
  void download_rows(void* host, size_t rows, size_t row_bytes, cl::Buffer& buf);
  void write(cl::Buffer& buf, size_t offset, size_t bytes, const void* host, bool blocking);
  void read(cl::Buffer& buf, size_t offset, size_t bytes, void* host);
  void launch(cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local);

  // --- the panel engine's movement (panel_engine.cpp) ---
  // Queues beside the compute queue: kUpload (host -> device) and kDownload
  // (device -> host), so copies in both directions overlap with kernels; created on
  // first use, with profiling. kCompute is the queue launch() uses; kSide a second
  // kernel queue, for work that may run beside it (fw's split phase 3).
  enum QueueId { kCompute = 0, kUpload = 1, kDownload = 2, kSide = 3 };
  cl::CommandQueue& queue(QueueId q);
  // Non-blocking variants with a wait list; each returns its event and counts
  // in T_h (transfers) or T_k (kernels; the buffer copy as "panel_copy").
  cl::Event write_async(QueueId q, cl::Buffer& buf, size_t bytes, const void* host,
                        const std::vector<cl::Event>& wait);
  cl::Event read_async(QueueId q, cl::Buffer& buf, size_t bytes, void* host,
                       const std::vector<cl::Event>& wait);
  // The same for `bytes` at byte `offset` of the buffer.
  cl::Event write_async(QueueId q, cl::Buffer& buf, size_t offset, size_t bytes, const void* host,
                        const std::vector<cl::Event>& wait);
  cl::Event read_async(QueueId q, cl::Buffer& buf, size_t offset, size_t bytes, void* host,
                       const std::vector<cl::Event>& wait);
  // download_rows() on queue q after `after` (kDownload: beside the compute queue's
  // kernels). Returns the seconds its copies took on the device (T_h); they are
  // not counted in finish().
  double download_rows(void* host, size_t rows, size_t row_bytes, cl::Buffer& buf, QueueId q,
                       const std::vector<cl::Event>& after);
  cl::Event launch_after(cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local,
                         const std::vector<cl::Event>& wait, QueueId q = kCompute);
  cl::Event copy_buffer(cl::Buffer& src, cl::Buffer& dst, size_t bytes,
                        const std::vector<cl::Event>& wait);
  // rows x width_bytes between the top-left of a buffer (row pitch buf_pitch) and
  // host memory (row pitch host_pitch), non-blocking, on queue q.
  cl::Event write_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, const void* host,
                       size_t host_pitch, size_t width_bytes, size_t rows);
  cl::Event read_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, void* host,
                      size_t host_pitch, size_t width_bytes, size_t rows);
  // The same from row `first_row` of the buffer on, after `wait`.
  cl::Event write_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, size_t first_row,
                       const void* host, size_t host_pitch, size_t width_bytes, size_t rows,
                       const std::vector<cl::Event>& wait);
  cl::Event read_rect(QueueId q, cl::Buffer& buf, size_t buf_pitch, size_t first_row, void* host,
                      size_t host_pitch, size_t width_bytes, size_t rows,
                      const std::vector<cl::Event>& wait);
  // Flushes every queue of the device (before the host waits for an event whose
  // command, or what it waits on, may not have been submitted yet).
  void flush_all();
  // Pinned staging, one stager per purpose (each owns its chunks: no two users
  // share pinned memory): kMatrix, upload()/download() of the single buffer;
  // kPanels, the panel engines' panel movement (panel_engine.hpp panel_stager).
  enum class StageUse { kMatrix = 0, kPanels = 1 };
  // The stager of `use` with `chunks` pinned chunks of `chunk_bytes` each; kept
  // across solves while that shape stays (pinning is slow: ~1.4 GB/s on NVIDIA).
  Stager& stager(StageUse use, size_t chunks, size_t chunk_bytes);
  // The kMatrix stager for rows of row_bytes of a transfer of `total` bytes: a
  // few chunks of whole rows, larger ones and more of them for large matrices
  // (opencl_queue.cpp); total 0: the one already pinned where it holds a row.
  // The single buffer's transfers, its path rebuild and the MPI ranks' panel
  // load and store.
  Stager& matrix_stager(size_t row_bytes, size_t total = 0);
  // Pins the chunks upload() of an n x n matrix will take, ahead of it (the fw
  // solver, while the graph is made).
  void prepare_staging(int64_t n);
  // Bytes moved host -> device and device -> host since begin_solve().
  double bytes_up() const { return bytes_up_; }
  double bytes_down() const { return bytes_down_; }
  // Throws NegativeCycleError with the lowest i < n whose d(i,i) < 0.
  void check_negative_cycle(cl::Buffer& buf, int64_t n, int64_t ld);
  // Waits for the queue and sums the events: RunStats t_h, t_k, kernel_launches.
  void finish(RunStats& st);
  // Kernel seconds so far without waiting: retires the kernels already complete
  // (in launch order) and returns T_k over them; last_end: the latest end among
  // them (device clock, ns; 0 when none).
  double kernel_busy_now(cl_ulong* last_end);
  // Waits for the queues without accounting and drops the stagers' pending
  // drains (used before rethrowing an error so nothing still reads or writes host
  // memory the caller may free).
  void drain() noexcept;
  // Runs the enqueueing body of a solve: cl::Error becomes RuntimeError("<what>:
  // ..."), and on any error the queue is drained before rethrowing.
  void run_guarded(const std::string& what, const std::function<void()>& body);

  const cl::Context& context() const { return ctx_; }
  cl::CommandQueue& queue() { return queue_; }

 private:
  DeviceEntry dev_;
  Algo algo_;
  ValueType type_;
  cl::Context ctx_;
  cl::CommandQueue queue_;
  cl::Program program_;             // the solver's program (its first part)
  std::vector<cl::Program> parts_;  // all its parts (build's `parts`), program_ first
  std::string cache_ = "n/a";
  std::string source_ = "built-in";
  Stopwatch since_;  // T_o runs from construction to finish_info()
  double context_seconds_ = 0;          // context + queue creation (part of T_o)
  mutable double program_seconds_ = 0;  // program builds / cache loads so far
  std::vector<size_t> max_item_sizes_;
  cl::Kernel pad_, diag_;
  cl::CommandQueue extra_[3];  // kUpload, kDownload, kSide
  std::unique_ptr<Stager> stagers_[2];  // by StageUse
  bool staged(size_t bytes) const;
  // download()'s pinned-chunk path: rows of r.row_bytes, r.pitch apart in buf.
  void download_staged(void* host, size_t rows, size_t row_bytes, size_t pitch, cl::Buffer& buf,
                       QueueId q = kCompute, const std::vector<cl::Event>& after = {});
  double bytes_up_ = 0, bytes_down_ = 0;
  void record_kernel(const cl::Event& ev, cl::Kernel& k);
  void record_kernel(const cl::Event& ev, const std::string* name);
  std::vector<cl::Buffer> buffers_;
  std::vector<size_t> buffer_bytes_;
  cl::Buffer scratch_;  // one int for the negative-cycle scan
  std::vector<cl::Event> kernel_events_, transfer_events_;
  std::vector<const std::string*> kernel_names_;  // parallel to kernel_events_
  std::map<cl_kernel, std::string> names_;         // function name per kernel object
  std::map<std::string, double> per_kernel_;       // retired events, seconds per name
  double t_k_ = 0, t_h_ = 0;  // already summed (earlier finish(); events retired early)
  // Device intervals [start, end) in ns of the kernels retired since the last
  // finish(): T_k adds the length of their union, so kernels running side by side
  // on two queues count once.
  std::vector<std::pair<cl_ulong, cl_ulong>> kernel_spans_;
  void retire_kernel(size_t i);
  int launches_ = 0;
  int scan_result_ = 0;  // host side of scratch_
  void retire_oldest_kernels();
  std::string invalid_reason(const Tunables& params, const std::vector<TunableRule>& rules) const;
  std::string build_options(const Tunables& t, const std::string& defines) const;
  // One program per entry of `parts` (build()), concurrently; the wall time counts
  // in t_program.
  std::vector<BuiltProgram> build_parts(const std::string& file, const Tunables& t,
                                        const std::string& defines,
                                        const std::vector<std::string>& parts) const;
};

// Host memory pinned for DMA (CL_MEM_ALLOC_HOST_PTR, mapped for the host): copies
// from and to it run at the link's rate and without blocking the host. Owned by
// its one user; unmapped when destroyed.
class PinnedBuffer {
 public:
  PinnedBuffer(const cl::Context& ctx, const cl::CommandQueue& queue, size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  cl::CommandQueue queue_;  // maps and unmaps
  cl::Buffer buf_;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Moves whole rows between host memory and a device buffer through a ring of
// pinned chunks, asynchronously: each chunk is filled (upload) or emptied
// (download) by the host while the DMA of the others runs. A chunk is reused
// once its previous copy is done (and, for a download, its rows were handed to
// the drain), so the ring's size bounds the pinned memory, not the data.
class Stager {
 public:
  // Device side of a transfer: `rows` rows of `row_bytes`, `pitch` bytes apart in
  // the buffer from its start (pitch == row_bytes: one contiguous range, copied
  // with plain writes/reads; else rectangular copies).
  struct Rows {
    size_t rows = 0, row_bytes = 0, pitch = 0;
  };
  // Host side: rows [r0, r1) into / out of a chunk (r1 - r0 rows of row_bytes).
  using Fill = std::function<void(void* chunk, size_t r0, size_t r1)>;
  using Drain = std::function<void(const void* chunk, size_t r0, size_t r1)>;

  Stager(OpenClCore& core, size_t chunks, size_t chunk_bytes);
  ~Stager();  // waits for the chunks' copies (drains not run)
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;
  size_t chunks() const { return slots_.size(); }
  size_t chunk_bytes() const { return chunk_bytes_; }

  // Host -> device on queue q, the first chunk after `wait`; returns the event of
  // the last chunk's write (in order on q after the others).
  cl::Event upload(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at, const Fill& fill,
                   const std::vector<cl::Event>& wait = {});
  // Device -> host on queue q after `wait`; the rows reach `drain` when their chunk
  // is settled: when the ring needs it again, or at settle().
  cl::Event download(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at, const Drain& drain,
                     const std::vector<cl::Event>& wait = {});
  // Waits for every chunk's copy and runs the pending drains, oldest first.
  void settle();
  // Chunk copies started so far: right after download() returns, the ticket of
  // that download for settle_through().
  uint64_t moves() const { return moves_; }
  // Settles (oldest first) only the chunks of copies up to `ticket`: a download's
  // rows are in host memory afterwards, later copies keep running.
  void settle_through(uint64_t ticket);
  // Waits for every chunk's copy and drops the pending drains (after an error:
  // their host memory may be gone by the next use).
  void discard() noexcept;

 private:
  struct Slot {
    std::unique_ptr<PinnedBuffer> mem;
    cl::Event done;  // its last copy
    Drain drain;     // a download not yet handed over
    size_t r0 = 0, r1 = 0;
    uint64_t seq = 0;  // moves_ when its last copy started
  };
  size_t rows_per_chunk(const Rows& at) const;
  // upload (fill given) or download (drain given).
  cl::Event move(OpenClCore::QueueId q, cl::Buffer& buf, const Rows& at, const Fill* fill,
                 const Drain* drain, const std::vector<cl::Event>& wait);
  Slot& take();
  void settle(Slot& s);

  OpenClCore& core_;
  size_t chunk_bytes_;
  std::vector<Slot> slots_;
  size_t next_ = 0;  // the oldest slot, used next
  uint64_t moves_ = 0;
};

// Staging chunk bytes: `fallback`, or OCL_SP_STAGE_BYTES when set (tests: many
// small chunks).
size_t stage_bytes(size_t fallback);
// Chunks in flight of a stager (matrix and panels): `fallback`, or
// OCL_SP_STAGE_CHUNKS clamped to 2-16 when set (comparisons).
size_t stage_chunks(size_t fallback);

// Runs f, turning cl::Error into RuntimeError("<what>: <call>: CL_NAME (code)").
void with_cl_errors(const std::string& what, const std::function<void()>& f);

// The register-tiled kernel family (kernels/minplus_tiled.cl), shared by fw and
// squaring: tunables TILED (0/1), BLOCK (tile edge), TM x TN elements per
// work-item, KC values of k staged per step, STAGES staging buffers.
std::vector<TunableRule> tiled_rules();
// Whether the staging ring's copies can be PTX cp.async: NVIDIA sm_80 and later.
bool nv_cp_async(const DeviceEntry& dev);
// The default STAGES of the register-tiled kernels on a device: 2 (the cp.async
// ring) where nv_cp_async, 1 elsewhere (docs/performance/dense.md "cp.async ring").
int default_stages(const DeviceEntry& dev);
// __local bytes of the staged panels: KC x (BLOCK + 4) and KC x BLOCK values (the
// +4 is the kernel's APAD), or with STAGES > 1 STAGES of each, unpadded.
unsigned long long staged_panel_bytes(int block, int kc, int stages, size_t value_size);
// Which family a solve uses: TILED when given, else implied by the tunables that
// only one family takes (e.g. WG -> 0, TM -> 1), else the default. UsageError when
// the given tunables belong to different families.
int resolve_family(const Tunables& chosen, int default_tiled,
                   const std::vector<std::string>& tiled_only,
                   const std::vector<std::string>& classic_only);
// Completes TM/TN/KC with defaults when TILED=1, drops them (and STAGES) when TILED=0.
void complete_tiled(Tunables& t);
// A default STAGES (not chosen) that would not fit `local_mem` with the KC and
// BLOCK chosen is dropped: the one-buffer staging then (e.g. KC=32 on NVIDIA).
void fit_stages(Tunables& t, const Tunables& chosen, unsigned long long local_mem,
                size_t value_size);
struct TiledShape {
  size_t local[2] = {1, 1};           // work-group: BLOCK/TN x BLOCK/TM
  unsigned long long local_bytes = 0;  // the two staged panels
  std::string what;                    // "TILED=1 BLOCK=128 TM=8 TN=8 KC=16"
};
// UsageError for combinations the kernel cannot take.
TiledShape tiled_shape(const Tunables& t, size_t value_size);

// n rounded up to a multiple of m.
inline int64_t round_up(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// A kernel's arguments 0, 1, ... in order.
template <typename... A>
void set_args(cl::Kernel& k, A&&... a) {
  cl_uint i = 0;
  (k.setArg(i++, std::forward<A>(a)), ...);
}

template <typename T>
std::unique_ptr<Solver<T>> make_opencl_fw(const SolverSpec& spec);
template <typename T>
std::unique_ptr<Solver<T>> make_opencl_squaring(const SolverSpec& spec);
template <typename T>
std::unique_ptr<Solver<T>> make_opencl_fw_naive(const SolverSpec& spec);
// Squaring over several devices or forced panels (opencl_squaring_panels.cpp).
template <typename T>
std::unique_ptr<Solver<T>> make_opencl_squaring_panels(const SolverSpec& spec);

}  // namespace ocl_sp::detail
