// Shared plumbing of the OpenCL solvers (see opencl_base.hpp): the device and
// its context, tunables resolved and checked, programs built and kernels probed.
// The queues, transfers and timing are in opencl_queue.cpp, the tiled family's
// tunables in opencl_tiled.cpp.
#include "solvers/opencl_base.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cl/cl_error.hpp"
#include "cl/program.hpp"
#include "tuning/tuning_store.hpp"
#include "util/env.hpp"
#include "util/errors.hpp"
#include "util/parallel_copy.hpp"
#include "util/strings.hpp"

namespace ocl_sp::detail {

namespace {

std::string join(const std::vector<int>& v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
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

namespace {
// share_context's contexts by device, kept until exit (as sub-devices are).
std::mutex shared_mutex;
std::map<cl_device_id, cl::Context>& shared_contexts() {
  static auto* m = new std::map<cl_device_id, cl::Context>();
  return *m;
}
}  // namespace

bool share_context(const std::vector<DeviceEntry>& devices, bool on) {
  if (!on) {
    const std::lock_guard<std::mutex> lock(shared_mutex);
    for (const auto& e : devices) shared_contexts().erase(e.device());
    return false;
  }
  if (devices.size() < 2) return false;
  std::vector<cl::Device> list;
  for (const auto& e : devices) {
    if (e.platform() != devices[0].platform()) return false;
    list.push_back(e.device);
  }
  cl::Context ctx;
  with_cl_errors("cannot make one OpenCL context over " + std::to_string(devices.size()) +
                     " devices",
                 [&] { ctx = cl::Context(list); });
  const std::lock_guard<std::mutex> lock(shared_mutex);
  for (const auto& e : devices) shared_contexts()[e.device()] = ctx;
  return true;
}

OpenClCore::OpenClCore(const DeviceEntry& dev, Algo algo, ValueType type)
    : dev_(dev), algo_(algo), type_(type) {
  check_value_type(dev_, type_);
  Stopwatch sw;
  with_cl_errors("cannot set up OpenCL device '" + dev_.name + "'", [&] {
    {
      const std::lock_guard<std::mutex> lock(shared_mutex);
      const auto it = shared_contexts().find(dev_.device());
      if (it != shared_contexts().end()) ctx_ = it->second;
    }
    if (!ctx_()) ctx_ = cl::Context(dev_.device);
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
      // "a.cl+b.cl": common.cl, a.cl and b.cl as one program.
      std::vector<std::string> files{"common.cl"};
      for (size_t at = 0;;) {
        const size_t plus = file.find('+', at);
        files.push_back(file.substr(at, plus == std::string::npos ? std::string::npos : plus - at));
        if (plus == std::string::npos) break;
        at = plus + 1;
      }
      out[i] = build_program(ctx_, dev_.device, files, build_options(t, d));
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


}  // namespace ocl_sp::detail
