// Shared plumbing of the OpenCL solvers (see opencl_base.hpp).
#include "solvers/opencl_base.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <thread>

#include "cl/cl_error.hpp"
#include "cl/program.hpp"
#include "tuning/tuning_store.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"
#include "util/parallel_copy.hpp"
#include "util/strings.hpp"

namespace ocl_sp {

bool profiling() {
  static const bool on = env_flag("OCL_SP_PROFILE");
  return on;
}

void profile(const std::string& phase, double seconds) {
  if (!profiling()) return;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", seconds * 1e3);
  std::cerr << "profile: " << phase << " " << ms << " ms" << std::endl;
}

}  // namespace ocl_sp

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

// Pinned staging chunk of upload()/download(): two of them (16 MiB pinned, a few
// ms to allocate once), each DMA'd at the link's pinned rate while the host
// copies the other; matrices below kStageMin go straight from pageable memory.
constexpr size_t kMatrixStageBytes = 8u << 20;
constexpr size_t kMatrixStageChunks = 2;
constexpr size_t kStageMin = 16u << 20;

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

double event_seconds(const cl::Event& e) {
  const auto start = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-9 : 0.0;
}

// OpenCL C 1.2 or later: compile as 1.2 so a kernel that only builds on newer
// compilers fails here too, not first on a user's older driver.
bool supports_cl12(const std::string& opencl_c_version) {
  // "OpenCL C 1.2 ..." / "OpenCL C 2.0 ..." / "OpenCL C 3.0 ..."
  const auto p = opencl_c_version.find("OpenCL C ");
  if (p == std::string::npos) return false;
  const std::string v = opencl_c_version.substr(p + 9, 3);
  return v >= "1.2";
}

}  // namespace

void with_cl_errors(const std::string& what, const std::function<void()>& f) {
  try {
    f();
  } catch (const cl::Error& e) {
    throw RuntimeError(what + ": " + e.what() + " failed with " + cl_error_name(e.err()));
  }
}

namespace {
const SolverSpec& one_device(const SolverSpec& spec) {
  if (spec.split > 1)
    throw UsageError(std::string("--split applies to --algo fw and squaring (the panel "
                                 "engine); ") +
                     to_string(spec.algo) + " runs on one device");
  return spec;
}
}  // namespace

std::string value_type_define(ValueType t) {
  switch (t) {
    case ValueType::float32: return "-DVALUE_FLOAT32";
    case ValueType::int64: return "-DVALUE_INT64";
    case ValueType::float64: return "-DVALUE_FLOAT64";
    case ValueType::int32: break;
  }
  return "-DVALUE_INT32";
}

bool computes_in(const DeviceEntry& dev, ValueType t) {
  return t != ValueType::float64 || dev.has_extension("cl_khr_fp64");
}

bool devices_compute_in(const std::string& device_spec, ValueType t) {
  try {
    for (const auto& d : select_devices(device_spec, 1))
      if (!computes_in(d, t)) return false;
  } catch (const std::exception&) {
  }
  return true;
}

void check_value_type(const DeviceEntry& dev, ValueType t) {
  if (!computes_in(dev, t))
    throw UsageError("device '" + dev.name +
                     "' has no double precision (extension cl_khr_fp64): --type float64 "
                     "cannot run there; use --type float32 or int64, or another device");
}

OpenClCore::OpenClCore(const SolverSpec& spec, ValueType type)
    : OpenClCore(select_device(one_device(spec).device), spec.algo, type) {}

// Nothing may still copy into the stagers' pinned chunks when they are unmapped.
OpenClCore::~OpenClCore() {
  drain();
  for (auto& s : stagers_) s.reset();
  drain();
}

OpenClCore::OpenClCore(const DeviceEntry& dev, Algo algo, ValueType type)
    : dev_(dev), algo_(algo), type_(type) {
  check_value_type(dev_, type_);
  Stopwatch sw;
  with_cl_errors("cannot set up OpenCL device '" + dev_.name + "'", [&] {
    ctx_ = cl::Context(dev_.device);
    queue_ = cl::CommandQueue(ctx_, dev_.device, CL_QUEUE_PROFILING_ENABLE);
    max_item_sizes_ = dev_.device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    scratch_ = cl::Buffer(ctx_, CL_MEM_READ_WRITE, sizeof(int));
  });
  context_seconds_ = sw.seconds();
  profile("context + queue (" + dev_.name + ")", context_seconds_);
}

// Why `params` does not fit `rules`, or "" when it does.
std::string OpenClCore::invalid_reason(const Tunables& params,
                                       const std::vector<TunableRule>& rules) const {
  const std::string algo = to_string(algo_);
  for (const auto& entry : params) {
    // Named copies, not a structured binding: clang before 16 cannot capture those.
    const std::string& name = entry.first;
    const int value = entry.second;
    const auto rule = std::find_if(rules.begin(), rules.end(),
                                   [&](const TunableRule& r) { return r.name == name; });
    if (rule == rules.end()) {
      std::string takes;
      for (const auto& r : rules) takes += (takes.empty() ? "" : ", ") + r.name;
      return name + " does not apply to the OpenCL " + algo + " solver (it takes " +
             (takes.empty() ? std::string("no tunable") : takes) + ")";
    }
    if (std::find(rule->allowed.begin(), rule->allowed.end(), value) == rule->allowed.end())
      return name + "=" + std::to_string(value) + " is not supported by the OpenCL " + algo +
             " kernel: " + name + " (" + rule->meaning + ") must be one of " + join(rule->allowed);
  }
  return "";
}

Tunables OpenClCore::resolve(const SolverSpec& spec, const Tunables& defaults,
                             const std::vector<TunableRule>& rules,
                             const std::function<void(Tunables&, const Tunables&)>& derive) {
  Tunables chosen;
  source_ = "built-in";
  if (!spec.params.empty()) {
    if (const std::string why = invalid_reason(spec.params, rules); !why.empty())
      throw UsageError(why);
    chosen = spec.params;
    source_ = "command line";
  } else if (spec.use_tuned) {
    std::string where;
    if (auto tuned = lookup_tuned(device_tuning_key(dev_), algo_, type_, &where)) {
      if (const std::string why = invalid_reason(*tuned, rules); why.empty()) {
        chosen = *tuned;
        source_ = "tuned (" + where + ")";
      } else {
        std::cerr << "warning: ignoring tuned parameters from " << where << ": " << why << "\n";
      }
    }
  }
  Tunables t = defaults;
  for (const auto& [name, value] : chosen) t[name] = value;
  if (derive) derive(t, chosen);
  return t;
}

void OpenClCore::check_group(const std::string& what, const std::vector<size_t>& local,
                             unsigned long long local_bytes) const {
  size_t items = 1;
  for (size_t x : local) items *= x;
  if (items > dev_.max_work_group)
    throw UsageError(what + " needs work-groups of " + std::to_string(items) +
                     " work-items, but device '" + dev_.name + "' allows at most " +
                     std::to_string(dev_.max_work_group) + "; choose a smaller value");
  for (size_t d = 0; d < local.size() && d < max_item_sizes_.size(); ++d)
    if (local[d] > max_item_sizes_[d])
      throw UsageError(what + " needs " + std::to_string(local[d]) + " work-items in dimension " +
                       std::to_string(d) + ", but device '" + dev_.name + "' allows at most " +
                       std::to_string(max_item_sizes_[d]));
  if (local_bytes > dev_.local_mem)
    throw UsageError(what + " needs " + std::to_string(local_bytes) +
                     " bytes of __local memory per work-group, but device '" + dev_.name +
                     "' has " + std::to_string(dev_.local_mem) + "; choose a smaller value");
}

std::string OpenClCore::build_options(const Tunables& t, const std::string& defines) const {
  std::string options = value_type_define(type_);
  if (!defines.empty()) options += " " + defines;
  for (const auto& [name, value] : t) options += " -D" + name + "=" + std::to_string(value);
  if (supports_cl12(dev_.opencl_c_version)) options += " -cl-std=CL1.2";
  // NVIDIA: the tiled kernels' measured configuration (kernels/minplus_tiled.cl:
  // the pivot close in statically indexed registers, the product's k loop unrolled).
  if (dev_.vendor_key() == "nvidia") options += " -DFULL_UNROLL";
  // The staging ring's copies as PTX cp.async where the device has it (sm_80+);
  // elsewhere the same ring with plain copies.
  if (t.count("STAGES") && t.at("STAGES") > 1 && nv_cp_async(dev_)) options += " -DNV_CP_ASYNC";
  // Extra compiler options for experiments (part of the cache key like the rest).
  if (const char* extra = std::getenv("OCL_SP_EXTRA_BUILD_OPTIONS"))
    options += std::string(" ") + extra;
  return options;
}

std::vector<BuiltProgram> OpenClCore::build_parts(const std::string& file, const Tunables& t,
                                                  const std::string& defines,
                                                  const std::vector<std::string>& parts) const {
  Stopwatch sw;
  const size_t count = std::max<size_t>(parts.size(), 1);
  std::vector<BuiltProgram> out(count);
  std::vector<std::exception_ptr> errors(count);
  const auto one = [&](size_t i) {
    try {
      const std::string part = i < parts.size() ? parts[i] : "";
      const std::string d = defines.empty() ? part : part.empty() ? defines : defines + " " + part;
      Stopwatch each;
      out[i] = build_program(ctx_, dev_.device, {"common.cl", file}, build_options(t, d));
      profile(
          "program " + file + (part.empty() ? "" : " " + part) + " (cache " + out[i].cache + ")",
          each.seconds());
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  if (count == 1 || env_flag("OCL_SP_BUILD_SERIAL")) {
    for (size_t i = 0; i < count; ++i) one(i);
  } else {
    // clBuildProgram is thread-safe (OpenCL 1.2, 5.6.2): the parts compile side by
    // side; this thread builds the first.
    std::vector<std::thread> threads;
    for (size_t i = 1; i < count; ++i) threads.emplace_back(one, i);
    one(0);
    for (auto& th : threads) th.join();
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  program_seconds_ += sw.seconds();
  if (count > 1) profile("programs " + file + " (all parts)", sw.seconds());
  return out;
}

BuiltProgram OpenClCore::build_separate(const std::string& file, const Tunables& t,
                                        const std::string& defines) const {
  return build_parts(file, t, defines, {}).front();
}

void OpenClCore::build(const std::string& file, const Tunables& t, const std::string& defines,
                       const std::vector<std::string>& parts) {
  const std::vector<BuiltProgram> bps = build_parts(file, t, defines, parts);
  parts_.clear();
  for (const auto& bp : bps) parts_.push_back(bp.program);
  program_ = parts_.front();
  // hit when every part came from the cache, miss when one was compiled.
  cache_ = bps.front().cache;
  for (const auto& bp : bps)
    if (bp.cache == "miss") cache_ = "miss";
  with_cl_errors("cannot create the helper kernels", [&] {
    pad_ = cl::Kernel(program_, "fill_padding");
    diag_ = cl::Kernel(program_, "negative_diagonal");
  });
}

cl::Kernel OpenClCore::kernel(const std::string& name, const std::string& what,
                              const std::vector<size_t>& local,
                              const std::function<void(cl::Kernel&)>& probe_args,
                              const cl::Program* from) {
  cl::Kernel k;
  size_t wg = 0;
  unsigned long long lmem = 0;
  cl::array<size_t, 3> compiled{0, 0, 0};
  with_cl_errors("cannot create kernel " + name, [&] {
    const cl::Program* in = from ? from : &program_;
    // Several parts (build()): the one whose kernels include `name`.
    if (!from && parts_.size() > 1)
      for (const auto& p : parts_) {
        std::string names = ";" + p.getInfo<CL_PROGRAM_KERNEL_NAMES>() + ";";
        names.erase(std::remove(names.begin(), names.end(), '\0'), names.end());
        if (names.find(";" + name + ";") != std::string::npos) in = &p;
      }
    k = cl::Kernel(*in, name.c_str());
    wg = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev_.device);
    lmem = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev_.device);
    compiled = k.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dev_.device);
  });
  if (lmem > dev_.local_mem)
    throw UsageError(what + ": kernel " + name + " needs " + std::to_string(lmem) +
                     " bytes of __local memory, but device '" + dev_.name + "' has " +
                     std::to_string(dev_.local_mem));
  size_t items = 1;
  for (size_t x : local) items *= x;
  if (items <= wg) return k;
  bool compiled_for_it = true;
  for (size_t d = 0; d < 3; ++d)
    compiled_for_it &= compiled[d] == (d < local.size() ? local[d] : 1);
  std::string probe = "not tried: the kernel was not compiled for this work-group size";
  if (compiled_for_it && probe_args) {
    cl::NDRange range = local.size() == 1   ? cl::NDRange(local[0])
                        : local.size() == 2 ? cl::NDRange(local[0], local[1])
                                            : cl::NDRange(local[0], local[1], local[2]);
    try {
      probe_args(k);
      queue_.enqueueNDRangeKernel(k, cl::NullRange, range, range);
      queue_.finish();
      return k;  // the driver under-reports: a real work-group of this size runs
    } catch (const cl::Error& e) {
      probe = std::string("a probe launch failed with ") + cl_error_name(e.err());
    }
  }
  throw UsageError(what + " needs work-groups of " + std::to_string(items) +
                   " work-items, but kernel " + name + " can run at most " + std::to_string(wg) +
                   " per group on device '" + dev_.name + "' (" + probe + "); " +
                   "choose a smaller value");
}

void OpenClCore::finish_info(SolverInfo& info, const Tunables& t) const {
  info.algo = to_string(algo_);
  info.backend = "opencl";
  info.device = dev_.name;
  info.vendor = dev_.vendor + (dev_.vendor_key() == "pocl" ? " (PoCL)" : "");
  info.driver = dev_.driver_version;
  info.params = t;
  info.params_source = source_;
  info.cache = cache_;
  info.t_o = since_.seconds();
  info.t_context = context_seconds_;
  info.t_program = program_seconds_;
}

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

// OCL_SP_STAGING=0 turns the pinned chunks off (comparisons, bench/NOTES.md),
// =1 on for any device and size (tests on PoCL).
bool OpenClCore::staged(size_t bytes) const {
  const char* env = std::getenv("OCL_SP_STAGING");
  const std::string v = env ? env : "";
  if (v == "0" || v == "1") return v == "1";
  return bytes >= kStageMin && is_gpu();
}

// Chunks of whole rows, kMatrixStageBytes (or OCL_SP_STAGE_BYTES) at most, one
// row at least.
Stager& OpenClCore::matrix_stager(size_t row_bytes) {
  const size_t rows = std::max<size_t>(1, stage_bytes(kMatrixStageBytes) / row_bytes);
  return stager(StageUse::kMatrix, kMatrixStageChunks, rows * row_bytes);
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
    Stager& st = matrix_stager(row);
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

void OpenClCore::download_staged(void* host, size_t rows, size_t row_bytes, size_t pitch,
                                 cl::Buffer& buf) {
  // Two reads in flight; the host copies chunk c out of its stage while the
  // next one arrives, then reuses the stage for chunk c + 2.
  auto* dst = static_cast<char*>(host);
  Stager& st = matrix_stager(row_bytes);
  st.download(kCompute, buf, {rows, row_bytes, pitch}, [&](const void* chunk, size_t r0, size_t r1) {
    parallel_copy(dst + r0 * row_bytes, chunk, (r1 - r0) * row_bytes);
  });
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

std::vector<TunableRule> tiled_rules() {
  return {{"TILED", {0, 1}, "kernel family: 0 = the paper's / seeds' kernels, 1 = register-tiled"},
          {"TM", {4, 8}, "rows each work-item updates (TILED=1)"},
          {"TN", {4, 8}, "columns each work-item updates (TILED=1)"},
          {"KC", {8, 16, 32, 64}, "k values staged in __local memory per step (TILED=1)"},
          {"STAGES",
           {1, 2, 3, 4},
           "staging buffers: 1 = one, 2-4 = a ring filled by asynchronous copies (TILED=1)"}};
}

bool nv_cp_async(const DeviceEntry& dev) {
  return dev.vendor_key() == "nvidia" && dev.nv_compute_major >= 8;
}

int default_stages(const DeviceEntry& dev) { return nv_cp_async(dev) ? 2 : 1; }

unsigned long long staged_panel_bytes(int block, int kc, int stages, size_t value_size) {
  const unsigned long long b = static_cast<unsigned long long>(block);
  const unsigned long long k = static_cast<unsigned long long>(kc);
  return (stages > 1 ? static_cast<unsigned long long>(stages) * k * 2 * b : k * (2 * b + 4)) *
         value_size;
}

int resolve_family(const Tunables& chosen, int default_tiled,
                   const std::vector<std::string>& tiled_only,
                   const std::vector<std::string>& classic_only) {
  std::string tiled_key, classic_key;
  for (const auto& k : tiled_only)
    if (chosen.count(k)) tiled_key = k;
  for (const auto& k : classic_only)
    if (chosen.count(k)) classic_key = k;
  int family = default_tiled;
  if (chosen.count("TILED"))
    family = chosen.at("TILED");
  else if (!tiled_key.empty() || !classic_key.empty())
    family = tiled_key.empty() ? 0 : 1;
  if (family && !classic_key.empty())
    throw UsageError(classic_key + " belongs to the paper's/seeds' kernels (TILED=0); " +
                     (tiled_key.empty() ? std::string("TILED=1") : tiled_key) +
                     " selects the register-tiled ones");
  if (!family && !tiled_key.empty())
    throw UsageError(tiled_key + " belongs to the register-tiled kernels (TILED=1), not TILED=0");
  return family;
}

void complete_tiled(Tunables& t) {
  if (t.count("TILED") && t.at("TILED")) {
    for (const char* k : {"TM", "TN"})
      if (!t.count(k)) t[k] = 4;
    if (!t.count("KC")) t["KC"] = 16;
  } else {
    for (const char* k : {"TM", "TN", "KC", "STAGES"}) t.erase(k);
  }
}

void fit_stages(Tunables& t, const Tunables& chosen, unsigned long long local_mem,
                size_t value_size) {
  if (!t.count("STAGES") || chosen.count("STAGES") || !t.count("KC")) return;
  if (t.at("STAGES") > 1 && tiled_shape(t, value_size).local_bytes > local_mem) t.erase("STAGES");
}

TiledShape tiled_shape(const Tunables& t, size_t value_size) {
  TiledShape s;
  const int b = t.at("BLOCK"), tm = t.at("TM"), tn = t.at("TN"), kc = t.at("KC");
  s.what = "TILED=1 BLOCK=" + std::to_string(b) + " TM=" + std::to_string(tm) +
           " TN=" + std::to_string(tn) + " KC=" + std::to_string(kc);
  const int stages = t.count("STAGES") ? t.at("STAGES") : 1;
  if (stages > 1) s.what += " STAGES=" + std::to_string(stages);
  if (b < 32 || b % kc)
    throw UsageError(s.what + ": the register-tiled kernels need BLOCK >= 32, a multiple of KC");
  const size_t bs = static_cast<size_t>(b);
  s.local[0] = bs / static_cast<size_t>(tn);
  s.local[1] = bs / static_cast<size_t>(tm);
  s.local_bytes = staged_panel_bytes(b, kc, stages, value_size);
  return s;
}

}  // namespace ocl_sp::detail
